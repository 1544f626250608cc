"""Double Crossing in the terminal: the board drawn as a square loop with the tokens on it, the
racks, cash, contracts and hands (only the viewer's own hand), and moves as sentences."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from tabletrek.core.actions import Action
from tabletrek.core.linebreak import flow, flow_within, wrapped
from tabletrek.games.double_crossing.content import CAR_SLUGS, CARD_SLUGS, half
from tabletrek.games.double_crossing.moves import (
    BUY_CAR,
    BUY_CARDS,
    BUY_N,
    CONNECT,
    DECLINE,
    DISCARD,
    DONE,
    DOUBLE_CROSS,
    DROP,
    END,
    ENGINEER,
    GO,
    MOVE,
    PASS,
    REACT,
    RETURN,
    ROLL,
    SELL_CAR,
    SELL_CONTRACT,
    TRADE,
    VILLAIN,
)
from tabletrek.games.double_crossing.text_compact import TOKEN_STYLE, compact, money
from tabletrek.i18n import join_list, list_separator, seat_name, translate

if TYPE_CHECKING:
    from tabletrek.games.double_crossing.game import DoubleCrossing

CELL = 8
NARROW_CELL = 6
SUPERSCRIPT = "⁰¹²³⁴⁵⁶"


class LoopBoard:
    """The board as a square loop, in wide cells when the console has room, narrow ones if not."""

    def __init__(self, ui: DoubleCrossingTextUI, view: dict[str, Any], lang: str) -> None:
        self.ui, self.view, self.lang = ui, view, lang

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        cells = self.ui.game.content.size // 4 + 1
        width = CELL if options.max_width >= cells * CELL else NARROW_CELL
        yield from self.ui.board_lines(self.view, self.lang, width)


def _t(lang: str) -> Callable[..., str]:
    def t(key: str, **args: Any) -> str:
        return translate(f"double_crossing.{key}", lang, **args)

    return t


class DoubleCrossingTextUI:
    def __init__(self, game: DoubleCrossing) -> None:
        self.game = game

    def _name(self, seat: int, names: Sequence[str], lang: str) -> str:
        return names[seat] if seat < len(names) else seat_name(seat, lang)

    def _loop_order(self) -> list[list[int | None]]:
        """The square as rows of space indices (None inside the loop), clockwise from top-left."""
        size = self.game.content.size
        side = size // 4
        rows: list[list[int | None]] = [[None] * (side + 1) for _ in range(side + 1)]
        for i in range(side + 1):
            rows[0][i] = i
            rows[i][side] = side + i
            rows[side][side - i] = (2 * side + i) % size
            rows[side - i][0] = (3 * side + i) % size
        return rows

    def _cell(self, view: dict[str, Any], space: int, lang: str, width: int) -> tuple[Text, Text]:
        """Two lines of one space: "12 STN" over the tokens; or, when narrow, the label over the
        number with the tokens as superscripts ("STN" / "12¹³")."""
        sp = self.game.content.spaces[space]
        label = Text(
            _t(lang)(f"abbr.{sp.kind}"), style="bold cyan" if sp.kind in ("central", "corner") else ""
        )
        tokens = Text()
        for seat, pos in enumerate(view["positions"]):
            if pos == space:
                digit = str(seat + 1) if width == CELL else SUPERSCRIPT[seat + 1]
                tokens.append(digit, style=TOKEN_STYLE[seat % len(TOKEN_STYLE)])
        if str(space) in view["dropped"]:
            tokens.append("▪", style="magenta")
        number = Text(f"{space:>2}", style="dim")
        if width == CELL:
            top, bottom = number + Text(" ") + label, tokens
        else:
            top, bottom = label, number + tokens
        for line in (top, bottom):
            line.truncate(width - 1, pad=True)
            line.append(" ")
        return top, bottom

    def board(self, view: dict[str, Any], lang: str) -> RenderableType:
        return LoopBoard(self, view, lang)

    def board_lines(self, view: dict[str, Any], lang: str, width: int) -> list[Text]:
        lines: list[Text] = []
        for row in self._loop_order():
            upper, lower = Text(), Text()
            for space in row:
                if space is None:
                    upper.append(" " * width)
                    lower.append(" " * width)
                else:
                    a, b = self._cell(view, space, lang, width)
                    upper.append_text(a)
                    lower.append_text(b)
            lines += [upper, lower]
        start = [s + 1 for s, p in enumerate(view["positions"]) if p < 0]
        if start:
            lines.append(Text(_t(lang)("ui.at_start", seats=join_list(map(str, start), lang)), style="dim"))
        return lines

    def players(self, view: dict[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
        t = _t(lang)
        grid = Table(show_lines=False)
        for key in ("player", "cash", "cars", "contracts", "cards", "space"):
            # a sum of money or a count is never broken; the words around them give way instead
            grid.add_column(t(f"ui.col.{key}"), overflow="fold", no_wrap=key in ("cash", "cards"))
        separator = list_separator(lang)
        for seat in range(view["players"]):
            name = Text(self._name(seat, names, lang), style=TOKEN_STYLE[seat % len(TOKEN_STYLE)])
            if view["to_act"] == seat:
                name.append(" ◀", style="bold magenta")
            racked = [t(f"cars.{slug}", count=n) for slug, n in view["cars"][seat].items() if n]
            contracts = view["contracts"][seat]
            held = [t(f"contract.{k}") for k in contracts]
            pos = view["positions"][seat]
            where = t("ui.start") if pos < 0 else f"{pos} {t('space.' + self.game.content.spaces[pos].kind)}"
            grid.add_row(
                wrapped(name),
                money(view["cash"][seat]),
                flow(racked, separator) if racked else "-",
                flow(held, separator, lead=f"{len(contracts)}: ") if held else "0",
                str(view["hand_counts"][seat]),
                wrapped(where),
            )
        return grid

    def market(self, view: dict[str, Any], lang: str) -> RenderableType:
        t = _t(lang)
        c = self.game.content
        open_ = set(view["available"])
        grid = Table(title=t("ui.market"), show_lines=False)
        for key in ("company", "space", "open"):
            grid.add_column(t(f"ui.col.{key}"), overflow="fold")
        for ci, slug in enumerate(c.companies):
            space = next(i for i, s in enumerate(c.spaces) if s.kind == "trade" and s.company == ci)
            offers = [
                t(
                    "ui.offer",
                    n=k.slug.rsplit("-", 1)[1],
                    cars="+".join(t(f"cars.{CAR_SLUGS[car]}", count=n) for car, n in enumerate(k.cars) if n),
                    price=money(k.price),
                )
                for k in c.contracts
                if k.company == ci and k.slug in open_
            ]
            grid.add_row(
                wrapped(t(f"company.{slug}")),
                str(space),
                flow(offers, t("ui.offer_separator")) if offers else "-",
            )
        return grid

    def render(self, view: dict[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
        t = _t(lang)
        parts: list[RenderableType] = [
            self.board(view, lang),
            self.players(view, lang, names),
            self.market(view, lang),
        ]
        separator = list_separator(lang)
        parts.append(
            flow_within(
                lambda cars: t("ui.yard", cars=cars, depot=money(view["depot"]), bank=money(view["bank"])),
                (t(f"cars.{slug}", count=n) for slug, n in view["yard"].items()),
                separator,
            )
        )
        parts.append(wrapped(t("ui.piles", draw=view["draw_pile"], discard=sum(view["discard"].values()))))
        if view["hand"] is not None:
            cards = [t(f"cards.{slug}", count=n) for slug, n in view["hand"].items() if n] or ["-"]
            parts.append(
                flow_within(lambda listed: t("ui.hand", cards=listed), cards, separator, style="bold")
            )
        pending = view["pending"]
        if pending is not None:
            who = self._name(pending["seat"], names, lang)
            parts.append(
                wrapped(t("ui.pending", player=who, what=t(f"phase.{pending['k']}")), style="magenta")
            )
        if view["over"] and view["winner"] is not None:
            parts.append(
                wrapped(t("ui.winner", player=self._name(view["winner"], names, lang)), style="bold green")
            )
        return Group(*parts)

    def compact(self, view: dict[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
        """The turn for an 80×24 terminal (the full ``render`` on demand)."""
        return compact(self, view, lang, names)

    def details(self, view: dict[str, Any], lang: str, names: Sequence[str]) -> dict[str, RenderableType]:
        """What the terminal shows on request: the whole board with its table, the open contracts."""
        return {"board": self.render(view, lang, names), "market": self.market(view, lang)}

    def describe(self, action: Action, view: dict[str, Any], lang: str, names: Sequence[str]) -> str:
        t = _t(lang)
        c = self.game.content
        kind, a, b = self.game.decode[action.index]

        def contract(k: int) -> str:
            info = c.contracts[k]
            cars = "+".join(t(f"cars.{CAR_SLUGS[car]}", count=n) for car, n in enumerate(info.cars) if n)
            return t("ui.contract", name=t(f"contract.{info.slug}"), cars=cars, price=money(info.price))

        simple = {PASS: "pass", REACT: "stop", BUY_CARDS: "buy_cards", DONE: "done", DECLINE: "decline"}
        if kind in simple:
            return t(f"ui.action.{simple[kind]}")
        if kind == ENGINEER:
            return t("ui.action.engineer")
        if kind == END:
            return t("ui.action.end")
        if kind == ROLL:
            return t(f"roll.{a}")
        if kind == VILLAIN:
            return t("ui.action.villain", target=self._name(a, names, lang))
        if kind == BUY_N:
            return t("ui.action.buy_n", n=a, cost=money(a * c.card_price))
        if kind == DISCARD:
            return t("ui.action.discard", card=t(f"card.{CARD_SLUGS[a]}"))
        if kind in (DROP, SELL_CAR, BUY_CAR):
            word = {DROP: "drop", SELL_CAR: "sell_car", BUY_CAR: "buy_car"}[kind]
            price = half(c.car_prices[a]) if kind == SELL_CAR else c.car_prices[a]
            return t(f"ui.action.{word}", car=t(f"car.{CAR_SLUGS[a]}"), price=money(price))
        if kind == SELL_CONTRACT:
            return t("ui.action.sell_contract", contract=contract(a), price=money(half(c.contracts[a].price)))
        if kind == TRADE:
            return t("ui.action.trade", contract=contract(a))
        if kind == CONNECT:
            return t("ui.action.connect", contract=contract(a), price=money(half(c.contracts[a].price)))
        if kind == DOUBLE_CROSS:
            owner = next(s for s, ks in enumerate(view["contracts"]) if c.contracts[a].slug in ks)
            return t("ui.action.double_cross", contract=contract(a), target=self._name(owner, names, lang))
        if kind == RETURN:
            return t("ui.action.return", contract=contract(a))
        if kind == GO:
            return t("ui.action.go", space=a, name=t(f"space.{c.spaces[a].kind}"))
        if kind == MOVE:
            return t(
                "ui.action.move",
                target=self._name(a, names, lang),
                space=b,
                name=t(f"space.{c.spaces[b].kind}"),
            )
        return action.text

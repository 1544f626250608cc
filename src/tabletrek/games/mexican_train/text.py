"""The terminal table: whose turn, every train with its marker, scores, and your hand sorted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tabletrek.core.actions import Action
from tabletrek.core.linebreak import Wrapped, flow, wrapped
from tabletrek.i18n import aside, seat_name, translate

if TYPE_CHECKING:
    from tabletrek.games.mexican_train.game import MexicanTrain

SHOWN_TILES = 9  # longer trains show their last tiles after an ellipsis


def tile_text(pair: Sequence[int]) -> str:
    return f"[{pair[0]}|{pair[1]}]"


def name_of(seat: int, names: Sequence[str], lang: str) -> str:
    return names[seat] if 0 <= seat < len(names) else seat_name(seat, lang)


class MexicanTrainTextUI:
    def __init__(self, game: MexicanTrain) -> None:
        self.game = game

    def render(self, view: dict[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
        def t(key: str, **args: Any) -> str:
            return translate(f"mexican_train.ui.{key}", lang, **args)

        seat = view["seat"]
        parts: list[RenderableType] = [self._header(view, lang, names, t), self._trains(view, lang, names, t)]
        parts.append(self._players(view, lang, names, t))
        if seat is not None and view["hand"] is not None:
            parts.append(self._hand(view, lang, t))
        return Group(*parts)

    def _header(self, view: dict[str, Any], lang: str, names: Sequence[str], t: Any) -> Wrapped:
        entries = [
            Text(t("round", round=view["round"], rounds=view["rounds"]), style="bold"),
            Text(t("engine", engine=tile_text([view["engine"], view["engine"]]))),
            Text(t("boneyard", count=view["boneyard"])),
        ]
        if view["over"]:
            entries.append(Text(t("over"), style="bold red"))
            return flow(entries, " · ")
        turn = Text(t("to_act", player=name_of(view["to_act"], names, lang)), style="bold green")
        if view["phase"] == "first":
            turn.append(aside(t("first_turn"), lang))
        elif view["must_play_again"]:
            turn.append(aside(t("play_again"), lang))
        elif view["phase"] == "drawn":
            turn.append(aside(t("drawn"), lang))
        entries.append(turn)
        return flow(entries, " · ")

    def _trains(self, view: dict[str, Any], lang: str, names: Sequence[str], t: Any) -> Table:
        table = Table(show_header=True, header_style="bold", expand=False, box=None, padding=(0, 1))
        table.add_column(t("train"), no_wrap=True)
        table.add_column("", no_wrap=True)
        table.add_column(t("tiles"))
        engine = view["engine"]
        for train in view["trains"]:
            owner = train["owner"]
            if owner is None:
                label = Text(t("mexican"), style="bold yellow")
            else:
                label = Text(name_of(owner, names, lang))
                if owner == view["seat"]:
                    label.stylize("cyan")
                    if t("you") not in label.plain:  # the CLI's names may already say so
                        label.append(aside(t("you"), lang), style="cyan")
            marker = Text("◆ " + t("public"), style="magenta") if train["marker"] else Text("")
            # a train's tiles as entries, so that a narrow terminal breaks between two tiles and
            # never between the arrow and the number the train ends in
            chain = [Text(f"[{engine}]", style="dim")]
            tiles = train["tiles"]
            if not tiles:
                chain.append(Text(t("not_started"), style="dim"))
            else:
                shown = tiles[-SHOWN_TILES:]
                if len(shown) < len(tiles):
                    chain.append(Text("…", style="dim"))
                for i, pair in enumerate(shown):
                    last = i == len(shown) - 1
                    style = "bold red" if last and train["open_double"] else ("bold" if last else "")
                    chain.append(Text(tile_text(pair), style=style))
                end = Text(f"→ {train['end']}", style="bold")
                if train["open_double"]:  # one entry: the warning is about this end
                    end.append("  " + t("open_double"), style="bold red")
                chain.append(end)
            table.add_row(wrapped(label), marker, flow(chain, " "))
        return table

    def _players(self, view: dict[str, Any], lang: str, names: Sequence[str], t: Any) -> Table:
        table = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
        table.add_column(t("players"))
        table.add_column(t("hand_count"), justify="right")
        table.add_column(t("total"), justify="right")
        last = view["round_scores"][-1] if view["round_scores"] else None
        if last is not None:
            table.add_column(t("last_round"), justify="right")
        for s, count in enumerate(view["hand_counts"]):
            style = "bold green" if s == view["to_act"] else ""
            row: list[Text | str] = [
                wrapped(name_of(s, names, lang), style=style),
                str(count),
                str(view["totals"][s]),
            ]
            if last is not None:
                row.append(str(last[s]))
            table.add_row(*row)
        return table

    def _hand(self, view: dict[str, Any], lang: str, t: Any) -> Wrapped:
        hand = sorted(view["hand"], key=lambda p: (p[1], p[0]))  # grouped by the high end, as players sort
        points = sum(a + b for a, b in hand)
        lead = Text(
            t("your_hand", count=len(hand), points=points) + translate("core.text.colon", lang), style="bold"
        )
        drawn = view.get("drawn")
        tiles = [
            Text(
                tile_text(pair),
                style="bold reverse"
                if drawn is not None and list(pair) == list(drawn)
                else ("yellow" if pair[0] == pair[1] else ""),
            )
            for pair in hand
        ]
        tail = Text()
        if drawn is not None:
            tail.append(aside(t("drawn_tile", tile=tile_text(drawn)), lang), style="italic")
        return flow(tiles, " ", lead=lead, tail=tail)

    def describe(self, action: Action, view: dict[str, Any], lang: str, names: Sequence[str]) -> str:
        game = self.game

        def t(key: str, **args: Any) -> str:
            return translate(f"mexican_train.ui.{key}", lang, **args)

        if action is game.draw_action or action.text == "draw":
            return t("move_draw")
        if action.text == "pass":
            return t("move_first_pass") if view.get("phase") == "first" else t("move_pass")
        if action.text == "end":
            return t("move_end")
        tile, train = divmod(action.index, game.slots)
        tile_name = game.tileset.texts[tile]
        started = bool(view["trains"][train]["started"]) if "trains" in view else True
        verb = "play" if started else "start"
        if train == game.mexican:
            return t(f"move_{verb}_mexican", tile=tile_name)
        if train == view.get("seat"):
            return t(f"move_{verb}_own", tile=tile_name)
        return t(f"move_{verb}_other", tile=tile_name, owner=name_of(train, names, lang))

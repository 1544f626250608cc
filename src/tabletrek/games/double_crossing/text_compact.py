"""Double Crossing's turn in an 80×24 terminal: the loop as four rows of twelve spaces (a letter per
kind, the engines as superscript seat numbers), a legend of those letters, one line per player,
the viewer's hand and what is asked now. The full board and the contracts are a command away
(``board``, ``market``: see the CLI's help)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.text import Text

from tabletrek.i18n import join_list, seat_name, translate

if TYPE_CHECKING:
    from tabletrek.games.double_crossing.text import DoubleCrossingTextUI

TOKEN_STYLE = (
    "bold red",
    "bold yellow",
    "bold blue",
    "bold green",
    "bold white on black",
    "bold black on white",
)


def money(amount: int) -> str:
    """Money one way everywhere (terminal, move labels in the browser, the log): $1,500,000."""
    return f"${amount:,}"


LETTER = {
    "central": "C",
    "corner": "S",
    "trade": "T",
    "yard": "Y",
    "govt-contract": "G",
    "train-shop": "H",
    "roll-again": "R",
    "stop": "X",
    "pay-taxes": "$",
    "crew-cards": "W",
    "derail": "D",
    "double-cross": "+",
    "roundhouse": "O",
    "control-tower": "^",
    "depot": "P",
    "dissatisfied-customer": "!",
    "connections": "N",
}
"""One letter per kind of space (the same in every language; the legend names them)."""
SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹"
CAR_LETTER = {"passenger": "car_passenger", "box": "car_box", "hopper": "car_hopper", "tank": "car_tank"}
WIDTH = 6
PER_ROW = 12


def compact(
    ui: DoubleCrossingTextUI, view: dict[str, Any], lang: str, names: Sequence[str]
) -> RenderableType:
    def t(key: str, **args: Any) -> str:
        return translate(f"double_crossing.{key}", lang, **args)

    spaces = ui.game.content.spaces
    lines: list[RenderableType] = []
    for start in range(0, len(spaces), PER_ROW):
        row = Text()
        for space in range(start, min(start + PER_ROW, len(spaces))):
            kind = spaces[space].kind
            cell = Text(f"{space:>2}", style="dim")
            cell.append(LETTER.get(kind, "?"), style="bold cyan" if kind in ("central", "corner") else "bold")
            for seat, pos in enumerate(view["positions"]):
                if pos == space:
                    cell.append(SUPERSCRIPT[(seat + 1) % 10], style=TOKEN_STYLE[seat % len(TOKEN_STYLE)])
            if str(space) in view["dropped"]:
                cell.append("▪", style="magenta")
            cell.truncate(WIDTH, pad=True)
            row.append_text(cell)
        row.append("↩" if start + PER_ROW >= len(spaces) else "→", style="dim")
        lines.append(row)
    kinds = sorted({s.kind for s in spaces}, key=lambda k: list(LETTER).index(k) if k in LETTER else 99)
    legend = Text(style="dim")
    for kind in kinds:
        legend.append(f"{LETTER.get(kind, '?')} {t(f'space.{kind}')}  ")
    lines.append(legend)
    # (who is still off the track shows on their own line: "at start")
    for seat in range(view["players"]):
        name = names[seat] if seat < len(names) else seat_name(seat, lang)
        line = Text(f"{SUPERSCRIPT[(seat + 1) % 10]}", style=TOKEN_STYLE[seat % len(TOKEN_STYLE)])
        line.append(f" {name}", style=TOKEN_STYLE[seat % len(TOKEN_STYLE)])
        if view["to_act"] == seat:
            line.append(" ◀", style="bold magenta")
        cars = " ".join(
            f"{n}{t(f'compact.{CAR_LETTER[slug]}')}" for slug, n in view["cars"][seat].items() if n
        )
        pos = view["positions"][seat]
        where = t("ui.start") if pos < 0 else f"{pos}{LETTER.get(spaces[pos].kind, '?')}"
        line.append(
            "  "
            + t(
                "compact.player",
                cash=money(view["cash"][seat]),
                cars=cars or "-",
                contracts=len(view["contracts"][seat]),
                cards=view["hand_counts"][seat],
                space=where,
            )
        )
        lines.append(line)
    if view["hand"] is not None:
        hand = join_list((t(f"cards.{slug}", count=n) for slug, n in view["hand"].items() if n), lang) or "-"
        lines.append(Text(t("ui.hand", cards=hand), style="bold"))
    pending = view["pending"]
    if pending is not None:
        who = names[pending["seat"]] if pending["seat"] < len(names) else seat_name(pending["seat"], lang)
        lines.append(Text(t("ui.pending", player=who, what=t(f"phase.{pending['k']}")), style="magenta"))
    if view["over"] and view["winner"] is not None:
        lines.append(Text(t("ui.winner", player=names[view["winner"]]), style="bold green"))
    return Group(*lines)

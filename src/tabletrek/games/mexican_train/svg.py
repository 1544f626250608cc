"""Mexican Train drawn as SVG for notebooks (``state.render(seat)``): the engine, every train as a
row of dominoes (public markers shown), the boneyard, scores, and the observer's hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletrek.core.svg import SEAT_COLOURS, Canvas
from tabletrek.i18n import seat_name, translate

if TYPE_CHECKING:
    from tabletrek.core.state import State

TILE = 30  # a half domino's side


def domino(
    canvas: Canvas, x: float, y: float, a: int, b: int, fill: str = "#fffdf5", size: float = TILE
) -> None:
    canvas.rect(x, y, 2 * size, size, fill=fill, stroke="#333", rx=4)
    canvas.line(x + size, y + 3, x + size, y + size - 3, stroke="#333")
    canvas.text(x + size / 2, y + size * 0.68, str(a), size=size * 0.5, anchor="middle", weight="bold")
    canvas.text(x + 1.5 * size, y + size * 0.68, str(b), size=size * 0.5, anchor="middle", weight="bold")


def draw(state: State, seat: int | None, lang: str, canvas: Canvas) -> None:
    view: dict[str, Any] = state.public_view() if seat is None else state.view(seat)
    y = canvas.y + 8
    canvas.text(10, y + 14, translate("core.svg.round", lang, n=view["round"], total=view["rounds"]), size=12)
    canvas.text(200, y + 14, translate("core.svg.boneyard", lang, n=view["boneyard"]), size=12)
    canvas.text(360, y + 14, translate("core.svg.engine", lang, tile=view["engine_tile"]), size=12)
    y += 26
    domino(canvas, 10, y + 4, view["engine"], view["engine"], fill="#ffe9a8", size=22)
    per_row = (canvas.width - 170) // (2 * 20 + 2)
    for train in view["trains"]:
        owner = train["owner"]
        if owner is None:
            label, colour = translate("core.svg.mexican", lang), "#555"
        else:
            label, colour = seat_name(owner, lang), SEAT_COLOURS[owner % len(SEAT_COLOURS)]
        tiles = train["tiles"]
        rows = max(1, -(-len(tiles) // per_row))
        height = 10 + rows * 24
        highlight = seat is not None and owner == seat
        canvas.rect(
            60, y, canvas.width - 66, height, fill="#ffffff", stroke=colour, width=2.5 if highlight else 1
        )
        canvas.text(68, y + 18, label, size=12, weight="bold", fill=colour)
        if owner is not None:
            canvas.text(68, y + 32, translate("core.svg.tiles", lang, n=view["hand_counts"][owner]), size=10)
        if train["marker"]:
            canvas.circle(150, y + 13, 6, fill="#e4572e", title=translate("core.svg.public", lang))
        for i, (a, b) in enumerate(tiles):
            row, col = divmod(i, per_row)
            fill = "#ffd6d6" if train["open_double"] and i == len(tiles) - 1 else "#fffdf5"
            domino(canvas, 164 + col * 42, y + 5 + row * 24, a, b, fill=fill, size=20)
        y += height + 6
    totals = "  ".join(f"{seat_name(s, lang)} {t}" for s, t in enumerate(view["totals"]))
    canvas.text(10, y + 14, translate("core.svg.points", lang, n=totals), size=12)
    y += 24
    hand = view.get("hand")
    if hand:
        canvas.text(10, y + 14, translate("core.svg.hand", lang), size=13, weight="bold")
        per = (canvas.width - 20) // 66
        for i, (a, b) in enumerate(hand):
            row, col = divmod(i, per)
            drawn = view.get("drawn") == [a, b]
            domino(canvas, 10 + col * 66, y + 22 + row * 36, a, b, fill="#d9f2d9" if drawn else "#fffdf5")
        y += 26 + 36 * (-(-len(hand) // per))
    canvas.y = y

"""Double Crossing drawn as SVG for notebooks (``state.render(seat)``): the loop of spaces with
every token, and each seat's cash, cars, contracts and crew cards (the observer's hand in full)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletrek.core.svg import SEAT_COLOURS, Canvas
from tabletrek.i18n import join_list, seat_name, translate

if TYPE_CHECKING:
    from tabletrek.games.double_crossing.state import DoubleCrossingState

KIND_COLOURS = {
    "central": "#ffd166",
    "corner": "#ffe8a3",
    "trade": "#cde7f7",
    "yard": "#d9f2d9",
    "stop": "#f6b8b8",
    "pay-taxes": "#f6d0b8",
    "crew-cards": "#e6d9f7",
}


def perimeter(n: int, size: float, x0: float, y0: float) -> list[tuple[float, float]]:
    """Centres of ``n`` squares around a square loop, clockwise from the top-left corner."""
    side = n // 4
    step = size / side
    out = []
    for i in range(n):
        edge, k = divmod(i, side)
        if edge == 0:
            out.append((x0 + k * step, y0))
        elif edge == 1:
            out.append((x0 + size, y0 + k * step))
        elif edge == 2:
            out.append((x0 + size - k * step, y0 + size))
        else:
            out.append((x0, y0 + size - k * step))
    return out


def draw(state: DoubleCrossingState, seat: int | None, lang: str, canvas: Canvas) -> None:
    def labelled(label: str, text: object) -> str:
        return translate("core.svg.labelled", lang, label=translate(label, lang), text=text)

    view: dict[str, Any] = state.public_view() if seat is None else state.view(seat)
    spaces = state.game.content.spaces
    y = canvas.y + 16
    size, cell = 300.0, 26.0
    centres = perimeter(len(spaces), size, 24, y + 8)
    for i, (cx, cy) in enumerate(centres):
        kind = spaces[i].kind
        canvas.rect(
            cx - cell / 2,
            cy - cell / 2,
            cell,
            cell,
            fill=KIND_COLOURS.get(kind, "#f4f4f4"),
            stroke="#888",
            rx=2,
            title=translate(
                "core.svg.labelled", lang, label=i, text=translate(f"double_crossing.space.{kind}", lang)
            ),
        )
        canvas.text(cx, cy + 4, str(i), size=9, anchor="middle", fill="#555")
    for s, pos in enumerate(view["positions"]):
        if 0 <= pos < len(centres):
            cx, cy = centres[pos]
            canvas.circle(
                cx + (s % 2) * 8 - 4,
                cy + (s // 2) * 8 - 4,
                6,
                fill=SEAT_COLOURS[s % len(SEAT_COLOURS)],
                title=seat_name(s, lang),
            )
    x = 360
    row = y
    for s in range(len(view["positions"])):
        colour = SEAT_COLOURS[s % len(SEAT_COLOURS)]
        mine = seat == s
        canvas.rect(x, row, canvas.width - x - 8, 74, fill="#fff", stroke=colour, width=3 if mine else 1.2)
        canvas.text(x + 8, row + 18, seat_name(s, lang), size=13, weight="bold", fill=colour)
        cash = view["cash"][s] / 1_000_000
        canvas.text(x + 60, row + 18, f"{translate('core.svg.cash', lang)} ${cash:.2f}M", size=12)
        cars = join_list(
            (translate(f"double_crossing.cars.{k}", lang, count=n) for k, n in view["cars"][s].items() if n),
            lang,
        )
        canvas.text(x + 8, row + 38, labelled("core.svg.cars", cars or "-"), size=11)
        canvas.text(x + 8, row + 56, labelled("core.svg.contracts", len(view["contracts"][s])), size=11)
        if mine and view.get("hand"):
            hand = join_list(
                (
                    translate(f"double_crossing.cards.{k}", lang, count=n)
                    for k, n in view["hand"].items()
                    if n
                ),
                lang,
            )
            canvas.text(x + 8, row + 70, labelled("core.svg.hand", hand), size=10)
        else:
            canvas.text(x + 8, row + 70, translate("core.svg.cards", lang, n=view["hand_counts"][s]), size=10)
        row += 80
    canvas.y = max(y + size + 30, row)

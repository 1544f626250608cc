"""Touring drawn as SVG for notebooks (``state.render(seat)``): each team's Go, speed and mileage
piles with the trip's progress, the draw and discard piles, and the observer's hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletrek.core.svg import SEAT_COLOURS, Canvas
from tabletrek.i18n import join_list, seat_name, translate

if TYPE_CHECKING:
    from tabletrek.core.state import State

MILE_KEYS = ("1", "3", "15", "30")
COLOURS = {
    "go": "#b7e4b0",
    "country": "#cde7f7",
    "city-limits": "#fde2a8",
    "gasoline": "#e8f3d6",
    "hauled-in": "#e8f3d6",
    "puncture": "#f6b8b8",
    "out-of-gasoline": "#f6b8b8",
    "collision": "#f6b8b8",
}


def card(canvas: Canvas, x: float, y: float, slug: str | None, lang: str, w: float = 92) -> None:
    if slug is None:
        canvas.rect(x, y, w, 30, fill="#eee", stroke="#aaa")
        canvas.text(
            x + w / 2, y + 19, translate("core.svg.empty", lang), size=11, anchor="middle", fill="#888"
        )
        return
    name = translate(f"touring.card.{slug}", lang)
    canvas.rect(x, y, w, 30, fill=COLOURS.get(slug, "#fff7d6"), title=name)
    canvas.text(x + w / 2, y + 19, name if len(name) <= 14 else name[:13] + "…", size=11, anchor="middle")


def draw(state: State, seat: int | None, lang: str, canvas: Canvas) -> None:
    view: dict[str, Any] = state.public_view() if seat is None else state.view(seat)
    y = canvas.y + 8
    canvas.text(10, y + 12, translate("core.svg.turn", lang, n=view["turn"]), size=12)
    canvas.text(150, y + 12, translate("core.svg.draw_pile", lang, n=view["draw_pile"]), size=12)
    discard = view["discard"]
    canvas.text(330, y + 12, translate("core.svg.discard", lang, n=len(discard)), size=12)
    card(canvas, 430, y - 6, discard[-1] if discard else None, lang)
    y += 34
    for table in view["tables"]:
        colour = SEAT_COLOURS[table["seats"][0] % len(SEAT_COLOURS)]
        mine = seat is not None and seat in table["seats"]
        canvas.rect(6, y, canvas.width - 12, 92, fill="#ffffff", stroke=colour, width=3 if mine else 1.5)
        names = join_list((seat_name(s, lang) for s in table["seats"]), lang)
        cards = join_list((str(view["hand_counts"][s]) for s in table["seats"]), lang)
        canvas.text(16, y + 20, names, size=14, weight="bold", fill=colour)
        canvas.text(16, y + 40, translate("core.svg.cards", lang, n=cards), size=11)
        card(canvas, 120, y + 8, table["go"][-1] if table["go"] else None, lang)
        card(canvas, 220, y + 8, table["speed"][-1] if table["speed"] else None, lang)
        x = 330
        for key in MILE_KEYS:
            have, need = table["miles"][key], view["required"][key]
            canvas.rect(x, y + 8, 84, 30, fill="#fff7d6")
            label = translate(f"touring.card.{key}", lang)
            canvas.text(
                x + 42, y + 20, label if len(label) <= 12 else label[:11] + "…", size=10, anchor="middle"
            )
            canvas.text(x + 42, y + 33, f"{have} / {need}", size=11, anchor="middle", weight="bold")
            x += 92
        total, goal = table["total"], view["goal"]
        canvas.rect(120, y + 52, 578, 14, fill="#eee", stroke="#bbb")
        canvas.rect(120, y + 52, 578 * min(1.0, total / goal), 14, fill=colour, stroke="none")
        canvas.text(120, y + 84, translate("core.svg.miles", lang, total=total, goal=goal), size=11)
        y += 100
    hand = view.get("hand")
    if hand:
        canvas.text(10, y + 16, translate("core.svg.hand", lang), size=13, weight="bold")
        for i, slug in enumerate(hand):
            card(canvas, 10 + i * 100, y + 24, slug, lang)
        y += 62
    canvas.y = y

"""Codenames Duet drawn as SVG for notebooks (``state.render(seat)``): the 5x5 board with covered
agents and timer tokens, the observer's side of the key as a border, the open clue, the tokens."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletrek.core.svg import Canvas
from tabletrek.i18n import translate

if TYPE_CHECKING:
    from tabletrek.core.state import State

KEY_COLOURS = {"green": "#2e9e44", "bystander": "#c9b68d", "assassin": "#111111"}


def draw(state: State, seat: int | None, lang: str, canvas: Canvas) -> None:
    view: dict[str, Any] = state.public_view() if seat is None else state.view(seat)
    y = canvas.y + 8
    canvas.text(10, y + 14, translate("core.svg.tokens", lang, n=view["tokens"]), size=12)
    canvas.text(180, y + 14, translate("core.svg.mistakes", lang, n=view["mistakes"]), size=12)
    canvas.text(
        330,
        y + 14,
        translate("core.svg.agents", lang, n=view["agents_found"], total=view["agents_total"]),
        size=12,
    )
    clue = view["clue"]
    if clue is not None:
        canvas.text(
            10,
            y + 34,
            translate("core.svg.clue", lang, word=clue["word"], number=clue["number"]),
            size=14,
            weight="bold",
        )
    y += 44
    w, h = 138, 52
    key = view.get("key")
    marked = [set(view["bystanders"][0]), set(view["bystanders"][1])]
    for cell, word in enumerate(view["words"]):
        row, col = divmod(cell, 5)
        x, top = 12 + col * (w + 4), y + row * (h + 4)
        covered = view["agents"][cell] is not None
        fill = "#7bc67e" if covered else ("#333" if view["assassin"] == cell else "#f4ecd8")
        stroke = KEY_COLOURS[key[cell]] if key else "#999"
        canvas.rect(x, top, w, h, fill=fill, stroke=stroke, width=4 if key else 1, rx=6, title=word)
        canvas.text(
            x + w / 2,
            top + h / 2 + 5,
            word,
            size=14,
            anchor="middle",
            fill="#fff" if view["assassin"] == cell else "#111",
        )
        for side in (0, 1):
            if cell in marked[side]:
                canvas.circle(x + 12 + side * (w - 24), top + 12, 7, fill="#c9b68d")
    canvas.y = y + 5 * (h + 4) + 4

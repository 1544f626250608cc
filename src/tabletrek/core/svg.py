"""SVG drawings of a state for notebooks and scripts (python-chess's ``chess.svg`` is the model).

``state.render(seat)`` returns an :class:`SVG` (a ``str`` that Jupyter displays as a drawing):
the table as ``seat`` sees it, or as a spectator sees it for ``seat=None``, so nothing hidden
is drawn. ``State._repr_svg_`` is the spectator's drawing. A game draws itself in
``<game package>/svg.py`` with ``draw(state, seat, lang, canvas) -> None``; a game without one
gets the generic header alone. Labels go through the i18n catalogs.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from tabletrek.core.numeric import is_whole
from tabletrek.i18n import join_list, normalize_lang, seat_name, translate

if TYPE_CHECKING:
    from tabletrek.core.state import State

FONT = "system-ui, 'Noto Sans CJK TC', 'Noto Sans TC', 'PingFang TC', 'Microsoft JhengHei', sans-serif"
SEAT_COLOURS = (
    "#d62728",
    "#1f77b4",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#bcbd22",
    "#7f7f7f",
)


class SVG(str):
    """SVG text that notebooks show as a drawing; write it to a ``.svg`` file from scripts."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


class Canvas:
    """Collects SVG elements; ``y`` is where the next block goes, so drawings stack downwards."""

    def __init__(self, width: int = 720) -> None:
        self.width = width
        self.y = 0.0
        self.parts: list[str] = []

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: str = "none",
        stroke: str = "#444",
        rx: float = 3,
        title: str | None = None,
        width: float = 1,
    ) -> None:
        tip = f"<title>{escape(title)}</title>" if title else ""
        self.parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{rx}" '
            f'fill={quoteattr(fill)} stroke={quoteattr(stroke)} stroke-width="{width}">{tip}</rect>'
        )

    def circle(
        self, x: float, y: float, r: float, fill: str, stroke: str = "#222", title: str | None = None
    ) -> None:
        tip = f"<title>{escape(title)}</title>" if title else ""
        self.parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill={quoteattr(fill)} '
            f"stroke={quoteattr(stroke)}>{tip}</circle>"
        )

    def line(
        self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#444", width: float = 1
    ) -> None:
        self.parts.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke={quoteattr(stroke)} '
            f'stroke-width="{width}"/>'
        )

    def text(
        self,
        x: float,
        y: float,
        content: str,
        size: float = 13,
        anchor: str = "start",
        weight: str = "normal",
        fill: str = "#111",
    ) -> None:
        self.parts.append(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill={quoteattr(fill)}>{escape(content)}</text>'
        )

    def svg(self, label: str) -> SVG:
        height = int(self.y + 10)
        return SVG(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{height}" '
            f'viewBox="0 0 {self.width} {height}" font-family={quoteattr(FONT)} role="img" '
            f"aria-label={quoteattr(label)}>"
            f'<rect x="0" y="0" width="{self.width}" height="{height}" fill="#fbfaf5"/>'
            + "".join(self.parts)
            + "</svg>"
        )


def status_line(state: State, lang: str) -> str:
    result = state.result
    if result is not None:
        if not result.winners:
            return translate("core.svg.lost" if state.game.cooperative else "core.svg.draw", lang)
        winners = join_list((seat_name(s, lang) for s in result.winners), lang)
        return translate("core.svg.over", lang, winners=winners)
    seat = state.current_player
    return translate("core.svg.to_act", lang, seat=seat_name(seat or 0, lang))


def header(state: State, seat: int | None, lang: str, canvas: Canvas) -> None:
    who = (
        translate("core.svg.spectator", lang)
        if seat is None
        else translate("core.svg.viewer", lang, seat=seat_name(seat, lang))
    )
    canvas.text(10, 22, f"{state.game.title(lang)} · {who}", size=16, weight="bold")
    canvas.text(
        canvas.width - 10,
        22,
        status_line(state, lang),
        size=14,
        anchor="end",
        fill=SEAT_COLOURS[(state.current_player or 0) % len(SEAT_COLOURS)],
    )
    canvas.y = 34


def game_drawer(state: State) -> Callable[[State, int | None, str, Canvas], None] | None:
    try:
        module = importlib.import_module(f"{state.game.package}.svg")
    except ModuleNotFoundError:
        return None
    draw = getattr(module, "draw", None)
    return draw if callable(draw) else None


def render_svg(state: State, seat: int | None = None, lang: str = "en") -> SVG:
    """The state drawn as ``seat`` sees it (``None``: the spectator)."""
    if seat is not None and (not is_whole(seat) or not 0 <= seat < state.game.players):
        raise ValueError(f"no seat {seat!r} in a {state.game.players}-player game")
    lang = normalize_lang(lang)
    canvas = Canvas()
    header(state, seat, lang, canvas)
    draw = game_drawer(state)
    if draw is not None:
        draw(state, seat, lang, canvas)
    return canvas.svg(f"{state.game.title(lang)}: {status_line(state, lang)}")

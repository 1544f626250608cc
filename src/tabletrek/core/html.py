"""HTML for notebooks: ``State._repr_html_`` renders through here.

A game may ship its own renderer as a module ``<game package>.html`` with a function
``render_html(state) -> str``; otherwise the generic one below shows the game, whose turn it is,
the result, the legal moves, the spectator's drawing (``state.render()``, SVG) and the spectator's
view (``public_view()``, so nothing hidden) as nested tables, folded.
Either way it is a fragment of plain HTML with inline styles, safe to embed.
"""

from __future__ import annotations

import html
import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabletrek.core.state import State

MAX_ITEMS = 60  # long lists (a deck, a history) are cut, with a count of what was left out


def game_renderer(state: State) -> Callable[[State], str] | None:
    try:
        module = importlib.import_module(f"{state.game.package}.html")
    except ModuleNotFoundError:
        return None
    render = getattr(module, "render_html", None)
    return render if callable(render) else None


def render_state_html(state: State) -> str:
    custom = game_renderer(state)
    if custom is not None:
        return custom(state)
    return generic_html(state)


def value_html(value: Any, depth: int = 0) -> str:
    if isinstance(value, dict):
        if not value:
            return "<i>{}</i>"
        rows = "".join(
            f"<tr><th style='text-align:left;vertical-align:top;padding:1px 6px'>{html.escape(str(k))}</th>"
            f"<td style='text-align:left;padding:1px 6px'>{value_html(v, depth + 1)}</td></tr>"
            for k, v in value.items()
        )
        return f"<table style='border-collapse:collapse;font-size:{max(70, 95 - 8 * depth)}%'>{rows}</table>"
    if isinstance(value, list):
        if all(not isinstance(v, dict | list) for v in value):
            shown = ", ".join(html.escape(str(v)) for v in value[:MAX_ITEMS])
            more = f" … (+{len(value) - MAX_ITEMS})" if len(value) > MAX_ITEMS else ""
            return f"[{shown}{more}]"
        return (
            "<ol start='0'>"
            + "".join(f"<li>{value_html(v, depth + 1)}</li>" for v in value[:MAX_ITEMS])
            + "</ol>"
        )
    return html.escape(str(value))


def generic_html(state: State) -> str:
    game = state.game
    result = state.result
    if result is not None:
        status = (
            f"over ({html.escape(result.reason)}); winners: "
            f"{', '.join(f'p{s + 1}' for s in result.winners) or 'none'}; scores: "
            f"{', '.join(f'{x:g}' for x in result.scores)}"
        )
    else:
        status = f"p{(state.current_player or 0) + 1} to act"
    legal = state.legal_actions()
    moves = ", ".join(f"<code>{html.escape(a.text)}</code>" for a in legal[:MAX_ITEMS])
    if len(legal) > MAX_ITEMS:
        moves += f" … (+{len(legal) - MAX_ITEMS})"
    return (
        "<div style='font-family:system-ui,sans-serif;font-size:90%'>"
        f"<b>{html.escape(game.name)}</b> · {game.players} players · seed {state.seed} · "
        f"{len(state.history)} moves · {status}"
        + (f"<div>legal: {moves}</div>" if legal else "")
        + f"<div>{state.render()}</div>"
        + f"<details><summary>public view</summary>{value_html(state.public_view())}</details></div>"
    )

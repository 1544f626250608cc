"""Replays: step through a table's record as one seat saw it, or all of it once the game is over."""

from __future__ import annotations

from typing import Any

from tabletrek.core.events import OMNISCIENT
from tabletrek.core.game import Game
from tabletrek.web.errors import WebError
from tabletrek.web.eventlog import for_viewer
from tabletrek.web.tables import LiveTable

MAX_STEP_VIEWS = 5000


def viewer_for(table: LiveTable, viewer: str, token: str | None) -> int | None:
    """Who the replay shows: ``public``, a seat number, or ``all``; checks the right to see it.

    While a game runs, a seat's view needs that seat's token and ``all`` is refused: both would
    show hidden cards. Once it is over, everything is open.
    """
    over = table.state.is_over
    if viewer in ("", "public"):
        return None
    if viewer == "all":
        if not over:
            raise WebError("web.error.replay_running")
        return OMNISCIENT
    if not (viewer.isascii() and viewer.isdigit()) or len(viewer) > 3:  # int() takes "٣", " 1", "1_0"
        raise WebError("web.error.bad_request", detail="viewer must be public, all or a seat number")
    seat = int(viewer)
    if not 0 <= seat < table.game.players:
        raise WebError("web.error.bad_request", detail="no such seat")
    if not over and (not token or table.seat_for_token(token) != seat):
        raise WebError("web.error.replay_seat")
    return seat


def replay_steps(table: LiveTable, viewer: int | None) -> dict[str, Any]:
    """Every step's actor and log lines as ``viewer`` sees them (the views come per step)."""
    steps = []
    for actor, events in table.log:
        steps.append({"seat": actor, "log": [for_viewer(e, viewer) for e in events]})
    return {
        "table": table.table_info(),
        "names": table.names(),
        "viewer": viewer,
        "steps": steps,
        "total": len(steps),
    }


def replay_view(
    game: Game, seed: int, history: tuple[str, ...], viewer: int | None, step: int
) -> dict[str, Any]:
    """The view(s) after ``step`` of ``history``: one seat's, the public one, or every seat's for ``all``.

    Pure (a fresh state replayed from the seed), so it can run in a worker thread."""
    if not 0 <= step <= len(history):
        raise WebError("web.error.bad_request", detail="no such step")
    state = game.new_game(seed=seed)
    for text in history[:step]:
        state.apply(text)
    if viewer is None:
        views = {"public": state.public_view()}
    elif viewer == OMNISCIENT:
        views = {"public": state.public_view(), **{str(s): state.view(s) for s in range(game.players)}}
    else:
        views = {str(viewer): state.view(viewer)}
    return {"step": step, "to_act": state.current_player, "views": views}

"""Replays: step through a table's record as one seat saw it, or all of it once the game is over."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from tabletrek.core.events import OMNISCIENT
from tabletrek.core.game import Game
from tabletrek.core.numeric import ascii_whole
from tabletrek.core.state import State
from tabletrek.web.errors import WebError, reason
from tabletrek.web.eventlog import for_viewer
from tabletrek.web.tables import LiveTable

CHECKPOINTS_PER_TABLE = 64
"""States kept per replayed table; a step then costs at most len(history) / 64 moves (at least
``CHECKPOINT_SPACING``) instead of the whole game from the seed, which for a long bot game took
about a second a request: a cheap way to hold a server's worker threads."""
CHECKPOINT_SPACING = 100
CHECKPOINT_TABLES = 16
"""Tables whose checkpoints are kept (the most recently replayed), which bounds the memory."""


class Checkpoints:
    """States at regular steps of a few tables' records, shared by the replay worker threads.

    A table's record only grows, except that a move the store failed to keep is taken back; each
    entry keeps the history it was made from and is dropped when a request's history does not
    continue it. Stored states are never moved on: a request clones the nearest one."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: OrderedDict[str, tuple[tuple[str, ...], int, dict[int, State]]] = OrderedDict()

    def nearest(self, table: str, history: tuple[str, ...], step: int) -> tuple[int, State | None, int]:
        """(checkpoint step, a clone of its state or None, spacing) for replaying ``step``."""
        spacing = max(CHECKPOINT_SPACING, -(-len(history) // CHECKPOINTS_PER_TABLE))
        with self._lock:
            entry = self._tables.get(table)
            if entry is not None:
                seen, old_spacing, states = entry
                if old_spacing != spacing or history[: len(seen)] != seen[: len(history)]:
                    del self._tables[table]
                    entry = None
            if entry is None:
                return 0, None, spacing
            self._tables.move_to_end(table)
            states = entry[2]
            best = max((at for at in states if at <= step), default=0)
            return best, (states[best].clone() if best else None), spacing

    def keep(self, table: str, history: tuple[str, ...], spacing: int, at: int, state: State) -> None:
        with self._lock:
            seen, _, states = self._tables.get(table, (history, spacing, {}))
            if seen[:at] != history[:at]:  # another request took the record over since (a move taken back)
                return
            if len(history) > len(seen):
                seen = history
            states.setdefault(at, state.clone())
            self._tables[table] = (seen, spacing, states)
            self._tables.move_to_end(table)
            while len(self._tables) > CHECKPOINT_TABLES:
                self._tables.popitem(last=False)


CHECKPOINTS = Checkpoints()


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
    seat = ascii_whole(viewer, 3)  # int() takes "٣", " 1", "1_0"
    if seat is None:
        raise WebError("web.error.bad_request", detail=reason("web.error.detail.viewer"))
    if not 0 <= seat < table.game.players:
        raise WebError("web.error.bad_request", detail=reason("web.error.detail.no_seat"))
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
    game: Game, seed: int, history: tuple[str, ...], viewer: int | None, step: int, table: str | None = None
) -> dict[str, Any]:
    """The view(s) after ``step`` of ``history``: one seat's, the public one, or every seat's for ``all``.

    Replayed from the seed, or from the nearest checkpoint of ``table`` (``CHECKPOINTS``); safe to
    run in worker threads."""
    if not 0 <= step <= len(history):
        raise WebError("web.error.bad_request", detail=reason("web.error.detail.no_step"))
    at, state, spacing = CHECKPOINTS.nearest(table, history, step) if table else (0, None, 0)
    if state is None:
        state = game.new_game(seed=seed)
    for text in history[at:step]:
        state.apply(text)
        at += 1
        if table and at % spacing == 0:
            CHECKPOINTS.keep(table, history, spacing, at, state)
    if viewer is None:
        views = {"public": state.public_view()}
    elif viewer == OMNISCIENT:
        views = {"public": state.public_view(), **{str(s): state.view(s) for s in range(game.players)}}
    else:
        views = {str(viewer): state.view(viewer)}
    return {"step": step, "to_act": state.current_player, "views": views}

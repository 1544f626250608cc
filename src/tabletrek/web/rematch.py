"""Rematch: the same game, options, seats and bots at a new table, once per finished table.

A seated player (by their seat token) or the host asks; the new table is created like any other and
each person's connection at the old table is sent its own new seat token, so everyone lands in
their own seat. Spectators are told where the new table is and watch it.
"""

from __future__ import annotations

import asyncio
import hmac
from typing import Any

from tabletrek.web.errors import WebError
from tabletrek.web.manager import Manager
from tabletrek.web.store import token_hash
from tabletrek.web.tables import LiveTable

_made: dict[str, dict[str, Any]] = {}
"""Old table id -> what creating its rematch returned (the new id, host token and seat tokens)."""
_locks: dict[str, asyncio.Lock] = {}


def _spec(table: LiveTable) -> dict[str, Any]:
    seats: list[dict[str, Any]] = []
    for info in table.seats:
        if info.kind == "bot":
            seats.append({"kind": "bot", "bot": info.bot, "params": dict(info.params)})
        else:
            seats.append({"kind": "human"})
    spec: dict[str, Any] = {
        "game": table.game.name,
        "players": table.game.players,
        "options": dict(table.game.options),
        "seats": seats,
    }
    if table.row.clock:
        spec["clock"] = table.row.clock
    return spec


async def rematch(
    manager: Manager, table: LiveTable, seat_token: str | None, host_token: str | None
) -> dict[str, Any]:
    """The new table for this finished one (made on the first call), and the caller's seat token."""
    seat = table.seat_for_token(seat_token) if seat_token else None
    is_host = bool(host_token) and hmac.compare_digest(token_hash(host_token or ""), table.row.host_hash)
    if seat is None and not is_host:
        raise WebError("web.error.not_host")
    if not table.state.is_over:
        raise WebError("web.table.rematch_running")
    lock = _locks.setdefault(table.id, asyncio.Lock())
    async with lock:
        made = _made.get(table.id)
        created = made is None
        if made is None:
            made = await manager.create(_spec(table))
            new = await manager.get(made["table"])
            if new is not None:
                async with new.lock:
                    for old, info in zip(table.seats, new.seats, strict=True):
                        if info.kind == "human" and old.nickname:
                            info.nickname = old.nickname
                            await asyncio.to_thread(new.store.set_nickname, new.id, info.seat, old.nickname)
            _made[table.id] = made
    tokens: dict[str, str] = made["tokens"]
    if created:
        async with table.lock:
            for conn in table.conns():
                message: dict[str, Any] = {"type": "rematch", "table": made["table"]}
                if conn.seat is not None and str(conn.seat) in tokens:
                    message["token"] = tokens[str(conn.seat)]
                conn.send(message)
    answer: dict[str, Any] = {
        "table": made["table"],
        "token": tokens.get(str(seat)) if seat is not None else None,
    }
    if is_host:
        # the old table's host hosts the rematch: the invite links of its seats, to pass on
        answer["host"] = made["host"]
        answer["invites"] = tokens
    return answer

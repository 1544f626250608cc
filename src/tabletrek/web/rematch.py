"""Rematch: the same game, options, seats and bots at a new table, once per finished table.

A seated player (by their seat token) or the host asks; the new table is created like any other
(``Manager.create``: a fresh seed from the server's CSPRNG, private, practice when only one person
plays, so a practice table's rematch is practice again). As at creation, only the first person's
seat gets a token; every other person's seat gets a one-use invite. Each person's connection at the
old table is sent what belongs to its own seat only (the token, or the invite its page claims for a
token of its own), never another seat's; the host's answer holds the invites of seats whose person
is not at the table, to pass on. Spectators are told where the new table is and watch it.
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
"""Old table id -> what creating its rematch returned (the new id, host token, token and invites)."""
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
            made = await manager.create(_spec(table), creator=table.row.creator)  # same owner
            new = await manager.get(made["table"])
            if new is not None:
                async with new.lock:
                    for old, info in zip(table.seats, new.seats, strict=True):
                        if info.kind == "human" and old.nickname:
                            info.nickname = old.nickname
                            await asyncio.to_thread(new.store.set_nickname, new.id, info.seat, old.nickname)
            _made[table.id] = made
    if created:
        async with table.lock:
            present = {conn.seat for conn in table.conns() if conn.seat is not None}
            made["absent"] = sorted(set(made["invites"]) - {str(s) for s in present})
            for conn in table.conns():
                conn.send({"type": "rematch", "table": made["table"], **_own(made, conn.seat)})
    answer: dict[str, Any] = {"table": made["table"], **_own(made, seat)}
    if is_host:
        # the old table's host hosts the rematch, and passes on the links of those not here
        answer["host"] = made["host"]
        answer["invites"] = {s: made["invites"][s] for s in made["absent"]}
    return answer


def _own(made: dict[str, Any], seat: int | None) -> dict[str, str]:
    """What of the new table belongs to this old seat: its token or its one-use invite."""
    if seat is None:
        return {}
    if str(seat) in made["tokens"]:
        return {"token": made["tokens"][str(seat)]}
    if str(seat) in made["invites"]:
        return {"invite": made["invites"][str(seat)]}
    return {}

"""One WebSocket per seat or spectator: admission (rate and connection limits), the receive loop,
the send loop, and one handler per kind of client message."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from tabletrek.core.numeric import is_whole
from tabletrek.i18n import normalize_lang
from tabletrek.web import chat, validation
from tabletrek.web.conns import Conn
from tabletrek.web.errors import WebError
from tabletrek.web.guard import Guard, Limited, client_of
from tabletrek.web.manager import Manager
from tabletrek.web.ratelimit import ConnectionCount, Limiter, Limits
from tabletrek.web.tables import LiveTable

MAX_MESSAGE = Limits.max_message
"""Largest client message the app reads (action texts and clues are short)."""


class Sockets:
    def __init__(self, manager: Manager, guard: Guard) -> None:
        self.manager = manager
        self.guard = guard
        limits = guard.limits
        self.open_conns = ConnectionCount(limits.max_conns, 4 * limits.max_conns)
        """Open connections per client address (``limits.max_conns``), and per IPv6 /48."""

    async def endpoint(self, websocket: WebSocket) -> None:
        address = client_of(websocket)
        wait = self.guard.join.take(address)
        keys = (
            self.open_conns.take(websocket.client.host if websocket.client else None) if wait <= 0 else None
        )
        if keys is None:
            await websocket.accept()
            await websocket.send_text(json.dumps(Limited(wait or 10).to_message()))
            await websocket.close(code=4429)
            return
        try:
            await self.serve(websocket, address)
        finally:
            self.open_conns.give_back(keys)

    async def serve(self, websocket: WebSocket, address: str) -> None:
        try:
            table = await self.manager.get(websocket.path_params["table"])
            if table is None:
                raise WebError("web.error.no_table")
        except WebError as exc:  # no such table, or one whose record no longer replays
            await websocket.accept()
            await websocket.send_text(json.dumps(exc.to_message()))
            await websocket.close(code=4404)
            return
        await websocket.accept()
        conn = Conn()
        sender = asyncio.create_task(send_loop(websocket, conn))
        try:
            await self.receive_loop(websocket, table, conn, address)
        except WebSocketDisconnect:
            pass
        finally:
            table.leave_conn(conn)
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(sender, timeout=2)
            if websocket.application_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await websocket.close()

    async def receive_loop(self, websocket: WebSocket, table: LiveTable, conn: Conn, address: str) -> None:
        limits = self.guard.limits
        while not conn.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            # a binary frame is read as UTF-8 text by parse_json, which refuses invalid UTF-8
            # (decoding with "replace" passed it on as U+FFFD)
            raw: str | bytes = message.get("text") or message.get("bytes") or b""
            try:
                # per seat (every connection of one seat shares it), else per connection
                key = ("seat", table.id, conn.seat) if conn.seat is not None else ("conn", id(conn))
                if self.guard.ws.take(key) > 0:
                    raise WebError("web.error.too_fast", rate=limits.ws_rate)
                if self.guard.ws_address.take(address) > 0:  # and all of one address's connections
                    raise WebError("web.error.too_fast", rate=limits.ws_address_rate)
                await handle(table, conn, raw, limits.max_message)
            except WebError as exc:
                conn.send(exc.to_message())


async def send_loop(websocket: WebSocket, conn: Conn) -> None:
    while True:
        text = await conn.next()
        if text is None:
            # closed by us (e.g. a client too slow to read its messages): end the socket too, so
            # the receiving side stops waiting on it
            if websocket.application_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await websocket.close(code=1013)
            return
        try:
            await websocket.send_text(text)
        except Exception:
            conn.close()
            return


def language(value: Any) -> str:
    return normalize_lang(value[:32] if isinstance(value, str) else None)


def optional_int(value: Any) -> int | None:
    """A field that is a whole number or absent (a JSON true is no number here)."""
    if value is not None and not is_whole(value):
        raise WebError("web.error.bad_message")
    return value


async def on_hello(table: LiveTable, conn: Conn, data: dict[str, Any]) -> None:
    token = data.get("token")
    if token is not None and (not isinstance(token, str) or len(token) > 128):
        raise WebError("web.error.bad_token")
    conn.lang = language(data.get("lang"))
    await table.join(conn, token or None, validation.nickname(data.get("nickname")))
    await chat.send_history(table, conn)


async def on_act(table: LiveTable, conn: Conn, data: dict[str, Any]) -> None:
    text = validation.action_text(data.get("action"))
    seq = optional_int(data.get("seq"))
    seat = optional_int(data.get("seat"))
    started = time.perf_counter()
    await table.act(conn, text, seq, seat)
    # ms from reading the move to queuing the ack (after the commit), for load measurements
    server_ms = round((time.perf_counter() - started) * 1000, 3)
    conn.send({"type": "ack", "id": validation.short_ref(data.get("id")), "seq": table.seq, "ms": server_ms})


async def on_lang(table: LiveTable, conn: Conn, data: dict[str, Any]) -> None:
    conn.lang = language(data.get("lang"))
    async with table.lock:
        conn.send(table.message_for(conn, None, {}))


async def on_nick(table: LiveTable, conn: Conn, data: dict[str, Any]) -> None:
    nickname = validation.nickname(data.get("nickname"))
    if nickname is None:
        raise WebError("web.error.bad_message")
    await table.set_nickname(conn, nickname)


AWAY_RATE, AWAY_BURST = 0.5, 3.0
"""Leaves and comebacks a seat may send a second on average, and in a burst: each is a line in
the server's log and a notice and a full resync to everyone at the table, so a player toggling
20 times a second flooded all three."""
_away = Limiter(AWAY_RATE, AWAY_BURST)


def check_away_rate(table: LiveTable, conn: Conn) -> None:
    if conn.seat is not None and _away.take((table.id, conn.seat)) > 0:
        raise WebError("web.error.too_fast", rate=AWAY_RATE)


async def on_leave(table: LiveTable, conn: Conn, _data: dict[str, Any]) -> None:
    check_away_rate(table, conn)
    await table.leave_seat(conn)


async def on_back(table: LiveTable, conn: Conn, _data: dict[str, Any]) -> None:
    check_away_rate(table, conn)
    await table.come_back(conn)


async def on_chat(table: LiveTable, conn: Conn, data: dict[str, Any]) -> None:
    await chat.post(table, conn, data.get("text"))


async def on_ping(_table: LiveTable, conn: Conn, data: dict[str, Any]) -> None:
    conn.send({"type": "pong", "id": validation.short_ref(data.get("id"))})


MessageHandler = Callable[[LiveTable, Conn, dict[str, Any]], Awaitable[None]]
HANDLERS: dict[str, tuple[MessageHandler, tuple[str, ...]]] = {
    "hello": (on_hello, ("token", "nickname", "lang")),
    "act": (on_act, ("action", "seq", "seat")),
    "lang": (on_lang, ("lang",)),
    "nick": (on_nick, ("nickname",)),
    "leave": (on_leave, ()),
    "back": (on_back, ()),
    "chat": (on_chat, ("text",)),
    "ping": (on_ping, ()),
}
"""Each message's handler and the fields it reads besides ``type`` and ``id`` (docs/web.md)."""


def check_fields(data: dict[str, Any], fields: tuple[str, ...]) -> None:
    """Refuse a field the message's handler does not read: a misspelt "seq" would turn off the
    guard against a stale screen without a word."""
    known = ("type", "id", *fields)
    name = validation.unknown_field(data, known)
    if name is not None:
        raise WebError("web.error.message_field", type=data["type"], name=name, known=list(known))


async def handle(table: LiveTable, conn: Conn, raw: str | bytes, max_message: int = MAX_MESSAGE) -> None:
    """One client message. Anything malformed is a WebError and changes nothing."""
    if len(raw) > max_message:
        raise WebError("web.error.too_big", limit=max_message)
    data = validation.parse_json(raw)
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise WebError("web.error.bad_message")
    validation.short_ref(data.get("id"))  # a bad id is refused whatever the message
    found = HANDLERS.get(data["type"])
    if found is None:
        raise WebError("web.error.bad_message")
    handler, fields = found
    check_fields(data, fields)
    await handler(table, conn, data)

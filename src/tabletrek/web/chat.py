"""Table chat: short lines between the people seated at a table.

Every line is checked before it touches anything (``validation.clean_text``: 1..CHAT_MAX Unicode
scalar values, NFKC, no control characters; at most CHAT_RATE lines a second per seat with a small
burst, a ``ratelimit`` bucket), kept with
the table's record in the store (``tt_chat``) so a replay or a reconnecting player sees it, and sent
to the table's connections only: bots read the game state, never the chat. The browser shows each
line as text (Preact escapes it), never as HTML.
"""

from __future__ import annotations

import asyncio
import threading
import time
import weakref
from typing import TYPE_CHECKING, Any

from sqlalchemy import Column, Float, Integer, MetaData, String, Table, Text, insert, select
from sqlalchemy.engine import Engine

from tabletrek.web import validation
from tabletrek.web.errors import WebError
from tabletrek.web.ratelimit import Limiter

if TYPE_CHECKING:
    from tabletrek.web.conns import Conn
    from tabletrek.web.tables import LiveTable

CHAT_MAX = 200
"""Longest chat line, in characters (the browser's input says the same)."""
CHAT_RATE, CHAT_BURST = 0.5, 3.0
"""Lines a second a connection may send on average, and in a burst."""
HISTORY = 100
"""Lines sent to a connection when it joins."""

chat_metadata = MetaData()
chat_t = Table(
    "tt_chat",
    chat_metadata,
    Column("table_id", String(32), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("seat", Integer, nullable=True),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
)

_ready: weakref.WeakSet[Engine] = weakref.WeakSet()
_schema_lock = threading.Lock()


def _ensure_schema(engine: Engine) -> None:
    # The chat table lives beside the store's tables, made on first use. Two tables' first lines
    # arrive on two worker threads at once: without the lock both would see no table and both
    # create it (the second fails). Engines are held weakly: a new engine (a test's new database)
    # may reuse a dropped one's id, so an id would wrongly say "ready".
    if engine in _ready:
        return
    with _schema_lock:
        if engine not in _ready:
            chat_metadata.create_all(engine)
            _ready.add(engine)


def clean_chat(value: Any) -> str:
    """The line to keep (checked and normalised as every client string is), or a WebError why not."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise WebError("web.chat.empty")
    return validation.clean_text(value, "chat", CHAT_MAX)


class ChatLog:
    """The lines of one table: all of them in the store, the newest HISTORY in memory (what a
    joining player is sent; holding every line let a chatty seat grow the server for ever)."""

    def __init__(self, table_id: str, engine: Engine) -> None:
        self.table_id = table_id
        self.engine = engine
        self.lines: list[dict[str, Any]] | None = None
        self.next_n = 0
        # load and add run in worker threads (asyncio.to_thread): a joining player's first load
        # could read the rows before a line was stored and then replace the list that line had
        # been appended to, so the line vanished from the history a player sees on coming back
        self._lock = threading.Lock()

    def load(self) -> list[dict[str, Any]]:
        with self._lock:
            return self._loaded()

    def _loaded(self) -> list[dict[str, Any]]:
        if self.lines is None:
            self.lines = self._read()
        return self.lines

    def _read(self) -> list[dict[str, Any]]:
        _ensure_schema(self.engine)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(chat_t.c.n, chat_t.c.seat, chat_t.c.name, chat_t.c.text)
                .where(chat_t.c.table_id == self.table_id)
                .order_by(chat_t.c.n.desc())
                .limit(HISTORY)
            ).all()
        lines = [{"n": r.n, "seat": r.seat, "name": r.name, "text": r.text} for r in reversed(rows)]
        self.next_n = lines[-1]["n"] + 1 if lines else 0
        return lines

    def add(self, seat: int | None, name: str, text: str) -> dict[str, Any]:
        with self._lock:
            lines = self._loaded()
            line = {"n": self.next_n, "seat": seat, "name": name, "text": text}
            with self.engine.begin() as conn:
                conn.execute(insert(chat_t).values(table_id=self.table_id, at=time.time(), **line))
            self.next_n += 1
            lines.append(line)
            del lines[:-HISTORY]
            return line


_logs: dict[str, ChatLog] = {}
_limiter = Limiter(CHAT_RATE, CHAT_BURST)
"""One bucket per seat of a table, so reconnecting does not refill it."""


def forget(table_id: str) -> None:
    """A table the server no longer holds in memory: its lines reload from the store if it
    comes back."""
    _logs.pop(table_id, None)


def chat_log(table: LiveTable) -> ChatLog:
    log = _logs.get(table.id)
    if log is None or log.engine is not table.store.engine:
        log = _logs[table.id] = ChatLog(table.id, table.store.engine)
    return log


async def send_history(table: LiveTable, conn: Conn) -> None:
    """The table's chat so far, to a connection that just joined."""
    lines = await asyncio.to_thread(chat_log(table).load)
    conn.send({"type": "chat", "lines": lines[-HISTORY:], "reset": True})


async def post(table: LiveTable, conn: Conn, value: Any) -> None:
    """A chat line from a seated player: checked, stored, then sent to every connection at the table."""
    seat = conn.seat
    if seat is None:
        raise WebError("web.chat.spectator")
    text = clean_chat(value)
    if _limiter.take((table.id, seat)) > 0:
        raise WebError("web.chat.too_fast")
    async with table.lock:
        if conn.seat != seat:
            # the seat was opened elsewhere while this line waited for the table: it now watches
            raise WebError("web.chat.spectator")
        name = table.names()[seat]
        line = await asyncio.to_thread(chat_log(table).add, seat, name, text)
        for other in table.conns():
            other.send({"type": "chat", "lines": [line]})

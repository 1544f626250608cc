"""A table's connections and seats: who is connected where, and what each seat holds."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

QUEUE_LIMIT = 200
"""Messages a slow client may have waiting before it is disconnected."""
QUEUE_CHARS = 2 * 1024 * 1024
"""Characters a slow client may have waiting before it is disconnected. The count alone let one
address park 64 connections x 200 full resyncs (50 kB each at a long table) in server memory by
asking for resyncs and never reading them."""


class Conn:
    """One WebSocket client: a seat (or None for a spectator), a language and an outbound queue."""

    def __init__(self, lang: str = "en") -> None:
        self.seat: int | None = None
        self.lang = lang
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.queued_chars = 0
        self.closed = False

    def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        if self.queue.qsize() >= QUEUE_LIMIT or self.queued_chars + len(text) > QUEUE_CHARS:
            self.close()
            return
        self.queued_chars += len(text)
        self.queue.put_nowait(text)

    async def next(self) -> str | None:
        """The next message to send, None once closed."""
        text = await self.queue.get()
        if text is not None:
            self.queued_chars -= len(text)
        return text

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            # What was queued would go to a connection that is closing (or too slow to read it):
            # drop it now, not when the socket finally gives up.
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queued_chars = 0
            self.queue.put_nowait(None)


@dataclass
class SeatInfo:
    seat: int
    kind: str
    bot: str | None
    params: dict[str, Any]
    token_hash: str | None
    nickname: str | None
    invite_hash: str | None = None
    """An unclaimed person's seat: the digest of its one-use invite code."""
    away: bool = False
    """A human seat a bot is playing for (timed out or left) until the player comes back."""
    conns: set[Conn] = field(default_factory=set)

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "bot": self.bot,
            "nickname": self.nickname,
            "connected": bool(self.conns),
            "away": self.away,
            "open": self.kind == "human" and self.invite_hash is not None,
        }

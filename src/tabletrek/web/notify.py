"""PostgreSQL LISTEN/NOTIFY: how server processes sharing one database hear of each other's moves.

Every commit of moves sends ``pg_notify('tabletrek', 'm <table id>')`` inside its own transaction
(store.py), so the notification is delivered exactly when the moves become visible, and never for
a move that was rolled back. Each process keeps one autocommit connection (psycopg 3's
``AsyncConnection``) that LISTENs and hands every payload to the manager, which catches the table
up if it holds it. Polling the store stays only as a fallback (``--sync poll``), and as the one way
for several servers to share a SQLite file (``sqlite_claim``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from tabletrek.web.store import CHANNEL

log = logging.getLogger("tabletrek.web")

RETRY = (0.2, 0.5, 1.0, 2.0, 5.0)
"""Seconds between attempts to listen again after the connection was lost."""


def psycopg_url(url: str) -> str:
    """A SQLAlchemy URL (``postgresql+psycopg://``) as libpq takes it."""
    for prefix in ("postgresql+psycopg://", "postgresql+psycopg2://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix) :]
    return url


class Listener:
    def __init__(self, url: str, on_notify: Callable[[str], None], on_gap: Callable[[], None]) -> None:
        self.url = psycopg_url(url)
        self.on_notify = on_notify
        self.on_gap = on_gap
        self.listening = asyncio.Event()
        """Set while LISTEN is in force (tests wait on it)."""
        self.received = 0

    async def run(self) -> None:
        import psycopg  # noqa: PLC0415 - psycopg comes with the [web] extra, needed only for a PostgreSQL URL

        attempt = 0
        first = True
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if not first:
                        log.warning("listening for other server processes' moves again")
                        self.on_gap()  # anything committed while we were not listening
                    first = False
                    attempt = 0
                    async for note in conn.notifies():
                        self.received += 1
                        try:
                            self.on_notify(note.payload)
                        except Exception:
                            log.exception("notification %r could not be handled", note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.listening.clear()
                delay = RETRY[min(attempt, len(RETRY) - 1)]
                attempt += 1
                log.warning("lost the LISTEN connection (%s); retrying in %.1f s", exc, delay)
                first = False
                await asyncio.sleep(delay)

"""Following a table that other server processes also serve (a shared PostgreSQL store).

Moves, seat changes and archiving come in as NOTIFY payloads (notify.py), or from reading the
store. Bursts are coalesced: one task per table works through whatever was asked for.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import IllegalAction
from tabletrek.core.state import State
from tabletrek.web.conns import SeatInfo
from tabletrek.web.eventlog import Step, step
from tabletrek.web.store import Store, TableRow

log = logging.getLogger("tabletrek.web")


class FollowStore:
    """Mixed into LiveTable: what it needs from it is declared here."""

    id: str
    row: TableRow
    store: Store
    executor: Executor
    lock: asyncio.Lock
    state: State
    log: list[Step]
    seats: list[SeatInfo]
    archived: bool
    _sync_task: asyncio.Task[None] | None
    _want: set[str]
    _incoming: list[tuple[int, str | None]]
    _drive_task: asyncio.Task[None] | None
    _yielded_at: float | None

    if TYPE_CHECKING:

        def _demote(self, info: SeatInfo, key: str) -> None: ...
        def _send_seats(self, skip: Any = None) -> None: ...
        def _cancel_clock(self) -> None: ...
        def broadcast(self, start: int | None) -> None: ...
        def _ensure_drive(self) -> None: ...
        def _after_change(self, start: int | None) -> None: ...
        async def _rebuild_from_store(self) -> None: ...

    def request_catch_up(self) -> None:
        self._request("moves")

    def moves_committed(self, seq: int, text: str | None) -> None:
        """A NOTIFY: move ``seq`` (its text, when it fitted in the payload) was committed by some
        process. One this table already has (its own, say) costs nothing; the next one in line is
        applied from the payload without reading the store."""
        if seq < len(self.log) and not self._incoming:
            return
        self._incoming.append((seq, text))
        self._request("incoming")

    def request_seat_refresh(self) -> None:
        self._request("seats")

    def request_archive_check(self) -> None:
        self._request("archive")

    def _request(self, what: str) -> None:
        """Coalesce notifications: one task per table works through whatever was asked for, so a
        burst of NOTIFYs costs one read of the store, not one each."""
        self._want.add(what)
        if self._sync_task is None:
            self._sync_task = asyncio.create_task(self._sync())

    async def _sync(self) -> None:
        try:
            while self._want:
                wanted, self._want = self._want, set()
                if "archive" in wanted:
                    status = await self._run_in_thread(self.store.status, self.id)
                    if status == "archived":
                        await self.archive()
                if "seats" in wanted:
                    await self.refresh_seats()
                if "incoming" in wanted and "moves" not in wanted:
                    await self._apply_incoming()
                if "moves" in wanted:
                    self._incoming.clear()
                    await self.catch_up()
        except Exception:
            log.exception("could not follow table %s from the store", self.id)
        finally:
            self._sync_task = None

    async def _run_in_thread(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    async def refresh_seats(self) -> None:
        """Take seat changes another process made (a claim, a new invite, a nickname)."""
        rows = await self._run_in_thread(self.store.load_seats, self.id)
        async with self.lock:
            changed = False
            for row in rows:
                info = self.seats[row.seat]
                if (info.token_hash, info.invite_hash, info.nickname) != (
                    row.token_hash,
                    row.invite_hash,
                    row.nickname,
                ):
                    changed = True
                    if info.token_hash != row.token_hash:
                        self._demote(info, "web.error.seat_reissued")
                    info.token_hash, info.invite_hash, info.nickname = (
                        row.token_hash,
                        row.invite_hash,
                        row.nickname,
                    )
            if changed:
                self._send_seats()

    async def archive(self) -> None:
        """The table was archived (idle too long): it keeps its record but takes no more moves."""
        async with self.lock:
            if self.archived:
                return
            self.archived = True
            self.row.status = "archived"
            self._cancel_clock()
            if self._drive_task is not None:
                self._drive_task.cancel()
                self._drive_task = None
            self.broadcast(None)

    async def _apply_incoming(self) -> None:
        async with self.lock:
            incoming, self._incoming = sorted(self._incoming, key=lambda m: m[0]), []
            texts: list[str] = []
            for seq, text in incoming:
                if seq < len(self.log) + len(texts):
                    continue
                if seq > len(self.log) + len(texts) or text is None:
                    await self._catch_up_locked()  # a gap, or a move too long for a payload
                    return
                texts.append(text)
            if texts:
                await self._catch_up_locked(texts)

    async def catch_up(self) -> None:
        """Apply actions another server process committed (shared PostgreSQL store)."""
        async with self.lock:
            await self._catch_up_locked()

    async def _catch_up_locked(self, texts: list[str] | None = None) -> None:
        loop = asyncio.get_running_loop()
        have = len(self.log)
        if texts is None:
            texts = await loop.run_in_executor(self.executor, self.store.actions_since, self.id, have)
        if not texts:
            self._ensure_drive()  # the other process went quiet: take the bots back in time
            return
        if self._yielded_at is not None:
            self._yielded_at = time.monotonic()  # it is still moving them
        for text in texts:
            actor = self.state.current_player
            try:
                self.log.append(step(actor, self.state.apply(text)))
            except IllegalAction:
                # this process's copy went astray (it should not): the store is the truth
                log.warning("table %s: a move from another process does not apply; rebuilding", self.id)
                await self._rebuild_from_store()
                self._after_change(None)
                return
        self._after_change(have)

"""Group commit: moves from every table go to the store in one transaction per batch.

Moves gather while the previous commit runs, so under load one commit carries many moves (and
SQLite writes far fewer pages, so its checkpoints come rarely). With PostgreSQL a worker thread
commits and the event loop never waits on a network round trip; with a local SQLite file the
loop commits itself, once per turn of the loop.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor

from tabletrek.web.store import ActionRow, Conflict, Store


class Writer:
    def __init__(self, store: Store, executor: Executor) -> None:
        self.store = store
        self.executor = executor
        self._pending: list[tuple[ActionRow, asyncio.Future[None]]] = []
        self._flushing = False

    async def append(self, row: ActionRow) -> None:
        """Return once the move is committed; raise ``Conflict`` (or the store's error) if not."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((row, future))
        if not self._flushing:
            self._flushing = True
            if self.store.is_sqlite:
                # Local SQLite: commit on the loop itself, once every table that moved in this
                # turn of the loop has queued its move. A commit takes a fraction of a
                # millisecond, less than handing the batch to a thread and back under load
                # (the GIL switch interval alone is 5 ms).
                asyncio.get_running_loop().call_soon(self._flush_here)
            else:
                asyncio.get_running_loop().create_task(self._flush())
        await future

    def _flush_here(self) -> None:
        batch, self._pending = self._pending, []
        self._flushing = False
        try:
            results = self.store.append_actions([row for row, _ in batch])
        except Exception as exc:
            self._fail(batch, exc)
            return
        self._settle(batch, results)

    @staticmethod
    def _fail(batch: list[tuple[ActionRow, asyncio.Future[None]]], exc: BaseException) -> None:
        """The store failed the whole batch: every waiter still waiting hears why."""
        for _, future in batch:
            if not future.done():
                future.set_exception(exc)

    @staticmethod
    def _settle(batch: list[tuple[ActionRow, asyncio.Future[None]]], results: list[Conflict | None]) -> None:
        for (_, future), problem in zip(batch, results, strict=True):
            if future.done():
                continue
            if problem is None:
                future.set_result(None)
            else:
                future.set_exception(problem)

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    results = await loop.run_in_executor(
                        self.executor, self.store.append_actions, [row for row, _ in batch]
                    )
                except Exception as exc:
                    self._fail(batch, exc)
                    continue
                self._settle(batch, results)
        finally:
            self._flushing = False

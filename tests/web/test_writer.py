"""Group commit: many tables' moves in one transaction, and a duplicate fails alone."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from tabletrek.web.store import Conflict, SeatRow, Store, TableRow
from tabletrek.web.writer import Writer


def table(table_id: str) -> TableRow:
    return TableRow(table_id, "touring", 2, {}, 1, None, "h", "live", 0.0, [SeatRow(0, "human")])


@pytest.mark.parametrize("threaded", [False, True])
def test_a_batch_commits_every_move_but_a_duplicate(db_url: str, threaded: bool) -> None:
    store = Store(db_url)
    if threaded:
        store.is_sqlite = False  # take the worker-thread path PostgreSQL uses
    for name in ("tableaaaa1", "tableaaaa2"):
        store.create_table(table(name))
    store.append_action("tableaaaa2", 0, "play go", 0, None)

    async def main() -> list[BaseException | None]:
        writer = Writer(store, ThreadPoolExecutor(max_workers=1))
        moves = [
            writer.append(("tableaaaa1", 0, "play go", 0, None)),
            writer.append(("tableaaaa1", 1, "discard 3", 1, None)),
            writer.append(("tableaaaa2", 0, "discard 15", 0, None)),  # already stored: a conflict
            writer.append(("tableaaaa2", 1, "pass", 1, "over")),
        ]
        return list(await asyncio.gather(*moves, return_exceptions=True))

    results = asyncio.run(main())
    assert results[0] is None and results[1] is None and results[3] is None
    assert isinstance(results[2], Conflict)
    first, second = store.load_table("tableaaaa1"), store.load_table("tableaaaa2")
    assert first is not None and first.actions == ["play go", "discard 3"]
    assert second is not None and second.actions == ["play go", "pass"] and second.status == "over"
    store.close()

"""The chat log's history stays whole when a line is stored while a joining player's history loads."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine

from tabletrek.web.chat import ChatLog


def test_a_line_stored_during_the_first_history_load_is_kept(tmp_path: Path) -> None:
    # Both run in worker threads on the server (asyncio.to_thread). Here the first load has read
    # the (still empty) rows when a line is posted; the posting thread gets up to a second to
    # store and append it before the load keeps what it read. The line must survive either way.
    log = ChatLog("table", create_engine(f"sqlite:///{tmp_path / 'chat.db'}"))
    read = log._read
    poster: list[threading.Thread] = []

    def read_then_post() -> list[dict[str, Any]]:
        rows = read()
        if not poster:
            poster.append(threading.Thread(target=log.add, args=(0, "Ann", "hi")))
            poster[0].start()
            poster[0].join(timeout=1.0)
        return rows

    log._read = read_then_post
    log.load()
    poster[0].join()
    assert [line["text"] for line in log.load()] == ["hi"]
    assert [line["text"] for line in ChatLog("table", log.engine).load()] == ["hi"]  # and stored

"""Crash safety under repeated SIGKILL: a real server is killed at random moments mid-game, 20 times,
and every move it acknowledged is in the store exactly once, in order, and the stored moves replay.
"""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tabletrek.core.registry import load
from tabletrek.web.store import Store, actions_t

from .helpers import ServerProcess

CYCLES = 20


def play_until_killed(server: ServerProcess, table: str, token: str, rng: random.Random) -> dict[int, str]:
    """Play seat 0 as fast as the server acknowledges, while a timer SIGKILLs the server at a
    random moment; the moves acknowledged (move number -> text)."""
    acked: dict[int, str] = {}
    sent: dict[int, str] = {}
    killer = threading.Timer(rng.uniform(0.05, 0.5), server.kill)
    try:
        with connect(f"{server.ws_url}/ws/{table}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            killer.start()
            waiting = False
            latest: dict[str, Any] = {}
            while True:
                message = json.loads(ws.recv(timeout=30))
                if message["type"] == "ack":
                    acked[message["id"]] = sent[message["id"]]
                    waiting = False
                elif message["type"] == "state":
                    if message["over"]:
                        break
                    latest = message
                if not waiting and latest.get("legal") and latest["seq"] not in sent:
                    move = rng.choice(latest["legal"])["text"]
                    sent[latest["seq"]] = move
                    ws.send(
                        json.dumps({"type": "act", "action": move, "seq": latest["seq"], "id": latest["seq"]})
                    )
                    waiting = True
    except (ConnectionClosed, OSError, TimeoutError):
        pass  # killed
    finally:
        killer.cancel()
        server.kill()
    return acked


def stored(db: str, table: str) -> tuple[list[int], list[str], int]:
    store = Store(db)
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(
                select(actions_t.c.seq, actions_t.c.text)
                .where(actions_t.c.table_id == table)
                .order_by(actions_t.c.seq)
            ).all()
        row = store.load_table(table)
        assert row is not None
        return [r[0] for r in rows], [r[1] for r in rows], row.seed
    finally:
        store.close()


def test_sigkill_at_random_moments_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'crash.sqlite3'}"
    server = ServerProcess(db, bot_delay=0.0, log_path=tmp_path / "serve.log")
    rng = random.Random(20)
    game = load("touring", players=2)
    cycles = lost = total_acked = 0
    table: dict[str, Any] | None = None
    all_acked: dict[str, dict[int, str]] = {}
    while cycles < CYCLES:
        server.start()
        if table is None or httpx.get(f"{server.url}/api/tables/{table['table']}").json()["over"]:
            spec = {
                "game": "touring",
                "players": 2,
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            }
            table = httpx.post(f"{server.url}/api/tables", json=spec).json()
        assert table is not None
        acked = play_until_killed(server, table["table"], table["tokens"]["0"], rng)
        cycles += 1
        all_acked.setdefault(table["table"], {}).update(acked)
        seqs, texts, seed = stored(db, table["table"])
        # exactly once and in order: move numbers 0..n-1, each once, and they replay legally
        assert seqs == list(range(len(seqs)))
        state = game.new_game(seed=seed)
        for text in texts:
            state.apply(text)
        for seq, move in all_acked[table["table"]].items():
            if seq >= len(texts) or texts[seq] != move:
                lost += 1
        total_acked += len(acked)
    print(f"kill cycles: {cycles}; moves acknowledged: {total_acked}; lost: {lost}")
    assert cycles >= 20 and total_acked > cycles  # the kills landed mid-game, after moves
    assert lost == 0
    assert "Traceback" not in server.log_path.read_text()

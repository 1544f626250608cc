"""Cross-process move delay: two server processes on one PostgreSQL, a player on each.

    python -m benchmarks.web_notify --db postgresql://postgres@127.0.0.1:55441/postgres --sync both

starts two ``tabletrek serve`` processes on the same database (``--sync poll``: each reads the
store every second for moves the other made, the old way; ``--sync notify``: PostgreSQL
LISTEN/NOTIFY, sent inside each move's transaction), opens ``--tables`` two-person tables with
seat 0 connected to process A and seat 1 to process B, and has each player move as soon as it is
its turn. Measured per move: from the mover sending it to the other player, on the other
process, receiving the state with that move. Printed: p50 / p99 / max in milliseconds.
The database's tt_* tables are dropped first: use a throwaway database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect

OPEN_LIMITS = [
    "create_rate=1e6",
    "create_burst=1e6",
    "join_rate=1e6",
    "join_burst=1e6",
    "http_rate=1e6",
    "ws_address_rate=1e6",
    "ws_address_burst=1e6",
]


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(db: str, sync: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [sys.executable, "-m", "tabletrek", "serve", "--port", str(port), "--db", db, "--sync", sync]
    for item in OPEN_LIMITS:
        command += ["--limit", item]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{base}/favicon.ico", timeout=1).status_code == 204:
                return server, base
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            raise SystemExit("a server did not start")
        time.sleep(0.1)


async def table(a: str, b: str, moves: int, delays: list[float], rng: random.Random) -> None:
    async with httpx.AsyncClient(timeout=30) as http:
        spec = {"game": "touring", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
        created = (await http.post(f"{a}/api/tables", json=spec)).json()
        tid = created["table"]
        claim = await http.post(f"{b}/api/tables/{tid}/claim", json={"invite": created["invites"]["1"]})
        tokens = [created["tokens"]["0"], claim.json()["token"]]
    bases = [a.replace("http", "ws"), b.replace("http", "ws")]
    sent_at: dict[int, tuple[int, float]] = {}
    """move number -> (the seat that sent it, when)"""
    async with connect(f"{bases[0]}/ws/{tid}") as ws0, connect(f"{bases[1]}/ws/{tid}") as ws1:
        sockets = [ws0, ws1]
        for seat, ws in enumerate(sockets):
            await ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
        done = asyncio.Event()

        async def player(seat: int) -> None:
            ws = sockets[seat]
            async for raw in ws:
                message: dict[str, Any] = json.loads(raw)
                if message["type"] != "state":
                    continue
                seq = message["seq"]
                # a move the other player (on the other process) made reaches us
                if seq in sent_at and sent_at[seq][0] != seat:
                    delays.append(time.perf_counter() - sent_at.pop(seq)[1])
                if message["over"] or seq >= moves:
                    done.set()
                    return
                if message["legal"] and seq + 1 not in sent_at:
                    sent_at[seq + 1] = (seat, time.perf_counter())
                    move = rng.choice(message["legal"])["text"]
                    await ws.send(json.dumps({"type": "act", "action": move, "seq": seq}))

        tasks = [asyncio.create_task(player(s)) for s in (0, 1)]
        await done.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def drop_tables(db: str) -> None:
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))
    from tabletrek.web.store import Store, metadata

    store = Store(db)
    metadata.drop_all(store.engine)
    store.close()


def measure(db: str, sync: str, tables: int, moves: int) -> list[float]:
    drop_tables(db)
    (server_a, a), (server_b, b) = start_server(db, sync), start_server(db, sync)
    delays: list[float] = []
    try:

        async def run() -> None:
            rng = random.Random(1)
            await asyncio.gather(*(table(a, b, moves, delays, rng) for _ in range(tables)))

        asyncio.run(run())
    finally:
        for server in (server_a, server_b):
            server.terminate()
            server.wait(timeout=20)
    return delays


def report(sync: str, delays: list[float]) -> None:
    ms = sorted(d * 1000 for d in delays)
    if not ms:
        print(f"{sync}: no moves measured")
        return
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(
        f"{sync:>6}: {len(ms)} cross-process moves; delay p50 {statistics.median(ms):.1f} ms, "
        f"p99 {p99:.1f} ms, max {ms[-1]:.1f} ms"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", default=os.environ.get("TABLETREK_TEST_POSTGRES"), help="a PostgreSQL URL")
    parser.add_argument("--sync", choices=["poll", "notify", "both"], default="both")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--moves", type=int, default=30, help="moves per table")
    args = parser.parse_args(argv)
    if not args.db or not args.db.startswith("postgres"):
        raise SystemExit("--db must be a PostgreSQL URL (or set TABLETREK_TEST_POSTGRES)")
    for sync in ("poll", "notify") if args.sync == "both" else (args.sync,):
        report(sync, measure(args.db, sync, args.tables, args.moves))


if __name__ == "__main__":
    main()

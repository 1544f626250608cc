"""Web server load: N concurrent tables, each one WebSocket player plus bots, all on loopback.

    python -m benchmarks.web_load --tables 500 --seconds 30

starts ``tabletrek serve`` in a child process (pinned to CPU 0 with ``--server-cpu 0``; the load
generator then runs on the other core) with a fresh SQLite store, creates N tables (seat 0 a
WebSocket client, the other seats the game's bot), and has every client play a legal move each
time it is its turn, after ``--think`` seconds (people think; 0 hammers the server). A finished
game is replaced by a new table, so N tables stay live. Printed: moves committed per second
(client and bot moves: every one is stored before it is broadcast), and the client's action
latency (send -> the server's ack, which comes after the commit) as p50 / p99 / max.
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
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Load:
    def __init__(self, args: argparse.Namespace, base: str) -> None:
        self.args = args
        self.base = base
        self.latencies: list[float] = []
        self.server_ms: list[float] = []
        self.moves = 0
        self.games = 0
        self.errors = 0
        self.stop = False
        self.rng = random.Random(args.seed)

    async def create(self, http: httpx.AsyncClient) -> dict[str, Any]:
        seats = [{"kind": "human"}] + [{"kind": "bot", "bot": self.args.bot}] * (self.args.players - 1)
        spec = {"game": self.args.game, "players": self.args.players, "seats": seats}
        response = await http.post(f"{self.base}/api/tables", json=spec)
        response.raise_for_status()
        created: dict[str, Any] = response.json()
        return created

    async def table(self, http: httpx.AsyncClient, index: int) -> None:
        ws_base = self.base.replace("http://", "ws://")
        await asyncio.sleep(index * self.args.ramp / max(1, self.args.tables))
        while not self.stop:
            created = await self.create(http)
            async with connect(f"{ws_base}/ws/{created['table']}", max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "hello", "token": created["tokens"]["0"]}))
                seen = 0
                sent_at: float | None = None
                legal: list[dict[str, str]] = []  # the moves offered by the latest state
                async for raw in ws:
                    message = json.loads(raw)
                    kind = message["type"]
                    if kind == "ack" and sent_at is not None:
                        if self.measuring:
                            self.latencies.append(time.perf_counter() - sent_at)
                            self.server_ms.append(message["ms"])
                        sent_at = None
                    elif kind == "error":
                        self.errors += 1
                        sent_at = None
                    elif kind == "state":
                        if self.measuring:
                            self.moves += max(0, message["seq"] - seen)
                        seen = message["seq"]
                        legal = message["legal"]
                        if message["over"]:
                            if self.measuring:
                                self.games += 1
                            break
                    if self.stop:
                        break
                    # Our move once the previous one is acknowledged: in some games a player moves
                    # several times running, and the state offering the next move arrives before
                    # the ack of the last one.
                    if legal and sent_at is None:
                        if self.args.think:
                            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.args.think)
                        move = self.rng.choice(legal)["text"]
                        legal = []
                        sent_at = time.perf_counter()
                        await ws.send(json.dumps({"type": "act", "action": move, "seq": seen}))

    measuring = False
    lags: list[float]

    async def watch_lag(self) -> None:
        """How late this process's own event loop wakes up: its share of the measured latency."""
        self.lags = []
        while not self.stop:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            if self.measuring:
                self.lags.append(time.perf_counter() - before - 0.01)

    async def run(self) -> None:
        limits = httpx.Limits(max_connections=64)
        async with httpx.AsyncClient(timeout=60, limits=limits) as http:
            tasks = [asyncio.create_task(self.table(http, i)) for i in range(self.args.tables)]
            tasks.append(asyncio.create_task(self.watch_lag()))
            await asyncio.sleep(self.args.ramp + self.args.warmup)
            self.measuring = True
            started = time.perf_counter()
            client0 = time.process_time()
            cpu0 = server_cpu(self.server_pid) if self.server_pid else float("nan")
            await asyncio.sleep(self.args.seconds)
            self.measuring = False
            elapsed = time.perf_counter() - started
            self.client_cpu = time.process_time() - client0
            cpu = server_cpu(self.server_pid) - cpu0 if self.server_pid else float("nan")
            self.stop = True
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        report(self, elapsed, cpu)

    server_pid = 0
    client_cpu = float("nan")


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) the server process has used, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def report(load: Load, elapsed: float, cpu: float) -> None:
    lat = sorted(load.latencies)
    args = load.args
    print(f"tables: {args.tables} ({args.game}, {args.players} players: 1 WebSocket client + bots)")
    print(f"think time: {args.think:g} s, bot delay: {args.bot_delay:g} s, measured {elapsed:.1f} s")
    rate = load.moves / elapsed
    print(f"moves committed: {load.moves} -> {rate:,.0f} actions/s; games finished: {load.games}")
    print(f"server CPU: {cpu:.1f} s in {elapsed:.1f} s ({100 * cpu / elapsed:.0f}% of one core)")
    print(f"load generator CPU: {load.client_cpu:.1f} s ({100 * load.client_cpu / elapsed:.0f}% of one core)")
    if lat:
        p50 = statistics.median(lat) * 1000
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
        worst = lat[-1] * 1000
        print(f"client actions: {len(lat)}; latency p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {worst:.1f} ms")
    if load.server_ms:
        inside = sorted(load.server_ms)
        p50 = statistics.median(inside)
        p99 = inside[min(len(inside) - 1, int(len(inside) * 0.99))]
        print(f"  inside the server (read -> committed -> ack queued): p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    if getattr(load, "lags", None):
        lags = sorted(load.lags)
        p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))] * 1000
        print(
            f"  load generator's own loop lag: p50 {statistics.median(lags) * 1000:.1f} ms, p99 {p99:.1f} ms"
        )
    print(f"errors: {load.errors}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--ramp", type=float, default=5, help="seconds over which the tables are opened")
    parser.add_argument("--game", default="touring")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", default="random")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a client waits before moving")
    parser.add_argument("--bot-delay", type=float, default=0.5, help="seconds a bot waits before moving")
    parser.add_argument("--db", default=None, help="store URL (default: a fresh SQLite file)")
    parser.add_argument("--server-cpu", type=int, default=None, help="pin the server to this CPU")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", default=None, help="load a server already running here instead (loopback)")
    args = parser.parse_args(argv)
    if args.url:
        load = Load(args, args.url.rstrip("/"))
        asyncio.run(load.run())
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
        port = free_port()
        command = [sys.executable, "-m", "tabletrek", "serve", "--port", str(port), "--db", db]
        command += ["--bot-delay", str(args.bot_delay)]
        # every table here comes from one address: lift the per-client limits meant for strangers
        for item in (
            "create_rate=1e6",
            "create_burst=1e6",
            "join_rate=1e6",
            "join_burst=1e6",
            "max_conns=100000",
            "ws_address_rate=1e6",
            "ws_address_burst=1e6",
        ):
            command += ["--limit", item]
        if args.server_cpu is not None:
            command = ["taskset", "-c", str(args.server_cpu), *command]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx.get(f"{base}/api/tables", timeout=1)
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.1)
            load = Load(args, base)
            load.server_pid = server.pid
            asyncio.run(load.run())
        finally:
            server.terminate()
            server.wait(timeout=20)


if __name__ == "__main__":
    main()

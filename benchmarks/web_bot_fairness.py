"""Bot fairness under attack: a person's table while another address runs heavy bot-only tables.

    python -m benchmarks.web_bot_fairness --heavy 8 --seconds 60

starts ``tabletrek serve`` in a child process with a fresh SQLite store. From 127.0.0.2 (the
"attacker") it creates ``--heavy`` bot-only tables of search bots at the largest budget a table
may ask for (``--heavy-game``, ``--heavy-params``) and watches each (bots move only while someone
watches). From 127.0.0.3 a person plays a ``--game`` table against the search bot at its table
default, moving at once on each turn. Printed: the bot-move latency at that table (from the ack of
the person's move to the person's next turn, less the server's bot delay, per bot move) as p50 /
p95 / max, a ping's round trip at that table, the attacker's bot moves committed, and the load
average beside (the machine is shared: read the numbers with it). From 127.0.0.4 a visitor loads
the tables' data (`GET /api/tables/<id>`, what a table's page asks first) four times a second,
each table in turn: the page load while that table's own bot thinks, at the attacker's tables and
at the person's.

``--server-src`` runs the server from another source tree (for a before/after comparison).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

from tabletrek import load

ATTACKER, PERSON, VISITOR = "127.0.0.2", "127.0.0.3", "127.0.0.4"


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def client(address: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address=address), timeout=60)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Run:
    def __init__(self, args: argparse.Namespace, base: str) -> None:
        self.args = args
        self.base = base
        self.ws_base = base.replace("http://", "ws://")
        self.bot_waits: list[float] = []
        self.pings: list[float] = []
        self.heavy_moves = 0
        self.stop = False
        self.heavy_tables: list[str] = []
        self.person_table: str | None = None
        self.page_loads: dict[str, list[float]] = {"heavy": [], "person": []}

    async def heavy_table(self, http: httpx.AsyncClient) -> None:
        game = self.args.heavy_game
        count = load(game).players
        params = json.loads(self.args.heavy_params)
        seats = [{"kind": "bot", "bot": "ismcts", "params": params}] * count
        made = await http.post(f"{self.base}/api/tables", json={"game": game, "seats": seats})
        made.raise_for_status()
        table = made.json()["table"]
        self.heavy_tables.append(table)
        async with connect(f"{self.ws_base}/ws/{table}", max_size=None) as ws:  # a spectator
            await ws.send(json.dumps({"type": "hello"}))
            seen = None
            while not self.stop:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                except TimeoutError:
                    continue
                if message["type"] == "state":
                    if seen is not None and message["seq"] > seen:
                        self.heavy_moves += message["seq"] - seen
                    seen = message["seq"]
                    if message["over"]:
                        return

    async def person(self, http: httpx.AsyncClient) -> None:
        seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "ismcts"}] * (self.args.players - 1)
        spec = {"game": self.args.game, "players": self.args.players, "seats": seats}
        made = (await http.post(f"{self.base}/api/tables", json=spec)).json()
        table, token = made["table"], made["tokens"]["0"]
        self.person_table = table
        async with connect(f"{self.ws_base}/ws/{table}", max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            acked: tuple[float, int] | None = None
            pinged: float | None = None
            next_ping = 0.0
            while not self.stop:
                if pinged is None and time.perf_counter() >= next_ping:
                    pinged = time.perf_counter()
                    next_ping = pinged + 0.5  # well under the per-seat message limit
                    await ws.send(json.dumps({"type": "ping", "id": "p"}))
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                except TimeoutError:
                    continue
                if message["type"] == "pong" and pinged is not None:
                    self.pings.append(time.perf_counter() - pinged)
                    pinged = None
                elif message["type"] == "ack":
                    acked = (time.perf_counter(), message["seq"])
                elif message["type"] == "state":
                    if message["over"]:
                        return
                    if not message["legal"]:
                        continue
                    if acked is not None and message["seq"] > acked[1]:
                        bot_moves = message["seq"] - acked[1]
                        waited = time.perf_counter() - acked[0] - bot_moves * self.args.bot_delay
                        self.bot_waits.append(waited / bot_moves)
                        acked = None
                    if acked is None:
                        move = message["legal"][0]["text"]
                        await ws.send(json.dumps({"type": "act", "action": move, "seq": message["seq"]}))
                        acked = (time.perf_counter(), message["seq"] + 1)  # until the ack says

    async def visitor(self, http: httpx.AsyncClient) -> None:
        turn = 0
        while not self.stop:
            tables = [("heavy", t) for t in self.heavy_tables]
            if self.person_table is not None:
                tables.append(("person", self.person_table))
            if tables:
                kind, table = tables[turn % len(tables)]
                turn += 1
                began = time.perf_counter()
                answer = await http.get(f"{self.base}/api/tables/{table}")
                if answer.status_code == 200:
                    self.page_loads[kind].append(time.perf_counter() - began)
            await asyncio.sleep(0.25)

    async def run(self) -> None:
        async with client(ATTACKER) as attacker, client(PERSON) as person, client(VISITOR) as visitor:
            heavy = [asyncio.create_task(self.heavy_table(attacker)) for _ in range(self.args.heavy)]
            await asyncio.sleep(self.args.warmup)
            people = asyncio.create_task(self.people(person))
            visits = asyncio.create_task(self.visitor(visitor))
            await asyncio.sleep(self.args.seconds)
            self.stop = True
            await asyncio.gather(people, visits, *heavy, return_exceptions=True)

    async def people(self, http: httpx.AsyncClient) -> None:
        while not self.stop:  # a finished game is followed by a new one
            await self.person(http)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--heavy", type=int, default=8, help="the attacker's bot-only tables")
    parser.add_argument("--heavy-game", default="double-crossing")
    parser.add_argument("--heavy-params", default='{"iterations": 10000}')
    parser.add_argument("--game", default="touring")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=10, help="seconds the attack runs before measuring")
    parser.add_argument("--bot-delay", type=float, default=0.6)
    parser.add_argument("--limit", action="append", default=[], help="a server --limit NAME=VALUE")
    parser.add_argument("--server-src", default=None, help="run the server from this source tree")
    args = parser.parse_args(argv)

    folder = Path(tempfile.mkdtemp(prefix="tabletrek-fair-"))
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "tabletrek",
        "serve",
        "--port",
        str(port),
        "--bot-delay",
        str(args.bot_delay),
    ]
    command += ["--db", f"sqlite:///{folder / 'web.sqlite3'}"]
    command += [
        "--limit=create_rate=1000",
        "--limit=create_burst=1000",
        *(f"--limit={x}" for x in args.limit),
    ]
    env = dict(os.environ)
    if args.server_src:
        env["PYTHONPATH"] = args.server_src
    log = (folder / "serve.log").open("wb")
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx.get(f"{base}/favicon.ico", timeout=1).status_code == 204:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        load_before = os.getloadavg()
        run = Run(args, base)
        asyncio.run(run.run())
        load_after = os.getloadavg()
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:  # a bot thread mid-move keeps an old server from exiting
            server.kill()
            server.wait(timeout=30)
        log.close()
    waits, pings = run.bot_waits, run.pings
    print(f"server source: {args.server_src or 'this tree'}; limits: {args.limit or 'defaults'}")
    print(f"attack: {args.heavy} bot-only {args.heavy_game} tables, ismcts {args.heavy_params}")
    print(f"load average (1/5/15 min) before: {' '.join(f'{x:.2f}' for x in load_before)}")
    after = " ".join(f"{x:.2f}" for x in load_after)
    print(f"load average (1/5/15 min) after:  {after}  on {os.cpu_count()} cores")
    if waits:
        print(
            f"bot move at the person's {args.game} table: n={len(waits)}"
            f"  p50 {statistics.median(waits) * 1000:.0f} ms"
            f"  p95 {percentile(waits, 0.95) * 1000:.0f} ms  max {max(waits) * 1000:.0f} ms"
        )
    else:
        print("bot move at the person's table: no bot move in the time measured")
    if pings:
        print(
            f"ping at that table: n={len(pings)} p50 {statistics.median(pings) * 1000:.1f} ms"
            f"  p95 {percentile(pings, 0.95) * 1000:.1f} ms"
        )
    for kind, where in (("heavy", "the attacker's tables"), ("person", "the person's table")):
        loads = run.page_loads[kind]
        if loads:
            print(
                f"table data (GET /api/tables/<id>) at {where}: n={len(loads)}"
                f"  p50 {statistics.median(loads) * 1000:.1f} ms"
                f"  p95 {percentile(loads, 0.95) * 1000:.1f} ms  max {max(loads) * 1000:.0f} ms"
            )
    print(f"the attacker's bot moves committed while measured and before: {run.heavy_moves}")
    tracebacks = (folder / "serve.log").read_text(errors="replace").count("Traceback")
    print(f"tracebacks in the server's log: {tracebacks}")


if __name__ == "__main__":
    main()

"""10,000 fuzzed WebSocket messages and 3,000 fuzzed HTTP requests at a real server: no 5xx, no
traceback in its log, and the server still serves afterwards.

The rate limits are raised for this server (``--limit``) so that every message reaches the
handlers; the limits themselves are tested in test_security.py.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from .fuzz import http_request, ws_message
from .helpers import ServerProcess

WS_MESSAGES = 10_000
HTTP_REQUESTS = 3_000
WORKERS = 20
OPEN = [
    f"{name}={value}"
    for name, value in (
        ("ws_rate", 1e6),
        ("ws_burst", 1e6),
        ("ws_address_rate", 1e6),
        ("ws_address_burst", 1e6),
        ("http_rate", 1e6),
        ("http_burst", 1e6),
        ("join_rate", 1e6),
        ("join_burst", 1e6),
        ("create_rate", 1e6),
        ("create_burst", 1e6),
        ("max_conns", 1000),
    )
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("fuzz")
    args = [f"--limit={item}" for item in OPEN]
    proc = ServerProcess(f"sqlite:///{folder / 'fuzz.sqlite3'}", args=args, log_path=folder / "serve.log")
    yield proc.start()
    proc.stop()


def tables(server: ServerProcess) -> list[dict[str, Any]]:
    """A table of every game, every person's seat claimed: (id, host token, seat tokens)."""
    out = []
    with httpx.Client(timeout=30) as http:
        for game in ("touring", "codenames-duet", "mexican-train", "double-crossing"):
            spec = {"game": game, "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
            created = http.post(f"{server.url}/api/tables", json=spec).json()
            tokens = [created["tokens"]["0"]]
            tokens.append(
                http.post(
                    f"{server.url}/api/tables/{created['table']}/claim",
                    json={"invite": created["invites"]["1"]},
                ).json()["token"]
            )
            out.append({"table": created["table"], "host": created["host"], "tokens": tokens})
        bots = {"game": "touring", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}], "seed": 3}
        created = http.post(f"{server.url}/api/tables", json=bots).json()
        out.append({"table": created["table"], "host": created["host"], "tokens": [created["tokens"]["0"]]})
    return out


async def ws_worker(
    server: ServerProcess, rng: random.Random, table: dict[str, Any], count: int, stats: Counter[str]
) -> None:
    """Send ``count`` fuzzed messages in batches of 10, each batch followed by a ping whose pong
    shows the server has handled the whole batch (it handles one connection's messages in order)."""
    sent = 0
    batch = 0
    while sent < count:
        try:
            async with connect(f"{server.ws_url}/ws/{table['table']}", max_size=2**24) as ws:
                stats["connections"] += 1
                token = rng.choice([*table["tokens"], None])
                await ws.send(json.dumps({"type": "hello", "token": token}))
                latest: dict[str, Any] = {"legal": [], "seq": 0, "pong": None}
                pong = asyncio.Event()

                async def read(latest: dict[str, Any] = latest, pong: asyncio.Event = pong) -> None:
                    async for raw in ws:
                        message = json.loads(raw)
                        stats[f"in:{message['type']}"] += 1
                        if message["type"] == "state":
                            latest["legal"] = [m["text"] for m in message["legal"]]
                            latest["seq"] = message["seq"]
                        elif message["type"] == "pong" and message.get("id") == latest["pong"]:
                            pong.set()

                reader = asyncio.create_task(read())
                try:
                    while sent < count and not reader.done():
                        for _ in range(min(10, count - sent)):
                            message = ws_message(rng, latest["legal"], latest["seq"], table["tokens"])
                            await ws.send(message)
                            if isinstance(message, str) and '"type": "chat"' in message:
                                stats["sent:chat"] += 1
                            sent += 1
                            stats["sent"] += 1
                        batch += 1
                        latest["pong"] = f"sync-{batch}"
                        pong.clear()
                        await ws.send(json.dumps({"type": "ping", "id": latest["pong"]}))
                        try:
                            await asyncio.wait_for(pong.wait(), timeout=60)
                        except TimeoutError:
                            stats["stalled"] += 1
                            break
                finally:
                    reader.cancel()
                    await asyncio.gather(reader, return_exceptions=True)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            stats[f"closed:{code}"] += 1


async def fuzz_ws(server: ServerProcess, targets: list[dict[str, Any]]) -> Counter[str]:
    stats: Counter[str] = Counter()
    per = WS_MESSAGES // WORKERS
    await asyncio.gather(
        *(
            ws_worker(server, random.Random(1000 + i), targets[i % len(targets)], per, stats)
            for i in range(WORKERS)
        )
    )
    return stats


async def fuzz_http(server: ServerProcess, targets: list[dict[str, Any]]) -> tuple[Counter[int], list[str]]:
    """Each status's count, and every answer under ``/api/`` that was not JSON (a client of the
    API reads every answer, refusals included, as JSON)."""
    rng = random.Random(7)
    requests = [
        http_request(rng, [t["table"] for t in targets], [t["host"] for t in targets])
        for _ in range(HTTP_REQUESTS)
    ]
    statuses: Counter[int] = Counter()
    not_json: list[str] = []
    gate = asyncio.Semaphore(12)
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:

        async def one(request: dict[str, Any]) -> None:
            async with gate:
                response = await http.request(**request)
                statuses[response.status_code] += 1
                # the path as sent: httpx resolves '..' segments before the server sees them
                sent = response.request.url.raw_path.decode("ascii")
                if sent.startswith("/api/") and response.headers.get("content-type") != "application/json":
                    not_json.append(f"{request['method']} {sent[:80]}: {response.status_code}")

        await asyncio.gather(*(one(r) for r in requests))
    return statuses, not_json


def test_fuzzed_websocket_messages_and_http_requests_get_no_5xx_and_no_traceback(
    server: ServerProcess, tmp_path: Path
) -> None:
    targets = tables(server)
    ws_stats = asyncio.run(fuzz_ws(server, targets))
    statuses, not_json = asyncio.run(fuzz_http(server, targets))
    log = server.log_text()
    five_xx = sum(n for code, n in statuses.items() if code >= 500)
    tracebacks = log.count("Traceback")
    internal_closes = ws_stats["closed:1011"]
    summary = (
        f"fuzzed: {ws_stats['sent']} WebSocket messages ({ws_stats['sent:chat']} chat, "
        f"{ws_stats['in:error']} errors answered, "
        f"{ws_stats['connections']} connections), {sum(statuses.values())} HTTP requests "
        f"{dict(sorted(statuses.items()))}; 5xx: {five_xx}; WebSocket 1011 closes: {internal_closes}; "
        f"tracebacks in the log: {tracebacks}"
    )
    print(summary)
    (tmp_path / "summary.txt").write_text(summary)
    assert ws_stats["sent"] == WS_MESSAGES and sum(statuses.values()) == HTTP_REQUESTS
    assert ws_stats["stalled"] == 0, summary  # every batch was handled
    assert ws_stats["in:error"] > WS_MESSAGES // 3  # the junk was answered with reasons
    assert ws_stats["in:state"] > 0 and statuses[200] > 0 and statuses[400] > 0
    assert ws_stats["sent:chat"] > WS_MESSAGES // 20  # the chat handler had its share of the junk
    assert five_xx == 0, summary
    assert not_json == [], not_json[:10]
    assert internal_closes == 0, summary
    assert tracebacks == 0, log[log.find("Traceback") - 200 : log.find("Traceback") + 3000]
    # and it still serves: a fresh table, a move at it
    assert httpx.get(f"{server.url}/api/games").status_code == 200
    assert tables(server)

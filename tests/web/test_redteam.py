"""A second attack on a real ``tabletrek serve`` on loopback, at the connection level: what the
first hardening left open. Idle sockets, half-sent or huge headers, bodies sent a byte at a time, a
client leaving in the middle of its body, one address (or one IPv6 /48) holding every socket, and
numbers in paths. Every test checks the server's log for tracebacks; each says what an attacker
could do before. The table-level attacks are in test_redteam_tables.py.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from .helpers import ServerProcess, receive_within
from .redteam import WAIT, closed_by_server, closed_within, dial, no_traceback, served, start

HEADER_SECONDS = 1.5
BODY_SECONDS = 2.0
CONNS_PER_ADDRESS = 8


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    limits = {
        "header_seconds": HEADER_SECONDS,
        "body_seconds": BODY_SECONDS,
        "max_http_conns": CONNS_PER_ADDRESS,
    }
    proc = start(tmp_path_factory.mktemp("redteam"), **limits)
    yield proc
    proc.stop()
    assert "Traceback" not in proc.log_text()


# ----- bodies -----------------------------------------------------------------------------------


def table_paths(server: ServerProcess) -> list[str]:
    spec = {"game": "touring", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
    table = httpx.post(f"{server.url}/api/tables", json=spec, timeout=WAIT).json()["table"]
    return ["/api/tables", f"/api/tables/{table}/claim", f"/api/tables/{table}/public"]


@pytest.mark.parametrize("chunked", [False, True])
def test_a_client_leaving_in_the_middle_of_its_body_leaves_no_traceback(
    server: ServerProcess, chunked: bool
) -> None:
    # Before: starlette's ClientDisconnect escaped the body reader, and every such request put a
    # 30-line traceback in the log: anyone could fill the operator's disk and bury real errors.
    for number, path in enumerate(table_paths(server)):
        sock = dial(server, 20 + number)
        head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        if chunked:
            sock.sendall(f'{head}Transfer-Encoding: chunked\r\n\r\n5\r\n{{"gam\r\n'.encode())
        else:
            sock.sendall(f'{head}Content-Length: 1000\r\n\r\n{{"game"'.encode())
        time.sleep(0.3)
        sock.close()
    assert served(server, 30) == 200
    no_traceback(server)


def test_a_body_sent_a_byte_at_a_time_is_cut_off_with_408(server: ServerProcess) -> None:
    # Before: a 60 KB body sent one byte a second held its request (and a socket) for 17 hours.
    sock = dial(server, 3)
    sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n")
    sock.sendall(b"Content-Length: 60000\r\n\r\n")
    answer = bytearray()
    stop = threading.Event()

    def trickle() -> None:
        while not stop.is_set():
            try:
                sock.send(b" ")
            except OSError:
                return
            stop.wait(0.2)

    sender = threading.Thread(target=trickle)
    sender.start()
    try:
        sock.settimeout(WAIT)
        while chunk := sock.recv(65536):
            answer.extend(chunk)
    except OSError:
        pass
    finally:
        stop.set()
        sender.join()
        sock.close()
    assert answer.startswith(b"HTTP/1.1 408"), bytes(answer[:200])
    assert b'"key":"web.error.too_slow"' in answer
    no_traceback(server)


# ----- sockets ----------------------------------------------------------------------------------


def test_idle_and_half_sent_requests_are_closed(server: ServerProcess) -> None:
    # Before: a socket that never sent a byte, or sent headers a line at a time for ever, was held
    # open for ever; a few thousand of them used up the server's file descriptors, and then nobody
    # could connect at all.
    idle = dial(server, 4)
    half = dial(server, 5)
    half.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
    stop = threading.Event()

    def dribble() -> None:  # slowloris: a new header line now and then, never the blank line
        number = 0
        while not stop.wait(0.3):
            number += 1
            try:
                half.sendall(f"X-{number}: y\r\n".encode())
            except OSError:
                return

    sender = threading.Thread(target=dribble)
    sender.start()
    try:
        assert closed_by_server(idle)
        assert closed_by_server(half)
    finally:
        stop.set()
        sender.join()
        idle.close()
        half.close()
    assert served(server, 4) == 200
    no_traceback(server)


def test_a_kept_alive_connection_still_serves_its_next_request(server: ServerProcess) -> None:
    # The header deadline starts again after each answer: a browser's keep-alive connection that
    # sends its next request in time is served (the deadline is no idle cut for good clients).
    client = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.6"), timeout=WAIT)
    with client:
        for _ in range(3):
            assert client.get(f"{server.url}/api/games").status_code == 200
            time.sleep(HEADER_SECONDS / 5)


def test_one_address_cannot_hold_every_socket(tmp_path: Path) -> None:
    # Before: one address could open sockets until the server had no file descriptor left.
    # A server whose header deadline is long, so only the per-address cap can close them.
    args = [f"--limit=max_http_conns={CONNS_PER_ADDRESS}", "--limit=header_seconds=120"]
    proc = ServerProcess(f"sqlite:///{tmp_path / 'web.sqlite3'}", args=args, log_path=tmp_path / "serve.log")
    proc.start()
    socks: list[socket.socket] = []
    try:
        socks = [dial(proc, 7) for _ in range(3 * CONNS_PER_ADDRESS)]
        refused = closed_within(socks, 2 * CONNS_PER_ADDRESS)
        assert len(refused) == 2 * CONNS_PER_ADDRESS
        assert served(proc, 8) == 200  # another address is served meanwhile
        for sock in socks:
            sock.close()
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:  # the held sockets are released once closed
            try:
                if served(proc, 7) == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            raise AssertionError("the address stayed locked out after closing its sockets")
    finally:
        for sock in socks:
            sock.close()
        proc.stop()
    assert "Traceback" not in proc.log_text()


def test_websocket_connections_do_not_count_against_the_http_cap(server: ServerProcess) -> None:
    # A player's open table is one upgraded socket for as long as the game runs: the app's own
    # WebSocket cap (max_conns) counts those, the HTTP cap must not lock the player's other
    # requests out.
    spec = {"game": "touring", "players": 2}
    created = httpx.post(f"{server.url}/api/tables", json={**spec, "seed": 3}, timeout=WAIT).json()
    url = f"ws://127.0.0.1:{server.port}/ws/{created['table']}"
    with contextlib.ExitStack() as stack:
        sockets = []
        for _ in range(CONNS_PER_ADDRESS + 2):
            ws = stack.enter_context(connect(url, sock=dial(server, 9), open_timeout=WAIT))
            ws.send(json.dumps({"type": "hello"}))
            assert json.loads(ws.recv(timeout=WAIT))["type"] in ("state", "chat")
            sockets.append(ws)
        assert served(server, 9) == 200
        for ws in sockets:  # every one of them still open
            ws.send(json.dumps({"type": "ping", "id": 1}))
            while json.loads(ws.recv(timeout=WAIT))["type"] != "pong":
                pass
    no_traceback(server)


def test_headers_are_limited_in_size_while_they_arrive(server: ServerProcess) -> None:
    # Before: one header line was buffered without limit (77 MB sent in 12 s grew the server by
    # 140 MB, a few MB a second of copying on one core, from one socket): 64 sockets of one
    # address could run the server out of memory before any deadline.
    sock = dial(server, 18)
    sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: ")
    sent = 0
    try:
        while sent < 300 << 20:
            sock.sendall(b"a" * (1 << 16))
            sent += 1 << 16
    except OSError:
        pass  # the server answered and closed
    answer = b""
    with contextlib.suppress(OSError):
        answer = sock.recv(200)
    sock.close()
    assert sent < 16 << 20, f"the server read {sent >> 20} MB of headers"
    assert answer == b"" or answer.startswith(b"HTTP/1.1 4"), answer
    assert served(server, 18) == 200
    no_traceback(server)


def test_one_ipv6_48_cannot_hold_every_socket_either() -> None:
    # Before: the socket cap counted per /64, so one /48 could hold 65,536 x 64 sockets. (Loopback
    # has no second IPv6 /48 to dial from, so the count itself is tested here.)
    from tabletrek.web.ratelimit import ConnectionCount

    count = ConnectionCount(limit=2, wide_limit=5)
    held = [count.take(f"2001:db8:1:{n:x}::1") for n in range(8)]  # one socket from each /64
    assert all(keys is not None for keys in held[:5])
    assert held[5:] == [None, None, None]
    assert count.take("2001:db8:2::1") is not None  # another /48
    assert count.take("192.0.2.1") and count.take("192.0.2.1") and count.take("192.0.2.1") is None
    keys = held[0]
    assert keys is not None
    count.give_back(keys)
    assert count.take("2001:db8:1:ff::1") is not None  # a socket given back frees its /48's place


def test_one_ipv6_48_cannot_hold_every_websocket_either(tmp_path: Path) -> None:
    # Before: open WebSockets were capped per /64 only (64 each): a /48's 65,536 /64s could hold
    # millions, each a socket, and run the server out of file descriptors.
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from tabletrek.web.app import create_app
    from tabletrek.web.ratelimit import Limits

    limits = Limits(max_conns=2)
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0, limits=limits)
    with TestClient(app) as first, contextlib.ExitStack() as stack:
        table = first.post("/api/tables", json={"game": "touring", "players": 2, "seed": 1}).json()["table"]
        outcomes = []
        for subnet in range(4 * limits.max_conns + 2):  # one WebSocket from each /64 of one /48
            client = TestClient(app, client=(f"2001:db8:9:{subnet:x}::1", 40000))
            ws = stack.enter_context(client.websocket_connect(f"/ws/{table}"))
            ws.send_text(json.dumps({"type": "ping", "id": 1}))
            try:
                outcomes.append(receive_within(ws)["type"])
            except WebSocketDisconnect:
                outcomes.append("closed")
        assert outcomes.count("pong") == 4 * limits.max_conns, outcomes
        assert outcomes[-2:] == ["error", "error"]  # too_many, then the socket is closed


# ----- paths ------------------------------------------------------------------------------------


@pytest.mark.parametrize("number", ["%C2%B2", "%E2%91%A0", "%D9%A3", "1_0", "%EF%BC%91"])
def test_a_number_in_a_path_is_ascii_digits_or_a_4xx(server: ServerProcess, number: str) -> None:
    # Before: "²" (and "①") pass str.isdigit() but int() refuses them, so /replay/² answered 500
    # with a traceback in the log (and uvicorn dropped the connection).
    spec = {"game": "touring", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
    created = httpx.post(f"{server.url}/api/tables", json=spec, timeout=WAIT).json()
    table, host = created["table"], created["host"]
    with httpx.Client(timeout=WAIT) as http:
        replay = http.get(f"{server.url}/api/tables/{table}/replay/{number}")
        invite = http.post(
            f"{server.url}/api/tables/{table}/seats/{number}/invite", headers={"x-host-token": host}
        )
        viewer = http.get(f"{server.url}/api/tables/{table}/replay", params={"viewer": number})
    for answer in (replay, invite, viewer):
        assert 400 <= answer.status_code < 500, answer.text
        assert answer.json()["type"] == "error"
    no_traceback(server)

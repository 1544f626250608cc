"""Shared by the red-team tests (test_redteam*.py): sockets from other loopback addresses, and
reading a server's answers to one message."""

from __future__ import annotations

import json
import select
import socket
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection

from .helpers import ServerProcess

WAIT = 30.0
"""Seconds a test waits for the server to act (far above every limit set: never a timing claim)."""


def start(folder: Path, **limits: float) -> ServerProcess:
    """``tabletrek serve`` with ``limits``, its log kept in ``folder``. The red-team tests create
    many tables from one address: creation limits are lifted (tested in test_security.py)."""
    limits = {"create_rate": 1000, "create_burst": 1000, **limits}
    args = [f"--limit={name}={value}" for name, value in limits.items()]
    return ServerProcess(
        f"sqlite:///{folder / 'web.sqlite3'}", args=args, log_path=folder / "serve.log"
    ).start()


def from_address(last: int) -> socket.socket:
    """A TCP socket from 127.0.0.<last>: to the server, another client address (127.0.0.1 is
    where a reverse proxy would be, which the server trusts and does not cap)."""
    sock = socket.socket()
    sock.bind((f"127.0.0.{last}", 0))
    sock.settimeout(WAIT)
    return sock


def dial(server: ServerProcess, last: int = 2) -> socket.socket:
    sock = from_address(last)
    sock.connect(("127.0.0.1", server.port))
    return sock


def closed_by_server(sock: socket.socket, seconds: float = WAIT) -> bool:
    """True once the server closes ``sock`` (whatever it answered first), False if it stays open."""
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except OSError:
        pass  # reset by the server: closed too
    return True


def closed_within(socks: list[socket.socket], expected: int, seconds: float = WAIT) -> set[socket.socket]:
    """The sockets the server closed, waiting until ``expected`` are (or ``seconds`` pass), then a
    moment more in case it closes more than it should."""
    closed: set[socket.socket] = set()
    deadline = time.monotonic() + seconds
    settle: float | None = None
    while time.monotonic() < (settle or deadline):
        ready, _, _ = select.select([s for s in socks if s not in closed], [], [], 0.1)
        for sock in ready:
            try:
                if not sock.recv(65536):
                    closed.add(sock)
            except OSError:
                closed.add(sock)
        if settle is None and len(closed) >= expected:
            settle = time.monotonic() + 1.0
    return closed


def client_from(last: int) -> httpx.Client:
    """An HTTP client from 127.0.0.<last> (see ``from_address``)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=f"127.0.0.{last}"), timeout=WAIT)


def served(server: ServerProcess, last: int) -> int:
    with client_from(last) as client:
        return client.get(f"{server.url}/api/games").status_code


def no_traceback(server: ServerProcess) -> None:
    time.sleep(0.5)  # the log is written by another process
    assert "Traceback" not in server.log_text(), server.log_text()[-3000:]


def seated(server: ServerProcess, game: str, **spec: object) -> tuple[str, dict[str, str]]:
    """A table of two people, both seats claimed: its id and the seats' tokens."""
    body = {"game": game, "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}], **spec}
    created = httpx.post(f"{server.url}/api/tables", json=body, timeout=WAIT).json()
    tokens = dict(created["tokens"])
    for seat, code in created["invites"].items():
        answer = httpx.post(f"{server.url}/api/tables/{created['table']}/claim", json={"invite": code})
        tokens[seat] = answer.json()["token"]
    return created["table"], tokens


def answer_to(ws: ClientConnection, raw: str | bytes) -> list[dict[str, Any]]:
    """The errors, acks and chat lines the server sends in answer to ``raw`` (a ping after it
    marks the end; the ping has its own id, so an answer is never mistaken for another's)."""
    marker = time.monotonic_ns()
    ws.send(raw)
    ws.send(json.dumps({"type": "ping", "id": marker}))
    out: list[dict[str, Any]] = []
    while True:
        message = json.loads(ws.recv(timeout=WAIT))
        if message["type"] == "pong" and message["id"] == marker:
            return out
        if message["type"] in ("error", "ack") or (message["type"] == "chat" and not message.get("reset")):
            out.append(message)

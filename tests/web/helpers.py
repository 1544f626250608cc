"""Helpers for the web tests: creating tables and talking over the WebSocket."""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable
from typing import Any

import pytest
from starlette.testclient import TestClient

Message = dict[str, Any]


def create_table(
    client: TestClient, game: str = "touring", seats: list[Any] | None = None, **spec: Any
) -> Message:
    """A table; every person's seat is claimed at once, so ``tokens`` holds one token per person
    (the creator's from the answer, the others' from claiming their invites)."""
    body: dict[str, Any] = {"game": game, "players": 2, **spec}
    people = sum(1 for s in seats if s.get("kind") == "human") if seats is not None else 1
    if people <= 1:
        body.setdefault("seed", 11)  # a practice table: its creator may choose the seed
    if seats is not None:
        body["seats"] = seats
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    created: Message = response.json()
    for seat, code in created.get("invites", {}).items():
        created["tokens"][seat] = claim(client, created["table"], code)
    return created


def claim(client: Any, table: str, code: str) -> str:
    """Claim a seat through its invite code; the seat's fresh token."""
    response = client.post(f"/api/tables/{table}/claim", json={"invite": code})
    assert response.status_code == 200, response.text
    token: str = response.json()["token"]
    return token


def live(client: TestClient, table_id: str) -> Any:
    """The server's LiveTable (for checking that the state did not change)."""
    return client.app.state.manager.tables[table_id]


WAIT = 60.0
"""Seconds a test waits for one socket message. The test client's receive has no timeout, so a
message the server never sends held the test until the run's 10-minute limit, and then failed it
with a stack dump instead of what was awaited."""


def receive_within(ws: Any, seconds: float = WAIT) -> Message:
    """The next message on ``ws``, read in a thread so a message that never comes fails in time."""
    box: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)

    def read() -> None:
        try:
            box.put((True, ws.receive_json()))
        except BaseException as exc:  # handed to the test's thread, which raises it
            box.put((False, exc))

    threading.Thread(target=read, daemon=True).start()
    try:
        ok, value = box.get(timeout=seconds)
    except queue.Empty:
        raise AssertionError(f"no message came in {seconds:g} s") from None
    if not ok:
        raise value
    message: Message = value
    return message


def receive_until(ws: Any, wanted: Callable[[Message], bool], limit: int = 200) -> Message:
    for _ in range(limit):
        message = receive_within(ws)
        if wanted(message):
            return message
    raise AssertionError("the expected message never came")


def hello(ws: Any, token: str | None = None, **extra: Any) -> Message:
    ws.send_text(json.dumps({"type": "hello", "token": token, **extra}))
    return receive_until(ws, lambda m: m["type"] in ("state", "error"))


def send(ws: Any, message: Any) -> None:
    ws.send_text(message if isinstance(message, str) else json.dumps(message))


def expect_error(ws: Any) -> Message:
    return receive_until(ws, lambda m: m["type"] == "error")


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ServerProcess:
    """``tabletrek serve`` in a child process on a loopback port (killable, restartable).

    Its log (stderr) goes to a file, read by ``log_text`` (a pipe nobody reads would fill and
    stall the server)."""

    def __init__(
        self, db_url: str, bot_delay: float = 0.0, *, args: list[str] | None = None, log_path: Any = None
    ) -> None:
        import tempfile
        from pathlib import Path

        self.db_url = db_url
        self.bot_delay = bot_delay
        self.args = list(args or [])
        self.port = free_port()
        self.proc: Any = None
        if log_path is None:
            import os
            import weakref

            handle, name = tempfile.mkstemp(prefix="tabletrek-serve-", suffix=".log")
            os.close(handle)
            log_path = name
            weakref.finalize(self, Path(name).unlink, missing_ok=True)  # a log nobody asked to keep
        self.log_path = Path(log_path)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def log_text(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def start(self) -> ServerProcess:
        import os
        import subprocess
        import sys
        import time

        import httpx

        command = [sys.executable, "-m", "tabletrek", "serve", "--port", str(self.port)]
        command += ["--db", self.db_url, "--bot-delay", str(self.bot_delay), *self.args]
        env = {**os.environ, "TABLETREK_LANG": "en"}
        log = self.log_path.open("ab")
        try:
            self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log, env=env)
        finally:
            log.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/favicon.ico", timeout=1).status_code == 204:
                    return self
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        import signal

        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except Exception:
                self.kill()

    def rss_kib(self) -> int:
        """The server process's resident memory now (VmRSS in /proc/<pid>/status), in KiB."""
        from pathlib import Path

        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS")


TRAFFIC = pytest.StashKey[list[str]]()
"""Where a browser test's ``record_traffic`` lines are kept on its pytest item (conftest.py)."""


def record_traffic(page: Any) -> list[str]:
    """What ``page`` asks for and hears back, one line each, timed from now: read when a browser
    test fails, so a wait that ran out says which request never came back (or was never sent)."""
    import time

    start = time.monotonic()
    lines: list[str] = []

    def note(what: str) -> None:
        lines.append(f"{time.monotonic() - start:8.3f}  {what}")

    page.on("request", lambda r: note(f"-> {r.method} {r.url}"))
    page.on("response", lambda r: note(f"<- {r.status} {r.url}"))
    page.on("requestfailed", lambda r: note(f"!! {r.url} {r.failure}"))
    page.on("websocket", lambda ws: note(f"ws {ws.url}"))
    page.on("console", lambda m: note(f"console.{m.type}: {m.text}"))
    page.on("pageerror", lambda exc: note(f"page error: {exc}"))
    return lines


SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
"""The browser tests' screen sizes: a desktop and a 390 px phone."""


EVERY_IMPACT = ("minor", "moderate", "serious", "critical")


FINITE_ANIMATIONS_DONE = """() => Promise.all(document.getAnimations()
    .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
    .map((a) => a.finished.catch(() => null)))"""
"""A script that resolves once every animation that ends has ended (one cancelled counts)."""


def assert_axe_clean(page: Any, where: str, impacts: tuple[str, ...] = ("serious", "critical")) -> None:
    """axe-core finds nothing of these ``impacts`` on ``page`` as it is now."""
    from axe_playwright_python.sync_playwright import Axe  # the browser tests' extra

    # The page at rest, as a reader sees it: a scan taken mid-animation measured a count still
    # popping in from opacity 0.3 ('.changed') and failed its contrast on a loaded machine.
    page.evaluate(FINITE_ANIMATIONS_DONE)
    results = Axe().run(page)
    bad = [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in impacts
    ]
    assert not bad, f"{where}: {bad}"

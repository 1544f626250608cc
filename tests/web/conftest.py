"""Fixtures for the web tests: an in-process app (Starlette TestClient) and helpers for its WebSocket."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tabletrek.web.app import create_app

from .helpers import TRAFFIC, ServerProcess


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    app = create_app(db_url, bot_delay=0)
    with TestClient(app) as test_client:
        yield test_client


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """A failed browser test's report carries the page's traffic and its server's last log lines.

    The rare waits that run out only under load (CI 4 Dec 2026: a lobby whose table lists never
    came back after a language switch) could not be reproduced here; the next one says where it
    stopped."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    traffic = item.stash.get(TRAFFIC, None)
    if traffic:
        # the last lines: where a page stopped is at the end, and CI shows a failure's excerpt only
        report.sections.append(("browser traffic (seconds since the page opened)", "\n".join(traffic[-120:])))
    server = item.funcargs.get("server") if isinstance(item, pytest.Function) else None
    log = server.log_text().splitlines()[-40:] if isinstance(server, ServerProcess) else []
    if log:
        report.sections.append(("server log (last lines)", "\n".join(log)))

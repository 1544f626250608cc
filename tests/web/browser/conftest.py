"""The browser tests' fixtures: a server process, the system Chromium driven by Playwright, a page.

Here rather than in one test module, so each browser test file takes them by name as pytest
means fixtures to be taken. A module may define its own ``server`` (other limits, another bot
delay): its definition wins for its tests. A machine without Playwright or Chromium skips the
tests that ask for a browser, and says why.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..helpers import TRAFFIC, ServerProcess, record_traffic
from .pages import TIMEOUT

CHROMIUM = os.environ.get("TABLETREK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("browser") / "web.sqlite3"
    # Every test of a module creates tables from one loopback address: more than the default burst
    # of ten a client may create, which would refuse the later ones (the limit has its own tests).
    limits = ["--limit", "create_burst=200", "--limit", "create_wide_burst=200"]
    process = ServerProcess(f"sqlite:///{db}", bot_delay=0.05, args=limits).start()
    yield process
    process.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A phone-sized page whose uncaught errors fail the test that used it."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    request.node.stash[TRAFFIC] = record_traffic(page)  # shown if the test fails (../conftest.py)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors

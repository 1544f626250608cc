"""When the server cannot be reached, in a real headless Chromium: each page says so in the
reader's language and offers to ask again, instead of stopping blank or on a dead button.

Requests are cut here with Playwright's routing: aborted (what the browser sees while offline or
while the server restarts) or answered by a stand-in for a gateway's HTML error page.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from ..helpers import ServerProcess
from .pages import LOBBY_TITLE, urls_with

pytestmark = pytest.mark.browser

UNREACHABLE = {"en": "The server could not be reached", "zh-Hant": "連不上伺服器"}
TRY_AGAIN = {"en": "Try again", "zh-Hant": "再試一次"}


def refuse(page: Any, ending: str, *, method: str = "GET", gateway: bool = False) -> None:
    """Cut requests whose path ends with ``ending`` (the query aside), until ``page.unroute_all``."""

    def handle(route: Any) -> None:
        if route.request.method != method:
            route.continue_()
        elif gateway:
            route.fulfill(status=502, content_type="text/html", body="<html><body>Bad Gateway</body></html>")
        else:
            route.abort("connectionrefused")

    page.route(urls_with(ending, then=r"(?:\?|$)"), handle)


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_lobby_that_cannot_reach_the_server_says_so_and_asks_again(
    server: ServerProcess, page: Any, lang: str
) -> None:
    # Before: the lobby's first request threw, and the page stayed blank under its header.
    page.add_init_script(f"localStorage.setItem('tt.lang', '{lang}')")
    refuse(page, "/api/games")
    page.goto(f"{server.url}/")
    page.wait_for_selector("#failure .error")
    assert UNREACHABLE[lang] in page.locator("#failure .error").inner_text()
    assert page.locator("#retry").inner_text() == TRY_AGAIN[lang]
    page.unroute_all()
    page.click("#retry")
    page.wait_for_selector(f"h1:has-text('{LOBBY_TITLE[lang]}')")
    assert page.locator("#failure").count() == 0


def test_creating_a_table_through_a_failing_gateway_says_why(server: ServerProcess, page: Any) -> None:
    # Before: the gateway's HTML page failed to parse as JSON and the button silently did nothing.
    page.goto(f"{server.url}/")
    page.wait_for_selector("#create-table")
    refuse(page, "/api/tables", method="POST", gateway=True)
    page.click("#create-table")
    page.wait_for_selector("#create-error:not(:empty)")
    assert "HTTP 502" in page.locator("#create-error").inner_text()
    page.unroute_all()
    page.click("#create-table")
    page.wait_for_selector("body[data-seq]")


def test_a_table_rules_or_replay_page_that_cannot_reach_the_server_loads_when_asked_again(
    server: ServerProcess, page: Any
) -> None:
    spec = {"game": "touring", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}]}
    created = httpx.post(f"{server.url}/api/tables", json=spec).json()
    table = created["table"]
    refuse(page, f"/api/tables/{table}")
    page.goto(f"{server.url}/t/{table}#seat={created['tokens']['0']}")
    page.wait_for_selector("#failure #retry")
    assert UNREACHABLE["en"] in page.locator("#failure").inner_text()
    page.unroute_all()
    page.click("#retry")
    page.wait_for_selector("body[data-mine='1'] #hand")  # seated: the seat link was kept meanwhile
    refuse(page, "/rules")
    page.goto(f"{server.url}/rules/touring")
    page.wait_for_selector("#failure #retry")
    page.unroute_all()
    page.click("#retry")
    page.wait_for_selector("#rules h1")
    # Before: the replay page said why in a plain line, with no way to ask again.
    refuse(page, f"/api/tables/{table}")
    page.goto(f"{server.url}/replay/{table}")
    page.wait_for_selector("#failure #retry")
    assert UNREACHABLE["en"] in page.locator("#failure [role='alert']").inner_text()
    page.unroute_all()
    page.click("#retry")
    page.wait_for_selector("#slider")
    assert page.locator("#failure").count() == 0


def test_a_refusal_is_not_offered_again(server: ServerProcess, page: Any) -> None:
    """A table that does not exist is the server's answer, not a failure to reach it: no button."""
    page.goto(f"{server.url}/t/no-such-table")
    page.wait_for_selector("#failure .error")
    assert "There is no such table." in page.locator("#failure").inner_text()
    assert page.locator("#retry").count() == 0


def test_a_page_whose_words_did_not_load_asks_for_them_again(server: ServerProcess, page: Any) -> None:
    # Before: the catalogs' request threw and the page stayed blank, with no words to say why.
    cut: list[str] = []

    def handle(route: Any) -> None:
        if len(cut) < 2:  # the first load and the first ask again
            cut.append(route.request.url)
            route.abort("connectionrefused")
        else:
            route.continue_()

    page.route(urls_with("/api/i18n/"), handle)
    page.goto(f"{server.url}/")
    page.wait_for_selector(f"h1:has-text('{LOBBY_TITLE['en']}')")
    assert len(cut) == 2

"""What a browser remembers for the site, in a real headless Chromium: a browser that refuses
storage, or holds values the pages did not write, still gets every page and its seat.

Refused storage is what Chromium does with all cookies blocked: reading ``window.localStorage``
throws a SecurityError, which the init script below reproduces.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from ..helpers import ServerProcess
from .pages import LOBBY_TITLE, wait_my_turn

pytestmark = pytest.mark.browser

REFUSE_STORAGE = """
Object.defineProperty(window, "localStorage", {
  configurable: true,
  get() { throw new DOMException("The operation is insecure.", "SecurityError"); },
});
"""


def play_a_move(page: Any) -> None:
    seq = wait_my_turn(page)
    assert seq is not None
    page.locator("#moves button.move").first.click()
    page.wait_for_selector(f"body:not([data-seq='{seq}'])")


def test_a_browser_that_refuses_storage_still_opens_a_table_and_keeps_its_seat_and_invites(
    server: ServerProcess, page: Any
) -> None:
    # Before: reading localStorage threw in the first line of every page, so each was left blank.
    page.add_init_script(REFUSE_STORAGE)
    page.goto(f"{server.url}/")
    page.select_option("#lang", "zh-Hant")  # the choice holds for this page, from memory
    page.wait_for_selector(f"h1:has-text('{LOBBY_TITLE['zh-Hant']}')")
    page.select_option("#lang", "en")
    page.wait_for_selector(f"h1:has-text('{LOBBY_TITLE['en']}')")
    page.select_option("#game", "touring")
    page.select_option("select[name=seat1]", "human")  # a seat for a friend: the host gets invites
    page.click("#create-table")
    page.wait_for_selector("body[data-seq]")
    assert "#" not in page.url  # the secrets brought along left the address bar at once
    assert "you are" in page.locator("h1").inner_text().lower()  # seated, not watching
    assert page.locator("#no-storage").is_visible()
    page.click("#invite-panel summary")
    assert "#invite=" in page.locator("#invites li[data-seat='1'] input").input_value()
    play_a_move(page)
    table = page.url.rsplit("/", 1)[-1]
    for path in (f"/replay/{table}", "/rules/touring"):
        page.goto(f"{server.url}{path}")
        page.wait_for_selector("#board .panel, #rules h1")


def test_a_browser_that_keeps_storage_is_not_warned(server: ServerProcess, page: Any) -> None:
    page.goto(f"{server.url}/")
    page.select_option("#game", "touring")
    page.click("#create-table")
    page.wait_for_selector("body[data-seq]")
    assert "#" not in page.url
    assert page.locator("#no-storage").count() == 0


@pytest.mark.parametrize(
    "stored",
    ['{"token": 5, "invites": "x", "host": []}', "[1, 2]", '"text"', "{", "null"],
    ids=["wrong-types", "list", "string", "not-json", "null"],
)
def test_stored_values_the_pages_did_not_write_are_set_aside(
    server: ServerProcess, page: Any, stored: str
) -> None:
    # Before: a value that was not JSON stopped the table page as it loaded (JSON.parse threw),
    # and a table entry whose invites were not an object broke the host's new-link button.
    spec = {"game": "touring", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}]}
    created = httpx.post(f"{server.url}/api/tables", json=spec).json()
    table, token = created["table"], created["tokens"]["0"]
    values = {"tt.prefs": stored, "tt.lang": stored, "tt.nick": stored, f"tt.table.{table}": stored}
    page.add_init_script(
        "".join(f"localStorage.setItem({key!r}, {value!r});" for key, value in values.items())
    )
    page.goto(f"{server.url}/")
    # an unknown language reads as the browser's own (Chromium's here: English)
    page.wait_for_selector(f"h1:has-text('{LOBBY_TITLE['en']}')")
    page.goto(f"{server.url}/t/{table}#seat={token}")
    play_a_move(page)
    assert "you are" in page.locator("h1").inner_text().lower()
    page.goto(f"{server.url}/replay/{table}")
    page.wait_for_selector("#board .panel")


def test_a_rematch_seats_both_players_again_where_browsers_refuse_storage(
    server: ServerProcess, browser: Any
) -> None:
    # The one who asks goes to the new table with its token; the other follows the link with the
    # invite the server pushed. Both ride in the address's fragment here, as nothing is stored.
    spec = {"game": "touring", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
    created = httpx.post(f"{server.url}/api/tables", json={**spec, "options": {"max_turns": 12}}).json()
    table = created["table"]
    links = [f"#seat={created['tokens']['0']}", f"#invite={created['invites']['1']}"]
    contexts = [browser.new_context() for _ in range(2)]
    errors: list[str] = []
    try:
        pages = []
        for seat, context in enumerate(contexts):
            tab = context.new_page()
            tab.set_default_timeout(15_000)
            tab.on("pageerror", lambda exc: errors.append(str(exc)))
            tab.add_init_script(REFUSE_STORAGE)
            tab.goto(f"{server.url}/t/{table}{links[seat]}")
            tab.wait_for_selector("body[data-seq]")
            pages.append(tab)
        while pages[0].get_attribute("body", "data-over") != "1":
            tab = pages[0] if pages[0].get_attribute("body", "data-mine") == "1" else pages[1]
            if tab.get_attribute("body", "data-mine") != "1":
                pages[0].wait_for_timeout(50)  # the move in flight reaches both pages
                continue
            seq = tab.get_attribute("body", "data-seq")
            tab.locator("#moves button.move").first.click()
            tab.wait_for_selector(f"body:not([data-seq='{seq}'])")
        first, second = pages
        first.click("#rematch")
        first.wait_for_url(lambda url: table not in url)
        first.wait_for_selector("body[data-seq]")
        new_table = first.url.rsplit("/", 1)[-1]
        second.click("#rematch-link")
        second.wait_for_url(lambda url: new_table in url)
        second.wait_for_selector("body[data-seq]")
        for seat, tab in enumerate(pages):
            assert "#" not in tab.url
            assert f"you are p{seat + 1}" in tab.locator("h1").inner_text().lower()
    finally:
        for context in contexts:
            context.close()
    assert not errors, errors

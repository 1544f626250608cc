"""Invite links in a real Chromium: a table opened at an address only this computer reaches says
so where its links are, in both languages and at both sizes."""

from __future__ import annotations

from typing import Any

import pytest

from tabletrek.cli.serve import is_loopback

from ..helpers import SIZES, ServerProcess, assert_axe_clean
from .conftest import CHROMIUM, CHROMIUM_ARGS
from .pages import TIMEOUT

pytestmark = pytest.mark.browser

ONLY_HERE = {
    "en": "These links name this computer (127.0.0.1)",
    "zh-Hant": "這些連結指向這台電腦（127.0.0.1）",
}

# Names other computers could use, served here by Chromium's own resolver.
ELSEWHERE = ("tabletrek.test", "127.tabletrek.test")


def invite_panel(page: Any, origin: str, lang: str) -> Any:
    """A Touring table for two people, created from the lobby at ``origin``, its invite links open."""
    page.add_init_script(f"localStorage.setItem('tt.lang', '{lang}')")
    page.goto(f"{origin}/")
    page.wait_for_selector("#create-table")
    page.select_option("#game", "touring")
    page.select_option("select[name=seat1]", "human")
    page.click("#create-table")
    page.wait_for_selector("body[data-seq]")
    page.click("#invite-panel summary")
    return page.locator("#invite-panel")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_invite_links_that_reach_only_this_computer_say_so(
    server: ServerProcess, browser: Any, page: Any, lang: str, size: str
) -> None:
    # Before: a host who opened the lobby at localhost handed out links to localhost, which open
    # each friend's own computer, and nothing on the page said so.
    page.set_viewport_size(SIZES[size])
    panel = invite_panel(page, server.url, lang)
    assert page.locator("#invites input").first.input_value().startswith(f"{server.url}/t/")
    warning = panel.locator("#invite-only-here")
    assert ONLY_HERE[lang] in warning.inner_text()
    assert warning.is_visible()
    assert_axe_clean(page, f"invite links with the warning ({lang}, {size})")
    # Opened at a name other computers could use, the links carry it and need no warning, even
    # when the name begins like a loopback address.
    rules = ", ".join(f"MAP {name} 127.0.0.1" for name in ELSEWHERE)
    mapped = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, f"--host-resolver-rules={rules}"]
    )
    try:
        for name in ELSEWHERE:
            named = mapped.new_page(viewport=SIZES[size])
            named.set_default_timeout(TIMEOUT)
            origin = f"http://{name}:{server.port}"
            invite_panel(named, origin, lang)
            assert named.locator("#invites input").first.input_value().startswith(f"{origin}/t/")
            assert named.locator("#invite-only-here").count() == 0, name
            named.close()
    finally:
        mapped.close()


# Host names as `location.hostname` gives them, and whether a link to one opens only on the
# computer it is typed on.
HOSTNAMES = {
    "localhost": True,
    "localhost.": True,
    "play.localhost": True,
    "play.localhost.": True,
    "127.0.0.1": True,
    "127.0.0.1.": True,
    "127.8.9.10": True,
    "[::1]": True,
    "[::ffff:7f00:1]": True,  # ::ffff:127.0.0.1
    "0.0.0.0": True,
    "[::]": True,
    "127.tabletrek.test": False,
    "127.0.0.1.tabletrek.test": False,
    "localhost.tabletrek.test": False,
    "mylocalhost": False,
    "localhost..": False,
    "192.168.1.20": False,
    "[fd00::2]": False,
    "[::ffff:c0a8:114]": False,  # ::ffff:192.168.1.20
    "tabletrek.test": False,
}
# Where `tabletrek serve` means something else by the same address: it listens on every one.
EVERY_ADDRESS = {"0.0.0.0", "[::]"}


def test_the_page_and_serve_agree_on_which_addresses_reach_only_this_computer(
    server: ServerProcess, page: Any
) -> None:
    page.goto(f"{server.url}/")
    page.wait_for_selector("#create-table")
    found = page.evaluate(
        """async (names) => {
          const { isLoopback } = await import("/static/js/table-parts.js");
          return names.map((name) => isLoopback(name));
        }""",
        list(HOSTNAMES),
    )
    assert dict(zip(HOSTNAMES, found, strict=True)) == HOSTNAMES
    for name, only_here in HOSTNAMES.items():
        if name not in EVERY_ADDRESS:
            assert is_loopback(name.strip("[]")) is only_here, name

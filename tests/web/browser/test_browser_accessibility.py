"""axe-core's every finding, minor ones too, on the pages whose content is ours rather than a
game's state: every game's rules page in both languages.

The other browser tests fail on serious and critical findings only (a table's state changes
with every move). Here nothing changes, so nothing axe reports is let through.
"""

from __future__ import annotations

from typing import Any

import pytest

from ..helpers import EVERY_IMPACT, ServerProcess, assert_axe_clean
from .pages import games_in_lobby

pytestmark = pytest.mark.browser

RULES = {"en": "Rules", "zh-Hant": "規則"}


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_every_rules_page_has_no_accessibility_finding(server: ServerProcess, page: Any, lang: str) -> None:
    # Before: Touring's deck and Double Crossing's board were Markdown tables with empty header
    # cells (a spacer column; a grid of spaces), which axe reports as empty-table-header.
    page.add_init_script(f"localStorage.setItem('tt.lang', '{lang}')")
    games = games_in_lobby(server)
    assert {"touring", "mexican-train", "codenames-duet", "double-crossing"} <= set(games)
    for game in games:
        page.goto(f"{server.url}/rules/{game}")
        page.wait_for_selector("#rules h1")
        assert page.locator("#rules th:empty").count() == 0, game
        # the tab names the game in the reader's language (before: its id, 'touring — 規則')
        assert page.title().endswith(f" — {RULES[lang]} — tabletrek"), page.title()
        assert game not in page.title(), page.title()
        assert_axe_clean(page, f"rules of {game} ({lang})", impacts=EVERY_IMPACT)

"""axe-core's every finding, minor ones too, on the pages whose content is ours rather than a
game's state: every game's rules page in both languages, and each page that could not open.

The other browser tests fail on serious and critical findings only (a table's state changes
with every move). Here nothing changes, so nothing axe reports is let through.
"""

from __future__ import annotations

from typing import Any

import pytest

from ..helpers import EVERY_IMPACT, SIZES, ServerProcess, assert_axe_clean
from .pages import LOBBY_TITLE, games_in_lobby

pytestmark = pytest.mark.browser

NOT_OPENED = {"en": "This page could not be opened", "zh-Hant": "無法開啟此頁面"}
TO_LOBBY = {"en": "Go to the lobby", "zh-Hant": "前往大廳"}
RULES = {"en": "Rules", "zh-Hant": "規則"}
COMBOS = [(size, lang) for size in SIZES for lang in ("en", "zh-Hant")]
# what the server says of each page that cannot open: no table by that id, no page at that
# address, no game by that name
DEAD_ENDS = {
    "/t/no-such-table": {"en": "There is no such table.", "zh-Hant": "沒有這張牌桌。"},
    "/replay/no-such-table": {"en": "There is no such table.", "zh-Hant": "沒有這張牌桌。"},
    "/no/such/page": {"en": "There is no page at this address.", "zh-Hant": "這個網址沒有頁面。"},
    "/rules/no-such-game": {
        "en": "There is no game called 'no-such-game'.",
        "zh-Hant": "沒有名為「no-such-game」的遊戲。",
    },
}


@pytest.mark.parametrize(("size", "lang"), COMBOS, ids=[f"{s}-{lang}" for s, lang in COMBOS])
def test_every_rules_page_has_no_accessibility_finding(
    server: ServerProcess, page: Any, size: str, lang: str
) -> None:
    # Before: Touring's deck and Double Crossing's board were Markdown tables with empty header
    # cells (a spacer column; a grid of spaces), which axe reports as empty-table-header.
    page.set_viewport_size(SIZES[size])
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


@pytest.mark.parametrize(("size", "lang"), COMBOS, ids=[f"{s}-{lang}" for s, lang in COMBOS])
def test_a_page_that_cannot_open_says_so_and_leads_to_the_lobby(
    server: ServerProcess, page: Any, size: str, lang: str
) -> None:
    # Before: a line of red text under the header and nothing else: no heading (axe:
    # page-has-heading-one), the tab still titled 'tabletrek', and the replay page's line not
    # even announced.
    page.set_viewport_size(SIZES[size])
    page.add_init_script(f"localStorage.setItem('tt.lang', '{lang}')")
    for path, said in DEAD_ENDS.items():
        page.goto(f"{server.url}{path}")
        page.wait_for_selector("#failure h1")
        assert page.locator("main h1").all_inner_texts() == [NOT_OPENED[lang]], path
        assert page.title() == f"{NOT_OPENED[lang]} — tabletrek", path
        assert page.locator("#failure [role='alert']").inner_text() == said[lang], path
        assert page.locator("#retry").count() == 0, path  # a refusal: asking again cannot help
        assert_axe_clean(page, f"{path} ({lang})", impacts=EVERY_IMPACT)
        other = "en" if lang == "zh-Hant" else "zh-Hant"
        page.select_option("#lang", other)  # redrawn in place, in the other language
        page.wait_for_selector(f"#failure h1:has-text('{NOT_OPENED[other]}')")
        assert page.locator("#failure").count() == 1, path
        assert page.locator("#failure [role='alert']").inner_text() == said[other], path
        page.select_option("#lang", lang)
        page.wait_for_selector(f"#failure h1:has-text('{NOT_OPENED[lang]}')")
        page.click(f"#to-lobby:has-text('{TO_LOBBY[lang]}')")
        page.wait_for_selector(f"h1:has-text('{LOBBY_TITLE[lang]}')")
        assert page.url == f"{server.url}/", path

"""Pages at a phone's width in a real headless Chromium: words stay whole, pages never scroll sideways.

A phone leaves a Codenames card 45-60 px and a table of counts about 350 px; what did not fit
was broken wherever the box ended, a Latin word between two letters ('para|chute') and a Chinese
heading between its characters ('契|約'), or it widened the whole page (the rules' tables, the
lobby's seat choices). Long card words shrink now, and a table or code block too wide for the
screen scrolls inside its own box.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import httpx
import pytest

from ..helpers import SIZES, ServerProcess, assert_axe_clean
from .pages import LOBBY_TITLE, games_in_lobby

pytestmark = pytest.mark.browser


def practice_table(server: ServerProcess, page: Any, game: str, players: int, seed: int) -> None:
    """Open seat 0 of a seeded table of ``game`` against bots."""
    spec = {
        "game": game,
        "players": players,
        "seed": seed,
        "seats": [{"kind": "human"}] + [{"kind": "bot"}] * (players - 1),
    }
    created = httpx.post(f"{server.url}/api/tables", json=spec).json()
    page.goto(f"{server.url}/t/{created['table']}#seat={created['tokens']['0']}")


WORD_LINES = """() => [...document.querySelectorAll('#grid .cd-card .word')].map((word) => {
    const range = document.createRange();
    range.selectNodeContents(word);
    return [word.textContent, range.getClientRects().length];
})"""
"""Each Codenames card's word and the lines it is drawn on."""


@pytest.mark.parametrize("width", [320, 390])
def test_codenames_words_stay_whole_on_a_phone(server: ServerProcess, page: Any, width: int) -> None:
    # Before: a word broke where its card ended: at 390 px 'parachute' and 'submarine' were drawn
    # in two pieces, at 320 px about a quarter of the words ('bad|ger'). Long words shrink now.
    if "codenames-duet" not in games_in_lobby(server):
        pytest.skip("Codenames Duet does not load in this tree")
    page.set_viewport_size({"width": width, "height": 844})
    seen: list[tuple[str, int]] = []
    for seed in range(6):
        practice_table(server, page, "codenames-duet", 2, seed)
        page.wait_for_selector("#grid .cd-card .word")
        seen += [(word, lines) for word, lines in page.evaluate(WORD_LINES)]
    assert len(seen) == 150 and max(len(word) for word, _ in seen) >= 9, seen  # long words were dealt
    assert [word for word, lines in seen if lines > 1] == []


TOKENS_GAP = """() => {
    const count = document.createRange();
    count.selectNodeContents(document.querySelector('#timer-tokens'));
    count.setEndBefore(document.querySelector('#timer-tokens .timer-row'));
    const text = [...count.getClientRects()].pop();
    const dots = document.querySelector('#timer-tokens .timer-row').getBoundingClientRect();
    return Math.abs(text.top - dots.top) < text.height ? dots.left - text.right : null;
}"""
"""How far the timer's dots stand from its count ("9/9 ●●●"), or None where they wrapped."""


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_codenames_timer_dots_stand_apart_from_its_count(server: ServerProcess, page: Any, lang: str) -> None:
    # Before: '計時標記：9/9●●●●●●●●●' ('Timer tokens: 9/9●●●'), the dots touching the count.
    if "codenames-duet" not in games_in_lobby(server):
        pytest.skip("Codenames Duet does not load in this tree")
    page.add_init_script(f"localStorage.setItem('tt.lang', '{lang}')")
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        practice_table(server, page, "codenames-duet", 2, 0)
        page.wait_for_selector("#timer-tokens .timer-row")
        gap = page.evaluate(TOKENS_GAP)
        assert gap is None or gap >= 4, (size, gap)
        if size == "desktop":
            assert gap is not None  # a wide screen keeps them on one line
        assert_axe_clean(page, f"codenames timer ({lang}, {size})")


SPLIT_WORDS = """() => {
    const han = /\\p{Script=Han}/u;
    const out = [];
    for (const cell of document.querySelectorAll('.counts th, .counts td')) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const chars = [...node.textContent];
            let offset = 0, previous = null;
            for (const ch of chars) {
                const range = document.createRange();
                range.setStart(node, offset);
                range.setEnd(node, offset + ch.length);
                const top = Math.round(range.getBoundingClientRect().top);
                const split = previous && han.test(previous.ch) && han.test(ch) && top !== previous.top;
                if (split) out.push(cell.textContent);
                previous = { ch, top };
                offset += ch.length;
            }
        }
    }
    return out;
}"""
"""The text of each table cell that breaks a line between two Chinese characters."""


@pytest.mark.parametrize("width", [320, 360])
def test_a_table_of_counts_keeps_chinese_words_whole(server: ServerProcess, page: Any, width: int) -> None:
    # Before: at 360 px Double Crossing's table of seats read '契|約', '卡|牌' and '玩家|1', a
    # character or two a line, to fit the screen rather than scroll inside its own box.
    if "double-crossing" not in games_in_lobby(server):
        pytest.skip("Double Crossing does not load in this tree")
    page.add_init_script("localStorage.setItem('tt.lang', 'zh-Hant')")
    page.set_viewport_size({"width": width, "height": 844})
    practice_table(server, page, "double-crossing", 4, 1)
    page.wait_for_selector("#players th")
    assert "契約" in page.locator("#players").inner_text()
    assert page.evaluate(SPLIT_WORDS) == []
    assert (
        page.evaluate("document.documentElement.scrollWidth") <= width
    )  # the page itself never scrolls sideways


def test_the_codenames_clue_history_scrolls_inside_its_panel(server: ServerProcess, page: Any) -> None:
    # Before: at 320 px the history's table (the partner bot's name, then 'codenames-guess (P2)', is
    # one word) was wider than the screen, and the whole page scrolled sideways.
    if "codenames-duet" not in games_in_lobby(server):
        pytest.skip("Codenames Duet does not load in this tree")
    page.set_viewport_size({"width": 320, "height": 844})
    practice_table(server, page, "codenames-duet", 2, 0)
    page.wait_for_selector("#clue-word")
    suggestion = page.locator("#moves button.move").first.get_attribute("data-action")
    _, word, number = suggestion.split()
    page.fill("#clue-word", word)
    page.fill("#clue-number", number)
    page.click("#give-clue")
    # the history appears with the first clue; the partner's own clue follows its guesses
    page.click("details.panel:has(table.counts) summary")
    page.wait_for_selector("details.panel table.counts td:has-text('AI partner (P2)')", timeout=30_000)
    assert word in page.locator("details.panel table.counts").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_no_page_is_wider_than_a_small_phone(server: ServerProcess, page: Any, lang: str) -> None:
    # Before, at 320 px: every rules page (its tables and code blocks; Codenames' 986 px wide) and
    # the lobby (a fieldset grows to its widest choice, '電腦：AI 搭檔（猜字詞）': 351 px).
    page.add_init_script(f"localStorage.setItem('tt.lang', '{lang}')")
    page.set_viewport_size({"width": 320, "height": 844})
    widths = {}
    page.goto(f"{server.url}/")
    page.wait_for_selector(f"h1:has-text('{LOBBY_TITLE[lang]}')")
    for game in games_in_lobby(server):
        page.select_option("#game", game)
        page.wait_for_load_state("networkidle")  # the bots offered for its options have come
        widths[f"lobby {game}"] = page.evaluate("document.documentElement.scrollWidth")
    for game in games_in_lobby(server):
        page.goto(f"{server.url}/rules/{game}")
        page.wait_for_selector("#rules")
        widths[f"rules {game}"] = page.evaluate("document.documentElement.scrollWidth")
    assert len(widths) >= 8, widths
    assert {where: width for where, width in widths.items() if width > 320} == {}
    assert page.locator("#rules .scroll table").count() >= 1  # the tables scroll in their own boxes
    assert_axe_clean(page, f"a rules page at 320 px ({lang})")


@pytest.mark.parametrize("game", ["touring", "mexican-train", "codenames-duet", "double-crossing"])
def test_a_table_page_outlines_its_headings_in_order(server: ServerProcess, page: Any, game: str) -> None:
    # Before: Touring's team panels were h3 straight under the page's h1 (axe: heading-order), so
    # a screen reader's outline of the table skipped a level.
    if game not in games_in_lobby(server):
        pytest.skip(f"{game} does not load in this tree")
    practice_table(server, page, game, 2, 0)
    page.wait_for_selector("#board h2, #board h3")
    levels = page.evaluate(
        "() => [...document.querySelectorAll('main h1, main h2, main h3')].map((h) => +h.tagName[1])"
    )
    assert levels[0] == 1 and all(b - a <= 1 for a, b in pairwise(levels)), levels

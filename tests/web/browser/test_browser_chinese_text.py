"""Every page in Chinese writes as the catalogs do: full-width punctuation against Chinese words
and —— for a break in a sentence, in what the page puts together itself as well as in what the
catalogs say (the catalogs alone are checked in tests/test_i18n.py).

Before, the page joined names with ', ', '玩家1 — 在線', '交易 — 北方穀物', '觀戰: ', and the
rules page wrote '暫停卡—— 沒有' and '線索。 給線索者': each time the catalogs were right and the
code between them not.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

import tabletrek

from ...test_i18n import HALF_WIDTH_IN_CHINESE, SPACED_DASH
from ..helpers import ServerProcess

pytestmark = pytest.mark.browser

SAID = """() => {
    const said = document.body.innerText.split(/[\\n\\t]/);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) said.push(walker.currentNode.textContent);
    for (const el of document.querySelectorAll("[data-tip], [aria-label], [title], [placeholder]")) {
        for (const name of ["data-tip", "aria-label", "title", "placeholder"]) {
            if (el.hasAttribute(name)) said.push(el.getAttribute(name));
        }
    }
    return said;
}"""
"""What a reader sees or hears on the page: its text line by line and cell by cell, each piece of
text as drawn, and the tips and labels."""


SPACE_AFTER_MARK = re.compile(r"[\u3000-\u303f\uff00-\uffef] +(?=[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef])")
"""A space after a full-width mark, before Chinese: the mark carries its own space. The rules
pages' source must write one beside emphasis (``**線索。** 給線索者``), and the page showed it."""


def wrong(page: Any) -> list[str]:
    return sorted(
        {
            t.strip()
            for t in page.evaluate(SAID)
            if HALF_WIDTH_IN_CHINESE.search(t) or SPACED_DASH.search(t) or SPACE_AFTER_MARK.search(t)
        }
    )


@pytest.mark.parametrize("game", tabletrek.games())
def test_a_chinese_table_its_replay_and_its_rules_write_chinese_punctuation(
    server: ServerProcess, page: Any, game: str
) -> None:
    page.add_init_script("localStorage.setItem('tt.lang', 'zh-Hant')")
    players = min(3, max(tabletrek.load(game).player_counts))
    seats = [{"kind": "bot"}] * players
    created = httpx.post(
        f"{server.url}/api/tables", json={"game": game, "players": players, "seats": seats, "seed": 7}
    )
    table = created.json()["table"]
    page.goto(f"{server.url}/t/{table}")  # watched, the bots play: the log fills
    page.wait_for_function(
        "() => Number(document.body.dataset.seq) >= 12 || document.body.dataset.over === '1'"
    )
    for summary in page.locator("details:not([open]) > summary").all():
        summary.click()
    found = {"table": wrong(page)}
    page.goto(f"{server.url}/replay/{table}")  # as the public sees it: the game may still run
    page.wait_for_selector("#board .panel")
    page.locator("body").press("End")
    page.wait_for_selector("#log li")
    found["replay"] = wrong(page)
    page.goto(f"{server.url}/rules/{game}")
    page.wait_for_selector("#rules h2")
    found["rules"] = wrong(page)
    page.goto(f"{server.url}/")
    page.wait_for_selector("#game")
    page.select_option("#game", game)
    page.wait_for_load_state("networkidle")  # the bots offered for its options have come
    found["lobby"] = wrong(page)
    assert {where: texts for where, texts in found.items() if texts} == {}

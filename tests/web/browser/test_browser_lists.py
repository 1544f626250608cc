"""What the page puts together itself reads as its reader's language writes it: lists take the
list separator ("P1, P3"; "玩家1、玩家3", as the server's ``i18n.join_list``), a name and what
follows it a dash that Chinese writes as —— without spaces, a label its colon ("：")."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from ..helpers import SIZES, ServerProcess, assert_axe_clean
from .pages import games_in_lobby, open_lobby

pytestmark = pytest.mark.browser

SAYS = {
    "en": {"winners": "Game over. Won by Greedy (P1), Greedy (P3)", "team": "Greedy (P1), Greedy (P3)"},
    "zh-Hant": {
        "winners": "遊戲結束。勝者：貪心（玩家1）、貪心（玩家3）",
        "team": "貪心（玩家1）、貪心（玩家3）",
    },
}


@pytest.mark.parametrize(("size", "lang"), [("phone", "zh-Hant"), ("desktop", "en"), ("desktop", "zh-Hant")])
def test_a_team_and_its_win_are_named_as_a_list(
    server: ServerProcess, page: Any, size: str, lang: str
) -> None:
    # Before: '遊戲結束。勝者：貪心（玩家1）, 貪心（玩家3）——…' and a team panel's
    # '第 1 隊（貪心（玩家1）, 貪心（玩家3））': an English comma between Chinese names.
    page.add_init_script(f"localStorage.setItem('tt.lang', '{lang}')")
    page.set_viewport_size(SIZES[size])
    spec = {"game": "touring", "players": 4, "seed": 2, "seats": [{"kind": "bot", "bot": "greedy"}] * 4}
    created = httpx.post(f"{server.url}/api/tables", json=spec).json()
    page.goto(f"{server.url}/t/{created['table']}")  # a bots-only table plays while watched
    page.wait_for_selector("body[data-over='1']", timeout=60_000)
    # the seed's game is won by the first team, seats 1 and 3
    assert page.locator("#status .status-text").inner_text().startswith(SAYS[lang]["winners"])
    panels = page.locator("#board").inner_text()
    assert SAYS[lang]["team"] in panels
    if lang == "zh-Hant":
        assert not re.search(r"[）\u4e00-\u9fff], ", panels)
    assert_axe_clean(page, f"a finished team game ({size}, {lang})")


@pytest.mark.parametrize(("size", "lang"), [("phone", "zh-Hant"), ("desktop", "en")])
def test_the_codenames_history_lists_guesses_in_the_readers_way(
    server: ServerProcess, page: Any, size: str, lang: str
) -> None:
    # Before, in Chinese: '河 (特工), 山 (旁觀者)' (English brackets and comma around Chinese words).
    if "codenames-duet" not in games_in_lobby(server):
        pytest.skip("Codenames Duet does not load in this tree")
    page.add_init_script(f"localStorage.setItem('tt.lang', '{lang}')")
    page.set_viewport_size(SIZES[size])
    spec = {"game": "codenames-duet", "players": 2, "seed": 0, "seats": [{"kind": "human"}, {"kind": "bot"}]}
    created = httpx.post(f"{server.url}/api/tables", json=spec).json()
    page.goto(f"{server.url}/t/{created['table']}#seat={created['tokens']['0']}")
    page.wait_for_selector("#clue-word")
    _, word, number = page.locator("#moves button.move").first.get_attribute("data-action").split()
    page.fill("#clue-word", word)
    page.fill("#clue-number", number)
    page.click("#give-clue")
    page.click("details.panel:has(table.counts) summary")
    cell = page.locator("details.panel table.counts tbody tr:first-child td:nth-child(3)")
    page.wait_for_function("(el) => el.textContent.trim() !== ''", arg=cell.element_handle(), timeout=30_000)
    guesses = cell.inner_text().strip()
    one = r"[^,、()（）]+（[^（）]+）" if lang == "zh-Hant" else r"[^,、()（）]+ \([^()]+\)"
    join = "、" if lang == "zh-Hant" else ", "
    assert re.fullmatch(rf"{one}({re.escape(join)}{one})*", guesses), guesses
    assert_axe_clean(page, f"Codenames' history ({size}, {lang})")


@pytest.mark.parametrize(("size", "lang", "dash"), [("phone", "zh-Hant", "——"), ("desktop", "en", " — ")])
def test_the_seat_list_and_a_space_tip_set_a_name_apart_in_the_readers_way(
    server: ServerProcess, page: Any, size: str, lang: str, dash: str
) -> None:
    # Before, in Chinese: '玩家1 — 未連線 · 出手中' in the seat list and '交易 — 北方穀物' in a
    # Double Crossing space's tip (an English dash with spaces).
    page.add_init_script(f"localStorage.setItem('tt.lang', '{lang}')")
    page.set_viewport_size(SIZES[size])
    spec = {
        "game": "double-crossing",
        "players": 3,
        "seed": 7,
        "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 2,
    }
    created = httpx.post(f"{server.url}/api/tables", json=spec).json()
    page.goto(f"{server.url}/t/{created['table']}#seat={created['tokens']['0']}")
    page.wait_for_selector("#seats li")
    page.wait_for_selector("[data-space='1']")
    lines = page.locator("#seats li").all_inner_texts()
    assert len(lines) == 3 and all(dash in line for line in lines), lines
    tip = page.get_attribute("[data-space='1']", "data-tip")
    trade = "交易" if lang == "zh-Hant" else "Trade"
    assert tip is not None and f"{trade}{dash}" in tip, tip
    if lang == "zh-Hant":
        assert not [text for text in [*lines, tip] if " — " in text]
    assert_axe_clean(page, f"Double Crossing's seats and board ({size}, {lang})")


CHOICES = """async (title) => {
    const { html, render } = await import("/static/js/ui.js");
    const { Choices } = await import("/static/js/pick.js");
    const box = document.createElement("div");
    const moves = [{ text: "play puncture p2", label: "P2" }, { text: "play puncture p3", label: "P3" }];
    render(html`<${Choices} ctx=${{ act() {} }} id="probe" moves=${moves} title=${title} />`, box);
    return box.querySelector("span").textContent;
}"""


@pytest.mark.parametrize(
    ("size", "lang", "spectators", "card", "colon"),
    [
        ("phone", "zh-Hant", "觀戰", "穿刺（Puncture）", "："),
        ("desktop", "en", "Spectators", "Puncture", ": "),
    ],
)
def test_a_label_the_page_writes_takes_the_readers_colon(
    server: ServerProcess, page: Any, size: str, lang: str, spectators: str, card: str, colon: str
) -> None:
    # Before, in Chinese: '觀戰: ' before the spectators' link, and '穿刺（Puncture）: ' over the
    # moves a card offers (an English colon after Chinese words).
    page.add_init_script(f"localStorage.setItem('tt.lang', '{lang}')")
    page.set_viewport_size(SIZES[size])
    open_lobby(server, page, lang, "touring")
    page.select_option("select[name=seat1]", "human")
    page.click("#create-table")
    page.wait_for_selector("body[data-seq]")
    page.click("#invite-panel summary")
    assert page.locator("#invites li").last.inner_text().startswith(spectators + colon)
    assert page.evaluate(CHOICES, card) == card + colon
    assert_axe_clean(page, f"the invite links ({size}, {lang})")

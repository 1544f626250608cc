"""End to end in a real headless Chromium (the system /usr/bin/chromium, driven by Playwright).

For each game that loads: create a table with bots from the lobby, play several turns by clicking,
reload mid-game and play on. Hidden information: two seats in two browser contexts each see only
their own hand; a spectator sees none.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from ..helpers import SIZES, ServerProcess, assert_axe_clean
from .pages import TIMEOUT, games_in_lobby, open_lobby, wait_my_turn

pytestmark = pytest.mark.browser


def click_if_any(page: Any, selector: str) -> bool:
    target = page.locator(selector)
    if target.count():
        target.first.click()
        return True
    return False


def play_one(page: Any, game: str) -> None:
    """Click one legal move through the game's own UI (its hand, grid or prompt), else a move button."""
    seq = wait_my_turn(page)
    if seq is None:
        return
    clicked = False
    if game == "touring":
        clicked = click_if_any(page, "#hand .hand-card.playable")
    elif game == "mexican-train":
        clicked = click_if_any(page, "#hand .tile-button.playable")
    elif game == "codenames-duet":
        clicked = click_if_any(page, "#grid .cd-card.guessable")
        if not clicked and page.locator("#clue-word").count():
            suggestion = page.locator("#moves button.move").first.get_attribute("data-action")
            _, word, number = suggestion.split()
            page.fill("#clue-word", word)
            page.fill("#clue-number", number)
            page.click("#give-clue")
            clicked = True
    elif game == "double-crossing":
        clicked = click_if_any(page, "#stop-prompt #pass-stop")
    if clicked and page.get_attribute("body", "data-seq") == str(seq):
        click_if_any(page, ".choices button.choice")
    if not clicked:
        page.locator("#moves button.move").first.click()
    page.wait_for_selector(f"body:not([data-seq='{seq}'])")


def test_lobby_create_play_reload_and_play_on_for_every_game(server: ServerProcess, page: Any) -> None:
    for game in games_in_lobby(server):
        # A game may end within three moves (a Codenames guess can find the assassin at once); such a
        # table proves nothing about reloading, so the test opens another, a few times at most.
        for _attempt in range(5):
            page.goto(f"{server.url}/")
            page.select_option("#game", game)
            page.click("#create-table")
            page.wait_for_url(f"{server.url}/t/*")
            page.wait_for_selector("body[data-seq]")
            for _ in range(3):
                play_one(page, game)  # a click on this page's turn (returns at once if the game ended)
            if page.get_attribute("body", "data-over") != "1":
                break
        seq = int(page.get_attribute("body", "data-seq"))
        assert seq >= 3 and page.locator("#log li").count() >= 3, game
        page.reload()
        page.wait_for_selector("body[data-seq]")
        assert int(page.get_attribute("body", "data-seq")) >= seq, game  # the same game, not a new one
        assert page.locator("#log li").count() >= 3, game
        own_page_and_style_loaded(server, page)
        play_one(page, game)


def own_page_and_style_loaded(server: ServerProcess, page: Any) -> None:
    """A game with its own UI drew its board with its page module from its folder, styled by its
    own stylesheet (which the browser loaded and parsed); any other game the generic page."""
    table = page.url.rsplit("/", 1)[-1]
    ui = httpx.get(f"{server.url}/api/tables/{table}").json()["ui"]
    if ui is None:
        return
    assert ui["module"].startswith("/ui/") and ui["style"].startswith("/ui/")
    rules = page.evaluate(
        """(href) => [...document.styleSheets].filter((s) => s.href && new URL(s.href).pathname === href)
            .map((s) => s.cssRules.length)""",
        ui["style"],
    )
    assert rules and rules[0] > 5, (ui, rules)
    loaded = page.evaluate(
        "() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"
    )
    assert ui["module"] in loaded, loaded


def test_touring_language_switch_rules_and_replay(server: ServerProcess, page: Any) -> None:
    page.goto(f"{server.url}/")
    page.select_option("#game", "touring")
    page.select_option("select[name=seat1]", "bot:ismcts")
    page.click("#advanced summary")
    page.fill("input[name=params1]", "iterations=10")  # the bot's level, as raw settings
    page.click("#create-table")
    page.wait_for_selector("#hand")
    play_one(page, "touring")
    page.select_option("#lang", "zh-Hant")
    page.wait_for_selector("h2:has-text('你的手牌')")
    assert "輪到" in page.locator("#status").inner_text() or "電腦" in page.locator("#status").inner_text()
    assert "深思" in page.locator("#seats").inner_text()  # the bot by its name in the player's language
    table_url = page.url
    page.goto(table_url.replace("/t/", "/replay/"))
    page.wait_for_selector("#board .panel")
    page.click("#next")
    page.wait_for_selector("#log li")
    page.select_option("#lang", "en")
    page.wait_for_selector("#viewer")


def test_the_lobby_says_why_it_refused_a_table_in_the_readers_language(tmp_path: Path, page: Any) -> None:
    """A request-shape refusal (a public table with no seat for anyone else) comes as a catalog
    reference, so the create form says it in Chinese to a Chinese reader, and in English after.
    Its own server: the shared one may by now refuse another table as too many too fast."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'web.sqlite3'}").start()
    try:
        chinese = lobby_refusal(server, page, "zh-Hant")
        english = lobby_refusal(server, page, "en")
    finally:
        server.stop()
    assert "只有留有座位給其他人的牌桌才能公開" in chinese and "only a table" not in chinese, chinese
    assert english == "The request is not valid: only a table with a seat for another person can be public."


def lobby_refusal(server: ServerProcess, page: Any, lang: str) -> str:
    """What the create form says to a ``lang`` reader who asks for a public practice table."""
    open_lobby(server, page, lang, "touring")
    page.check("#public")
    page.click("#create-table")
    page.wait_for_selector("#create-error:not(:empty)")
    said: str = page.locator("#create-error").inner_text()
    return said


def test_codenames_clue_entry_shows_the_rule_that_refuses_a_clue(server: ServerProcess, page: Any) -> None:
    if "codenames-duet" not in games_in_lobby(server):
        pytest.skip("Codenames Duet does not load in this tree")
    page.goto(f"{server.url}/")
    page.select_option("#game", "codenames-duet")
    page.click("#create-table")
    page.wait_for_selector("#clue-word")
    word = page.locator("#grid .cd-card").first.get_attribute("data-word")
    page.fill("#clue-word", word)
    page.click("#give-clue")
    page.wait_for_selector("#clue-error:not(:empty)")
    assert word in page.locator("#clue-error").inner_text()
    assert page.locator("#grid .cd-card").count() == 25
    assert page.locator("#grid .cd-card.key-green").count() >= 1  # this seat's side of the key


def test_replay_of_a_finished_game_shows_every_seat_and_every_secret(
    server: ServerProcess, page: Any
) -> None:
    spec = {
        "game": "touring",
        "players": 2,
        "seed": 5,
        "seats": [{"kind": "bot"}, {"kind": "bot", "bot": "random"}],
    }
    table = httpx.post(f"{server.url}/api/tables", json=spec).json()["table"]
    deadline = time.monotonic() + 60
    with connect(f"{server.url.replace('http', 'ws')}/ws/{table}") as watcher:  # bots play while watched
        watcher.send(json.dumps({"type": "hello"}))
        while not httpx.get(f"{server.url}/api/tables/{table}").json()["over"]:
            assert time.monotonic() < deadline
            time.sleep(0.2)
    page.goto(f"{server.url}/replay/{table}?viewer=all")
    page.wait_for_selector("#board .panel")
    assert page.locator("#board > .panel").count() == 3  # the public view and both seats
    page.click("#last")
    page.wait_for_selector("#log li:nth-child(11)")
    lines = page.locator("#log li").all_inner_texts()
    assert any(" drew " in line and "a card" not in line for line in lines)  # draws are shown
    page.select_option("#viewer", "public")
    page.wait_for_selector("#board > .panel")
    page.click("#last")
    page.wait_for_selector("#log li:has-text('a card')")
    assert page.locator("#board > .panel").count() == 1


def test_the_host_gives_a_seat_a_new_link_and_the_old_one_goes_stale(
    server: ServerProcess, browser: Any, page: Any
) -> None:
    page.goto(f"{server.url}/")
    page.select_option("#game", "touring")
    page.select_option("select[name=seat1]", "human")
    page.click("#create-table")
    page.wait_for_selector("body[data-seq]")
    page.click("#invite-panel summary")
    old_link = page.locator("#invites li[data-seat='1'] input").input_value()
    guest = browser.new_context()
    try:
        other = guest.new_page()
        other.set_default_timeout(TIMEOUT)
        other.goto(old_link)
        other.wait_for_selector("#hand")
        page.click("#invites li[data-seat='1'] button.new-invite")
        page.wait_for_selector(f"#invites li[data-seat='1'] input:not([value='{old_link}'])")
        other.wait_for_selector("#error:not(:empty)")
        # The old link now only watches: the server sends the error, then the spectator's view,
        # as two messages, so the hand goes with the second (raises if it never does).
        other.wait_for_selector("#hand", state="detached")
        assert "no longer holds it" in other.locator("#error").inner_text()  # and is told why
        assert other.locator("#moves button").count() == 0
        new_link = page.locator("#invites li[data-seat='1'] input").input_value()
        fresh = guest.new_page()
        fresh.set_default_timeout(TIMEOUT)
        fresh.goto(new_link)
        fresh.wait_for_selector("#hand")
    finally:
        guest.close()


def test_the_generic_page_plays_any_game(server: ServerProcess, page: Any) -> None:
    """The page every game gets until it has its own: the view as a tree, moves as buttons."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    created = httpx.post(
        f"{server.url}/api/tables", json={"game": "mexican-train", "players": 2, "seats": seats}
    )
    body = created.json()
    page.goto(f"{server.url}/t/{body['table']}?plain#seat={body['tokens']['0']}")
    page.wait_for_selector(".generic-view dl.tree")
    assert page.locator("#station").count() == 0  # not Mexican Train's own page
    assert page.locator(".generic-view dt:text-is('hand')").count() == 1
    for _ in range(2):
        seq = wait_my_turn(page)
        if seq is None:
            break
        page.locator("#moves button.move").first.click()
        page.wait_for_selector(f"body:not([data-seq='{seq}'])")
    assert page.locator("#log li").count() >= 2


def listen(ws: Any, box: list[dict[str, Any]]) -> None:
    ws.on("framereceived", lambda frame: box.append(json.loads(frame)))


def test_two_seats_see_only_their_own_hand_and_a_spectator_none(server: ServerProcess, browser: Any) -> None:
    spec = {"game": "touring", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
    created = httpx.post(f"{server.url}/api/tables", json=spec).json()
    table = created["table"]
    pages = []
    frames: list[list[dict[str, Any]]] = []
    contexts = [browser.new_context() for _ in range(3)]
    try:
        for i, fragment in enumerate(
            (f"seat={created['tokens']['0']}", f"invite={created['invites']['1']}", "watch")
        ):
            page = contexts[i].new_page()
            page.set_default_timeout(TIMEOUT)
            received: list[dict[str, Any]] = []
            page.on(
                "websocket",
                lambda ws, box=received: ws.on("framereceived", lambda f: box.append(json.loads(f))),
            )
            page.goto(f"{server.url}/t/{table}#{fragment}")
            page.wait_for_selector("body[data-seq]")
            pages.append(page)
            frames.append(received)
        hands = [p.locator("#hand .hand-card").all_inner_texts() for p in pages[:2]]
        assert len(hands[0]) == 6 and len(hands[1]) == 5  # seat 1 has drawn for its first turn
        assert pages[2].locator("#hand").count() == 0
        states = [[m for m in box if m.get("type") == "state"] for box in frames]
        assert all(m["you"] == 0 and len(m["view"]["hand"]) == 6 for m in states[0])
        assert all(m["you"] == 1 and len(m["view"]["hand"]) == 5 for m in states[1])
        assert all(m["you"] is None and m["view"]["hand"] is None for m in states[2])
        # the invite link left the address bar; the token lives in this browser only
        assert "#" not in pages[0].url
        assert pages[2].locator("#moves button").count() == 0
        # Before: the spectator's page showed the moves panel as an empty box.
        assert pages[2].locator("#moves").is_hidden() and pages[0].locator("#moves").is_visible()
    finally:
        for context in contexts:
            context.close()


WATCHING = {"en": "watching", "zh-Hant": "觀戰中"}
NO_MOVES_YET = {"en": "No moves yet", "zh-Hant": "還沒有人出手"}


@pytest.mark.parametrize(("size", "lang"), [(s, lang) for s in SIZES for lang in WATCHING])
def test_a_spectators_new_table_shows_no_empty_boxes(
    server: ServerProcess, page: Any, size: str, lang: str
) -> None:
    # Before: a spectator's page drew the moves section as an empty bordered box, and at a new
    # table the log was a heading over an empty box.
    page.set_viewport_size(SIZES[size])
    page.add_init_script(f"localStorage.setItem('tt.lang', '{lang}')")
    for game, players in (("touring", 2), ("mexican-train", 4)):
        seats = [{"kind": "human"}] + [{"kind": "bot"}] * (players - 1)
        spec = {"game": game, "players": players, "seats": seats, "seed": 7}
        table = httpx.post(f"{server.url}/api/tables", json=spec).json()["table"]
        page.goto(f"{server.url}/t/{table}#watch")
        page.wait_for_selector("body[data-seq]")
        assert page.locator("h1 small").inner_text() == WATCHING[lang]
        assert page.locator("#moves").count() == 1 and page.locator("#moves").is_hidden()
        assert page.locator("#log li").count() == 0  # the human at seat 1 moves first
        assert page.locator("#log-empty").inner_text().startswith(NO_MOVES_YET[lang])
        assert_axe_clean(page, f"{game} watched ({lang}, {size})")


def test_the_no_moves_note_goes_with_the_first_move(server: ServerProcess, page: Any) -> None:
    seats = [{"kind": "bot"}, {"kind": "human"}]  # the bot moves first
    spec = {"game": "touring", "players": 2, "seats": seats, "seed": 7}
    table = httpx.post(f"{server.url}/api/tables", json=spec).json()["table"]
    page.goto(f"{server.url}/t/{table}#watch")
    page.wait_for_selector("#log li", timeout=TIMEOUT)
    assert page.locator("#log-empty").count() == 0


REPLAY_NO_MOVES = {"en": "No moves before this step", "zh-Hant": "這一步之前還沒有人出手"}


@pytest.mark.parametrize("lang", sorted(REPLAY_NO_MOVES))
def test_a_replay_before_its_first_move_says_why_its_log_is_empty(
    server: ServerProcess, page: Any, lang: str
) -> None:
    # Before: a replay opened at step 0 showed the log as a heading over an empty box.
    page.add_init_script(f"localStorage.setItem('tt.lang', '{lang}')")
    bots = {"game": "touring", "players": 2, "seats": [{"kind": "bot"}, {"kind": "bot"}], "seed": 7}
    table = httpx.post(f"{server.url}/api/tables", json=bots).json()["table"]
    page.goto(f"{server.url}/t/{table}#watch")  # bots move while someone watches
    page.wait_for_selector("#log li", timeout=TIMEOUT)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto(f"{server.url}/replay/{table}")
        page.wait_for_selector("#log-empty", timeout=TIMEOUT)
        assert page.locator("#log-empty").inner_text().startswith(REPLAY_NO_MOVES[lang])
        assert page.locator("#log li").count() == 0
        assert_axe_clean(page, f"replay at step 0 ({lang}, {size})")
        page.click("#next")
        page.wait_for_selector("#log li")
        assert page.locator("#log-empty").count() == 0
        page.click("#first")
        page.wait_for_selector("#log-empty")


def test_a_chinese_lobby_offers_chinese_words_for_codenames(server: ServerProcess, page: Any) -> None:
    # Before: `tabletrek play codenames-duet --lang zh-Hant` dealt Chinese words, but the browser
    # lobby in 繁體中文 still preselected the English word pack.
    if "codenames-duet" not in games_in_lobby(server):
        pytest.skip("Codenames Duet does not load in this tree")
    open_lobby(server, page, "zh-Hant", "codenames-duet")
    assert json.loads(page.input_value("#opt_word_pack")) == "zh-Hant"
    page.select_option("#lang", "en")
    page.wait_for_selector("h1:has-text('New table')")
    page.select_option("#game", "codenames-duet")
    assert json.loads(page.input_value("#opt_word_pack")) == "en"


def test_touring_tooltips_read_as_chinese_sentences(server: ServerProcess, page: Any) -> None:
    # Before: '汽油耗盡(Out of Gasoline): 延遲卡：…對手上。 以汽油解除…' with an ASCII colon and a
    # space between the two Chinese sentences; the mileage piles' '30哩(30 Miles): 0 / 2. 每種…'.
    open_lobby(server, page, "zh-Hant", "touring")
    page.click("#create-table")
    page.wait_for_selector("#hand .hand-card")
    tips = [page.get_attribute(sel, "data-tip") for sel in ("#hand .hand-card", ".miles-pile")]
    for tip in tips:
        assert tip and "：" in tip and ": " not in tip and "。 " not in tip and ". " not in tip, tip
    page.select_option("#lang", "en")
    # the card is already there in Chinese: wait until the page has redrawn it in English
    page.wait_for_function(
        "() => /[A-Za-z]{4}/.test(document.querySelector('#hand .hand-card').dataset.tip.split(':')[1] || '')"
    )
    english = page.get_attribute("#hand .hand-card", "data-tip")
    assert english and ": " in english and "：" not in english, english


@pytest.mark.parametrize(
    ("game", "summary"),
    [
        ("mexican-train", ".mt-summary"),
        ("codenames-duet", ".cd-counters"),
        ("double-crossing", "p.muted:has(.wagon-count)"),
    ],
)
def test_a_status_line_keeps_a_space_around_its_separators(
    server: ServerProcess, page: Any, game: str, summary: str
) -> None:
    # Before: '第 1/13 局 · 車站 12 ·牌堆 31 張', '已找到特務：0/15 ·計時標記', '銀行：$13,450,000· 卡牌':
    # htm drops the whitespace of a line break, and the separators sat at line ends.
    if game not in games_in_lobby(server):
        pytest.skip(f"{game} does not load in this tree")
    page.goto(f"{server.url}/")
    page.select_option("#game", game)
    page.click("#create-table")
    page.wait_for_selector(summary)
    text = page.locator(summary).first.inner_text()
    assert "·" in text and not re.search(r"\S·|·\S", text), text


def test_codenames_in_the_browser_speaks_of_clicks_not_typed_commands(
    server: ServerProcess, page: Any
) -> None:
    # Before: the browser's phase line said "輸入 'clue <字詞> <數字>'" (the terminal's syntax) above
    # a clue form, and a card's tooltip read '鳳凰: 你任務卡上的路人' with an ASCII colon.
    if "codenames-duet" not in games_in_lobby(server):
        pytest.skip("Codenames Duet does not load in this tree")
    open_lobby(server, page, "zh-Hant", "codenames-duet")
    page.click("#create-table")
    page.wait_for_selector("#clue-word")
    phase = page.locator(".cd-phase").inner_text()
    assert "線索" in phase and "clue" not in phase and "<" not in phase, phase
    tips = [page.get_attribute(f"#grid .cd-card >> nth={i}", "data-tip") for i in range(25)]
    described = [tip for tip in tips if tip and "：" in tip]
    assert described and not any(": " in tip for tip in tips if tip), tips


@pytest.mark.parametrize("lang", ["zh-Hant", "en"])
def test_touring_card_names_stay_on_their_cards(server: ServerProcess, page: Any, lang: str) -> None:
    # Before: '解除限速卡(Country)' and '汽油耗盡(Out of Gasoline)' ran past both edges of the card
    # ('限速卡(Countr'), at a phone's width as on a desktop. Seed 3 deals Country and Hauled In.
    open_lobby(server, page, lang, "touring")
    page.click("#advanced summary")
    page.fill("#seed", "3")
    assert page.input_value("#seed") == "3" and page.input_value("#game") == "touring"
    page.click("#create-table")
    page.wait_for_selector("#hand .hand-card[data-card='country']")
    widths = page.evaluate(
        """() => [...document.querySelectorAll("#hand svg.tt-card text")]
            .filter((t) => t.textContent.length > 3).map((t) => [t.textContent, t.getBBox().width])"""
    )
    assert any("Country" in text for text, _ in widths), widths
    assert all(width <= 56 for _, width in widths), widths


@pytest.mark.parametrize("game", ["touring", "double-crossing", "mexican-train", "codenames-duet"])
def test_chinese_tooltips_and_labels_take_full_width_punctuation(
    server: ServerProcess, page: Any, game: str
) -> None:
    # Before: Double Crossing's spaces read '7: 交易. 交易：用車輛換…', its contracts '草原石油第1號: 在…',
    # Touring's piles '棄牌堆: 汽油(Gasoline) (3)' and seat line 'P1: 6 張': an English colon and
    # full stop inside Chinese sentences.
    if game not in games_in_lobby(server):
        pytest.skip(f"{game} does not load in this tree")
    open_lobby(server, page, "zh-Hant", game)
    page.click("#create-table")
    page.wait_for_selector("body[data-seq]")
    if game == "double-crossing":
        page.wait_for_selector(".dc-board-box [data-tip]")  # the track is drawn once its data file arrives
    texts = page.evaluate(
        """() => [...document.querySelectorAll("#main :is([data-tip], [aria-label], small, title)")]
            .flatMap((e) => [e.getAttribute("data-tip"), e.getAttribute("aria-label"),
                             ["SMALL", "title"].includes(e.tagName) ? e.textContent : null])
            .filter((s) => s && /[\\u4e00-\\u9fff]/.test(s))"""
    )
    assert texts, game
    wrong = [s for s in texts if re.search(r"[\u4e00-\u9fff)）][:.] ", s)]
    assert wrong == [], wrong[:5]


def test_seats_are_named_in_the_readers_language(server: ServerProcess, page: Any) -> None:
    # Before: the Chinese page said '你是P1', 'greedy (P2) 抽了 1 張牌' and '對 greedy (P2) 打出 …'.
    open_lobby(server, page, "zh-Hant", "touring")
    page.click("#create-table")
    page.wait_for_selector("#seats li")
    seats = page.locator("#seats").inner_text()
    # Before this too: 'greedy（玩家2）', the bot's id, where the seat list says '電腦：貪心（…）'.
    assert "玩家1" in seats and "貪心（玩家2）" in seats, seats
    assert "P2" not in seats and "greedy" not in seats, seats
    assert "你是玩家1" in page.locator("h1").inner_text()
    play_one(page, "touring")
    # Before: 'greedy（玩家2） 抽了 1 張牌。', a space after the full-width bracket (fill_chinese).
    page.wait_for_selector("#log li:has-text('貪心（玩家2）抽了')")
    log = page.locator("#log").inner_text()
    assert "P2" not in log and "） " not in log and "greedy" not in log, log
    moves = page.locator("#moves").inner_text() if page.locator("#moves").count() else ""
    assert "(P2)" not in moves, moves
    page.select_option("#lang", "en")
    page.wait_for_selector("#seats li:has-text('Greedy (P2)')")


def test_the_page_fills_chinese_templates_as_the_server_does(server: ServerProcess, page: Any) -> None:
    # Before: the page and the server both wrote '輪到 玩家1：擲骰' and '對 小明 打出…'.
    from tabletrek.i18n import translate

    from ...test_i18n import CHINESE_SPACING

    open_lobby(server, page, "zh-Hant")
    cases = [[key, args] for key, args, _ in CHINESE_SPACING]
    filled = page.evaluate(
        """async (cases) => {
          const i18n = await import("/static/js/i18n.js");
          await i18n.loadCatalogs("zh-Hant", ["double_crossing", "touring"]);
          return cases.map(([key, args]) => i18n.t(key, args));
        }""",
        cases,
    )
    assert filled == [chinese for _, _, chinese in CHINESE_SPACING]
    assert filled == [translate(key, "zh-Hant", **args) for key, args in cases]


def test_a_phone_lobby_keeps_a_chinese_label_on_one_line(server: ServerProcess, page: Any) -> None:
    # Before: on a phone a seat read '玩家2 [電腦：深思…] 強' and '度 [一般]' on the next line.
    page.set_viewport_size({"width": 375, "height": 812})  # an iPhone mini/SE width
    open_lobby(server, page, "zh-Hant", "touring")
    page.select_option("select[name=seat1]", "bot:ismcts")
    lines = page.evaluate(
        """() => [...document.querySelectorAll(".seats .level-box")].filter((e) => e.offsetParent)
            .map((e) => e.getClientRects().length)"""
    )
    assert lines and all(n == 1 for n in lines), lines
    nowrap = page.evaluate("() => getComputedStyle(document.querySelector('.seats .level-box')).whiteSpace")
    assert nowrap == "nowrap"  # at any width, not only this one


def test_the_lobby_offers_a_strength_only_for_the_search_bot(server: ServerProcess, page: Any) -> None:
    # Before: every seat showed 'Strength [normal]', a person's and a greedy bot's too, though only
    # the search bot has levels (the label's display rule overrode the hidden attribute).
    page.goto(f"{server.url}/")
    page.select_option("#game", "touring")
    page.select_option("select[name=seat1]", "bot:greedy")
    assert not page.locator(".seats .level-box").first.is_visible()  # seat 1: a person
    assert not page.locator(".seats .level-box").nth(1).is_visible()
    page.select_option("select[name=seat1]", "bot:ismcts")
    assert page.locator(".seats .level-box").nth(1).is_visible()


def test_a_chinese_chat_line_takes_a_full_width_colon(server: ServerProcess, page: Any) -> None:
    # Before: '小明: 你好' in the table chat, and 'Bob: [link]' among the invites.
    open_lobby(server, page, "zh-Hant")
    page.fill("#nick", "小明")
    page.select_option("#game", "touring")
    page.select_option("select[name=seat1]", "human")
    page.click("#create-table")
    page.wait_for_selector("#chat-text")
    page.fill("#chat-text", "你好")
    page.keyboard.press("Enter")
    page.wait_for_selector(".chat li:has-text('你好'), #chat li:has-text('你好')")
    line = page.locator("li:has-text('你好')").last.inner_text()
    assert "小明：你好" in line, line


def test_the_page_joins_a_refusals_list_as_its_reader_does(server: ServerProcess, page: Any) -> None:
    # Before: the page joined a list argument with ', ' in every language ('2, 3, 4, 5, 6' in
    # a Chinese sentence); the server now sends the list itself.
    open_lobby(server, page, "zh-Hant")
    reference = {
        "$t": "core.error.player_count",
        "args": {"game": "touring", "allowed": ["2", "3"], "players": 9},
    }
    shown = page.evaluate(
        """async (reference) => {
          const i18n = await import("/static/js/i18n.js");
          await i18n.loadCatalogs("zh-Hant", []);
          return i18n.t("web.error.bad_options", { detail: reference });
        }""",
        reference,
    )
    assert shown == "這些設定不可行：touring 的玩家人數可以是 2、3，不能是 9", shown

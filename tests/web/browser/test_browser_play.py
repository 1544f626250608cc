"""Every game played to its end by clicking, in a real headless Chromium, at desktop and phone sizes,
in English and Traditional Chinese.

Each run checks what a player would notice: no page or console error, nothing wider than a 390 px
phone, an axe-core scan without serious or critical findings, the score sheet and Rematch at the
end (a new table with the same seats), and it saves a screenshot of the table under
tests/artifacts/ (a CI artefact, not committed). Click-to-update times are written there too.
"""

from __future__ import annotations

import json
import re
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import httpx
import pytest

from ..helpers import SIZES, ServerProcess, assert_axe_clean

pytestmark = pytest.mark.browser

TIMEOUT = 20_000  # a whole game's pages, some at desktop size: longer than the other files' waits
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"

pytest.importorskip("axe_playwright_python.sync_playwright")

HUMAN = {"kind": "human"}
BOT = {"kind": "bot"}  # the game's default bot
# Tables short enough for a test run, each still a whole game by the rules: one round of Mexican
# Train (the `rounds` option), two players everywhere.
GAMES: dict[str, dict[str, Any]] = {
    "touring": {"players": 2, "seats": [HUMAN, BOT]},
    "mexican-train": {"players": 2, "options": {"rounds": 1}, "seats": [HUMAN, BOT]},
    "codenames-duet": {"players": 2, "seats": [HUMAN, BOT]},
    "double-crossing": {"players": 2, "seats": [HUMAN, BOT]},
}
COMBOS = [("desktop", "en"), ("phone", "zh-Hant"), ("phone", "en"), ("desktop", "zh-Hant")]
SEAT_DASH = re.compile(" — |——")
"""Where a line of the seat list turns from the seat's name to who plays it (web.table.seat_line)."""
MAX_CLICKS = 1500


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("browser-play") / "web.sqlite3"
    # one address makes every table of the suite (a rematch makes one too): creation's rate limit
    # (tested in test_security) is opened wide here
    limits = ["--limit=create_burst=500", "--limit=create_rate=100"]
    process = ServerProcess(f"sqlite:///{db}", bot_delay=0.01, args=limits).start()
    yield process
    process.stop()


class Watched:
    """A page with its errors collected: uncaught exceptions and console errors."""

    def __init__(
        self,
        browser: Any,
        size: str,
        lang: str,
        prefs: dict[str, Any] | None = None,
        motion: str = "reduce",
    ) -> None:
        self.context = browser.new_context(viewport=SIZES[size], reduced_motion=motion)
        script = f"localStorage.setItem('tt.lang', {json.dumps(lang)});"
        if prefs is not None:
            script += f"localStorage.setItem('tt.prefs', {json.dumps(json.dumps(prefs))});"
        self.context.add_init_script(script)
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        self.page.on(
            "console", lambda msg: msg.type == "error" and self.errors.append(f"console: {msg.text}")
        )

    def close(self) -> None:
        self.context.close()


def new_table(server: ServerProcess, game: str, seed: int) -> tuple[str, str]:
    spec = {"game": game, "seed": seed, **GAMES[game]}
    created = httpx.post(f"{server.url}/api/tables", json=spec).json()
    return created["table"], created["tokens"]["0"]


def open_seat(page: Any, server: ServerProcess, table: str, token: str) -> None:
    page.goto(f"{server.url}/t/{table}#seat={token}")
    page.wait_for_selector("body[data-seq]")


def wait_turn(page: Any) -> int | None:
    """The move number once this page must act (not counting automatic answers), or None at the end."""
    page.wait_for_selector("body[data-mine='1']:not([data-auto]), body[data-over='1']")
    if page.get_attribute("body", "data-over") == "1":
        return None
    return int(page.get_attribute("body", "data-seq"))


def until(page: Any, expression: str, timeout: float = TIMEOUT / 1000) -> None:
    """Wait until a JavaScript expression is true (polled: the CSP forbids wait_for_function's eval)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"never true: {expression}"
        time.sleep(0.05)


def click_first(page: Any, selector: str) -> bool:
    target = page.locator(selector)
    if target.count():
        target.first.click()
        return True
    return False


def one_move(page: Any, game: str) -> int:
    """One decision by a simple scripted player, through the game's own pieces where it has them.

    Returns the clicks it took. The policy is the first legal move (the first playable piece), the
    same policy as ``first_move`` below uses for counting clicks."""
    clicks = 0
    if game == "codenames-duet" and page.locator("#clue-word").count():
        suggestion = page.locator("#moves button.move").first.get_attribute("data-action")
        _, word, number = suggestion.split()
        page.fill("#clue-word", word)
        page.fill("#clue-number", number)
        page.click("#give-clue")
        return 2  # the two fields are typed, then one click
    selector = {
        "touring": "#hand .hand-card.playable",
        "mexican-train": "#hand .tile-button.playable",
        "codenames-duet": "#grid .cd-card.guessable",
        "double-crossing": "#stop-prompt #pass-stop",
    }[game]
    seq = page.get_attribute("body", "data-seq")
    if click_first(page, selector):
        clicks += 1
        if page.locator(".choices button.choice").count() and page.get_attribute("body", "data-seq") == seq:
            page.locator(".choices button.choice").first.click()
            clicks += 1
        return clicks
    page.locator("#moves button.move").first.click()
    return clicks + 1


def play_to_the_end(page: Any, game: str, latencies: list[float]) -> int:
    clicks = 0
    while clicks < MAX_CLICKS:
        seq = wait_turn(page)
        if seq is None:
            return clicks
        started = time.perf_counter()
        clicks += one_move(page, game)
        page.wait_for_selector(f"body:not([data-seq='{seq}']), body[data-over='1']")
        latencies.append((time.perf_counter() - started) * 1000)
    raise AssertionError(f"{game}: no end after {MAX_CLICKS} clicks")


def assert_fits(page: Any, size: str) -> None:
    if size != "phone":
        return
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{overflow}px of sideways scrolling at 390 px"


def assert_moves_in_reach(page: Any) -> None:
    """On a phone, the first move is on screen at the top of the page, with no scrolling."""
    if wait_turn(page) is None:
        return
    page.evaluate("window.scrollTo(0, 0)")
    box = page.evaluate(
        "(() => { const b = document.querySelector('#moves button.move');"
        " return b && [b.getBoundingClientRect().bottom, window.innerHeight]; })()"
    )
    assert box is not None and box[0] <= box[1], f"the first move is at {box}: below the screen"


def save_latency(game: str, size: str, lang: str, latencies: list[float], clicks: int) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    ordered = sorted(latencies)
    summary = {
        "game": game,
        "size": size,
        "lang": lang,
        "clicks": clicks,
        "moves": len(ordered),
        "p50_ms": round(statistics.median(ordered), 1) if ordered else None,
        "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))], 1) if ordered else None,
        "samples_ms": [round(x, 1) for x in latencies],
    }
    (ARTIFACTS / f"latency-{game}-{size}-{lang}.json").write_text(json.dumps(summary), encoding="utf-8")


@pytest.mark.parametrize(("size", "lang"), COMBOS, ids=[f"{s}-{lang}" for s, lang in COMBOS])
@pytest.mark.parametrize("game", list(GAMES))
def test_play_a_whole_game_by_clicking_then_rematch(
    server: ServerProcess, browser: Any, game: str, size: str, lang: str
) -> None:
    if game not in [g["name"] for g in httpx.get(f"{server.url}/api/games").json()["games"]]:
        pytest.skip(f"{game} does not load in this tree")
    # auto-pass on Stop windows and auto-end: the page answers those itself, quickly for the test
    watched = Watched(browser, size, lang, prefs={"autoPass": True, "autoEnd": True, "autoDelay": 50})
    page = watched.page
    try:
        table, token = new_table(server, game, seed=COMBOS.index((size, lang)) + 1)
        open_seat(page, server, table, token)
        if lang == "zh-Hant":
            assert page.get_attribute("html", "lang") == "zh-Hant"
        latencies: list[float] = []
        for _ in range(2):  # a couple of moves, then look at the table mid-game
            if wait_turn(page) is not None:
                seq = page.get_attribute("body", "data-seq")
                one_move(page, game)
                page.wait_for_selector(f"body:not([data-seq='{seq}']), body[data-over='1']")
        assert_fits(page, size)
        if size == "phone":
            assert_moves_in_reach(page)
        assert_axe_clean(page, f"{game} table")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{game}-{size}-{lang}.png"), full_page=True)
        clicks = play_to_the_end(page, game, latencies)
        save_latency(game, size, lang, latencies, clicks)
        # game over: the score sheet and Rematch, no Leave button and no move panel left over
        page.wait_for_selector("#game-over #score-sheet")
        assert page.locator("#leave").count() == 0 and page.locator("#moves").count() == 0
        assert_fits(page, size)
        assert_axe_clean(page, f"{game} game over")
        page.screenshot(path=str(ARTIFACTS / f"{game}-{size}-{lang}-over.png"), full_page=True)
        names = page.locator("#seats li").all_inner_texts()
        page.click("#rematch")
        page.wait_for_url(lambda url: f"/t/{table}" not in url)
        page.wait_for_selector("body[data-seq]")
        new_id = page.url.rstrip("/").split("/")[-1]
        info = httpx.get(f"{server.url}/api/tables/{new_id}").json()
        assert info["game"] == game and not info["over"]
        assert [s["kind"] for s in info["seats"]] == [s["kind"] for s in GAMES[game]["seats"]]
        assert page.locator("h1 small").inner_text() != ""  # this browser holds seat 1 again
        assert page.evaluate("document.body.dataset.seq") is not None
        # the same names in the same seats (a line's name ends at the dash: " — " or Chinese "——")
        assert [SEAT_DASH.split(line)[0] for line in page.locator("#seats li").all_inner_texts()] == [
            SEAT_DASH.split(line)[0] for line in names
        ]
        assert not watched.errors, watched.errors
    finally:
        watched.close()


def test_typed_text_survives_another_player_joining_and_moving(server: ServerProcess, browser: Any) -> None:
    spec = {"game": "codenames-duet", "players": 2, "seats": [HUMAN, HUMAN]}  # two people: the server's seed
    created = httpx.post(f"{server.url}/api/tables", json=spec).json()
    table, tokens = created["table"], created["tokens"]
    first = Watched(browser, "phone", "en")
    second = Watched(browser, "desktop", "zh-Hant")
    try:
        page = first.page
        open_seat(page, server, table, tokens["0"])
        page.wait_for_selector("#clue-word")
        page.click("#clue-word")
        page.keyboard.type("oceanic")
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")  # the caret in the middle of the word
        seq = page.get_attribute("body", "data-seq")
        # the partner joins through their one-use invite link: the page claims it, the seats change
        second.page.goto(f"{server.url}/t/{table}#invite={created['invites']['1']}")
        second.page.wait_for_selector("body[data-seq]")
        until(page, "document.querySelectorAll('#seats li')[1].innerText.includes('online')")
        state = page.evaluate(
            "(() => { const e = document.activeElement; return [e.id, e.value, e.selectionStart]; })()"
        )
        assert state == ["clue-word", "oceanic", 5]
        assert page.get_attribute("body", "data-seq") == seq
        # and a chat line typed on the other side survives a chat message arriving
        other = second.page
        other.click("#chat-text")
        other.keyboard.type("half a sente")
        page.fill("#chat-text", "hello <b>there</b>")
        page.click("#chat-send")
        other.wait_for_selector("#chat li:has-text('hello <b>there</b>')")  # shown as text, not HTML
        assert other.locator("#chat b").count() == 0
        state = other.evaluate(
            "(() => { const e = document.activeElement; return [e.id, e.value, e.selectionStart]; })()"
        )
        assert state == ["chat-text", "half a sente", 12]
        assert not first.errors and not second.errors, first.errors + second.errors
    finally:
        first.close()
        second.close()


def test_lobby_replay_and_rules_pages_are_accessible_and_fit_a_phone(
    server: ServerProcess, browser: Any
) -> None:
    for lang in ("en", "zh-Hant"):
        watched = Watched(browser, "phone", lang)
        page = watched.page
        try:
            page.goto(f"{server.url}/")
            page.wait_for_selector("#create-table")
            assert_fits(page, "phone")
            assert_axe_clean(page, f"lobby {lang}")
            page.screenshot(path=str(ARTIFACTS / f"lobby-{lang}.png"), full_page=True)
            page.goto(f"{server.url}/rules/double-crossing")
            page.wait_for_selector("main h1, main h2")
            assert_axe_clean(page, f"rules {lang}")
            spec = {"game": "touring", "seed": 9, "seats": [BOT, {"kind": "bot", "bot": "random"}]}
            table = httpx.post(f"{server.url}/api/tables", json=spec).json()["table"]
            # a bots-only table plays only while someone watches it (issue 15): watch it to the end
            page.goto(f"{server.url}/t/{table}")
            page.wait_for_selector("body[data-over='1']", timeout=120_000)
            page.goto(f"{server.url}/replay/{table}?viewer=all")
            page.wait_for_selector("#board .panel")
            page.locator("body").press("End")
            page.wait_for_selector("#log li")
            total = page.locator("#slider").get_attribute("max")
            assert page.locator("#slider").input_value() == total
            page.locator("body").press("ArrowLeft")
            until(page, f"document.querySelector('#slider').value === '{int(total) - 1}'")
            headings = page.locator("#board > .panel > h2").all_inner_texts()
            assert len(set(headings)) == len(headings) == 3  # the public view and each seat by name
            assert_fits(page, "phone")
            assert_axe_clean(page, f"replay {lang}")
            assert not watched.errors, watched.errors
        finally:
            watched.close()


def test_lobby_names_options_and_offers_bots_that_work(server: ServerProcess, browser: Any) -> None:
    watched = Watched(browser, "desktop", "en")
    page = watched.page
    try:
        page.goto(f"{server.url}/")
        page.select_option("#game", "codenames-duet")
        page.wait_for_selector("select[name=seat1] option[value='bot:codenames-guess']", state="attached")
        form = page.locator("#create fieldset").nth(1).inner_text()
        assert (
            "Timer tokens" in form and "word_pack" not in form
        )  # people's words; raw names only in Advanced
        # the AI partner plays the zh-Hant pack too (issue 17): it stays offered after the lobby asks
        with page.expect_response(lambda r: "/bots?" in r.url and "zh-Hant" in unquote(r.url)) as asked:
            page.select_option("#opt_word_pack", label="繁體中文")
        assert "codenames-guess" in asked.value.json()["bots"]
        offered = page.locator("select[name=seat1] option").all_inner_texts()
        assert "Bot: Random (any legal move)" in offered and len(offered) > 2, offered
        assert page.locator("select[name=seat1] option[value='bot:codenames-guess']").count() == 1
        page.click("#create-table")
        page.wait_for_url(f"{server.url}/t/*")
        page.wait_for_selector("body[data-seq]")
        assert not watched.errors, watched.errors
    finally:
        watched.close()


def test_lobby_lists_public_tables_and_join_claims_a_free_seat(server: ServerProcess, browser: Any) -> None:
    spec = {"game": "touring", "players": 2, "seats": [HUMAN, HUMAN]}
    # the host is at another address: the creator's own address may not also take an open seat
    host = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=30)
    with host:
        created = host.post(f"{server.url}/api/tables", json={**spec, "public": True}).json()
    private = httpx.post(f"{server.url}/api/tables", json=spec).json()
    watched = Watched(browser, "desktop", "en")
    page = watched.page
    try:
        page.goto(f"{server.url}/")
        join = page.locator(f"#open-list button.join[data-table='{created['table']}']")
        join.wait_for()
        # private by default: not listed
        assert page.locator(f"#open-list [data-table='{private['table']}']").count() == 0
        join.click()
        page.wait_for_url(f"{server.url}/t/{created['table']}")
        page.wait_for_selector("body[data-seq]")
        assert page.evaluate(f"JSON.parse(localStorage.getItem('tt.table.{created['table']}')).token")
        assert "Spectating" not in page.locator("h1").inner_text()  # seated, not watching
        # the seat is taken: the table leaves the public list, and its invite is spent
        listed = httpx.get(f"{server.url}/api/tables").json()
        assert created["table"] not in [row["id"] for row in listed["tables"]]
        assert not watched.errors, watched.errors
    finally:
        watched.close()


def test_moves_are_played_with_the_keyboard(server: ServerProcess, browser: Any) -> None:
    watched = Watched(browser, "desktop", "en")
    page = watched.page
    try:
        table, token = new_table(server, "touring", seed=21)
        open_seat(page, server, table, token)
        seq = wait_turn(page)
        assert seq is not None
        # Tab through the page until a playable card of the hand has the focus, then Enter
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.matches('#hand .hand-card.playable')"):
                break
        else:
            raise AssertionError("Tab never reached a playable card")
        page.keyboard.press("Enter")
        choices = page.locator(".choices button.choice")
        if page.get_attribute("body", "data-seq") == str(seq) and choices.count():
            choices.first.focus()
            page.keyboard.press("Enter")
        page.wait_for_selector(f"body:not([data-seq='{seq}'])")
        assert not watched.errors, watched.errors
    finally:
        watched.close()


def test_a_double_click_plays_once_without_an_out_of_date_error(server: ServerProcess, browser: Any) -> None:
    watched = Watched(browser, "desktop", "en")
    page = watched.page
    try:
        table, token = new_table(server, "mexican-train", seed=8)
        open_seat(page, server, table, token)
        for _ in range(3):
            seq = wait_turn(page)
            if seq is None:
                break
            target = page.locator("#moves button.move").first  # one move per button
            target.dblclick()
            page.wait_for_selector(f"body:not([data-seq='{seq}'])")
            time.sleep(0.3)  # let a second message, if one was sent, come back
            assert page.locator("#error").inner_text() == "", page.locator("#error").inner_text()
        assert not watched.errors, watched.errors
    finally:
        watched.close()


def test_touring_with_five_players_is_drawn_and_played_by_clicking(
    server: ServerProcess, browser: Any
) -> None:
    """The rules review made Touring take 5 players (each on their own): five areas fit a phone."""
    watched = Watched(browser, "phone", "en", prefs={"autoDelay": 50})
    page = watched.page
    try:
        spec = {"game": "touring", "players": 5, "seed": 5, "seats": [HUMAN, BOT, BOT, BOT, BOT]}
        created = httpx.post(f"{server.url}/api/tables", json=spec).json()
        open_seat(page, server, created["table"], created["tokens"]["0"])
        assert page.locator("#board .tt-table").count() == 5
        for _ in range(4):
            seq = wait_turn(page)
            if seq is None:
                break
            one_move(page, "touring")
            page.wait_for_selector(f"body:not([data-seq='{seq}']), body[data-over='1']")
        assert_fits(page, "phone")
        assert_moves_in_reach(page)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "touring-5-players-phone-en.png"), full_page=True)
        assert not watched.errors, watched.errors
    finally:
        watched.close()


@pytest.mark.parametrize("game", ["touring", "mexican-train"])
@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_pieces_slide_to_their_new_place_unless_motion_is_reduced(
    server: ServerProcess, browser: Any, game: str, motion: str
) -> None:
    watched = Watched(browser, "desktop", "en", motion=motion)
    page = watched.page
    try:
        table, token = new_table(server, game, seed=4)
        open_seat(page, server, table, token)
        # count the slide animations as they start (they last a quarter of a second)
        page.evaluate(
            """() => { window.flips = 0; const seen = new WeakSet();
            setInterval(() => { for (const a of document.getAnimations())
              if (a.id === 'flip' && !seen.has(a)) { seen.add(a); window.flips += 1; } }, 20); }"""
        )
        for _ in range(3):
            seq = wait_turn(page)
            if seq is None:
                break
            one_move(page, game)
            page.wait_for_selector(f"body:not([data-seq='{seq}']), body[data-over='1']")
            time.sleep(0.1)
        slid = int(page.get_attribute("body", "data-slid") or "0")
        flips = page.evaluate("window.flips")
        if motion == "reduce":
            assert slid == 0 and flips == 0, (slid, flips)
        else:
            assert slid > 0 and flips > 0, (slid, flips)  # a played piece left the hand: others closed up
        assert not watched.errors, watched.errors
    finally:
        watched.close()


def test_double_crossing_decline_is_offered_and_played_by_clicking(
    server: ServerProcess, browser: Any
) -> None:
    """The rules review lets a player decline the Roundhouse's or Control Tower's move: a button."""
    watched = Watched(browser, "phone", "zh-Hant")
    page = watched.page
    try:
        # seed 28: the first-move player below reaches a decline on their second decision
        table, token = new_table(server, "double-crossing", seed=28)
        open_seat(page, server, table, token)
        decline = page.locator("#moves button.move[data-action='decline']")
        for _ in range(40):
            seq = wait_turn(page)
            assert seq is not None, "the game ended before a decline was offered"
            if decline.count():
                break
            one_move(page, "double-crossing")
            page.wait_for_selector(f"body:not([data-seq='{seq}']), body[data-over='1']")
        else:
            raise AssertionError("no decline offered in 40 decisions")
        assert decline.inner_text() == "放棄"  # the move's label in the player's language
        assert_moves_in_reach(page)
        decline.click()
        page.wait_for_selector(f"body:not([data-seq='{seq}'])")
        assert page.locator("#error").inner_text() == ""
        assert not watched.errors, watched.errors
    finally:
        watched.close()


def test_a_seat_opened_a_second_time_is_told_to_the_table(server: ServerProcess, browser: Any) -> None:
    """Issue 15's notice: the page that held the seat says in its log and its error line that the
    seat was opened elsewhere (a second window, or someone holding a stolen link)."""
    spec = {"game": "touring", "players": 2, "seats": [HUMAN, HUMAN]}
    created = httpx.post(f"{server.url}/api/tables", json=spec).json()
    first = Watched(browser, "desktop", "en")
    second = Watched(browser, "desktop", "en")
    try:
        open_seat(first.page, server, created["table"], created["tokens"]["0"])
        open_seat(second.page, server, created["table"], created["tokens"]["0"])
        first.page.wait_for_selector("#log li:has-text('was opened in a second window or browser')")
        assert first.page.locator("#error").inner_text() != ""
        assert "watching" in first.page.locator("h1 small").inner_text()  # the older page only watches
        assert not second.errors, second.errors
    finally:
        first.close()
        second.close()

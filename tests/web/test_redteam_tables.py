"""A second attack on a real ``tabletrek serve`` on loopback, at its tables: what the first
hardening left open. Many connections of one address multiplying the message rate, a client that
never reads, invisible text as clues and names, invalid UTF-8 in binary frames, one client taking
every open seat of a public table, impersonating another seat, options that overflow the search,
bots freezing the event loop, the host swapping a seat unseen, chat kept in memory for ever. Every
test checks the server's log for tracebacks; each says what an attacker could do before.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from .helpers import ServerProcess, receive_within
from .redteam import WAIT, answer_to, client_from, dial, no_traceback, seated, start


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = start(tmp_path_factory.mktemp("redteam-tables"))
    yield proc
    proc.stop()
    assert "Traceback" not in proc.log_text()


# ----- WebSocket messages -----------------------------------------------------------------------


def test_the_connections_of_one_address_share_one_message_rate(server: ServerProcess) -> None:
    # Before: the message rate was per connection, so 30 connections from one address sent 30
    # times as much (a spectator's hello is fanned out to every connection at the table: 2,800
    # hellos became 80,000 messages to send). Now the address as a whole is limited too.
    created = httpx.post(f"{server.url}/api/tables", json={"game": "touring", "seed": 5}, timeout=WAIT).json()
    url = f"ws://127.0.0.1:{server.port}/ws/{created['table']}"
    per_connection = 40  # the per-connection burst: none of these is refused by that bucket
    with contextlib.ExitStack() as stack:
        sockets = [
            stack.enter_context(connect(url, sock=dial(server, 11), open_timeout=WAIT)) for _ in range(25)
        ]
        started = time.monotonic()
        for ws in sockets:
            for number in range(per_connection):
                ws.send(json.dumps({"type": "ping", "id": number}))
        answers: dict[str, int] = {}
        for ws in sockets:
            for _ in range(per_connection):
                message = json.loads(ws.recv(timeout=WAIT))
                kind = message["type"] if message["type"] == "pong" else message.get("key", "?")
                answers[kind] = answers.get(kind, 0) + 1
        elapsed = time.monotonic() - started
        # at most the address's burst plus what its rate refilled while the messages came in
        assert answers.get("pong", 0) <= 120 + 60 * elapsed + 1, answers
        assert answers.get("web.error.too_fast", 0) + answers.get("pong", 0) == 25 * per_connection
        with connect(url, sock=dial(server, 12), open_timeout=WAIT) as other:  # another address
            other.send(json.dumps({"type": "ping", "id": 1}))
            assert json.loads(other.recv(timeout=WAIT))["type"] == "pong"
    no_traceback(server)


def test_a_client_that_does_not_read_is_dropped_by_size_not_only_by_count() -> None:
    # Before: a connection was dropped after 200 unsent messages whatever their size, so one
    # address could park 64 connections x 200 full resyncs (50 kB each at a long table: 640 MB)
    # by asking for resyncs and never reading them.
    from tabletrek.web.conns import QUEUE_CHARS, Conn

    async def scenario() -> None:
        conn = Conn()
        big = {"type": "state", "log": "x" * 50_000}
        for _ in range(QUEUE_CHARS // 50_000 + 1):
            conn.send(big)
        assert conn.closed
        assert conn.queued_chars == 0 and await conn.next() is None  # the backlog is let go at once

        reader = Conn()
        for _ in range(3 * QUEUE_CHARS // 50_000):  # a client that reads keeps up and stays
            reader.send(big)
            assert await reader.next() is not None
        assert not reader.closed and reader.queued_chars == 0

    asyncio.run(scenario())


# ----- text -------------------------------------------------------------------------------------


INVISIBLE = ["\u3164", "\uffa0", "\u115f", "\u2800\u2800", "a\u034f"]
"""Hangul fillers, the braille blank and the combining grapheme joiner: letters and marks to
Unicode's categories, nothing on screen."""


@pytest.mark.parametrize("pack", ["en", "zh-Hant"])
def test_invisible_text_is_refused_as_a_clue_a_nickname_and_a_chat_line(
    server: ServerProcess, pack: str
) -> None:
    # Before: "clue ㅤ 1" was a legal Codenames clue in both packs (the partner saw an empty
    # clue), and "ㅤ" a nickname: a seat with no visible name, or "Alice" plus a filler beside
    # the real Alice.
    table, tokens = seated(server, "codenames-duet", options={"word_pack": pack})
    url = f"ws://127.0.0.1:{server.port}/ws/{table}"
    with connect(url, sock=dial(server, 13), open_timeout=WAIT) as ws:
        ws.send(json.dumps({"type": "hello", "token": tokens["0"]}))
        for blank in INVISIBLE:
            for message in (
                {"type": "act", "action": f"clue {blank} 1", "seq": 0},
                {"type": "nick", "nickname": f"Alice{blank}"},
                {"type": "chat", "text": blank},
            ):
                answers = answer_to(ws, json.dumps(message))
                assert [a.get("key") for a in answers] == ["web.error.bad_text"], (message, answers)
    with connect(url, sock=dial(server, 13), open_timeout=WAIT) as ws:
        ws.send(json.dumps({"type": "hello", "token": tokens["1"], "nickname": "\u3164"}))
        while (message := json.loads(ws.recv(timeout=WAIT)))["type"] != "error":
            assert message["type"] != "state", "the nickname was taken"
        assert message["key"] == "web.error.bad_text"
    info = httpx.get(f"{server.url}/api/tables/{table}", timeout=WAIT).json()
    assert [s["nickname"] for s in info["seats"]] == [None, None]
    no_traceback(server)


def test_a_binary_frame_must_be_utf8_and_numbers_finite(server: ServerProcess) -> None:
    # Before: a binary frame was decoded with errors="replace", so invalid UTF-8 (a surrogate
    # encoded as bytes) became U+FFFD and went on as text; 1e400 parsed as infinity.
    table, tokens = seated(server, "touring")
    url = f"ws://127.0.0.1:{server.port}/ws/{table}"
    with connect(url, sock=dial(server, 14), open_timeout=WAIT) as ws:
        ws.send(json.dumps({"type": "hello", "token": tokens["0"]}))
        answers = answer_to(ws, b'{"type":"chat","text":"\xed\xa0\x80"}')
        assert [(a.get("key"), a["args"]) for a in answers] == [
            ("web.error.bad_json", {"reason": {"$t": "web.error.json.not_utf8", "args": {}}})
        ]
        answers = answer_to(ws, b'{"type":"chat","text":"fine"}')  # a valid binary frame is read as text
        assert [a["type"] for a in answers] == ["chat"]
        answers = answer_to(ws, '{"type":"act","action":"x","seq":1e400}')
        assert [a.get("key") for a in answers] == ["web.error.bad_text"]
    no_traceback(server)


# ----- memory -----------------------------------------------------------------------------------


def test_a_tables_chat_is_not_kept_in_memory_whole_nor_after_the_table(tmp_path: Path) -> None:
    # Before: every line of every table ever chatted at stayed in the server's memory (the chat
    # module's dict of logs was never emptied, and each log held all its lines): a seated player
    # adds a line every 2 s for as long as they like, at as many tables as they can create.
    from sqlalchemy import create_engine
    from starlette.testclient import TestClient

    from tabletrek.web import chat
    from tabletrek.web.app import create_app

    log = chat.ChatLog("t" * 12, create_engine(f"sqlite:///{tmp_path / 'chat.db'}"))
    for number in range(chat.HISTORY + 50):
        log.add(0, "Ann", f"line {number}")
    assert len(log.load()) == chat.HISTORY  # what a joining player is sent, no more
    again = chat.ChatLog("t" * 12, log.engine).load()  # read back from the store: the newest lines
    assert [line["n"] for line in again] == list(range(50, chat.HISTORY + 50))
    assert log.add(0, "Ann", "next")["n"] == chat.HISTORY + 50

    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0)
    with TestClient(app) as client:
        created = client.post("/api/tables", json={"game": "touring", "players": 2, "seed": 1}).json()
        table = created["table"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": created["tokens"]["0"]}))
            ws.send_text(json.dumps({"type": "chat", "text": "hello"}))
            while not ((message := receive_within(ws))["type"] == "chat" and message["lines"]):
                pass
        manager = app.state.manager
        assert table in chat._logs
        manager.tables[table].unwatched_since -= 10 * 3600  # unwatched for long: dropped by the sweep
        assert manager.sweep() == 1
        assert table not in chat._logs


# ----- seats ------------------------------------------------------------------------------------


def test_one_address_takes_one_open_seat_of_a_public_table(server: ServerProcess) -> None:
    # Before: a stranger could claim every open seat of a public table by number, one after the
    # other, and play them all, seeing several hands against the one other person (the host
    # could do the same at their own table). Seating a second person from one address takes an
    # invite from the host.
    spec = {"game": "mexican-train", "players": 4, "seats": [{"kind": "human"}] * 4, "public": True}
    with client_from(15) as host, client_from(16) as stranger, client_from(17) as other:
        created = host.post(f"{server.url}/api/tables", json=spec).json()
        claim = f"{server.url}/api/tables/{created['table']}/claim"
        assert stranger.post(claim, json={"seat": 1}).status_code == 200
        second = stranger.post(claim, json={"seat": 2})
        assert second.status_code == 403 and second.json()["key"] == "web.error.one_seat_per_address"
        by_host = host.post(claim, json={"seat": 2})
        assert by_host.status_code == 403 and by_host.json()["key"] == "web.error.one_seat_per_address"
        assert other.post(claim, json={"seat": 2}).status_code == 200
        # an invite from the host still seats a second person from one address
        invite = host.post(
            f"{server.url}/api/tables/{created['table']}/seats/3/invite",
            headers={"x-host-token": created["host"]},
        ).json()["invite"]
        assert stranger.post(claim, json={"invite": invite}).status_code == 200
    no_traceback(server)


def test_a_player_cannot_take_another_seats_name(server: ServerProcess) -> None:
    # Before: any seat could rename itself to another seat's nickname (or to "P1", the name an
    # unnamed seat is shown by), and the log and chat then showed two of them: an easy way to
    # speak for someone else at a table of strangers.
    table, tokens = seated(server, "touring")
    url = f"ws://127.0.0.1:{server.port}/ws/{table}"
    with (
        connect(url, sock=dial(server, 19), open_timeout=WAIT) as alice,
        connect(url, sock=dial(server, 19), open_timeout=WAIT) as mallory,
    ):
        mallory.send(json.dumps({"type": "hello", "token": tokens["1"]}))
        answers = answer_to(mallory, json.dumps({"type": "nick", "nickname": "p1"}))  # seat 0, unnamed
        assert [a.get("key") for a in answers] == ["web.error.nickname_taken"], answers
        alice.send(json.dumps({"type": "hello", "token": tokens["0"], "nickname": "Alice"}))
        while json.loads(alice.recv(timeout=WAIT))["type"] != "state":
            pass
        for name in ("Alice", "alice", "ＡＬＩＣＥ", " Alice "):
            answers = answer_to(mallory, json.dumps({"type": "nick", "nickname": name}))
            assert [a.get("key") for a in answers] == ["web.error.nickname_taken"], (name, answers)
        assert answer_to(mallory, json.dumps({"type": "nick", "nickname": "Mallory"})) == []
    # joining with a taken name still seats the player, under their seat's own name
    with connect(url, sock=dial(server, 19), open_timeout=WAIT) as again:
        hello = json.dumps({"type": "hello", "token": tokens["1"], "nickname": "alice"})
        assert [a.get("key") for a in answer_to(again, hello)] == ["web.error.nickname_taken"]
        assert (
            answer_to(again, json.dumps({"type": "chat", "text": "hi"}))[0]["lines"][0]["name"] == "Mallory"
        )
    names = httpx.get(f"{server.url}/api/tables/{table}", timeout=WAIT).json()["seats"]
    assert [s["nickname"] for s in names] == ["Alice", "Mallory"]
    # nor can a table's creator take the name another seat is shown by
    spec = {
        "game": "touring",
        "players": 2,
        "nickname": "p2",
        "seats": [{"kind": "human"}, {"kind": "human"}],
    }
    refused = httpx.post(f"{server.url}/api/tables", json=spec, timeout=WAIT)
    assert refused.status_code == 400 and refused.json()["key"] == "web.error.nickname_taken"
    no_traceback(server)


def test_one_ipv6_48_cannot_fill_the_server_with_tables(tmp_path: Path) -> None:
    # Before: creation was limited per /64 only, and a /48 (a free tunnel-broker allocation) holds
    # 65,536 of them: 500 of its /64s filled the 5,000-table cap at once, and nobody else could
    # create a table until the idle ones expired an hour later. Each /48 now has a budget too.
    from starlette.testclient import TestClient

    from tabletrek.web.app import create_app
    from tabletrek.web.ratelimit import Limits

    limits = Limits()
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0, limits=limits)
    spec = {"game": "touring", "players": 2, "seed": 1}
    answers: list[int] = []
    with TestClient(app) as first:
        for subnet in range(int(limits.create_wide_burst) + 10):  # one creation from each /64
            client = TestClient(app, client=(f"2001:db8:7:{subnet:x}::1", 40000))
            answers.append(client.post("/api/tables", json=spec).status_code)
        assert answers.count(429) >= 10 and set(answers) == {201, 429}, answers
        other = TestClient(app, client=("2001:db8:8::1", 40000))  # another /48 is not held back
        assert other.post("/api/tables", json=spec).status_code == 201
        assert first.get("/api/games").status_code == 200


def test_everyone_at_the_table_is_told_when_the_host_hands_a_seat_to_someone_else(
    server: ServerProcess,
) -> None:
    # Before: the host could give a seated player's seat a new invite, claim it in another tab
    # and play it with that player's hand; only the player moved out was told, the others saw a
    # seat list that flickered open and closed, with nothing in their log.
    spec = {"game": "mexican-train", "players": 3, "seats": [{"kind": "human"}] * 3}
    created = httpx.post(f"{server.url}/api/tables", json=spec, timeout=WAIT).json()
    table = created["table"]
    tokens = dict(created["tokens"])
    for seat, code in created["invites"].items():
        tokens[seat] = httpx.post(f"{server.url}/api/tables/{table}/claim", json={"invite": code}).json()[
            "token"
        ]
    url = f"ws://127.0.0.1:{server.port}/ws/{table}"
    with connect(url, sock=dial(server, 21), open_timeout=WAIT) as third:
        third.send(json.dumps({"type": "hello", "token": tokens["2"]}))
        while json.loads(third.recv(timeout=WAIT))["type"] != "state":
            pass
        invite = httpx.post(
            f"{server.url}/api/tables/{table}/seats/1/invite",
            headers={"x-host-token": created["host"]},
            timeout=WAIT,
        )
        assert invite.status_code == 200
        while (message := json.loads(third.recv(timeout=WAIT)))["type"] != "notice":
            pass
        assert message["key"] == "web.notice.seat_reissued" and message["args"]["seat"] == {"$seat": 1}
    assert "seat 2 given a new invite by the host" in server.log_text()
    no_traceback(server)


# ----- options ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "option"),
    [("touring", "max_turns"), ("mexican-train", "double_blank_points"), ("double-crossing", "max_rounds")],
)
def test_an_option_without_a_maximum_still_has_one_on_the_server(
    server: ServerProcess, game: str, option: str
) -> None:
    # Before: max_turns=10**19 was a valid Touring table (the option has no maximum), and its
    # search bot then raised OverflowError in the compiled playouts on every move: a traceback
    # in the log per bot move, for as long as the attacker watched (and a game with no end).
    spec = {
        "game": game,
        "players": 2,
        "options": {option: 10**19},
        "seats": [{"kind": "human"}, {"kind": "bot"}],
    }
    answer = httpx.post(f"{server.url}/api/tables", json=spec, timeout=WAIT)
    assert answer.status_code == 400 and answer.json()["key"] == "web.error.bad_options", answer.text
    assert option in answer.json()["message"] and answer.json()["args"]["detail"]["args"]["name"] == option
    bots = httpx.get(
        f"{server.url}/api/games/{game}/bots", params={"options": json.dumps({option: 10**19})}, timeout=WAIT
    )
    assert bots.status_code == 400 and bots.json()["key"] == "web.error.bad_options"
    spec["options"] = {option: 100}  # a real setting is still taken
    assert httpx.post(f"{server.url}/api/tables", json=spec, timeout=WAIT).status_code == 201


# ----- bots -------------------------------------------------------------------------------------


def test_a_search_bot_never_thinks_on_the_event_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Before: a bot's first slow move ran on the event loop (only then was its kind marked slow):
    # the Codenames partners' first move (loading word tables) froze the server for a second, and
    # a table with ismcts at iterations=10000 froze every table of the server for 9.5 s, once per
    # game after each restart, and with the default budget for a second.
    from starlette.testclient import TestClient

    from tabletrek.web import tables
    from tabletrek.web.app import create_app

    on_loop: list[bool] = []
    made = tables.LiveTable._bot

    class Watched:
        def __init__(self, bot: object) -> None:
            self.bot = bot
            self.name = bot.name
            self.seat = bot.seat

        def act(self, state: object) -> object:
            try:
                asyncio.get_running_loop()
                on_loop.append(True)
            except RuntimeError:
                on_loop.append(False)
            return self.bot.act(state)

    monkeypatch.setattr(tables.LiveTable, "_bot", lambda self, seat: Watched(made(self, seat)))

    def watch_four_moves(bot: dict[str, object], database: str) -> None:
        """A fresh server (its scheduler has timed no kind yet), a table of two such bots, watched
        until four moves are made."""
        with TestClient(create_app(f"sqlite:///{tmp_path / database}", bot_delay=0)) as client:
            created = client.post(
                "/api/tables", json={"game": "touring", "players": 2, "seats": [bot, bot]}
            ).json()
            with client.websocket_connect(f"/ws/{created['table']}") as ws:
                ws.send_text(json.dumps({"type": "hello"}))
                while (message := receive_within(ws))["type"] != "state" or message["seq"] < 4:
                    pass

    watch_four_moves({"kind": "bot", "bot": "ismcts", "params": {"iterations": 5}}, "web.sqlite3")
    assert on_loop and not any(on_loop), on_loop
    # a heuristic's first move is timed in a thread too; quick, it moves on the loop afterwards
    on_loop.clear()
    watch_four_moves({"kind": "bot", "bot": "greedy"}, "web2.sqlite3")
    assert on_loop[0] is False and len(on_loop) >= 4


def test_leaving_and_coming_back_cannot_flood_the_table_and_the_log(server: ServerProcess) -> None:
    # Before: a seated player could send leave/back 20 times a second: each one a line in the
    # server's log ("a bot takes over seat ...") and a notice and a full resync to everyone at the
    # table, for as long as they liked.
    table, tokens = seated(server, "touring")
    url = f"ws://127.0.0.1:{server.port}/ws/{table}"
    with connect(url, sock=dial(server, 22), open_timeout=WAIT) as ws:
        ws.send(json.dumps({"type": "hello", "token": tokens["0"]}))
        keys = []
        for number in range(20):
            answers = answer_to(ws, json.dumps({"type": "leave" if number % 2 == 0 else "back"}))
            keys += [a.get("key") for a in answers]
    assert keys.count("web.error.too_fast") >= 10, keys
    assert server.log_text().count(f"table {table}: a bot takes over") <= 5
    no_traceback(server)

"""The server as an attacker on the open internet would try it: a real ``tabletrek serve`` on loopback.

Each test is one of the attacks the hardening answers (issue: "a public server nobody can cheat or
knock over"): a chosen seed, a host opening a friend's seat, a poisoned nickname, a creation flood,
a huge body, enumerating tables, a table left to stall. Every test also checks that the server's
log holds no traceback.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tabletrek.core.registry import load
from tabletrek.web.store import Store

from .helpers import ServerProcess

PEOPLE = {
    "touring": 2,
    "codenames-duet": 2,
    "mexican-train": 2,
    "double-crossing": 2,
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("security")
    proc = ServerProcess(f"sqlite:///{folder / 'web.sqlite3'}", log_path=folder / "serve.log").start()
    yield proc
    proc.stop()
    assert "Traceback" not in proc.log_text()


def from_address(last: int) -> httpx.Client:
    """An HTTP client whose requests come from 127.0.0.<last> (Linux routes all of 127/8 to
    loopback): to the server, another client address."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=f"127.0.0.{last}"), timeout=30)


def two_people(game: str = "touring", **extra: Any) -> dict[str, Any]:
    return {"game": game, "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}], **extra}


def hello(ws: ClientConnection, token: str | None = None, **extra: Any) -> dict[str, Any]:
    ws.send(json.dumps({"type": "hello", "token": token, **extra}))
    return until(ws, lambda m: m["type"] in ("state", "error"))


def until(ws: ClientConnection, wanted: Any, seconds: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message: dict[str, Any] = json.loads(ws.recv(timeout=seconds))
        if wanted(message):
            return message
    raise AssertionError("the expected message never came")


# ----- the seed ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(PEOPLE))
def test_a_chosen_seed_is_refused_at_a_table_with_another_person(server: ServerProcess, game: str) -> None:
    chosen = 12345
    with from_address(11) as http:
        refused = http.post(f"{server.url}/api/tables", json=two_people(game, seed=chosen))
        assert 400 <= refused.status_code < 500, refused.text
        assert refused.json()["key"] == "web.error.seed_not_allowed"
        created = http.post(f"{server.url}/api/tables", json=two_people(game)).json()
    with connect(f"{server.ws_url}/ws/{created['table']}") as ws:
        dealt = hello(ws, created["tokens"]["0"])
    # What the creator would compute from the seed it wanted (or from an obvious guess) is not
    # what the server dealt: for Codenames Duet that is the partner's key card.
    for guess in (chosen, 0, 1, 11):
        local = load(game, players=2).new_game(seed=guess).view(0)
        assert json.loads(json.dumps(local)) != dealt["view"]


def test_the_seed_of_a_running_game_never_leaves_the_server(server: ServerProcess, tmp_path: Path) -> None:
    with from_address(12) as http:
        created = http.post(f"{server.url}/api/tables", json=two_people("codenames-duet")).json()
        table = created["table"]
        token1 = http.post(
            f"{server.url}/api/tables/{table}/claim", json={"invite": created["invites"]["1"]}
        ).json()["token"]
        seen = [http.get(f"{server.url}/api/tables/{table}").text]
        for path in ("record", "replay", "replay/0?viewer=all"):
            answer = http.get(f"{server.url}/api/tables/{table}/{path}")
            assert answer.status_code == 403 or path == "replay", (path, answer.status_code)
            seen.append(answer.text)
    with (
        connect(f"{server.ws_url}/ws/{table}") as ws0,
        connect(f"{server.ws_url}/ws/{table}") as ws1,
    ):
        seen.append(json.dumps(hello(ws0, created["tokens"]["0"])))
        seen.append(json.dumps(hello(ws1, token1)))
    seed = Store(server.db_url).load_table(table).seed
    assert seed > 2**20  # from the CSPRNG's 63 bits, not a small number
    assert not any(str(seed) in text for text in seen)


def test_a_practice_table_may_fix_its_seed_and_says_so(server: ServerProcess) -> None:
    spec = {"game": "touring", "players": 2, "seed": 77, "seats": [{"kind": "human"}, {"kind": "bot"}]}
    with from_address(13) as http:
        created = http.post(f"{server.url}/api/tables", json=spec)
        assert created.status_code == 201 and created.json()["practice"] is True
        table = created.json()["table"]
        info = http.get(f"{server.url}/api/tables/{table}").json()
        assert info["practice"] is True and info["clock"] is None  # practice: no clock
        bots = {"game": "touring", "players": 2, "seed": 78, "options": {"max_turns": 30}}
        bots["seats"] = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
        all_bots = http.post(f"{server.url}/api/tables", json=bots).json()["table"]
        with connect(f"{server.ws_url}/ws/{all_bots}") as ws:
            hello(ws)
            until(ws, lambda m: m["type"] == "state" and m["over"], seconds=60)
        record = http.get(f"{server.url}/api/tables/{all_bots}/record").json()
    assert record["seed"] == 78 and record["meta"]["practice"] is True


# ----- seat links -------------------------------------------------------------------------------


def test_a_seat_link_is_claimed_once_and_the_host_never_holds_the_seat(server: ServerProcess) -> None:
    with from_address(14) as host:
        created = host.post(f"{server.url}/api/tables", json=two_people()).json()
    table = created["table"]
    assert set(created["tokens"]) == {"0"}  # the host's own seat only
    invite = created["invites"]["1"]
    with from_address(15) as friend:
        claimed = friend.post(f"{server.url}/api/tables/{table}/claim", json={"invite": invite})
        assert claimed.status_code == 200 and claimed.json()["seat"] == 1
        token = claimed.json()["token"]
        assert token != invite
    with from_address(14) as host:  # the host tries the link it made: spent
        again = host.post(f"{server.url}/api/tables/{table}/claim", json={"invite": invite})
        assert again.status_code == 409 and again.json()["key"] == "web.error.invite_spent"
        open_seat = host.post(f"{server.url}/api/tables/{table}/claim", json={"seat": 1})
        assert open_seat.status_code in (403, 409)  # a private table: no claiming by number
    with connect(f"{server.ws_url}/ws/{table}") as ws:
        assert hello(ws, invite)["key"] == "web.error.bad_token"  # the code is not a seat token
    with (
        connect(f"{server.ws_url}/ws/{table}") as host_ws,
        connect(f"{server.ws_url}/ws/{table}") as friend_ws,
    ):
        assert hello(host_ws, created["tokens"]["0"])["you"] == 0
        assert hello(friend_ws, token)["you"] == 1
        # the token leaks and someone opens the seat a second time: the first connection is told,
        # and so is everyone at the table
        with connect(f"{server.ws_url}/ws/{table}") as second:
            assert hello(second, token)["you"] == 1
            assert until(friend_ws, lambda m: m["type"] == "error")["key"] == "web.error.seat_elsewhere"
            demoted = until(friend_ws, lambda m: m["type"] == "state")
            assert demoted["you"] is None and demoted["view"]["hand"] is None
            notice = until(host_ws, lambda m: m["type"] == "notice")
            assert notice["key"] == "web.notice.seat_reopened" and notice["args"]["seat"] == {"$seat": 1}


# ----- strings ----------------------------------------------------------------------------------


def test_a_lone_surrogate_nickname_is_refused_and_the_table_lives_on(server: ServerProcess) -> None:
    surrogate = '"\\ud800"'  # legal JSON, not a Unicode scalar value
    with from_address(16) as http:
        body = '{"game": "touring", "players": 2, "nickname": ' + surrogate + "}"
        refused = http.post(
            f"{server.url}/api/tables", content=body, headers={"content-type": "application/json"}
        )
        assert refused.status_code == 400 and refused.json()["key"] == "web.error.bad_text"
        created = http.post(f"{server.url}/api/tables", json=two_people()).json()
        table = created["table"]
        with connect(f"{server.ws_url}/ws/{table}") as ws, connect(f"{server.ws_url}/ws/{table}") as other:
            hello(other)
            ws.send(
                '{"type": "hello", "token": "' + created["tokens"]["0"] + '", "nickname": ' + surrogate + "}"
            )
            assert until(ws, lambda m: m["type"] == "error")["key"] == "web.error.bad_text"
            joined = hello(ws, created["tokens"]["0"], nickname="Ａｌｉｃｅ\u200b")  # NFKC; refused: Cf
            assert joined["type"] == "error" and joined["key"] == "web.error.bad_text"
            joined = hello(ws, created["tokens"]["0"], nickname="  Ａｌｉｃｅ  ")
            assert joined["names"][0] == "Alice"  # one normalisation: NFKC
            for bad in (surrogate, '"\\u202eevil"', '"' + "x" * 40 + '"', "5", "[1]"):
                ws.send('{"type": "nick", "nickname": ' + bad + "}")
                assert until(ws, lambda m: m["type"] == "error")["key"] in (
                    "web.error.bad_text",
                    "web.error.bad_message",
                )
            ws.send('{"type": "act", "action": ' + surrogate + "}")
            assert until(ws, lambda m: m["type"] == "error")["key"] == "web.error.bad_text"
            ws.send(json.dumps({"type": "ping", "id": 1}))
            assert until(ws, lambda m: m["type"] == "pong")["id"] == 1
        info = http.get(f"{server.url}/api/tables/{table}")
        assert info.status_code == 200 and info.json()["seats"][0]["nickname"] == "Alice"
        for key, value in (("\ud800", 1), ("max_turns", "\ud800"), ("max_turns", [1])):
            options = json.dumps({key: value})
            spec = '{"game": "touring", "players": 2, "options": ' + options + "}"
            answer = http.post(
                f"{server.url}/api/tables", content=spec, headers={"content-type": "application/json"}
            )
            assert answer.status_code == 400, answer.text


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("[" * 2000 + "]" * 2000, "nested"),
        ('{"game": "touring", "players": ' + "9" * 5000 + "}", "digits"),
        ('{"game": "touring", "players": NaN}', "NaN"),
        ('{"game": "touring", "players": "two"}', "players"),
        ('{"game": ["touring"]}', "touring"),
        (
            '{"game": "touring", "seats": [{"kind": "bot", "bot": "random", "params": {"a": {"b": {}}}}]}',
            "bot",
        ),
        ("\xff\xfe", "UTF-8"),
    ],
)
def test_malformed_json_gets_a_reason_not_a_traceback(server: ServerProcess, body: str, reason: str) -> None:
    with from_address(17) as http:
        answer = http.post(
            f"{server.url}/api/tables",
            content=body.encode("latin-1") if body.startswith("\xff") else body.encode(),
            headers={"content-type": "application/json"},
        )
    assert 400 <= answer.status_code < 500
    assert answer.json()["type"] == "error" and answer.json()["message"]
    with connect(f"{server.ws_url}/ws/nosuchtable1") as ws:
        assert json.loads(ws.recv(timeout=10))["key"] == "web.error.no_table"


# ----- floods -----------------------------------------------------------------------------------


def test_a_creation_flood_gets_429_while_a_normal_client_still_creates(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'flood.sqlite3'}").start()
    try:
        statuses: list[int] = []
        retry_after: list[str] = []
        with from_address(1) as flood:
            for _ in range(60):
                answer = flood.post(f"{server.url}/api/tables", json={"game": "touring", "players": 2})
                statuses.append(answer.status_code)
                if answer.status_code == 429:
                    retry_after.append(answer.headers["retry-after"])
                    assert answer.json()["key"] == "web.error.too_many"
        assert statuses.count(201) <= 12 and statuses.count(429) >= 45
        assert retry_after and all(int(value) >= 1 for value in retry_after)
        with from_address(2) as normal:
            assert (
                normal.post(f"{server.url}/api/tables", json={"game": "touring", "players": 2}).status_code
                == 201
            )
        assert "Traceback" not in server.log_text()
    finally:
        server.stop()


def test_a_connection_flood_from_one_address_is_closed_while_others_still_join(tmp_path: Path) -> None:
    # The bucket's refill is slowed so that a loaded machine, taking seconds for 45 connections, cannot
    # refill it mid-flood: the test is about the bucket's size, not about how fast this machine is.
    limits = ["join_rate=0.01", "join_burst=30"]
    server = ServerProcess(f"sqlite:///{tmp_path / 'joins.sqlite3'}", args=[f"--limit={x}" for x in limits])
    server.start()
    try:
        _flood_joins(server)
    finally:
        server.stop()


def _flood_joins(server: ServerProcess) -> None:
    with from_address(40) as http:
        table = http.post(f"{server.url}/api/tables", json=two_people()).json()["table"]
    refused = 0
    for _ in range(45):  # the join bucket holds 30
        with connect(f"{server.ws_url}/ws/{table}", source_address=("127.0.0.41", 0)) as ws:
            try:
                ws.send(json.dumps({"type": "hello"}))
                first = json.loads(ws.recv(timeout=10))
            except ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 4429
                refused += 1
                continue
            if first["type"] == "error":
                assert first["key"] == "web.error.too_many"
                refused += 1
    assert refused >= 10
    with connect(f"{server.ws_url}/ws/{table}", source_address=("127.0.0.42", 0)) as ws:
        assert hello(ws)["type"] == "state"


def test_the_table_cap_holds_under_concurrent_creation(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'cap.sqlite3'}"
    limits = ["max_tables=20", "create_rate=1000", "create_burst=1000"]
    server = ServerProcess(db, args=[f"--limit={x}" for x in limits]).start()
    try:
        statuses: list[int] = []

        def create(last: int) -> None:
            with from_address(last) as http:
                for _ in range(10):
                    statuses.append(http.post(f"{server.url}/api/tables", json=two_people()).status_code)

        threads = [threading.Thread(target=create, args=(20 + i,)) for i in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert statuses.count(201) == 20 and statuses.count(429) == 40
        store = Store(db)
        assert store.live_count() == 20
        store.close()
        assert "Traceback" not in server.log_text()
    finally:
        server.stop()


def test_idle_tables_are_archived_with_their_records_and_free_the_cap(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'idle.sqlite3'}"
    server = ServerProcess(db, args=["--limit=max_tables=4", "--limit=idle_after=2"]).start()
    try:
        with from_address(31) as http:
            ids = [http.post(f"{server.url}/api/tables", json=two_people()).json()["table"] for _ in range(4)]
            assert http.post(f"{server.url}/api/tables", json=two_people()).json()["key"] == "web.error.full"
            store = Store(db)
            with connect(f"{server.ws_url}/ws/{ids[0]}") as ws:  # a table someone watches stays
                hello(ws)
                deadline = time.monotonic() + 30
                while store.live_count() > 1 and time.monotonic() < deadline:
                    time.sleep(0.2)
                assert store.table_ids("live") == [ids[0]]
                assert sorted(store.table_ids("archived")) == sorted(ids[1:])
            info = http.get(f"{server.url}/api/tables/{ids[1]}").json()
            assert info["archived"] is True and info["over"] is False
            record = http.get(f"{server.url}/api/tables/{ids[1]}/record").json()
            assert record["meta"]["archived"] is True and record["actions"] == []  # the record is kept
            with connect(f"{server.ws_url}/ws/{ids[1]}") as late:
                state = hello(late)
                assert state["table"]["archived"] and not state["legal"]
            # the cap has room again
            assert http.post(f"{server.url}/api/tables", json=two_people()).status_code == 201
            store.close()
        assert "archived: no move" in server.log_text() and "Traceback" not in server.log_text()
    finally:
        server.stop()


def test_a_bot_table_nobody_watches_does_not_run(server: ServerProcess) -> None:
    spec = {"game": "touring", "players": 2, "seats": [{"kind": "bot"}, {"kind": "bot", "bot": "random"}]}
    with from_address(18) as http:
        table = http.post(f"{server.url}/api/tables", json=spec).json()["table"]
        time.sleep(1.0)
        store = Store(server.db_url)
        assert store.load_table(table).actions == []
        with connect(f"{server.ws_url}/ws/{table}") as ws:
            hello(ws)
            until(ws, lambda m: m["type"] == "state" and m["seq"] >= 2)
        assert len(store.load_table(table).actions) >= 2
        store.close()


# ----- bodies -----------------------------------------------------------------------------------


def upload(server: ServerProcess, total: int, chunked: bool) -> tuple[bytes, int]:
    """POST ``total`` bytes to /api/tables (chunked, or with Content-Length); the answer's first
    bytes and the largest growth of the server's VmRSS seen meanwhile (KiB)."""
    # The server may still be growing on its own (a search compiled at start in a thread): wait
    # until its memory holds still, so only the upload's growth is measured.
    deadline = time.monotonic() + 30
    before = server.rss_kib()
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = server.rss_kib()
        if abs(now - before) < 512:
            break
        before = now
    peak = before
    done = threading.Event()

    def watch() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, server.rss_kib())
            time.sleep(0.005)

    answer = bytearray()

    def read(sock: socket.socket) -> None:
        try:
            while chunk := sock.recv(65536):
                answer.extend(chunk)
        except OSError:
            pass

    watcher = threading.Thread(target=watch)
    watcher.start()
    sock = socket.create_connection(("127.0.0.1", server.port))
    reader = threading.Thread(target=read, args=(sock,))
    reader.start()
    head = "POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    head += "Transfer-Encoding: chunked\r\n\r\n" if chunked else f"Content-Length: {total}\r\n\r\n"
    block = b"[" * (1 << 20)
    try:
        sock.sendall(head.encode())
        for _ in range(total // len(block)):
            sock.sendall(b"%x\r\n%s\r\n" % (len(block), block) if chunked else block)
        if chunked:
            sock.sendall(b"0\r\n\r\n")
    except OSError:
        pass  # the server answered and closed: the rest is not read
    reader.join(timeout=30)
    sock.close()
    done.set()
    watcher.join()
    return bytes(answer[:200]), peak - before


@pytest.mark.parametrize("chunked", [True, False])
def test_a_300_mb_body_is_refused_while_it_streams(server: ServerProcess, chunked: bool) -> None:
    upload(server, 1 << 20, chunked)  # the first request's own one-off costs (imports) come first
    answer, growth = upload(server, 300 << 20, chunked)
    assert answer.startswith(b"HTTP/1.1 413"), answer
    assert growth < 50 * 1024, f"the server grew by {growth} KiB"


# ----- listing ----------------------------------------------------------------------------------


def test_private_tables_are_not_listed_and_public_ones_only_while_a_seat_is_open(
    server: ServerProcess,
) -> None:
    with from_address(19) as http:
        private = http.post(f"{server.url}/api/tables", json=two_people()).json()
        public = http.post(f"{server.url}/api/tables", json=two_people(public=True)).json()
        later = http.post(f"{server.url}/api/tables", json=two_people()).json()
        listed = {row["id"]: row for row in http.get(f"{server.url}/api/tables").json()["tables"]}
        assert private["table"] not in listed and later["table"] not in listed
        assert listed[public["table"]]["open_seats"] == [1]
        # only the host may list a table
        url = f"{server.url}/api/tables/{later['table']}/public"
        assert http.post(url, json={"public": True}).status_code == 403
        assert (
            http.post(url, json={"public": True}, headers={"x-host-token": later["host"]}).status_code == 200
        )
        assert later["table"] in {row["id"] for row in http.get(f"{server.url}/api/tables").json()["tables"]}
        # a stranger takes the open seat of the public table by number; then it is no longer listed
        with from_address(20) as stranger:
            taken = stranger.post(f"{server.url}/api/tables/{public['table']}/claim", json={"seat": 1})
            assert taken.status_code == 200 and taken.json()["seat"] == 1
        rows = http.get(f"{server.url}/api/tables").json()["tables"]
        assert public["table"] not in {row["id"] for row in rows}


# ----- clocks -----------------------------------------------------------------------------------


def test_every_table_with_people_has_a_clock_and_the_log_says_when_a_bot_steps_in(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'clock.sqlite3'}", args=["--limit", "clock=1"]).start()
    try:
        with from_address(21) as http:
            created = http.post(f"{server.url}/api/tables", json=two_people()).json()
            assert created["clock"] == 1.0
            practice = http.post(f"{server.url}/api/tables", json={"game": "touring", "players": 2}).json()
            assert practice["clock"] is None
            token1 = http.post(
                f"{server.url}/api/tables/{created['table']}/claim", json={"invite": created["invites"]["1"]}
            ).json()["token"]
        table = created["table"]
        with connect(f"{server.ws_url}/ws/{table}") as ws0, connect(f"{server.ws_url}/ws/{table}") as ws1:
            hello(ws0, created["tokens"]["0"])
            hello(ws1, token1)
            # seat 1 does nothing; seat 0's turn runs out first: a bot plays it
            notice = until(ws1, lambda m: m["type"] == "notice" and m["key"] == "web.notice.bot_takes_over")
            assert notice["args"]["seat"] == {"$seat": 0}
            ws0.send(json.dumps({"type": "back"}))
            until(ws1, lambda m: m["type"] == "notice" and m["key"] == "web.notice.player_back")
        log = server.log_text()
        assert f"table {table}: a bot takes over seat 1" in log
        assert f"table {table}: the player takes seat 1 back" in log
        assert "Traceback" not in log
    finally:
        server.stop()

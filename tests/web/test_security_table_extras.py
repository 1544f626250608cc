"""The security layer over what the table page added: chat, Rematch and the lobby's bots endpoint.

Against a real ``tabletrek serve`` on loopback, as test_security.py: every hostile input is refused
with a reason (a 4xx or an ``error`` message), nothing of it reaches the table's state, and the
server's log holds no traceback.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from .helpers import ServerProcess
from .test_security import hello, two_people, until


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("security-extras")
    # many tables and connections are made here: those limits (tested in test_security) are opened wide
    limits = [
        "--limit=create_burst=500",
        "--limit=create_rate=100",
        "--limit=join_burst=500",
        "--limit=join_rate=100",
    ]
    proc = ServerProcess(
        f"sqlite:///{folder / 'web.sqlite3'}", args=limits, log_path=folder / "serve.log"
    ).start()
    yield proc
    proc.stop()
    assert "Traceback" not in proc.log_text()


def seated(server: ServerProcess, game: str = "touring", **extra: Any) -> tuple[dict[str, Any], list[str]]:
    """A table of two people, both seats claimed: (the creation answer, [token 0, token 1])."""
    created = httpx.post(f"{server.url}/api/tables", json=two_people(game, **extra)).json()
    claimed = httpx.post(
        f"{server.url}/api/tables/{created['table']}/claim", json={"invite": created["invites"]["1"]}
    )
    assert claimed.status_code == 200, claimed.text
    return created, [created["tokens"]["0"], claimed.json()["token"]]


def ws(server: ServerProcess, table: str) -> ClientConnection:
    return connect(f"{server.ws_url}/ws/{table}", open_timeout=20)


def chat_error(sock: ClientConnection, raw: str) -> dict[str, Any]:
    sock.send(raw)
    return until(sock, lambda m: m["type"] in ("error", "chat") and not m.get("reset"))


# ----- chat -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ('{"type": "chat", "text": "a\\ud800b"}', "a lone surrogate is not a character"),
        (json.dumps({"type": "chat", "text": "x" * 201}), "longer than 200 characters"),
        (json.dumps({"type": "chat", "text": "走" * 800}), "longer than 200 characters"),
        (json.dumps({"type": "chat", "text": "ring\u0007"}), "character U+0007 is not allowed"),
        (json.dumps({"type": "chat", "text": "\u202eevil"}), "character U+202E is not allowed"),
        (json.dumps({"type": "chat", "text": ["a"]}), "not text"),
    ],
)
def test_a_bad_chat_line_is_refused_with_a_reason_and_never_stored(
    server: ServerProcess, raw: str, reason: str
) -> None:
    created, tokens = seated(server)
    with ws(server, created["table"]) as sock:
        hello(sock, tokens[0])
        answer = chat_error(sock, raw)
        assert answer["type"] == "error" and answer["key"] == "web.error.bad_text", answer
        assert answer["message"] == f"The chat is refused: {reason}."
    with ws(server, created["table"]) as sock:  # a player who joins sees no chat at all
        sock.send(json.dumps({"type": "hello", "token": tokens[1]}))
        history = until(sock, lambda m: m["type"] == "chat")
        assert history["reset"] and history["lines"] == []


def test_a_chat_flood_is_rate_limited_per_seat_even_across_reconnects(server: ServerProcess) -> None:
    created, tokens = seated(server)
    answers = []
    for _ in range(2):  # reconnecting does not give a fresh bucket
        with ws(server, created["table"]) as sock:
            hello(sock, tokens[0])
            for i in range(4):
                answers.append(chat_error(sock, json.dumps({"type": "chat", "text": f"spam {i}"})))
    keys = [a.get("key", "chat") for a in answers]
    assert keys.count("chat") <= 4 and keys.count("web.chat.too_fast") >= 4, keys
    assert keys[-1] == "web.chat.too_fast"


def test_chat_is_kept_out_of_the_game_state_and_sent_as_plain_data(server: ServerProcess) -> None:
    """Bots read the game (state, view, log, record), never the chat; a line is data, not markup."""
    created, tokens = seated(server, "codenames-duet")
    table = created["table"]
    line = "<img src=x onerror=alert(1)> clue is OCEAN"
    with ws(server, table) as one, ws(server, table) as two:
        hello(one, tokens[0])
        hello(two, tokens[1])
        one.send(json.dumps({"type": "chat", "text": line}))
        got = until(two, lambda m: m["type"] == "chat" and bool(m["lines"]))
        assert got["lines"][0]["text"] == line  # kept verbatim: the page renders it as text
        one.send(json.dumps({"type": "lang", "lang": "en"}))
        state = until(one, lambda m: m["type"] == "state")
        assert "OCEAN" not in json.dumps(state)
        spectator_state = None
        with ws(server, table) as watcher:
            spectator_state = hello(watcher)
            assert "OCEAN" not in json.dumps(spectator_state)
            watcher.send(json.dumps({"type": "chat", "text": "I only watch"}))
            refused = until(watcher, lambda m: m["type"] == "error")
            assert refused["key"] == "web.chat.spectator"
    info = httpx.get(f"{server.url}/api/tables/{table}").json()
    assert "OCEAN" not in json.dumps(info)


# ----- rematch ----------------------------------------------------------------------------------


def finish(server: ServerProcess, table: str, tokens: list[str]) -> None:
    """Play a two-person game to its end (a turn limit keeps it short), each seat its own moves."""
    with ws(server, table) as first, ws(server, table) as second:
        socks = [first, second]
        states = [hello(s, t) for s, t in zip(socks, tokens, strict=True)]
        for _ in range(400):
            if any(s["over"] for s in states):
                return
            mover = next((i for i, s in enumerate(states) if s["legal"]), None)
            if mover is None:
                i = 0 if states[0]["seq"] <= states[1]["seq"] else 1
                states[i] = until(socks[i], lambda m: m["type"] == "state")
                continue
            s = states[mover]
            socks[mover].send(json.dumps({"type": "act", "action": s["legal"][0]["text"], "seq": s["seq"]}))
            for i in (0, 1):
                states[i] = until(socks[i], lambda m, seq=s["seq"]: m["type"] == "state" and m["seq"] > seq)
        raise AssertionError("the game did not end")


def test_rematch_is_for_seated_players_and_hands_out_no_other_seat(server: ServerProcess) -> None:
    created, tokens = seated(server, options={"max_turns": 6})
    table = created["table"]
    finish(server, table, tokens)
    url = f"{server.url}/api/tables/{table}/rematch"
    other, _ = seated(server)
    for headers in (
        {},
        {"x-seat-token": "A" * 43},
        {"x-seat-token": other["tokens"]["0"]},  # a seat at another table
        {"x-host-token": other["host"]},  # the host of another table
        {"x-seat-token": "A" * 500},  # far longer than any token
    ):
        refused = httpx.post(url, headers=headers)
        assert refused.status_code == 403, (headers, refused.text)
        assert refused.json()["key"] == "web.error.not_host"
    with ws(server, table) as sock1:
        hello(sock1, tokens[1])
        first = httpx.post(url, headers={"x-seat-token": tokens[0]})
        assert first.status_code == 201, first.text
        mine = first.json()
        pushed = until(sock1, lambda m: m["type"] == "rematch")
    # seat 0 (the first person's seat) gets its token; seat 1 only its own one-use invite
    assert set(mine) == {"table", "token"} and pushed["table"] == mine["table"]
    assert "token" not in pushed and set(pushed) == {"type", "table", "invite"}
    again = httpx.post(url, headers={"x-seat-token": tokens[1]}).json()
    assert again == {"table": mine["table"], "invite": pushed["invite"]}  # the same table, still its own
    new = mine["table"]
    claim = httpx.post(f"{server.url}/api/tables/{new}/claim", json={"invite": pushed["invite"]})
    assert claim.status_code == 200 and claim.json()["seat"] == 1
    spent = httpx.post(f"{server.url}/api/tables/{new}/claim", json={"invite": pushed["invite"]})
    assert spent.status_code == 409  # one use
    info = httpx.get(f"{server.url}/api/tables/{new}").json()
    assert info["practice"] is False and info.get("public") in (False, None) and info["clock"]
    # the host's answer holds no invite of a person who was at the table when it was made
    host = httpx.post(url, headers={"x-host-token": created["host"]}).json()
    assert host["invites"] == {} and "token" not in host
    with ws(server, new) as sock:
        assert hello(sock, mine["token"])["you"] == 0


def test_a_rematch_of_a_practice_table_is_practice_with_a_new_seed(server: ServerProcess) -> None:
    spec = {"game": "touring", "players": 2, "seed": 7, "options": {"max_turns": 6}}
    created = httpx.post(f"{server.url}/api/tables", json=spec).json()
    table = created["table"]
    with ws(server, table) as sock:
        state = hello(sock, created["tokens"]["0"])
        while not state["over"]:
            if state["legal"]:
                sock.send(
                    json.dumps({"type": "act", "action": state["legal"][0]["text"], "seq": state["seq"]})
                )
            state = until(sock, lambda m: m["type"] == "state" and (m["over"] or bool(m["legal"])))
    made = httpx.post(
        f"{server.url}/api/tables/{table}/rematch", headers={"x-seat-token": created["tokens"]["0"]}
    )
    assert made.status_code == 201
    new = made.json()["table"]
    info = httpx.get(f"{server.url}/api/tables/{new}").json()
    assert info["practice"] is True and not info["clock"]
    old_record = httpx.get(f"{server.url}/api/tables/{table}/record").json()
    assert old_record["seed"] == 7
    # the new table's seed is the server's, not the old one (read once it is over: never before)
    assert httpx.get(f"{server.url}/api/tables/{new}/record").status_code == 403


# ----- the lobby's bots endpoint ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options", "status"),
    [
        ("touring", "not json", 400),
        ("touring", "[" * 50 + "]" * 50, 400),
        ("touring", '{"players": ' + "9" * 500 + "}", 400),
        ("touring", "[" * 2000 + "]" * 2000, 413),
        ("touring", "[1, 2]", 400),
        ("touring", '{"no_such_option": 1}', 400),
        ("touring", '{"players": 99}', 400),
        ("touring", '{"players": true}', 400),
        ("codenames-duet", '{"word_pack": "../../etc/passwd"}', 400),
        ("codenames-duet", '{"word_pack": "\\ud800"}', 400),
        ("touring", "NaN", 400),
        ("touring", '{"a": "' + "x" * 3000 + '"}', 413),
        ("nope", "{}", 404),
    ],
)
def test_the_bots_endpoint_refuses_malformed_options_with_a_4xx(
    server: ServerProcess, game: str, options: str, status: int
) -> None:
    answer = httpx.get(f"{server.url}/api/games/{game}/bots?options={quote(options)}")
    assert answer.status_code == status, answer.text
    assert answer.json()["type"] == "error" and answer.json()["key"]


def test_the_bots_endpoint_offers_the_ai_partner_for_both_word_packs(server: ServerProcess) -> None:
    for pack in ("en", "zh-Hant"):
        options = quote(json.dumps({"word_pack": pack}))
        answer = httpx.get(f"{server.url}/api/games/codenames-duet/bots?options={options}")
        assert answer.status_code == 200 and "codenames-guess" in answer.json()["bots"], answer.text

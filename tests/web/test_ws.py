"""Playing over the WebSocket: views per seat, errors for hostile or mistaken messages, nothing changed."""

from __future__ import annotations

import json
import time

import pytest
from starlette.testclient import TestClient

import tabletrek
from tabletrek.core.events import render_message

from .helpers import claim, create_table, expect_error, hello, live, receive_until, receive_within, send

TWO_HUMANS = [{"kind": "human"}, {"kind": "human"}]


def test_each_seat_sees_only_its_own_hand_and_a_spectator_none(client: TestClient) -> None:
    created = create_table(client, seats=TWO_HUMANS)
    table = created["table"]
    state = live(client, table).state
    with (
        client.websocket_connect(f"/ws/{table}") as ws0,
        client.websocket_connect(f"/ws/{table}") as ws1,
        client.websocket_connect(f"/ws/{table}") as spectator,
    ):
        m0 = hello(ws0, created["tokens"]["0"])
        m1 = hello(ws1, created["tokens"]["1"])
        ms = hello(spectator)
    assert m0["you"] == 0 and m0["view"] == state.view(0)
    assert m1["you"] == 1 and m1["view"] == state.view(1)
    assert ms["you"] is None and ms["view"] == state.public_view() and ms["view"]["hand"] is None
    assert m0["legal"] and not m1["legal"] and not ms["legal"]
    # the log redacts the other seat's draws
    assert all(not line["key"].endswith(".seen") for line in ms["log"])


def test_a_move_is_stored_then_broadcast_to_every_seat(client: TestClient) -> None:
    created = create_table(client, seats=TWO_HUMANS)
    table = created["table"]
    with client.websocket_connect(f"/ws/{table}") as ws0, client.websocket_connect(f"/ws/{table}") as ws1:
        first = hello(ws0, created["tokens"]["0"])
        hello(ws1, created["tokens"]["1"])
        move = first["legal"][0]["text"]
        send(ws0, {"type": "act", "action": move, "seq": 0, "id": 7})
        update0 = receive_until(ws0, lambda m: m["type"] == "state")
        ack = receive_until(ws0, lambda m: m["type"] == "ack")
        update1 = receive_until(ws1, lambda m: m["type"] == "state")
    assert (ack["id"], ack["seq"]) == (7, 1) and ack["ms"] >= 0
    assert update0["seq"] == update1["seq"] == 1
    assert update1["legal"] and not update0["legal"]
    # seat 1 hears that seat 0 played and that it drew a card itself (and which one)
    keys = [line["key"] for line in update1["log"]]
    assert keys[-1] == "touring.event.drew.seen"
    assert [line["key"] for line in update0["log"]][-1] == "touring.event.drew"
    store = client.app.state.manager.store
    assert store.load_table(table).actions == [live(client, table).state.history[0]]


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("{not json", "web.error.bad_json"),
        ("[1, 2]", "web.error.bad_message"),
        (json.dumps({"type": "launch"}), "web.error.bad_message"),
        (json.dumps({"type": "act", "action": 5}), "web.error.bad_action"),
        (json.dumps({"type": "act", "action": "x" * 600}), "web.error.bad_action"),
        (json.dumps({"type": "act", "action": "play go", "pad": "x" * 20_000}), "web.error.too_big"),
        (json.dumps({"type": "act", "action": "fly to the moon"}), "touring.illegal.unknown"),
        (json.dumps({"type": "act", "action": "play go", "seat": 1}), "web.error.wrong_seat"),
        (json.dumps({"type": "act", "action": "play go", "seq": 9}), "web.error.stale"),
        (json.dumps({"type": "act", "action": "play go", "seq": True}), "web.error.bad_message"),
        # a misspelt "seq" would have played the move with no guard against a stale screen
        (json.dumps({"type": "act", "action": "play go", "sq": 0}), "web.error.message_field"),
        (json.dumps({"type": "leave", "seat": 0}), "web.error.message_field"),
    ],
)
def test_hostile_or_broken_messages_get_an_error_and_change_nothing(
    client: TestClient, message: str, key: str
) -> None:
    created = create_table(client, seats=TWO_HUMANS)
    table = created["table"]
    before = live(client, table).state.to_json()
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, created["tokens"]["0"])
        send(ws, message)
        error = expect_error(ws)
        assert error["key"] == key
        assert error["message"]  # an English sentence for logs and tools
        send(ws, {"type": "ping", "id": 1})  # the connection survives
        assert receive_until(ws, lambda m: m["type"] == "pong")["id"] == 1
    assert live(client, table).state.to_json() == before
    assert client.app.state.manager.store.load_table(table).actions == []


def test_out_of_turn_spectator_and_forged_or_foreign_tokens_are_refused(client: TestClient) -> None:
    created = create_table(client, seats=TWO_HUMANS)
    other = create_table(client, seats=TWO_HUMANS)
    table = created["table"]
    before = live(client, table).state.to_json()
    with client.websocket_connect(f"/ws/{table}") as ws:
        m1 = hello(ws, created["tokens"]["1"])
        assert m1["to_act"] == 0
        send(ws, {"type": "act", "action": "play go"})
        error = expect_error(ws)
        assert error["key"] == "web.error.not_your_turn"
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws)
        send(ws, {"type": "act", "action": "play go"})
        assert expect_error(ws)["key"] == "web.error.spectator"
    for token in ("A" * 32, other["tokens"]["0"], created["tokens"]["0"][:-1]):
        with client.websocket_connect(f"/ws/{table}") as ws:
            assert hello(ws, token)["key"] == "web.error.bad_token"
            send(ws, {"type": "act", "action": "play go"})
            assert expect_error(ws)["key"] == "web.error.spectator"
    assert live(client, table).state.to_json() == before


def test_an_illegal_move_names_the_rule_in_the_players_language(client: TestClient) -> None:
    created = create_table(client, seats=TWO_HUMANS)
    table = created["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        first = hello(ws, created["tokens"]["0"], lang="zh-Hant")
        missing = next(c for c in ("go", "1", "3", "15", "30", "country") if c not in first["view"]["hand"])
        send(ws, {"type": "act", "action": f"play {missing}"})
        error = expect_error(ws)
    assert error["key"] == "touring.illegal.not_in_hand"
    assert error["args"]["card"] == {"$t": f"touring.card.{missing}"}


def test_reload_returns_the_player_to_their_seat_with_the_log(client: TestClient) -> None:
    created = create_table(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    table = created["table"]
    token = created["tokens"]["0"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        first = hello(ws, token, nickname="Ada")
        send(ws, {"type": "act", "action": first["legal"][0]["text"], "seq": 0})
        receive_until(ws, lambda m: m["type"] == "state" and m["seq"] == 2)  # the bot answered
    with client.websocket_connect(f"/ws/{table}") as ws:
        again = hello(ws, token)
    assert again["you"] == 0 and again["seq"] == 2 and again["legal"]
    assert again["names"][0] == "Ada"
    assert len(again["log"]) >= 3 and again["log_reset"]


def test_leaving_lets_a_bot_play_and_coming_back_hands_the_seat_back(client: TestClient) -> None:
    created = create_table(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    table = created["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, created["tokens"]["0"])
        send(ws, {"type": "leave"})
        # the stand-in bot and the seat-1 bot play on, several moves
        moved = receive_until(ws, lambda m: m["type"] == "state" and m["seq"] >= 6)
        assert moved["table"]["seats"][0]["away"]
        assert not moved["legal"]
        send(ws, {"type": "back"})
        back = receive_until(ws, lambda m: m["type"] == "state" and not m["table"]["seats"][0]["away"])
        # play stops at this seat again: it is our turn or becomes it after the bot's move
        settled = (
            back
            if back["to_act"] == 0
            else receive_until(ws, lambda m: m["type"] == "state" and m["to_act"] == 0)
        )
        assert settled["legal"]
        seq = settled["seq"]
    assert live(client, table).seq == seq


class BrokenBot:
    name = "random"  # the name the table expects for this seat, so it is kept

    def act(self, state: object) -> object:
        raise RuntimeError("this bot is broken")


def test_a_failing_bot_does_not_stall_the_table(client: TestClient) -> None:
    created = create_table(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    table = created["table"]
    live(client, table)._bots[1] = BrokenBot()
    with client.websocket_connect(f"/ws/{table}") as ws:
        first = hello(ws, created["tokens"]["0"])
        send(ws, {"type": "act", "action": first["legal"][0]["text"], "seq": 0})
        answered = receive_until(ws, lambda m: m["type"] == "state" and m["seq"] == 2)
    assert answered["to_act"] == 0 and answered["legal"]


@pytest.mark.parametrize("game", tabletrek.games())
def test_every_game_sends_each_seat_its_own_view_only(client: TestClient, game: str) -> None:
    info = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    if game not in info:
        pytest.skip(f"{game} does not load in this tree")
    players = info[game]["default_players"]
    created = create_table(client, game, seats=[{"kind": "human"}] * players, players=players)
    table = created["table"]
    state = live(client, table).state
    views = [state.view(seat) for seat in range(players)]
    for seat in range(players):
        with client.websocket_connect(f"/ws/{table}") as ws:
            message = hello(ws, created["tokens"][str(seat)])
        assert message["view"] == views[seat]
        assert all(message["view"] != views[other] for other in range(players) if views[other] != views[seat])
        assert bool(message["legal"]) == (state.current_player == seat)
    with client.websocket_connect(f"/ws/{table}") as ws:
        watcher = hello(ws)
    assert watcher["view"] == state.public_view() and not watcher["legal"]


def test_a_new_invite_makes_the_old_seat_link_stale(client: TestClient) -> None:
    created = create_table(client, seats=TWO_HUMANS)
    table = created["table"]
    old = created["tokens"]["1"]
    url = f"/api/tables/{table}/seats/1/invite"
    assert client.post(url).json()["key"] == "web.error.not_host"
    assert (
        client.post(url, headers={"x-host-token": old}).status_code == 403
    )  # a seat token is not the host's
    with client.websocket_connect(f"/ws/{table}") as holder:
        assert hello(holder, old)["you"] == 1
        code = client.post(url, headers={"x-host-token": created["host"]}).json()["invite"]
        assert expect_error(holder)["key"] == "web.error.seat_reissued"
        demoted = receive_until(holder, lambda m: m["type"] == "state")
        assert demoted["you"] is None and demoted["view"]["hand"] is None
    with client.websocket_connect(f"/ws/{table}") as ws:
        assert hello(ws, old)["key"] == "web.error.bad_token"  # stale
    fresh = claim(client, table, code)  # the new invite gives whoever claims it a fresh token
    assert fresh != code
    with client.websocket_connect(f"/ws/{table}") as ws:
        assert hello(ws, fresh)["you"] == 1
    again = client.post(f"/api/tables/{table}/claim", json={"invite": code})
    assert again.status_code == 409 and again.json()["key"] == "web.error.invite_spent"  # used once
    bots = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    other = create_table(client, seats=bots)
    bot_seat = f"/api/tables/{other['table']}/seats/1/invite"
    assert (
        client.post(bot_seat, headers={"x-host-token": other["host"]}).json()["key"]
        == "web.error.bad_request"
    )


def test_coming_back_through_the_link_hands_the_seat_back(client: TestClient) -> None:
    created = create_table(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    table = created["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, created["tokens"]["0"])
        send(ws, {"type": "leave"})
        receive_until(ws, lambda m: m["type"] == "state" and m["table"]["seats"][0]["away"])
    with client.websocket_connect(f"/ws/{table}") as ws:  # a reload, or the invite link again
        again = hello(ws, created["tokens"]["0"])
    assert again["table"]["seats"][0]["away"] is False
    assert not live(client, table).seats[0].away


def test_a_flood_of_messages_is_refused_and_the_connection_survives(client: TestClient) -> None:
    created = create_table(client, seats=TWO_HUMANS)
    table = created["table"]
    before = live(client, table).state.to_json()
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, created["tokens"]["1"])
        for i in range(120):
            send(ws, {"type": "act", "action": "play go", "id": i})  # out of turn, and far too fast
        keys = [expect_error(ws)["key"] for _ in range(120)]
        assert keys.count("web.error.too_fast") >= 60
        assert "web.error.not_your_turn" in keys
    assert live(client, table).state.to_json() == before


def test_a_message_field_no_handler_reads_is_named_in_both_languages(client: TestClient) -> None:
    created = create_table(client, seats=TWO_HUMANS)
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        hello(ws, created["tokens"]["0"])
        send(ws, {"type": "chat", "text": "hi", "to": 1, "id": 3})
        error = expect_error(ws)
    assert error["key"] == "web.error.message_field"
    assert error["message"] == "This 'chat' message has no field 'to' (fields: type, id, text)."
    assert render_message(error, "zh-Hant") == "'chat' 訊息沒有欄位 'to'（可用欄位：type、id、text）。"


def test_a_message_that_never_comes_fails_the_test_in_time(client: TestClient) -> None:
    created = create_table(client, seats=TWO_HUMANS)
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        hello(ws, created["tokens"]["0"])
        send(ws, {"type": "ping", "id": 1})
        receive_until(ws, lambda m: m["type"] == "pong")  # everything joining sends has come
        started = time.monotonic()
        with pytest.raises(AssertionError, match=r"no message came in 0\.5 s"):
            receive_within(ws, 0.5)
        assert time.monotonic() - started < 30  # not the run's 10-minute limit

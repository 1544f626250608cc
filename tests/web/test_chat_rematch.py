"""Table chat (checked, rate limited, stored, only from seated players) and Rematch (same seats)."""

from __future__ import annotations

import json

from starlette.testclient import TestClient

from .helpers import create_table, expect_error, hello, receive_until, send

TWO_HUMANS = [{"kind": "human"}, {"kind": "human"}]


def chat_lines(ws: object) -> list[dict[str, object]]:
    message = receive_until(ws, lambda m: m["type"] == "chat" and bool(m["lines"]))
    lines: list[dict[str, object]] = message["lines"]
    return lines


def test_chat_reaches_everyone_is_kept_and_refuses_bad_lines(client: TestClient) -> None:
    created = create_table(client, seats=TWO_HUMANS)
    table = created["table"]
    with client.websocket_connect(f"/ws/{table}") as ws0, client.websocket_connect(f"/ws/{table}") as ws1:
        hello(ws0, created["tokens"]["0"], nickname="Ann")
        hello(ws1, created["tokens"]["1"])
        send(ws0, {"type": "chat", "text": "  <b>hi</b>   there "})
        line = chat_lines(ws1)[0]
        assert line["text"] == "<b>hi</b> there" and line["seat"] == 0 and line["name"] == "Ann"
        # checked by validation.clean_text, as every client string: the reason says what is wrong
        for bad, reason in [
            ("x" * 201, "longer than 200 characters"),
            ("bell\u0007", "character U+0007 is not allowed"),
            (42, "not text"),
        ]:
            send(ws0, {"type": "chat", "text": bad})
            error = expect_error(ws0)
            assert error["key"] == "web.error.bad_text" and error["message"].endswith(f": {reason}."), error
        send(ws0, {"type": "chat", "text": "   "})
        assert expect_error(ws0)["key"] == "web.chat.empty"
        # a lone surrogate escaped in JSON is not Unicode text
        send(ws0, '{"type": "chat", "text": "a\\ud800b"}')
        assert expect_error(ws0)["args"]["reason"] == {"$t": "web.error.text.surrogate", "args": {}}
    # kept: a player who comes back sees the line
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, created["tokens"]["1"])
        assert chat_lines(ws)[0]["text"] == "<b>hi</b> there"


def test_chat_is_rate_limited_and_closed_to_spectators(client: TestClient) -> None:
    created = create_table(client, seats=TWO_HUMANS)
    table = created["table"]
    with (
        client.websocket_connect(f"/ws/{table}") as ws,
        client.websocket_connect(f"/ws/{table}") as spectator,
    ):
        hello(ws, created["tokens"]["0"])
        hello(spectator)
        send(spectator, {"type": "chat", "text": "hello"})
        assert expect_error(spectator)["key"] == "web.chat.spectator"
        keys = []
        for i in range(6):
            send(ws, {"type": "chat", "text": f"line {i}"})
        for _ in range(6):
            message = receive_until(
                ws, lambda m: m["type"] in ("chat", "error") and m.get("reset") is not True
            )
            keys.append(message.get("key", "chat"))
        assert "web.chat.too_fast" in keys and keys.count("chat") >= 1


def test_rematch_seats_the_same_players_at_a_new_table(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    created = create_table(client, seats=seats, options={"max_turns": 12})  # a draw after 12 turns
    table = created["table"]
    token = created["tokens"]["0"]
    refused = client.post(f"/api/tables/{table}/rematch", headers={"x-seat-token": token})
    assert refused.status_code == 403 and refused.json()["key"] == "web.table.rematch_running"
    with client.websocket_connect(f"/ws/{table}") as ws:
        state = hello(ws, token, nickname="Ann")
        while not state["over"]:
            send(ws, {"type": "act", "action": state["legal"][0]["text"], "seq": state["seq"]})
            state = receive_until(ws, lambda m: m["type"] == "state" and (m["over"] or bool(m["legal"])))
        assert client.post(f"/api/tables/{table}/rematch").status_code == 403  # no token: no rematch
        made = client.post(f"/api/tables/{table}/rematch", headers={"x-seat-token": token})
        assert made.status_code == 201
        body = made.json()
        pushed = receive_until(ws, lambda m: m["type"] == "rematch")
        assert pushed["table"] == body["table"] and pushed["token"] == body["token"]
        assert "host" not in body  # a seated player is not the host of the old table
    again = client.post(f"/api/tables/{table}/rematch", headers={"x-host-token": created["host"]}).json()
    # a practice table's rematch is practice again; its only person's seat holds a token, no invite
    assert again["table"] == body["table"] and again["invites"] == {} and "token" not in again
    info = client.get(f"/api/tables/{body['table']}").json()
    assert info["game"] == "touring" and not info["over"] and info["options"]["max_turns"] == 12
    assert info["practice"] is True
    assert [s["kind"] for s in info["seats"]] == ["human", "bot"] and info["seats"][1]["bot"] == "random"
    assert info["seats"][0]["nickname"] == "Ann"
    with client.websocket_connect(f"/ws/{body['table']}") as ws:
        assert hello(ws, body["token"])["you"] == 0
    assert json.dumps(again)  # JSON-safe

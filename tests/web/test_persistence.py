"""Nothing lost: moves are in the store before anyone hears of them; a restart rebuilds every table."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
from starlette.testclient import TestClient
from websockets.sync.client import connect

import tabletrek
from tabletrek.web.app import create_app
from tabletrek.web.store import Store

from .helpers import ServerProcess, create_table, hello, live, receive_until, receive_within, send


def test_a_restarted_app_rebuilds_the_same_state_from_the_store(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        created = create_table(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
        table = created["table"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            message = hello(ws, created["tokens"]["0"])
            for _ in range(4):
                send(ws, {"type": "act", "action": message["legal"][0]["text"], "seq": message["seq"]})
                seq = message["seq"] + 2
                message = receive_until(ws, lambda m, s=seq: m["type"] == "state" and m["seq"] == s)
        before = live(client, table).state.to_json()
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        # rebuilt lazily, on first access: a restart serves at once however many tables are stored
        assert table not in client.app.state.manager.tables
        assert client.get(f"/api/tables/{table}").json()["id"] == table
        assert live(client, table).state.to_json() == before
        record = tabletrek.GameRecord("touring", 2, {"free_discard": False, "max_turns": 2000}, 11, ())
        assert live(client, table).state.record().seed == record.seed


def test_an_all_bot_table_finishes_and_keeps_its_record_for_replay(client: TestClient) -> None:
    created = create_table(client, seats=[{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}])
    table = created["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:  # bots play only while someone watches
        hello(ws)
        receive_until(ws, lambda m: m["type"] == "state" and m["over"], limit=100_000)
    state = live(client, table).state
    assert state.is_over
    record = client.get(f"/api/tables/{table}/record").json()
    assert tabletrek.replay(record).to_json() == state.to_json()
    steps = client.get(f"/api/tables/{table}/replay?viewer=all").json()
    assert steps["total"] == len(state.history)
    assert any(line["key"].endswith(".seen") for step in steps["steps"] for line in step["log"])
    views = client.get(f"/api/tables/{table}/replay/{steps['total']}?viewer=all").json()["views"]
    assert views["0"] == state.view(0) and views["1"] == state.view(1)
    assert client.get(f"/api/tables/{table}/replay/1?viewer=1").status_code == 200  # any seat, once over


def test_sigkill_mid_game_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'crash.sqlite3'}"
    server = ServerProcess(db_url, bot_delay=0.01).start()
    try:
        spec = {"game": "touring", "players": 2, "seed": 3, "seats": [{"kind": "human"}, {"kind": "bot"}]}
        created = httpx.post(f"{server.url}/api/tables", json=spec).json()
        busy = httpx.post(
            f"{server.url}/api/tables",
            json={
                "game": "touring",
                "players": 2,
                "seats": [{"kind": "bot"}, {"kind": "bot", "bot": "random"}],
            },
        ).json()
        table = created["table"]
        acked: dict[int, str] = {}
        ws_url = f"ws://127.0.0.1:{server.port}/ws/{table}"
        with connect(ws_url) as ws:
            ws.send(json.dumps({"type": "hello", "token": created["tokens"]["0"]}))
            for _ in range(6):
                state = next_state(ws, lambda m: m["to_act"] == 0 and m["legal"])
                move = state["legal"][-1]["text"]
                ws.send(json.dumps({"type": "act", "action": move, "seq": state["seq"], "id": state["seq"]}))
                while True:
                    message = json.loads(ws.recv(timeout=10))
                    if message["type"] == "ack":
                        acked[message["seq"] - 1] = move
                        break
            server.kill()  # no shutdown hooks, no flush: the process just dies
        stored = Store(db_url).load_table(table)
        assert stored is not None
        for seq, move in acked.items():
            assert stored.actions[seq] == move
        busy_before = len(Store(db_url).load_table(busy["table"]).actions)
        server.start()
        with connect(ws_url) as ws:
            ws.send(json.dumps({"type": "hello", "token": created["tokens"]["0"]}))
            state = next_state(ws, lambda m: m["to_act"] == 0 and bool(m["legal"]))
            assert state["seq"] >= max(acked) + 1
            ws.send(json.dumps({"type": "act", "action": state["legal"][0]["text"], "seq": state["seq"]}))
            after = next_state(ws, lambda m: m["seq"] > state["seq"])
            assert after["seq"] > state["seq"]  # the game goes on
        # the all-bot table is rebuilt when someone comes to watch, and its bots play on
        with connect(f"ws://127.0.0.1:{server.port}/ws/{busy['table']}") as watcher:
            watcher.send(json.dumps({"type": "hello"}))
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                info = httpx.get(f"{server.url}/api/tables/{busy['table']}").json()
                now = Store(db_url).load_table(busy["table"])
                assert now is not None
                if info["over"] or len(now.actions) > busy_before:
                    break
                time.sleep(0.1)
        assert info["over"] or len(now.actions) > busy_before
    finally:
        server.stop()


def next_state(ws: object, wanted: object) -> dict[str, object]:
    while True:
        message = json.loads(ws.recv(timeout=15))
        if message["type"] == "state" and wanted(message):
            result: dict[str, object] = message
            return result


def test_turn_clock_hands_a_slow_seat_to_a_bot_and_back(client: TestClient) -> None:
    created = create_table(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}], clock=1)
    table = created["table"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        first = hello(ws, created["tokens"]["0"])
        assert first["clock"]["seat"] == 0 and 0 < first["clock"]["remaining"] <= 1
        timed_out = receive_until(ws, lambda m: m["type"] == "state" and m["table"]["seats"][0]["away"])
        assert not timed_out["legal"]
        moved = receive_until(ws, lambda m: m["type"] == "state" and m["seq"] >= 4)  # the bot plays for us
        assert moved["table"]["seats"][0]["away"]
        send(ws, {"type": "back"})
        back = receive_until(ws, lambda m: m["type"] == "state" and not m["table"]["seats"][0]["away"])
        assert back["table"]["seats"][0]["away"] is False


def test_finished_idle_tables_leave_memory_and_come_back_from_the_store(client: TestClient) -> None:
    created = create_table(client, seats=[{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])
    table = created["table"]
    manager = client.app.state.manager
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws)
        receive_until(ws, lambda m: m["type"] == "state" and m["over"], limit=100_000)
    final = live(client, table).state.to_json()
    assert client.portal.call(lambda: asyncio_sweep(manager)) >= 1
    assert table not in manager.tables
    assert client.get(f"/api/tables/{table}").json()["over"] is True
    assert live(client, table).state.to_json() == final


async def asyncio_sweep(manager: object) -> int:
    count: int = manager.sweep()
    return count


def test_a_record_that_no_longer_replays_is_reported_not_crashed(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        created = create_table(client, seats=[{"kind": "human"}, {"kind": "human"}])
    table = created["table"]
    store = Store(db_url)
    store.append_action(table, 0, "play a card that does not exist", 0, None)
    store.close()
    with TestClient(create_app(db_url, bot_delay=0)) as client:  # the start-up rebuild logs and goes on
        response = client.get(f"/api/tables/{table}")
        assert response.status_code == 404 and response.json()["key"] == "web.error.broken_table"
        with client.websocket_connect(f"/ws/{table}") as ws:
            assert receive_within(ws)["key"] == "web.error.broken_table"
        assert create_table(client)["table"]  # the server still serves other tables

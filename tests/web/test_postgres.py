"""The same store and server on PostgreSQL, shared by two server processes.

Runs when TABLETREK_TEST_POSTGRES names a server and a role that may create databases, e.g.
``TABLETREK_TEST_POSTGRES=postgresql://postgres@127.0.0.1:55432/postgres``; skipped otherwise. Each
test gets a database of its own, created from that URL and dropped afterwards, so the tests may run
on any xdist workers at once (an ``xdist_group`` mark alone did not keep them on one worker).
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Iterator

import httpx
import pytest
from websockets.sync.client import connect

import tabletrek
from tabletrek.web.notify import psycopg_url
from tabletrek.web.store import Conflict, SeatRow, Store, TableRow

from .helpers import ServerProcess

URL = os.environ.get("TABLETREK_TEST_POSTGRES")
pytestmark = pytest.mark.skipif(not URL, reason="set TABLETREK_TEST_POSTGRES to a PostgreSQL URL to run")


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, empty database on the test server, dropped when the test ends."""
    import psycopg
    from sqlalchemy.engine import make_url

    assert URL
    name = f"tt_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(psycopg_url(URL), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(psycopg_url(URL), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_two_writers_cannot_both_append_the_same_move(pg_url: str) -> None:
    first, second = Store(pg_url), Store(pg_url)
    row = TableRow("pgtable0001", "touring", 2, {}, 2**62 + 5, None, "h", "live", 0.0, [SeatRow(0, "human")])
    first.create_table(row)
    first.append_action(row.id, 0, "play go", 0, None)
    with pytest.raises(Conflict):
        second.append_action(row.id, 0, "discard 3", 0, None)
    loaded = second.load_table(row.id)
    assert loaded is not None and loaded.actions == ["play go"] and loaded.seed == 2**62 + 5
    first.close()
    second.close()


def test_a_commit_of_moves_notifies_listeners_and_a_refused_one_does_not(pg_url: str) -> None:
    import psycopg

    store = Store(pg_url)
    row = TableRow("pgnotify001", "touring", 2, {}, 5, None, "h", "live", 0.0, [SeatRow(0, "human")])
    store.create_table(row)
    with psycopg.connect(psycopg_url(store.url), autocommit=True) as listener:
        listener.execute("LISTEN tabletrek")
        store.append_actions([(row.id, 0, "play go", 0, None)])
        notes = [n.payload for n in listener.notifies(timeout=5, stop_after=1)]
        assert notes == [f"m {row.id} 0 play go"]  # the move itself: no read needed
        with pytest.raises(Conflict):
            store.append_action(row.id, 0, "discard 3", 0, None)  # rolled back: nobody hears of it
        assert [n.payload for n in listener.notifies(timeout=0.5)] == []
        store.reissue_seat(row.id, 0, "d" * 64)
        assert [n.payload for n in listener.notifies(timeout=5, stop_after=1)] == [f"s {row.id}"]
    store.close()


def test_two_server_processes_share_one_table(pg_url: str) -> None:
    # --sync notify: no polling loop runs at all, so B can only hear of A's moves by NOTIFY
    a = ServerProcess(pg_url, args=["--sync", "notify"]).start()
    b = ServerProcess(pg_url, args=["--sync", "notify"]).start()
    try:
        spec = {"game": "touring", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
        created = httpx.post(f"{a.url}/api/tables", json=spec).json()
        table = created["table"]
        # the friend claims seat 1 through process B; process A learns of it from the store
        claimed = httpx.post(f"{b.url}/api/tables/{table}/claim", json={"invite": created["invites"]["1"]})
        created["tokens"]["1"] = claimed.json()["token"]
        with connect(f"ws://127.0.0.1:{a.port}/ws/{table}") as seat1_on_a:  # A learned of the claim
            seat1_on_a.send(json.dumps({"type": "hello", "token": created["tokens"]["1"]}))
            assert wait_state(seat1_on_a, lambda m: True)["you"] == 1
        with (
            connect(f"ws://127.0.0.1:{a.port}/ws/{table}") as seat0,
            connect(f"ws://127.0.0.1:{b.port}/ws/{table}") as seat1,
        ):
            seat0.send(json.dumps({"type": "hello", "token": created["tokens"]["0"]}))
            seat1.send(json.dumps({"type": "hello", "token": created["tokens"]["1"]}))
            first = wait_state(seat0, lambda m: bool(m["legal"]))
            wait_state(seat1, lambda m: True)
            seat0.send(json.dumps({"type": "act", "action": first["legal"][0]["text"], "seq": 0}))
            # process B learns of A's move from the shared store and offers seat 1 its turn
            turn = wait_state(seat1, lambda m: m["seq"] == 1 and bool(m["legal"]))
            seat1.send(json.dumps({"type": "act", "action": turn["legal"][0]["text"], "seq": 1}))
            back = wait_state(seat0, lambda m: m["seq"] == 2)
            assert back["legal"]
        stored = Store(pg_url).load_table(table)
        assert stored is not None and len(stored.actions) == 2
    finally:
        a.stop()
        b.stop()


def wait_state(ws: object, wanted: object, seconds: float = 15) -> dict[str, object]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=seconds))
        if message["type"] == "state" and wanted(message):
            result: dict[str, object] = message
            return result
    raise AssertionError("no such state")


def test_two_processes_share_an_all_bot_table_without_forking_it(pg_url: str) -> None:
    a = ServerProcess(pg_url, bot_delay=0.01).start()
    b = ServerProcess(pg_url, bot_delay=0.01).start()
    try:
        bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]
        spec = {"game": "touring", "players": 2, "seed": 9, "seats": bots, "options": {"max_turns": 120}}
        table = httpx.post(f"{a.url}/api/tables", json=spec).json()["table"]
        with connect(f"ws://127.0.0.1:{b.port}/ws/{table}") as watcher:  # process B loads it too
            watcher.send(json.dumps({"type": "hello"}))
            wait_state(watcher, lambda m: bool(m["over"]), seconds=60)
        record = httpx.get(f"{a.url}/api/tables/{table}/record").json()
        final = tabletrek.replay(record)
        assert final.is_over and len(record["actions"]) == len(final.history)
        stored = Store(pg_url).load_table(table)
        assert stored is not None and stored.actions == record["actions"]  # one line of moves, no fork
    finally:
        a.stop()
        b.stop()


def test_one_open_seat_per_address_holds_across_processes_sharing_the_store(pg_url: str) -> None:
    # Before: each process remembered in its own memory which address had claimed a seat, so an
    # address refused by one process took a second seat through the other (or after a restart).
    from .redteam import client_from

    a = ServerProcess(pg_url).start()
    b = ServerProcess(pg_url).start()
    try:
        spec = {"game": "mexican-train", "players": 4, "seats": [{"kind": "human"}] * 4, "public": True}
        with client_from(31) as host, client_from(32) as stranger, client_from(33) as other:
            created = host.post(f"{a.url}/api/tables", json=spec).json()
            path = f"/api/tables/{created['table']}/claim"
            assert stranger.post(a.url + path, json={"seat": 1}).status_code == 200
            second = stranger.post(b.url + path, json={"seat": 2})
            assert second.status_code == 403 and second.json()["key"] == "web.error.one_seat_per_address"
            by_host = host.post(b.url + path, json={"seat": 2})
            assert by_host.status_code == 403 and by_host.json()["key"] == "web.error.one_seat_per_address"
            assert other.post(b.url + path, json={"seat": 2}).status_code == 200
        store = Store(pg_url)
        with store.engine.connect() as conn:
            held = conn.exec_driver_sql("SELECT address FROM tt_address_seats").all()
        assert {r[0] for r in held} == {store.address_key(f"127.0.0.{n}") for n in (31, 32, 33)}
        store.close()
    finally:
        a.stop()
        b.stop()
    assert "Traceback" not in a.log_text() + b.log_text()


def test_two_stores_on_one_database_share_one_address_secret(pg_url: str) -> None:
    first, second = Store(pg_url), Store(pg_url)
    assert first.address_key("192.0.2.8") == second.address_key("192.0.2.8") != first.address_key("192.0.2.9")
    first.close()
    second.close()

"""Web fairness: bot moves share the server's CPU fairly, and a seat claim's address is remembered
where the table lives.

Red-team findings from the last stop: eight watched bot-only tables at the search bot's largest
budget kept every core busy and other people's bots waited; and the one-open-seat-per-address rule
was kept in process memory, so a restart let an address take a second seat. No test here asserts
a timing: they assert orders, counts and settings.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tabletrek.core.registry import load
from tabletrek.web.app import create_app
from tabletrek.web.botsched import OVER_DEFAULT, BotScheduler, iteration_ceiling, server_budget
from tabletrek.web.ratelimit import Limits
from tabletrek.web.store import Store

from .helpers import hello, live, receive_until
from .redteam import WAIT, client_from, no_traceback, start

# ----- the scheduler ------------------------------------------------------------------------------


def test_one_address_with_many_tables_gets_no_more_bot_turns_than_one_with_a_single_table() -> None:
    # Before: every bot move ran in a thread of its own as soon as it was due, so eight tables of
    # one address made eight computations for every one of another address's table. Here the
    # slot is handed on by hand (a move finished), so the order is the policy's, not the threads'.
    async def scenario() -> list[str]:
        scheduler = BotScheduler(1)
        scheduler._take("earlier")  # the one slot is busy with a move already running
        waiting = [asyncio.create_task(scheduler._slot("many")) for _ in range(8)]
        waiting.append(asyncio.create_task(scheduler._slot("one")))
        await asyncio.sleep(0)
        assert scheduler.waiting == 9
        more_of_one = 3
        while scheduler.waiting:
            scheduler._release()  # the running move is done: the next in turn gets the slot
            if scheduler.granted[-1] == "one" and more_of_one:
                # one table: its next move is due while the other address's eight still wait
                more_of_one -= 1
                waiting.append(asyncio.create_task(scheduler._slot("one")))
            await asyncio.sleep(0)
        scheduler._release()
        await asyncio.gather(*waiting)
        assert scheduler.busy == 0
        scheduler.shutdown()
        return scheduler.granted

    granted = asyncio.run(scenario())
    # first come, first served would have given all eight of "many" their turns first
    assert granted == ["earlier", *["many", "one"] * 4, *["many"] * 4]


def test_tables_where_nobody_plays_leave_a_slot_to_tables_where_people_play() -> None:
    # Before: a stranger's watched bot-only tables took every core, and a person's bot waited.
    async def scenario() -> None:
        scheduler = BotScheduler(2)
        watched = [asyncio.create_task(scheduler._slot("stranger", alone=True)) for _ in range(3)]
        await asyncio.sleep(0)
        assert (scheduler.busy, scheduler.busy_alone, scheduler.waiting) == (1, 1, 2)  # one slot kept
        played = asyncio.create_task(scheduler._slot("person"))
        await asyncio.sleep(0)
        assert played.done() and scheduler.busy == 2  # the person's bot moves at once
        scheduler._release()  # the person's bot moved: the kept slot is free again, not given away
        assert (scheduler.busy, scheduler.waiting) == (1, 2)
        scheduler._release(alone=True)  # the stranger's move is done: its next one goes
        assert (scheduler.busy, scheduler.busy_alone, scheduler.waiting) == (1, 1, 1)
        assert scheduler.granted == ["stranger", "person", "stranger"]
        for task in watched:
            task.cancel()
        await asyncio.gather(*watched, return_exceptions=True)
        scheduler.shutdown()

    asyncio.run(scenario())


def test_the_scheduler_runs_no_more_computations_at_once_than_its_slots() -> None:
    async def scenario() -> int:
        scheduler = BotScheduler(2)
        running = 0
        most = 0
        guard = threading.Lock()
        release = threading.Event()

        def work() -> None:
            nonlocal running, most
            with guard:
                running += 1
                most = max(most, running)
            release.wait(WAIT)
            with guard:
                running -= 1

        tasks = [asyncio.create_task(scheduler.run(f"owner{i % 3}", work)) for i in range(7)]
        for _ in range(20):
            await asyncio.sleep(0)
        assert scheduler.busy == 2 and scheduler.waiting == 5
        release.set()
        await asyncio.gather(*tasks)
        assert scheduler.busy == 0 and scheduler.waiting == 0
        scheduler.shutdown()
        return most

    assert asyncio.run(scenario()) == 2


def test_a_cancelled_wait_gives_up_its_turn_and_a_cancelled_move_keeps_its_slot_until_done() -> None:
    async def scenario() -> None:
        scheduler = BotScheduler(1)
        gate = threading.Event()
        running = asyncio.create_task(scheduler.run("a", gate.wait, WAIT))
        await asyncio.sleep(0)
        queued = asyncio.create_task(scheduler.run("b", lambda: "b"))
        await asyncio.sleep(0)
        queued.cancel()  # a table dropped while its bot waited
        await asyncio.gather(queued, return_exceptions=True)
        assert scheduler.waiting == 0
        running.cancel()  # the thread still runs: its slot stays taken until it returns
        await asyncio.gather(running, return_exceptions=True)
        assert scheduler.busy == 1
        after = asyncio.create_task(scheduler.run("c", lambda: "c"))
        await asyncio.sleep(0)
        assert scheduler.waiting == 1
        gate.set()
        assert await after == "c"
        assert scheduler.busy == 0
        scheduler.shutdown()

    asyncio.run(scenario())


# ----- the budget ---------------------------------------------------------------------------------


def test_a_search_bot_asking_for_a_huge_budget_is_cut_to_the_servers_ceiling() -> None:
    touring, crossing = load("touring"), load("double-crossing")
    limits = Limits(bot_iterations=10_000, bot_ms=3000.0, bot_threads=1)
    asked = {"iterations": 10_000, "ms": 10_000, "threads": 8}
    assert server_budget(touring, asked, limits) == {"iterations": 10_000, "ms": 3000.0, "threads": 1}
    # a playout costs far more in Double Crossing: its ceiling is a multiple of its own default
    ceiling = OVER_DEFAULT * crossing.search().defaults["iterations"]
    assert ceiling < 10_000 and iteration_ceiling(crossing, 10_000) == ceiling
    assert server_budget(crossing, asked, limits)["iterations"] == ceiling
    # an ms-only budget gets no iterations, but the time ceiling
    assert server_budget(touring, {"ms": 9000}, limits) == {"ms": 3000.0, "threads": 1}
    # no budget named: the game's measured defaults, within the ceiling (Touring asks 2 threads)
    plain = server_budget(touring, {}, limits)
    assert plain["iterations"] == touring.search().defaults["iterations"] and plain["ms"] == 3000.0
    assert plain["threads"] == 1
    # a small budget stays as asked
    assert server_budget(touring, {"iterations": 5, "ms": 20}, limits)["iterations"] == 5
    assert server_budget(touring, {"iterations": 5, "ms": 20}, limits)["ms"] == 20


def refused_table(client: TestClient, game: str, seats: list[Any]) -> dict[str, Any]:
    """A table of ``game`` with these seats is refused (400) and none is made: the refusal's detail."""
    answer = client.post("/api/tables", json={"game": game, "players": 2, "seats": seats})
    assert answer.status_code == 400, answer.text
    assert client.get("/api/tables").json()["tables"] == []
    detail: dict[str, Any] = answer.json()["args"]["detail"]
    return detail


@pytest.mark.parametrize(
    ("bot", "params"),
    [
        ("ismcts", {"ms": "inf"}),  # read by float(): no move would ever end
        ("ismcts", {"ms": "nan"}),
        ("ismcts", {"ms": "Infinity", "iterations": 20}),
        ("ismcts", {"c": "nan"}),
        ("greedy", {"go": "nan"}),
    ],
    ids=repr,
)
def test_a_bot_setting_that_reads_as_an_endless_or_no_number_is_refused(
    tmp_path: Path, bot: str, params: dict[str, Any]
) -> None:
    # Before: "inf" and "nan" passed as plain words, escaped the server's time ceiling (it caps
    # numbers only) and the bot read them with float(): a move with ms=inf thought for ever in a
    # bot slot, and one stranger's few tables held every slot of the server.
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0)
    seats = [{"kind": "human"}, {"kind": "bot", "bot": bot, "params": params}]
    with TestClient(app) as client:
        assert refused_table(client, "touring", seats)["$t"] == "core.error.param_finite"


def test_a_fraction_for_a_whole_number_setting_is_refused(tmp_path: Path) -> None:
    # Before: 201, and the search ran int(2.5) = 2 iterations a move without a word.
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0)
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "ismcts", "params": {"iterations": 2.5}}]
    with TestClient(app) as client:
        assert refused_table(client, "touring", seats)["$t"] == "core.error.param_whole"


def test_a_search_flag_sent_as_a_word_is_refused(tmp_path: Path) -> None:
    # Before: 201 with the search bot's paired comparison on: the server read the word "no"
    # with bool(), which reads every word as on.
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0)
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "ismcts", "params": {"paired": "no"}}]
    with TestClient(app) as client:
        assert refused_table(client, "touring", seats)["$t"] == "core.error.param_flag"
        seats[1]["params"] = {"paired": False, "iterations": 20}
        made = client.post("/api/tables", json={"game": "touring", "players": 2, "seats": seats})
        assert made.status_code == 201, made.text
        assert live(client, made.json()["table"]).seats[1].params == {"paired": False, "iterations": 20}


def test_a_codenames_partner_too_costly_to_run_is_refused_when_the_table_is_made(tmp_path: Path) -> None:
    # Before: every knob up to 10,000 passed, and samples x shortlist of 10,000 x 10,000 made the
    # partner's first clue draw 2.5 billion numbers: 21 GB before the system killed the process.
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0)
    costly = {"noise": 1, "samples": 10_000, "shortlist": 10_000}
    seats = [{"kind": "bot", "bot": "codenames-clue", "params": costly}, {"kind": "human"}]
    with TestClient(app) as client:
        assert refused_table(client, "codenames-duet", seats)["$t"] == "core.error.noise_draws"


def test_a_codenames_partner_naming_a_word_model_the_server_lacks_is_refused(tmp_path: Path) -> None:
    # Before: 201, and every move of that seat then failed to find the model: a random move and
    # a traceback in the log, each turn of the game.
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0)
    seats = [{"kind": "bot", "bot": "codenames-clue", "params": {"models": "word2vec"}}, {"kind": "human"}]
    with TestClient(app) as client:
        detail = refused_table(client, "codenames-duet", seats)
        assert detail["$t"] == "core.error.param_model" and detail["args"]["model"] == "word2vec"


def test_bot_settings_stored_before_they_were_refused_play_as_the_bots_defaults(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A table made by an older server may hold settings a bot now refuses ("ms": "inf"). Before,
    # every move of that seat failed to make the bot, logged a traceback and moved at random.
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0)
    seats = [{"kind": "bot", "bot": "ismcts", "params": {"iterations": 20}}, {"kind": "human"}]
    with TestClient(app) as client, caplog.at_level(logging.INFO, "tabletrek.web"):
        created = client.post("/api/tables", json={"game": "touring", "players": 2, "seats": seats})
        assert created.status_code == 201, created.text
        table = live(client, created.json()["table"])
        table.seats[0].params = {"ms": "inf"}  # as an older server stored it
        with client.websocket_connect(f"/ws/{table.id}") as ws:
            hello(ws, created.json()["tokens"]["1"])
            receive_until(ws, lambda m: m["type"] == "state" and m["seq"] >= 1)
        settings = table._bots[0].settings
        assert settings.ms == table.limits.bot_ms and settings.iterations is not None
    assert not [r for r in caplog.records if r.exc_info], caplog.text
    assert "seat 1's bot settings are refused (ms must be a finite number" in caplog.text


def test_a_tables_search_bot_plays_with_the_servers_budget(tmp_path: Path) -> None:
    limits = Limits(bot_iterations=50, bot_ms=250, bot_slots=1)
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0, limits=limits)
    bot = {"kind": "bot", "bot": "ismcts", "params": {"iterations": 10_000, "ms": 10_000, "threads": 4}}
    with TestClient(app) as client:
        created = client.post("/api/tables", json={"game": "touring", "players": 2, "seats": [bot, bot]})
        assert created.status_code == 201, created.text
        table = created.json()["table"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            first = hello(ws)
            receive_until(ws, lambda m: m["type"] == "state" and m["seq"] > first["seq"] + 1)
        settings = live(client, table)._bots[0].settings
        assert (settings.iterations, settings.ms, settings.threads) == (50, 250.0, 1)
        # the table keeps what its creator asked for; the server decides what a move may cost
        stored = app.state.manager.store.load_table(table)
        assert stored is not None and stored.seats[0].params == bot["params"]
        scheduler = app.state.manager.bots
        assert scheduler.granted and set(scheduler.granted) == {live(client, table).owner}


def test_a_tables_bot_moves_are_scheduled_as_its_creators(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0)
    bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]
    spec = {"game": "touring", "players": 2, "seats": bots}

    async def scenario() -> None:
        manager = app.state.manager
        store: Store = manager.store
        first = await manager.create(spec, "203.0.113.5")
        second = await manager.create(spec, "203.0.113.5")
        other = await manager.create(spec, "198.51.100.7")
        owners = [(await manager.get(made["table"])).owner for made in (first, second, other)]
        assert owners[0] == owners[1] == store.address_key("203.0.113.5") != owners[2]
        assert "203.0.113.5" not in owners[0]  # a keyed hash, never the address
        # a table stored without a creator is an owner of its own
        untold = await manager.create(spec)
        assert (await manager.get(untold["table"])).owner == f"table {untold['table']}"
        await manager.stop()

    asyncio.run(scenario())


# ----- seat claims across restarts ----------------------------------------------------------------


def test_one_open_seat_per_address_survives_a_restart(tmp_path: Path) -> None:
    # Before: which address had claimed a seat lived in the server's memory only: after a restart
    # the same address took a second open seat, and the table's creator one of its own.
    spec = {"game": "mexican-train", "players": 4, "seats": [{"kind": "human"}] * 4, "public": True}
    server = start(tmp_path)
    try:
        with client_from(21) as host, client_from(22) as stranger:
            created = host.post(f"{server.url}/api/tables", json=spec).json()
            path = f"/api/tables/{created['table']}/claim"
            assert stranger.post(server.url + path, json={"seat": 1}).status_code == 200
    finally:
        server.stop()
    server = start(tmp_path)  # a new process on the same SQLite file
    claim = server.url + path
    try:
        with client_from(21) as host, client_from(22) as stranger, client_from(23) as other:
            second = stranger.post(claim, json={"seat": 2})
            assert second.status_code == 403 and second.json()["key"] == "web.error.one_seat_per_address"
            by_host = host.post(claim, json={"seat": 2})
            assert by_host.status_code == 403 and by_host.json()["key"] == "web.error.one_seat_per_address"
            assert other.post(claim, json={"seat": 2}).status_code == 200
        no_traceback(server)
    finally:
        server.stop()
    # the store holds keyed hashes of the addresses, never the addresses themselves
    store = Store(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    try:
        with store.engine.connect() as conn:
            rows = conn.exec_driver_sql("SELECT address FROM tt_address_seats").all()
            creators = conn.exec_driver_sql("SELECT creator FROM tt_tables").all()
        assert len(rows) == 3 and all(len(r[0]) == 64 and "127.0.0" not in r[0] for r in rows)
        assert {store.address_key(f"127.0.0.{n}") for n in (21, 22, 23)} == {r[0] for r in rows}
        assert creators == [(store.address_key("127.0.0.21"),)]
    finally:
        store.close()


def test_a_finished_or_archived_table_forgets_whose_addresses_sat_there(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    try:
        key = store.address_key("192.0.2.1")
        assert key == Store(store.url).address_key("192.0.2.1")  # one secret per store
        rows = _address_rows(store)
        assert rows == []
        from tabletrek.web.store import SeatRow, TableRow

        seats = [SeatRow(0, "human", token_hash="t" * 64), SeatRow(1, "human", invite_hash="i" * 64)]
        for table_id in ("finished0001", "archived0001"):
            row = TableRow(table_id, "touring", 2, {}, 5, None, "h", "live", 0.0, seats, creator=key)
            row.creator_seat, row.touched = 0, 0.0
            store.create_table(row)
        assert len(_address_rows(store)) == 2
        store.append_actions([("finished0001", 0, "play go", 0, "over")])
        assert _address_rows(store) == [("archived0001",)]
        assert store.archive_idle(before=1.0) == ["archived0001"]
        assert _address_rows(store) == []
    finally:
        store.close()


def _address_rows(store: Store) -> list[Any]:
    with store.engine.connect() as conn:
        return list(conn.exec_driver_sql("SELECT table_id FROM tt_address_seats ORDER BY table_id").all())


@pytest.mark.parametrize("second_claim", ["invite", "seat"])
def test_an_invite_seats_a_second_person_from_one_address_and_a_number_does_not(
    tmp_path: Path, second_claim: str
) -> None:
    spec = {"game": "mexican-train", "players": 4, "seats": [{"kind": "human"}] * 4, "public": True}
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0)
    with TestClient(app, client=("203.0.113.9", 4000)) as host:
        created = host.post("/api/tables", json=spec).json()
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0)) as stranger:
        claim = f"/api/tables/{created['table']}/claim"
        assert stranger.post(claim, json={"seat": 1}).status_code == 200
        body = {"invite": created["invites"]["2"]} if second_claim == "invite" else {"seat": 2}
        answer = stranger.post(claim, json=body)
        assert answer.status_code == (200 if second_claim == "invite" else 403), answer.text


def test_a_table_of_bots_nobody_watches_spends_no_cpu(tmp_path: Path) -> None:
    # Decision: a bot-only table waits while nobody watches (nobody would see its moves), rather
    # than finishing at a bounded pace; idle expiry archives it if nobody comes back.
    import time

    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", bot_delay=0)
    bots = [{"kind": "bot", "bot": "ismcts", "params": {"iterations": 5}}] * 2
    with TestClient(app) as client:
        table_id = client.post("/api/tables", json={"game": "touring", "players": 2, "seats": bots}).json()[
            "table"
        ]
        table = live(client, table_id)
        assert client.get(f"/api/tables/{table_id}").status_code == 200  # looking it up is not watching
        assert table._drive_task is None and len(table.state.history) == 0
        assert app.state.manager.bots.granted == []
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            hello(ws)
            receive_until(ws, lambda m: m["type"] == "state" and m["seq"] >= 2)
        deadline = time.monotonic() + WAIT
        while table._drive_task is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert table._drive_task is None  # the watcher left: the bots stopped
        moves = len(table.state.history)
        assert moves >= 2 and app.state.manager.bots.waiting == 0

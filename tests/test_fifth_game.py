"""The fifth game, Goofspiel, is one folder plus one registry line, and every service takes it.

Adding it touched no file outside ``src/tabletrek/games/goofspiel/`` but the registry line in
``src/tabletrek/games/__init__.py``: the services (CLI, web, sim, RL, OpenSpiel) found it through
its spec alone. This file is the proof, so it is the one other place that names the game.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

import tabletrek
from tabletrek.cli import app as cli_app
from tabletrek.core.bots import make_bot
from tabletrek.core.registry import spec
from tabletrek.web.app import create_app

GAME = "goofspiel"
ROOT = Path(__file__).resolve().parents[1]
FOLDER = Path("src/tabletrek/games") / GAME
REGISTRY = Path("src/tabletrek/games/__init__.py")


def tracked_files() -> list[Path]:
    listing = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [Path(line) for line in listing.stdout.splitlines()]


def test_only_the_registry_line_names_it_outside_its_folder() -> None:
    """Every tracked file of the code, tests, benchmarks, scripts and build (docs may use the game
    as an example): none outside the game's folder names it except the registry, once."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    code = [
        p
        for p in tracked_files()
        if p.parts and p.parts[0] in ("src", "tests", "benchmarks", "scripts", ".ci", "pyproject.toml")
    ]
    naming = {
        p
        for p in code
        if FOLDER not in p.parents
        and p != Path(__file__).relative_to(ROOT)
        and (ROOT / p).is_file()
        and GAME in (ROOT / p).read_text(encoding="utf-8", errors="replace")
    }
    assert naming == {REGISTRY}
    lines = [line for line in (ROOT / REGISTRY).read_text(encoding="utf-8").splitlines() if GAME in line]
    assert lines == [f"import tabletrek.games.{GAME}.spec"]


def test_it_is_discovered_with_its_capabilities() -> None:
    assert GAME in tabletrek.games()
    declared = spec(GAME)
    game = tabletrek.load(GAME)
    assert declared.game_class() is type(game) and game.rules_version == declared.rules_version
    assert game.bots() == ["random", "ismcts", "matcher"]
    assert declared.openspiel_refusal is None and declared.web_module is None  # the generic page


def play_out(players: int, lineup: list[str], seed: int) -> tabletrek.State:
    game = tabletrek.load(GAME, players=players)
    state = game.new_game(seed=seed)
    bots = [make_bot(game, name, seat=s, seed=seed + s) for s, name in enumerate(lineup)]
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(state))
    return state


def test_the_search_bot_plays_it_and_records_replay() -> None:
    state = play_out(3, ["ismcts:iterations=40", "matcher", "random"], seed=5)
    assert state.result is not None and len(state.history) == 3 * 13
    assert tabletrek.replay(state.record().to_json()).to_json() == state.to_json()


def test_a_face_down_bid_is_hidden_from_the_others_and_from_determinizations() -> None:
    state = tabletrek.load(GAME).new_game(seed=2)
    state.apply("bid 13")
    assert 13 in state.view(1)["hands"][0] and state.view(1).get("bid") is None
    assert state.view(0)["bid"] == 13 and state.public_view()["has_bid"] == [True, False]
    samples = {state.determinize(1, random.Random(k)).bids[0] for k in range(60)}
    assert len(samples) > 5  # seat 1 cannot tell which card seat 0 laid down


def test_terminal_and_cli_commands() -> None:
    text = tabletrek.load(GAME).new_game(seed=1).render_text(0)
    assert "Prize" in text and "Cards left" in text
    runner = CliRunner()
    for args in (
        ["simulate", GAME, "-n", "20", "--json"],
        ["tournament", GAME, "-b", "random,matcher", "-n", "4"],
        ["rules", GAME],
    ):
        result = runner.invoke(cli_app, args)
        assert result.exit_code == 0, (args, result.output)
    summary = json.loads(runner.invoke(cli_app, ["simulate", GAME, "-n", "20", "--json"]).output)
    assert summary["games"] == 20


def test_analyze_uses_its_probe(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(cli_app, ["analyze", GAME, "-n", "10", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Winning bid minus worth" in out.read_text(encoding="utf-8")


def test_pettingzoo_and_gymnasium() -> None:
    pytest.importorskip("pettingzoo")
    import gymnasium
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    import tabletrek.rl

    api_test(getattr(tabletrek.rl, f"{GAME}_v1")(players=3), num_cycles=100)
    check_env(gymnasium.make(f"tabletrek/{GAME}-v1", opponents="matcher").unwrapped)


def test_openspiel_random_sim_with_serialize() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from tabletrek.openspiel import register

    name = register(GAME)
    for params in ({}, {"players": 3, "options": "ties:carry cards:6"}):
        pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=3, serialize=True, verbose=False)


def test_the_browser_plays_it_with_the_generic_page(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0)) as client:
        lobby = client.get("/api/games").json()
        listed = [g for g in (lobby["games"] if isinstance(lobby, dict) else lobby) if g["name"] == GAME]
        assert listed and listed[0]["bots"][-1] == "matcher"
        body = {
            "game": GAME,
            "players": 2,
            "seed": 3,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "matcher"}],
        }
        created = client.post("/api/tables", json=body)
        assert created.status_code == 201, created.text
        table, token = created.json()["table"], created.json()["tokens"]["0"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            first = next(m for m in iter(ws.receive_json, None) if m["type"] == "state")
            assert first["view"]["hand"] == list(range(1, 14))
            ws.send_text(json.dumps({"type": "act", "action": "bid 13", "seq": first["seq"], "id": 1}))
            after = next(m for m in iter(ws.receive_json, None) if m["type"] == "state")
        assert after["seq"] > first["seq"]
        assert 13 not in after["view"]["hand"]
        rules = client.get(f"/api/games/{GAME}/rules?lang=zh-Hant")
        assert rules.status_code == 200 and "高夫" in rules.text

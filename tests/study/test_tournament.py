"""Tournaments: tables, rotation, ratings, reproducibility, the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tabletrek.cli import app
from tabletrek.sim.backend import Backend
from tabletrek.sim.tournament import tables_round_robin, tables_swiss, tournament

pytest.importorskip("openskill", reason="ratings need the [study] extra (CI installs it)")
runner = CliRunner()


def test_round_robin_tables() -> None:
    assert tables_round_robin(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert tables_round_robin(["a", "b"], 4) == [("a", "b", "a", "b")]


def test_swiss_avoids_last_rounds_pairing() -> None:
    tables = tables_swiss(["a", "b", "c", "d"], 2, {frozenset({"a", "b"})})
    assert frozenset({"a", "b"}) not in {frozenset(t) for t in tables}
    assert sorted(b for t in tables for b in t) == ["a", "b", "c", "d"]


def test_round_robin_rotates_seats_and_rates() -> None:
    result = tournament("touring", ["random", "greedy"], 6, seed=4)
    assert len(result.outcomes) == 6
    seats_of_greedy = [o.bots.index("greedy") for o in result.outcomes]
    assert seats_of_greedy.count(0) == seats_of_greedy.count(1) == 3
    top = result.standings[0]
    assert top.bot == "greedy" and top.wins > 3
    assert top.rating.mu > result.standings[1].rating.mu
    games, wins = result.head_to_head("greedy", "random")
    assert games == 6 and wins == top.wins


def test_same_seed_same_tournament_on_processes() -> None:
    one = tournament("touring", ["random", "greedy"], 4, seed=9)
    two = tournament("touring", ["random", "greedy"], 4, seed=9, backend=Backend(jobs=2, batch_size=1))
    assert one.to_dict() == two.to_dict()


def test_swiss_runs_rounds_with_bot_parameters() -> None:
    result = tournament(
        "touring",
        ["random", "greedy", "ismcts"],
        1,
        fmt="swiss",
        rounds=2,
        seed=2,
        bot_params={"ismcts": {"iterations": 2}},
    )
    assert len(result.outcomes) == 4  # two tables a round: the odd bot out fills in
    assert {s.bot for s in result.standings} == {"random", "greedy", "ismcts"}


def test_rejects_bad_entries() -> None:
    with pytest.raises(ValueError, match="two different"):
        tournament("touring", ["greedy"], 2)
    with pytest.raises(ValueError, match="genius"):
        tournament("touring", ["greedy", "genius"], 2)
    with pytest.raises(ValueError, match="format"):
        tournament("touring", ["greedy", "random"], 2, fmt="knockout")


def test_command_prints_table_and_saves_records(tmp_path: Path) -> None:
    out = runner.invoke(
        app,
        ["tournament", "touring", "--bots", "random,greedy", "-n", "4", "--records", str(tmp_path / "r")],
    )
    assert out.exit_code == 0, out.output
    assert "greedy" in out.output and "Head to head" in out.output
    assert len(list((tmp_path / "r").glob("touring-*.json"))) == 4
    summary = json.loads((tmp_path / "r" / "tournament.json").read_text())
    assert summary["games"] == 4
    as_json = runner.invoke(app, ["tournament", "touring", "-b", "random,greedy", "-n", "2", "--json"])
    assert as_json.exit_code == 0, as_json.output
    standings = json.loads(as_json.output)["standings"]
    assert sorted(s["bot"] for s in standings) == ["greedy", "random"]
    for standing in standings:
        # each bot sits in both games; its Wilson interval holds its win rate, inside [0, 1]
        assert standing["games"] == 2 and standing["win_rate"] == standing["wins"] / 2
        low, high = standing["ci95"]
        assert 0 <= low <= standing["win_rate"] <= high <= 1 and low < high
    bad = runner.invoke(app, ["tournament", "touring", "-b", "random,greedy", "--param", "iterations=3"])
    assert bad.exit_code != 0


def test_entries_may_be_bot_specs_with_parameters() -> None:
    specs = ["ismcts:iterations=2;rollout=greedy", "ismcts:iterations=3"]
    result = tournament("touring", [*specs, "greedy"], 1, seed=5)
    assert {s.bot for s in result.standings} == {*specs, "greedy"}
    with pytest.raises(ValueError, match="no parameter"):
        tournament("touring", ["ismcts:depth=3", "greedy"], 1)

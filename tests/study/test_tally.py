"""A run may keep only its running totals: the same summary to the last bit, memory that does not
grow with the games, each game handed over in order as it finishes."""

from __future__ import annotations

import errno
import gc
import os
import statistics
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from tabletrek.cli import app
from tabletrek.core.records import GameRecord
from tabletrek.sim import GameOutcome, GamesInterrupted, backend, simulate, summarize
from tabletrek.sim.stats import describe_lengths
from tabletrek.sim.tally import describe_counts

from .test_run_streamed import ctrl_c_after

RUNS = [
    ("touring", 3, ["random", "greedy"], {}),  # a seat each bot fills in turn
    ("mexican-train", 2, ["greedy", "planner"], {"set_size": 9, "rounds": 3}),
    ("codenames-duet", 2, ["codenames-guess", "codenames-guess"], {}),  # cooperative: no draws
    ("double-crossing", 2, ["random", "trader"], {}),  # counts its rounds
]


@pytest.mark.parametrize(("game", "players", "bots", "options"), RUNS)
def test_the_totals_summarise_as_the_games_do(
    game: str, players: int, bots: list[str], options: dict[str, object]
) -> None:
    kept = simulate(game, 12, bots, players=players, seed=5, options=options)
    totals = simulate(game, 12, bots, players=players, seed=5, options=options, keep_outcomes=False)
    assert totals.outcomes == [] and totals.tally is not None and totals.games == 12
    summary = summarize(totals)
    assert summary == summarize(kept)
    # and each figure is what the games themselves say
    outcomes = kept.outcomes
    assert summary.games == len(outcomes) == 12
    assert summary.actions == describe_lengths([o.actions for o in outcomes])
    assert [s.wins for s in summary.seats] == [
        sum(seat in o.winners for o in outcomes) for seat in range(players)
    ]
    for stats in summary.bots:
        seats = [(o, seat) for o in outcomes for seat, bot in enumerate(o.bots) if bot == stats.bot]
        assert stats.seats_played == len(seats)
        assert stats.wins == sum(seat in o.winners for o, seat in seats)
        assert stats.mean_score == sum(o.scores[seat] for o, seat in seats) / len(seats)
    assert summary.draws == (0 if kept.cooperative else sum(not o.winners for o in outcomes))
    rounds = [o.rounds for o in outcomes if o.rounds is not None]
    assert bool(rounds) == (game == "double-crossing")  # the one game that counts its rounds
    assert summary.rounds == (describe_lengths(rounds) if rounds else None)


@given(st.lists(st.integers(min_value=0, max_value=5000), min_size=1, max_size=60))
def test_lengths_from_counts_equal_lengths_from_the_list(values: list[int]) -> None:
    ordered = sorted(values)
    assert describe_counts(Counter(values)) == {
        "mean": statistics.fmean(ordered),
        "median": float(statistics.median(ordered)),
        "p10": float(ordered[int(0.1 * (len(ordered) - 1))]),
        "p90": float(ordered[int(0.9 * (len(ordered) - 1))]),
        "min": float(ordered[0]),
        "max": float(ordered[-1]),
    }


def live_outcomes() -> int:
    """Game outcomes still reachable (after a collection, so none waiting in a cycle)."""
    gc.collect()
    return sum(isinstance(thing, GameOutcome) for thing in gc.get_objects())


@pytest.fixture
def held() -> Callable[[], int]:
    """Outcomes reachable now beyond those earlier tests left alive."""
    before = live_outcomes()
    return lambda: live_outcomes() - before


def test_a_run_without_its_outcomes_holds_none_of_them(held: Callable[[], int]) -> None:
    live: list[int] = []
    totals = simulate(
        "touring",
        300,
        ["random", "greedy"],
        keep_outcomes=False,
        on_outcome=lambda outcome: outcome.index % 20 or live.append(held()),
    )
    assert totals.games == 300 and len(live) == 15
    assert max(live) <= 2, max(live)  # the game being handed over, and at most one more


def test_each_game_is_handed_over_in_order_from_many_processes() -> None:
    handed: list[int] = []
    simulate(
        "touring",
        120,
        ["random", "greedy"],
        jobs=2,
        batch_size=3,  # forty batches on two workers: some finish before earlier ones
        on_outcome=lambda outcome: handed.append(outcome.index),
    )
    assert handed == list(range(120))


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_keeps_the_totals_of_the_finished_games(jobs: int) -> None:
    with pytest.raises(GamesInterrupted) as stopped:
        simulate(
            "touring",
            10**6,
            ["random", "greedy"],
            jobs=jobs,
            batch_size=4,
            keep_outcomes=False,
            progress=ctrl_c_after(3),
        )
    result = stopped.value.result
    assert stopped.value.outcomes == []
    # one process: game by game; two: the first batch of four that came back, whichever it was
    assert result.games == (3 if jobs == 1 else 4)
    if jobs == 1:
        whole = simulate("touring", 3, ["random", "greedy"], keep_outcomes=False)
        assert summarize(result) == summarize(whole)


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_each_record_is_saved_as_its_game_ends(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, held: Callable[[], int]
) -> None:
    live: list[int] = []
    save = GameRecord.save

    def counting(record: GameRecord, path: str | Path) -> Path:
        if str(path).endswith("0.json"):
            live.append(held())
        return save(record, path)

    monkeypatch.setattr(GameRecord, "save", counting)
    out = CliRunner().invoke(
        app, [command, "touring", "-n", "150", "--bots", "random,greedy", "--records", str(tmp_path)]
    )
    assert out.exit_code == 0, out.output
    assert "Saved 150 game records" in out.output
    assert len(list(tmp_path.glob("touring-0-*.json"))) == 150 and len(live) == 15
    assert max(live) <= 2, max(live)  # not all 150 held until the end


def test_a_full_disk_stops_the_run_at_once_with_its_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saves: list[str] = []

    def full(record: GameRecord, path: str | Path) -> Path:
        saves.append(str(path))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    played = 0
    play = backend.play_spec

    def counting(*args: Any) -> GameOutcome:
        nonlocal played
        played += 1
        return play(*args)

    monkeypatch.setattr(GameRecord, "save", full)
    monkeypatch.setattr(backend, "play_spec", counting)
    out = CliRunner().invoke(
        app, ["simulate", "touring", "-n", "3000", "--bots", "random,greedy", "--records", str(tmp_path)]
    )
    assert out.exit_code == 2, out.output
    assert f"Cannot write to {tmp_path}: No space left on the disk." in " ".join(out.output.split())
    assert played == len(saves) == 1  # the first game's record, not once every game is played
    assert "Traceback" not in out.output


def test_analyze_replays_each_game_as_it_ends(
    monkeypatch: pytest.MonkeyPatch, held: Callable[[], int]
) -> None:
    import tabletrek.sim.analyze as analyze_module

    pytest.importorskip("matplotlib", reason="analysis plots need the [study] extra")
    live: list[int] = []
    replay = analyze_module.replay_events

    def counting(outcome: GameOutcome) -> Any:
        if outcome.index % 10 == 0:
            live.append(held())
        return replay(outcome)

    monkeypatch.setattr(analyze_module, "replay_events", counting)
    analysis = analyze_module.analyze("touring", 60, ["random", "greedy"], seed=4)
    assert analysis.summary.games == 60 and len(live) == 6
    assert max(live) <= 2, max(live)  # not all 60 games and their records held until the end


def test_ctrl_c_while_a_batch_is_handed_over_keeps_the_rest_of_it() -> None:
    handed: list[int] = []

    def press_at_the_fifth(outcome: GameOutcome) -> None:
        handed.append(outcome.index)
        if len(handed) == 5:
            raise KeyboardInterrupt  # as if pressed while analyze replayed that game

    with pytest.raises(GamesInterrupted) as stopped:
        simulate("touring", 10**6, ["random", "greedy"], jobs=2, batch_size=10, on_outcome=press_at_the_fifth)
    kept = [o.index for o in stopped.value.result.outcomes]
    assert kept[:10] == list(range(10)), kept  # the first batch whole, not cut at the press
    assert handed[:10] == list(range(10)) and len(handed) == len(kept)


@pytest.mark.parametrize("fmt", ["round-robin", "swiss"])
def test_a_tournament_without_its_games_ranks_and_pairs_as_with_them(fmt: str) -> None:
    pytest.importorskip("openskill", reason="ratings need the [study] extra")
    from tabletrek.sim.tournament import tournament

    bots = ["random", "greedy", "greedy:go=120"]
    kept = tournament("touring", bots, 4, players=2, fmt=fmt, seed=2)
    totals = tournament("touring", bots, 4, players=2, fmt=fmt, seed=2, keep_outcomes=False)
    assert totals.outcomes == [] and totals.games == len(kept.outcomes) > 0
    assert totals.to_dict() == kept.to_dict()  # standings, ratings and head to head
    for a in bots:  # each pair's count, from the games themselves
        for b in bots:
            both = [o for o in kept.outcomes if a in o.bots and b in o.bots]
            won = sum(any(o.bots[seat] == a for seat in o.winners) for o in both)
            assert totals.head_to_head(a, b) == (len(both), won)

"""The self-play example on the compiled batch engine runs, and credits each seat with its own game."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the example needs the [rl] extra")
pytest.importorskip("numba", reason="the batch engine needs the [search] extra")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def example(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    # the example imports the first example's learner by name, as it does when run as a script
    monkeypatch.syspath_prepend(str(EXAMPLES))
    module = importlib.import_module("selfplay_touring_vector")
    yield module
    sys.modules.pop("selfplay_touring_vector", None)
    sys.modules.pop("train_touring_pg", None)


def test_smoke_run_trains_on_the_batch_and_reports_intervals(example: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    report = example.main(["--smoke", "--out", str(out)])
    assert report["games"] == 24 and report["updates"] >= 1 and report["env_steps"] > 0
    assert [row["opponent"] for row in report["evaluation"]] == ["random", "greedy"]
    for row in report["evaluation"]:
        low, high = row["ci95"]
        assert row["games"] == 6 and 0 <= low <= row["win_rate"] <= high <= 1
    saved = json.loads(out.read_text())
    assert set(saved["weights"]) == {"w1", "b1", "w2", "b2", "wv", "bv"}


def test_each_seat_gets_its_own_return_less_its_own_potential(example: ModuleType) -> None:
    """With gamma 1 the shaping telescopes: a move's target is its seat's return minus the
    potential that seat saw then. Env 0's game runs four steps (seats 0, 0, 1, 0), env 1's two."""
    rollouts = example.Rollouts(num_envs=2, shaping=1.0, gamma=1.0)
    seats = [[0, 1], [0, 0], [1, 0], [0, 1]]
    phis = [[0.1, 0.5], [0.2, 0.6], [-0.3, 0.7], [0.4, 0.8]]
    for t in range(4):
        obs = np.full((2, 3), float(t), dtype=np.float32)
        mask = np.ones((2, 5), dtype=bool)
        rollouts.add(obs, mask, np.array(seats[t]), np.array([t, 4 - t]), np.array(phis[t]))
        if t == 1:
            x, _, actions, target = rollouts.finish(1, np.array([1.0, -1.0], dtype=np.float32), [0, 1])
            assert actions.tolist() == [4, 3]  # env 1: seat 1 then seat 0
            assert np.allclose(target, [-1.0 - 0.5, 1.0 - 0.6])
    x, masks, actions, target = rollouts.finish(0, np.array([-1.0, 1.0], dtype=np.float32), [0, 1])
    assert actions.tolist() == [0, 1, 2, 3] and masks.shape == (4, 5)
    assert np.allclose(x[:, 0], np.log1p([0.0, 1.0, 2.0, 3.0]))
    assert np.allclose(target, [-1.0 - 0.1, -1.0 - 0.2, 1.0 + 0.3, -1.0 - 0.4])
    rollouts.forget()  # env 1's second game began at step 2: steps 2 and 3 stay, 0 and 1 go
    assert rollouts.first == 2 and [row[4].tolist() for row in rollouts.steps] == [[2, 2], [3, 1]]


def test_only_the_learners_moves_become_samples(example: ModuleType) -> None:
    rollouts = example.Rollouts(num_envs=1, shaping=0.5, gamma=0.9)
    for t, seat in enumerate([1, 0, 0, 1, 0]):
        obs = np.full((1, 3), float(t), dtype=np.float32)
        rollouts.add(obs, np.ones((1, 4), dtype=bool), np.array([seat]), np.array([t]), np.array([0.2 * t]))
    x, _, actions, target = rollouts.finish(0, np.array([1.0, -1.0], dtype=np.float32), [0])
    assert actions.tolist() == [1, 2, 4]
    assert np.allclose(x[:, 0], np.log1p([1.0, 2.0, 4.0]))
    # seat 0 saw potentials 0.2, 0.4, 0.8 and then the end (0): shaped rewards, discounted
    rewards = [0.5 * (0.9 * 0.4 - 0.2), 0.5 * (0.9 * 0.8 - 0.4), 1.0 + 0.5 * (0.0 - 0.8)]
    expected = [rewards[0] + 0.9 * rewards[1] + 0.81 * rewards[2], rewards[1] + 0.9 * rewards[2], rewards[2]]
    assert np.allclose(target, expected)


def test_the_league_plays_random_moves_and_its_frozen_copies(example: ModuleType) -> None:
    rng = np.random.default_rng(0)
    league = example.League(size=2, every=1, random_share=0.5)
    policy = example.Policy(inputs=3, actions=4, hidden=4, seed=1)
    assert set(league.draw(rng, 50).tolist()) == {example.League.RANDOM}  # nothing frozen yet
    for update in range(1, 4):
        policy.params["b2"][:] = [0.0, 0.0, 0.0, 0.0]
        policy.params["b2"][update] = 50.0  # copy k (from update k) always plays move k
        league.updated(policy, update)
    assert len(league.pool) == 2  # the oldest copy was dropped
    assert set(league.draw(rng, 200).tolist()) == {example.League.RANDOM, 0, 1}
    who = np.array([0, 1, 0, 1])
    mask = np.ones((4, 4), dtype=bool)
    moves = league.moves(who, np.zeros((4, 3), dtype=np.float32), mask, rng)
    assert moves.tolist() == [2, 3, 2, 3]  # the frozen copies did not follow later changes
    league.random_share = 0.0
    assert set(league.draw(rng, 200).tolist()) == {0, 1}
    league.random_share = 1.0
    assert set(league.draw(rng, 200).tolist()) == {example.League.RANDOM}


def test_sampled_moves_are_always_legal(example: ModuleType) -> None:
    rng = np.random.default_rng(3)
    mask = rng.random((4000, 9)) < 0.3
    mask[np.arange(4000), rng.integers(0, 9, 4000)] = True
    mask[:100] = False
    mask[:50, 0] = True  # only the first move legal
    mask[50:100, 8] = True  # only the last
    policy = example.Policy(inputs=4, actions=9, hidden=5, seed=2)
    policy.params["w2"] += rng.normal(0, 3.0, policy.params["w2"].shape)
    _, probs, _ = policy.forward(rng.normal(size=(4000, 4)), mask)
    chosen = example.sample(probs, rng)
    assert mask[np.arange(4000), chosen].all()
    assert (chosen[:50] == 0).all() and (chosen[50:100] == 8).all()


def test_the_potential_reads_the_required_mileage_of_each_table(example: ModuleType) -> None:
    from tabletrek.games.touring.cards import MILES
    from tabletrek.rl.vector import vector_env

    env = vector_env("touring", 1, players=2)
    obs, _ = env.reset(seed=5)
    required = np.array(env.rules.required, dtype=np.float32)
    goal = float(env.rules.goal_miles)
    own = slice(example.C + example.C + 8, example.C + example.TABLE)  # table 0's still-required block
    other = slice(own.start + example.TABLE, own.stop + example.TABLE)
    assert obs[0, own].tolist() == obs[0, other].tolist() == required.tolist()
    assert example.potential(obs, 2, goal)[0] == pytest.approx(0.0)  # both lack the whole trip
    obs[0, own] = 0.0  # the seat to act has arrived
    assert example.potential(obs, 2, goal)[0] == pytest.approx(float(required @ np.array(MILES)) / goal)


@pytest.mark.parametrize(
    "argv",
    [
        ["--games", "0"],
        ["--envs", "x"],
        ["--eval-games", "0"],
        ["--batch-games", "-2"],
        ["--random-share", "1.5"],
        ["--random-share", "nan"],
    ],
    ids=" ".join,
)
def test_bad_arguments_get_a_usage_message_not_a_traceback(
    example: ModuleType, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        example.main(argv)
    assert exit_info.value.code == 2
    assert f"argument {argv[0]}" in capsys.readouterr().err

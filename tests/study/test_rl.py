"""The RL face: PettingZoo's API test on three games, masks, rewards, the single-seat wrapper."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the RL face needs the [rl] extra")

from pettingzoo.test import api_test

from tabletrek.rl import SingleSeatEnv, ViewEncoder, aec_env

# A dict observation with an action mask is PettingZoo's own convention for board games (its
# classic environments get the same two notes from api_test).
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]

GAMES = [
    ("touring", {}),
    ("mexican-train", {"rounds": 1}),
    ("double-crossing", {}),
]


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_pettingzoo_api(game: str, options: dict[str, int]) -> None:
    env = aec_env(game, players=2, options=options)
    api_test(env, num_cycles=60)


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_masked_random_play_to_the_end(game: str, options: dict[str, int]) -> None:
    env = aec_env(game, players=2, options=options)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    steps = 0
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=20000):
        obs, reward, done, truncated, info = env.last()
        totals[agent] += float(reward)
        if done or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        legal = np.flatnonzero(mask)
        assert len(legal) == len(env.game_state.legal_actions()) > 0
        assert "view" in info and info["view"] == env.view(agent)
        env.step(int(rng.choice(legal)))
        steps += 1
    result = env.game_state.result
    assert result is not None and steps == len(env.game_state.history)
    assert [totals[a] for a in env.possible_agents] == list(result.returns)


def test_encoder_is_fixed_size_and_order_free() -> None:
    enc = ViewEncoder(64)
    a = enc.encode({"hand": ["x", "y", "y"], "cash": 100000, "done": False})
    b = enc.encode({"cash": 100000, "done": False, "hand": ["y", "x", "y"]})
    assert a.shape == (64,) and a.dtype == np.float32 and np.array_equal(a, b)
    assert not np.array_equal(a, enc.encode({"hand": ["x"], "cash": 5, "done": True}))
    with pytest.raises(ValueError):
        ViewEncoder(2)


def test_single_seat_wrapper_plays_against_bots() -> None:
    env = SingleSeatEnv("touring", seat=1, opponents="greedy")
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert env.state is not None and env.state.current_player == 1
    rng = np.random.default_rng(0)
    total = 0.0
    for _ in range(5000):
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        total += float(reward)
        if done:
            break
    assert done and not truncated
    assert total == info["result"]["returns"][1]
    with pytest.raises(RuntimeError):
        env.step(0)
    with pytest.raises(ValueError, match="genius"):
        SingleSeatEnv("touring", opponents=["genius"])

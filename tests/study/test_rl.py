"""The RL faces pass their anchors' own checkers: Gymnasium's check_env, PettingZoo's api_test and
parallel_api_test, for every game; masks, rewards, the illegal-action policy, the finite spaces."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the RL face needs the [rl] extra")

import gymnasium
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test

import tabletrek
from tabletrek.core.actions import IllegalAction
from tabletrek.rl import SingleSeatEnv, ViewEncoder, aec_env, codec_for, parallel_env

# A dict observation with an action mask is PettingZoo's own convention for board games (its
# classic environments get the same two notes from api_test).
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("error:.*is not within the observation space"),
]

GAMES = [
    ("touring", {}),
    ("mexican-train", {"rounds": 1}),
    ("double-crossing", {"max_rounds": 6}),
    ("codenames-duet", {}),
]


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_gymnasium_check_env(game: str, options: dict[str, int]) -> None:
    env = gymnasium.make(f"tabletrek/{game}-v1", options=options, render_mode="ansi")
    check_env(env.unwrapped, skip_render_check=False)
    assert isinstance(env.unwrapped.render(), str)


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_pettingzoo_api(game: str, options: dict[str, int]) -> None:
    env = aec_env(game, players=2, options=options)
    assert env.metadata["name"] == f"{game.replace('-', '_')}_v1"
    api_test(env, num_cycles=60)


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_pettingzoo_parallel_api(game: str, options: dict[str, int]) -> None:
    parallel_api_test(parallel_env(game, players=2, options=options), num_cycles=60)


@pytest.mark.parametrize(
    ("game", "players"), [("touring", 2), ("touring", 3), ("mexican-train", 3), ("double-crossing", 4)]
)
def test_action_space_has_the_true_size(game: str, players: int) -> None:
    env = SingleSeatEnv(game, players=players)
    g = env.game
    real = [i for i in range(g.num_actions) if _exists(g, i)]
    assert env.action_space.n == len(real) == codec_for(g).n
    assert {env.action_label(i) for i in range(env.action_space.n)} == {g.action(i).text for i in real}


def _exists(game: tabletrek.Game, index: int) -> bool:
    try:
        return bool(game.action(index).text)
    except ValueError:
        return False


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
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        assert "view" in info and info["view"] == env.view(agent)
        env.step(int(rng.choice(legal)))
        steps += 1
    result = env.game_state.result
    assert result is not None and steps == len(env.game_state.history)
    assert [totals[a] for a in env.possible_agents] == list(result.returns)


def test_codenames_clues_are_a_finite_space() -> None:
    env = SingleSeatEnv("codenames-duet", opponents="random")
    _, info = env.reset(seed=1)
    state = env.state
    assert state is not None
    mask = env.action_masks()
    assert mask.dtype == bool and np.array_equal(mask, info["action_mask"].astype(bool))
    clues = [env.action_label(i) for i in np.flatnonzero(mask)]
    assert clues and all(c.startswith("clue ") for c in clues)
    visible = set(state.visible_words())
    assert not any(c.split()[1] in visible for c in clues), "a visible word is never a clue"
    assert len(clues) > 1000, "hundreds of pack words, each with every number in range"


def test_single_seat_illegal_action_is_penalised_or_raises() -> None:
    env = SingleSeatEnv("touring", seat=0, opponents="greedy")
    obs, info = env.reset(seed=3)
    before = env.state.to_json()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, done, truncated, info = env.step(bad)
    assert reward == env.illegal_penalty < 0 and not done and not truncated
    assert info["illegal"] and env.state.to_json() == before
    strict = SingleSeatEnv("touring", opponents="greedy", illegal="raise")
    strict.reset(seed=3)
    with pytest.raises(IllegalAction):
        strict.step(bad)
    capped = SingleSeatEnv("touring", opponents="greedy", max_illegal=2)
    capped.reset(seed=3)
    assert not capped.step(bad)[3] and capped.step(bad)[3], "truncated after max_illegal in a row"
    with pytest.raises(ValueError, match="illegal"):
        SingleSeatEnv("touring", illegal="ignore")


def test_single_seat_wrapper_plays_against_bots() -> None:
    env = SingleSeatEnv("touring", seat=1, opponents="greedy")
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert env.state is not None and env.state.current_player == 1
    rng = np.random.default_rng(0)
    total = 0.0
    for _ in range(5000):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, done, truncated, info = env.step(action)
        assert "illegal" not in info
        total += float(reward)
        if done:
            break
    assert done and not truncated
    assert total == info["result"]["returns"][1]
    with pytest.raises(RuntimeError):
        env.step(0)
    with pytest.raises(ValueError, match="genius"):
        SingleSeatEnv("touring", opponents=["genius"])


@pytest.mark.parametrize("kind", ["tensor", "information_state", "hashed"])
def test_observation_kinds(kind: str) -> None:
    env = SingleSeatEnv("mexican-train", options={"rounds": 1}, observation=kind, obs_size=128)
    obs, _ = env.reset(seed=2)
    assert env.observation_space.contains(obs)
    if kind == "hashed":
        assert obs["observation"].shape == (128,)
    for _ in range(5):
        obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    if kind == "information_state":
        from tabletrek.rl import information_state_tensor

        assert np.array_equal(obs["observation"], information_state_tensor(env.state, 0))


def test_parallel_env_waiting_agents_are_ignored() -> None:
    env = parallel_env("touring", players=2)
    obs, _ = env.reset(seed=5)
    state = env.game_state
    actor = f"player_{state.current_player}"
    waiting = next(a for a in env.agents if a != actor)
    assert not obs[waiting]["action_mask"].any() and obs[actor]["action_mask"].any()
    move = int(np.flatnonzero(obs[actor]["action_mask"])[0])
    env.step({actor: move, waiting: 0})
    assert len(state.history) == 1


def test_encoder_is_fixed_size_and_order_free() -> None:
    enc = ViewEncoder(64)
    a = enc.encode({"hand": ["x", "y", "y"], "cash": 100000, "done": False})
    b = enc.encode({"cash": 100000, "done": False, "hand": ["y", "x", "y"]})
    assert a.shape == (64,) and a.dtype == np.float32 and np.array_equal(a, b)
    assert not np.array_equal(a, enc.encode({"hand": ["x"], "cash": 5, "done": True}))
    with pytest.raises(ValueError):
        ViewEncoder(2)


def test_render_modes_give_the_table() -> None:
    import xml.etree.ElementTree as ET

    env = SingleSeatEnv("double-crossing", render_mode="svg")
    env.reset(seed=1)
    svg = env.render()
    assert svg is not None and ET.fromstring(svg).tag.endswith("svg")
    aec = aec_env("touring", render_mode="svg")
    aec.reset(seed=1)
    assert "<svg" in (aec.render() or "")
    text = SingleSeatEnv("touring", render_mode="ansi")
    text.reset(seed=1)
    page = text.render()
    assert page is not None and "<svg" not in page and page.strip()
    with pytest.raises(ValueError, match="render_mode"):
        SingleSeatEnv("touring", render_mode="human")

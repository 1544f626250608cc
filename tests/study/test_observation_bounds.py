"""Every observation keeps to the ranges its layout declares, so the RL faces' ``Box`` bounds are
finite and true: random games under many options and player counts, the Python tensors and the
compiled vector environment's rows, and Gymnasium's own checker on the declared spaces."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the RL faces need the [rl] extra")

import gymnasium
from gymnasium.utils.env_checker import check_env

import tabletrek
from tabletrek.core import mt19937
from tabletrek.core.tensors import Layout
from tabletrek.rl import (
    information_state_layout,
    information_state_tensor,
    observation_layout,
    observation_tensor,
)
from tabletrek.rl.table import Table

# Options chosen to push fields to their tops: a turn limit that random play reaches, a double
# blank worth 50 over several rounds, short matches, one timer token, no mistakes allowed.
PYTHON_CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("touring", 2, {"max_turns": 40}),
    ("touring", 3, {"free_discard": True}),
    ("touring", 4, {"country_first": True, "max_turns": 300}),
    ("touring", 6, {}),
    ("mexican-train", 2, {"rounds": 2, "double_blank_points": 50}),
    ("mexican-train", 5, {"rounds": 1, "rotate_start": True}),
    ("mexican-train", 8, {"rounds": 1, "relaxed_doubles": False}),
    ("double-crossing", 2, {"max_rounds": 4}),
    ("double-crossing", 3, {"max_rounds": 3, "exact_return": True, "forced_moves": True}),
    ("double-crossing", 6, {"max_rounds": 2, "connections_needs_cars": True}),
    ("codenames-duet", 2, {}),
    ("codenames-duet", 2, {"tokens": 1}),
    ("codenames-duet", 3, {"tokens": 11, "mistakes": 0, "strict_penalty": True}),
]
# Every other registered game, at its fewest and most seats with its default options.
PYTHON_CASES += [
    (name, players, {})
    for name in tabletrek.games()
    if name not in {case[0] for case in PYTHON_CASES}
    for players in (type(tabletrek.load(name)).player_counts[0], type(tabletrek.load(name)).player_counts[-1])
]


def out_of_range(layout: Layout, tensor: np.ndarray) -> list[str]:
    """The fields of ``tensor`` with a value outside the layout's range, each with its values."""
    return [
        f"{f.name}: {values.tolist()} outside {f.low}..{f.high}"
        for f, values in ((f, layout.split(tensor)[f.name]) for f in layout.fields)
        if (values < f.low).any() or (values > f.high).any()
    ]


@pytest.mark.parametrize(("name", "players", "options"), PYTHON_CASES)
def test_random_games_keep_every_tensor_in_range(name: str, players: int, options: dict[str, Any]) -> None:
    game = tabletrek.load(name, players=players, **options)
    obs_layout, info_layout = observation_layout(game), information_state_layout(game)
    for seed in range(3):
        state = game.new_game(seed=seed)
        moves = []
        checked = 0
        while True:
            for seat in range(players):
                assert out_of_range(obs_layout, observation_tensor(state, seat)) == []
                assert out_of_range(info_layout, information_state_tensor(state, seat, moves)) == []
            checked += 1
            if state.is_over:
                break
            seat = state.current_player
            action = game.bot("random", seat=seat, seed=seed * 100_003 + checked).act(state)
            moves.append((seat, state.parse(action) if isinstance(action, str) else action))
            state.apply(action)
        assert checked > 1


@pytest.mark.parametrize("name", tabletrek.games())
def test_every_declared_top_is_finite_but_double_crossings_action_counts(name: str) -> None:
    game = tabletrek.load(name)
    for kind in ("tensor", "information_state"):
        box = Table(game, kind).observation_space()["observation"]
        finite = np.isfinite(box.high)
        if name == "double-crossing" and kind == "information_state":
            counts = information_state_layout(game).field("action_counts")
            assert not finite[counts.offset :].any() and finite[: counts.offset].all()
        else:
            assert finite.all() and np.isfinite(box.low).all(), (name, kind)
    assert np.isinf(Table(game, "hashed").observation_space()["observation"].high).all()


@pytest.mark.parametrize(("name", "players", "options"), PYTHON_CASES)
def test_every_range_holds_more_than_one_value(name: str, players: int, options: dict[str, Any]) -> None:
    game = tabletrek.load(name, players=players, **options)
    for layout in (observation_layout(game), information_state_layout(game)):
        assert [f.name for f in layout.fields if not f.low < f.high] == []


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("touring", {}),
        ("mexican-train", {"rounds": 1}),
        ("double-crossing", {"max_rounds": 3}),
        ("codenames-duet", {}),
    ],
)
def test_gymnasiums_checker_finds_no_fault_with_the_bounds(name: str, options: dict[str, Any]) -> None:
    env = gymnasium.make(f"tabletrek/{name}-v1", options=options)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=True)
    said = [str(w.message) for w in caught]
    assert not [s for s in said if "Box observation space" in s], said


def test_a_layout_refuses_a_range_with_no_values() -> None:
    layout = Layout().add("count", 2, "a count", high=5)
    for low, high in ((2, 1), (0, math.nan), (math.inf, math.inf)):
        with pytest.raises(ValueError, match="no values between"):
            layout.add(f"bad{low}{high}", 1, "a broken field", low=low, high=high)
    low, high = Layout().extend(layout).add("flag", 1, "a flag", low=-1, high=1).bounds()
    assert low.tolist() == [0, 0, -1] and high.tolist() == [5, 5, 1]


VECTOR_CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("touring", 2, {"max_turns": 40}),
    ("touring", 3, {"free_discard": True}),
    ("touring", 6, {"country_first": True}),
    ("mexican-train", 2, {"rounds": 3, "double_blank_points": 50}),
    ("mexican-train", 6, {"rounds": 1, "rotate_start": True}),
    ("mexican-train", 10, {"rounds": 1}),
    ("double-crossing", 2, {"max_rounds": 3}),
    ("double-crossing", 4, {"exact_return": True, "forced_moves": True, "max_rounds": 5}),
    ("double-crossing", 6, {"max_rounds": 2, "crew_per_roll": True, "tower_to_tower": False}),
]

# Fields that the compiled row and the Python tensor both hold, unscaled, by their names in each
# (the compiled row is from the seat to act; the Python tensor is asked for that seat).
SHARED: dict[str, list[tuple[str, str]]] = {
    "touring": [("hand", "hand"), ("discard", "discard"), ("hand_sizes", "hand_counts")],
    "mexican-train": [("hand", "hand"), ("hand_sizes", "hand_counts")],
    "double-crossing": [("hand", "hand"), ("yard", "yard"), ("depot", "depot"), ("bank", "bank")],
}


@pytest.mark.skipif(not mt19937.HAVE_NUMBA, reason="numba (extra [search]) is not installed")
@pytest.mark.parametrize(("name", "players", "options"), VECTOR_CASES)
def test_the_vector_environments_rows_keep_their_ranges(
    name: str, players: int, options: dict[str, Any]
) -> None:
    from tabletrek.rl import vector_env
    from tabletrek.rl.vector import sample_actions

    env = vector_env(name, 32, players=players, seed=9, **options)
    layout = env.observation_layout
    assert env.single_observation_space.shape == (layout.size,)
    assert np.isfinite(env.single_observation_space.high).all()
    obs, info = env.reset(seed=9)
    rng = np.random.default_rng(9)
    ended = 0
    for step in range(2500):
        assert env.observation_space.contains(obs), [
            out_of_range(layout, row) for row in obs if out_of_range(layout, row)
        ]
        if step % 250 == 0:
            _agrees_with_the_python_tensor(env, obs, name)
        obs, _rewards, terminated, _truncated, info = env.step(sample_actions(info["action_mask"], rng))
        ended += int(terminated.sum())
    assert ended > 0


def _agrees_with_the_python_tensor(env: Any, obs: np.ndarray, name: str) -> None:
    for i in range(0, env.num_envs, 8):
        state = env.python_state(i)
        if state.is_over:
            continue
        mine = env.observation_layout.split(obs[i])
        python = observation_layout(state.game).split(observation_tensor(state, state.current_player))
        for compiled_name, python_name in SHARED[name]:
            assert mine[compiled_name].tolist() == python[python_name].tolist(), (compiled_name, i)

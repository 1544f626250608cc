"""The compiled Double Crossing plays move for move what the Python rules play
(``rl/exactness.py``): every player count and option, 10,000 games each checked through their
opening moves, games cut by a small round limit (the ``max_rounds`` ending), and whole games
(contracts, Double-Cross, Control Tower, the win at Central Station)."""

from __future__ import annotations

from typing import Any

import pytest

from tabletrek.core import mt19937
from tabletrek.rl.exactness import check

pytestmark = pytest.mark.skipif(not mt19937.HAVE_NUMBA, reason="numba (extra [search]) is not installed")

CONFIGS: list[tuple[int, dict[str, Any]]] = [
    *((p, {}) for p in range(2, 7)),
    (3, {"exact_return": True}),
    (4, {"connections_needs_cars": True}),
    (5, {"stops_per_turn": 2}),
    (3, {"crew_per_roll": True}),
    (4, {"forced_moves": True}),
    (2, {"tower_to_tower": False}),
    (6, {"forced_moves": True, "tower_to_tower": False, "crew_per_roll": True}),
]


def name(config: tuple[int, dict[str, Any]]) -> str:
    players, options = config
    return f"{players}p-" + "-".join(f"{k}={v}" for k, v in options.items())


@pytest.mark.parametrize("config", CONFIGS, ids=name)
def test_openings_match_the_python_rules(config: tuple[int, dict[str, Any]]) -> None:
    players, options = config
    done = check(
        "double-crossing", 10_000, players=players, num_envs=1000, moves=4, state_every=32, **options
    )
    assert done.games >= 10_000 and done.moves >= 40_000 and done.states > 0


@pytest.mark.parametrize("config", CONFIGS, ids=name)
def test_games_of_two_rounds_match_the_python_rules(config: tuple[int, dict[str, Any]]) -> None:
    players, options = config
    done = check(
        "double-crossing", 200, players=players, seed=3, num_envs=200, state_every=8, max_rounds=2, **options
    )
    assert done.games >= 200 and done.moves > 200 * players


@pytest.mark.parametrize("config", CONFIGS, ids=name)
def test_whole_games_match_the_python_rules(config: tuple[int, dict[str, Any]]) -> None:
    players, options = config
    done = check("double-crossing", 2, players=players, seed=11, num_envs=2, state_every=16, **options)
    assert done.games >= 2 and done.moves > 300

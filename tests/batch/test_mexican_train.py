"""The compiled Mexican Train plays move for move what the Python rules play (``rl/exactness.py``):
every player count of both sets and every option, 10,000 games each checked through their opening
moves (deal, engine, first runs) and whole games of one round (every later rule, the scoring)."""

from __future__ import annotations

from typing import Any

import pytest

from tabletrek.core import mt19937
from tabletrek.rl.exactness import check

pytestmark = pytest.mark.skipif(not mt19937.HAVE_NUMBA, reason="numba (extra [search]) is not installed")

CONFIGS: list[tuple[int, dict[str, Any]]] = [
    # The default set follows the player count (double-9 below six players, double-12 from six);
    # set_size overrides it both ways.
    *((p, {}) for p in range(2, 11)),
    *((p, {"set_size": 9}) for p in range(6, 9)),
    *((p, {"set_size": 12}) for p in range(2, 6)),
    (4, {"rotate_start": True}),
    (3, {"relaxed_doubles": False}),
    (7, {"relaxed_doubles": False}),
    (5, {"double_blank_points": 50}),
    (4, {"engine": 6, "rounds": 3}),
    (6, {"set_size": 9, "rotate_start": True, "relaxed_doubles": False}),
]


def name(config: tuple[int, dict[str, Any]]) -> str:
    players, options = config
    return f"{players}p-" + "-".join(f"{k}={v}" for k, v in options.items())


@pytest.mark.parametrize("config", CONFIGS, ids=name)
def test_openings_match_the_python_rules(config: tuple[int, dict[str, Any]]) -> None:
    players, options = config
    done = check("mexican-train", 10_000, players=players, num_envs=1000, moves=6, state_every=32, **options)
    assert done.games >= 10_000 and done.moves >= 60_000 and done.states > 0


@pytest.mark.parametrize("config", CONFIGS, ids=name)
def test_whole_rounds_match_the_python_rules(config: tuple[int, dict[str, Any]]) -> None:
    players, options = config
    options = {"rounds": 1, **options}
    done = check("mexican-train", 24, players=players, seed=7, num_envs=24, state_every=8, **options)
    assert done.games >= 24 and done.moves > 24 * 20

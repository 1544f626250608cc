"""The compiled Mexican Train plays move for move what the Python rules play (``rl/exactness.py``):
every player count of both sets and every option, 10,000 games each checked through their opening
moves (deal, engine, first runs) and whole games of one round (every later rule, the scoring)."""

from __future__ import annotations

from typing import Any

import pytest

from tabletrek.core import mt19937
from tabletrek.core.errors import BeyondEngine
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


def test_rows_are_int16_and_options_that_could_overflow_them_are_refused() -> None:
    """The rows are int16 (``STATE_DTYPE``): totals reach at most rounds x (every tile's points);
    the largest double-blank score that keeps them in range plays, one more is refused rather than
    wrapping a total around."""
    import numpy as np

    import tabletrek
    from tabletrek.games.mexican_train import batch
    from tabletrek.rl.vector import BatchEnv

    assert BatchEnv("mexican-train", 2, players=4).states.dtype == np.int16
    game = tabletrek.load("mexican-train", players=4)  # double-9, ten rounds: 495 points a round
    edge = 32_767 // game.num_rounds - sum(game.tileset.pips)
    assert batch.config(tabletrek.load("mexican-train", players=4, double_blank_points=edge))[batch.K_P] == 4
    with pytest.raises(BeyondEngine, match="double_blank_points"):
        batch.config(tabletrek.load("mexican-train", players=4, double_blank_points=edge + 1))

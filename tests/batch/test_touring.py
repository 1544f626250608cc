"""The compiled Touring plays move for move what the Python rules play (``rl/exactness.py``):
every player count and option, 10,000 games each cut short by a small turn limit (deals, first
plays, the turn-limit ending) and full games (reshuffles, attacks, wins)."""

from __future__ import annotations

from typing import Any

import pytest

from tabletrek.core import mt19937
from tabletrek.rl.exactness import check

pytestmark = pytest.mark.skipif(not mt19937.HAVE_NUMBA, reason="numba (extra [search]) is not installed")

OPTIONS: list[dict[str, Any]] = [{}, {"free_discard": True}, {"country_first": True}]
CONFIGS = [(p, options) for p in (2, 3, 4, 5, 6) for options in OPTIONS]


def name(config: tuple[int, dict[str, Any]]) -> str:
    players, options = config
    return f"{players}p-" + "-".join(f"{k}={v}" for k, v in options.items())


@pytest.mark.parametrize("config", CONFIGS, ids=name)
def test_short_games_match_the_python_rules(config: tuple[int, dict[str, Any]]) -> None:
    players, options = config
    done = check(
        "touring",
        10_000,
        players=players,
        seed=players,
        num_envs=1000,
        state_every=32,
        max_turns=6,
        **options,
    )
    assert done.games >= 10_000 and done.states > 0


@pytest.mark.parametrize("config", CONFIGS, ids=name)
def test_full_games_match_the_python_rules(config: tuple[int, dict[str, Any]]) -> None:
    players, options = config
    games = 20 if options.get("free_discard") else 40  # free discards make games of ~800 moves
    done = check(
        "touring", games, players=players, seed=100 + players, num_envs=games, state_every=16, **options
    )
    assert done.games >= games and done.moves > games * 50

"""The compiled Touring plays move for move what the Python rules play (``rl/exactness.py``):
every player count and option, 10,000 games each cut short by a small turn limit (deals, first
plays, the turn-limit ending) and full games (reshuffles, attacks, wins)."""

from __future__ import annotations

import pytest

from tabletrek.core import mt19937

pytestmark = pytest.mark.skipif(not mt19937.HAVE_NUMBA, reason="numba (extra [search]) is not installed")

from tabletrek.rl.exactness import check  # noqa: E402

CONFIGS = [(p, free) for p in (2, 3, 4, 6) for free in (False, True)]


@pytest.mark.parametrize(("players", "free"), CONFIGS)
def test_short_games_match_the_python_rules(players: int, free: bool) -> None:
    done = check(
        "touring",
        10_000,
        players=players,
        seed=players,
        num_envs=1000,
        state_every=32,
        free_discard=free,
        max_turns=6,
    )
    assert done.games >= 10_000 and done.states > 0


@pytest.mark.parametrize(("players", "free"), CONFIGS)
def test_full_games_match_the_python_rules(players: int, free: bool) -> None:
    games = 20 if free else 40  # free discards make games of ~800 moves
    done = check(
        "touring",
        games,
        players=players,
        seed=100 + players,
        num_envs=games,
        state_every=16,
        free_discard=free,
    )
    assert done.games >= games and done.moves > games * 50

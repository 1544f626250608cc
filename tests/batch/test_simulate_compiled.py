"""``simulate``'s all-random games run compiled (``sim/compiled.py``) with the very outcomes of the
Python path: same winners, scores, returns, lengths and rounds for the same seeds."""

from __future__ import annotations

import dataclasses

import pytest

import tabletrek
from tabletrek.core import mt19937
from tabletrek.sim import runner

pytestmark = pytest.mark.skipif(not mt19937.HAVE_NUMBA, reason="numba (extra [search]) is not installed")


@pytest.mark.parametrize(
    ("name", "players", "games", "options"),
    [
        ("touring", 2, 60, {}),
        ("touring", 3, 60, {"free_discard": True, "max_turns": 300}),
        ("touring", 4, 60, {}),
        ("touring", 6, 60, {}),
        ("double-crossing", 2, 4, {}),
        ("double-crossing", 3, 20, {"max_rounds": 5, "exact_return": True}),
        ("double-crossing", 5, 20, {"max_rounds": 5, "connections_needs_cars": False, "stops_per_turn": 2}),
    ],
)
def test_compiled_random_games_equal_the_python_path(
    name: str, players: int, games: int, options: dict[str, object]
) -> None:
    from tabletrek.sim.compiled import play_random

    game = tabletrek.load(name, players=players, **options)
    lineup = ("random",) * players
    for index in range(games):
        seed = runner.game_seed(7, index)
        fast = play_random(game, lineup, seed, index)
        slow = runner.play_game(game, list(lineup), seed, index, keep_record=True)  # a record: Python
        assert fast is not None and slow.record is not None
        assert fast == dataclasses.replace(slow, record=None)


def test_other_lineups_and_games_take_the_python_path() -> None:
    from tabletrek.sim.compiled import play_random

    touring = tabletrek.load("touring", players=2)
    assert play_random(touring, ("random", "greedy"), 1, 0) is None
    mexican = tabletrek.load("mexican-train", players=2)
    assert play_random(mexican, ("random", "random"), 1, 0) is None

"""``simulate``'s all-random games run compiled (``sim/compiled.py``) with the very outcomes of the
Python path: same winners, scores, returns, lengths and rounds for the same seeds."""

from __future__ import annotations

import dataclasses

import pytest

import tabletrek
from tabletrek.core import mt19937
from tabletrek.core.errors import BeyondEngine
from tabletrek.sim import runner

pytestmark = pytest.mark.skipif(not mt19937.HAVE_NUMBA, reason="numba (extra [search]) is not installed")


@pytest.mark.parametrize(
    ("name", "players", "games", "options"),
    [
        ("touring", 2, 60, {}),
        ("touring", 3, 60, {"free_discard": True, "max_turns": 300}),
        ("touring", 4, 60, {}),
        ("touring", 5, 60, {}),
        ("touring", 6, 60, {"country_first": True}),
        ("mexican-train", 2, 30, {}),
        ("mexican-train", 4, 20, {"relaxed_doubles": False}),
        ("mexican-train", 6, 10, {"set_size": 9, "rotate_start": True}),
        ("mexican-train", 8, 10, {"rounds": 3, "double_blank_points": 50}),
        ("double-crossing", 2, 4, {}),
        ("double-crossing", 3, 20, {"max_rounds": 5, "exact_return": True}),
        ("double-crossing", 5, 20, {"max_rounds": 5, "connections_needs_cars": True, "stops_per_turn": 2}),
        ("double-crossing", 4, 20, {"max_rounds": 5, "forced_moves": True, "tower_to_tower": False}),
        ("double-crossing", 3, 20, {"max_rounds": 5, "crew_per_roll": True}),
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
    assert play_random(mexican, ("random", "greedy"), 1, 0) is None
    assert play_random(tabletrek.load("codenames-duet"), ("random", "random"), 1, 0) is None


def test_options_the_compiled_game_does_not_hold_take_the_python_path() -> None:
    """A Mexican Train scoring the double blank 5,000 could pass the compiled row's int16 totals:
    ``simulate`` and the search bot play it on the Python rules instead of failing."""
    from tabletrek.games.mexican_train.batch import config
    from tabletrek.sim.compiled import play_random

    game = tabletrek.load("mexican-train", players=2, double_blank_points=5000)
    with pytest.raises(BeyondEngine, match="double_blank_points=5000"):
        config(game)
    assert play_random(game, ("random", "random"), 3, 0) is None
    assert runner.play_game(game, ["random", "random"], 3, 0).actions > 0
    bot = game.bot("ismcts", seat=0, seed=1, iterations=60)
    assert bot.compiled is not None  # type: ignore[attr-defined]  # the paired search bot's
    state = game.new_game(seed=3)
    while state.current_player != 0 or len(state.legal_actions()) < 3:
        state.apply(state.legal_actions()[0])
    assert bot.act(state) in state.legal_actions()
    assert bot.compiled is None  # type: ignore[attr-defined]  # it fell back to the Python rules


def test_a_compiled_bug_is_not_taken_for_an_option_it_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only ``BeyondEngine`` sends a game back to the Python rules: any other NotImplementedError
    from the compiled path is a defect and reaches the caller."""
    from tabletrek.sim import compiled

    def broken(*_: object) -> None:
        raise NotImplementedError("a step the engine forgot")

    monkeypatch.setattr(compiled, "load_attribute", lambda _path: broken)
    game = tabletrek.load("touring", players=2)
    with pytest.raises(NotImplementedError, match="a step the engine forgot"):
        compiled.play_random(game, ("random", "random"), 1, 0)

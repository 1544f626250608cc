"""The generic search bot: legal, reproducible, budgeted, validated parameters, offered where asked."""

from __future__ import annotations

import pytest

import tabletrek
from tabletrek.bots.search import SearchBot, make_search_bot
from tabletrek.core.game import Game


def midgame(name: str, moves: int = 6, seed: int = 3) -> tabletrek.State:
    game = tabletrek.load(name, players=2)
    state = game.new_game(seed=seed)
    rnd = game.bot("random", seat=0, seed=seed)
    for _ in range(moves):
        seat = state.current_player
        assert seat is not None
        rnd.seat = seat
        state.apply(rnd.act(state))
    return state


@pytest.mark.parametrize("name", ["touring", "mexican-train", "double-crossing"])
def test_plays_a_legal_move_reproducibly(name: str) -> None:
    state = midgame(name)
    seat = state.current_player
    assert seat is not None
    before = state.to_json()
    game = state.game
    picks = [make_search_bot(game, seat=seat, seed=11, iterations=8).act(state) for _ in range(2)]
    assert picks[0] == picks[1]
    assert picks[0] in state.legal_actions()
    assert state.to_json() == before, "searching must not change the real state"


def test_budget_counts_iterations_or_time() -> None:
    state = midgame("touring")
    seat = state.current_player
    assert seat is not None
    bot = make_search_bot(state.game, seat=seat, seed=1, iterations=5)
    bot.act(state)
    assert bot.last_iterations in (0, 5)
    timed = make_search_bot(state.game, seat=seat, seed=1, ms=30)
    timed.act(state)
    assert timed.last_iterations >= 1 or len(state.legal_actions()) == 1


def test_policy_rollouts_and_trust() -> None:
    state = midgame("touring", moves=10)
    seat = state.current_player
    assert seat is not None
    bot = make_search_bot(state.game, seat=seat, seed=2, iterations=4, rollout="greedy", trust=100)
    greedy = state.game.bot("greedy", seat=seat, seed=0)
    # With overwhelming trust the search keeps the policy's own move.
    assert bot.act(state) == greedy.act(state)
    assert not bot.last_override


def test_paired_search_keeps_the_named_default_unless_clearly_beaten() -> None:
    game = tabletrek.load("mexican-train", players=2, rounds=1)
    state = game.new_game(seed=5)
    planner = [game.bot("planner", seat=s, seed=s) for s in range(2)]
    checked = 0
    while not state.is_over and checked < 12:
        seat = state.current_player
        assert seat is not None
        if len(state.legal_actions()) > 1:
            # An unreachable bound: the search plays the default bot's move, never the rollout policy's.
            strict = make_search_bot(
                game,
                seat=seat,
                seed=3,
                iterations=12,
                paired=True,
                rollout="greedy",
                default="planner",
                z=1e9,
            )
            assert strict.act(state) == planner[seat].act(state)
            assert not strict.last_override
            checked += 1
        state.apply(planner[seat].act(state))
    assert checked >= 5


def test_a_game_sets_the_search_defaults_and_named_parameters_replace_them() -> None:
    game = tabletrek.load("mexican-train", players=2, rounds=1)
    assert game.search_defaults()["default"] == "planner"
    plain = game.bot("ismcts", seat=0, seed=1)
    assert isinstance(plain, SearchBot)
    # 400 Python playouts, or 8,000 compiled ones where numba is installed.
    compiled = game.search().paired is not None
    assert plain.paired and plain.default_bot is not None and plain.iterations == (8000 if compiled else 400)
    assert (plain.compiled is not None) == compiled
    named = game.bot("ismcts", seat=0, seed=1, ms=50, paired=False)
    assert isinstance(named, SearchBot)
    # Naming a budget drops the default one; naming a parameter replaces just that one.
    assert named.iterations is None and named.ms == 50 and not named.paired
    assert named.default_bot is not None
    assert Game.search(game).defaults == {}


def test_refuses_a_turn_not_its_own() -> None:
    state = midgame("touring")
    seat = state.current_player
    assert seat is not None
    with pytest.raises(ValueError, match="seat"):
        make_search_bot(state.game, seat=1 - seat, seed=0).act(state)


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"iterations": 0}, "iterations"),
        ({"ms": -1}, "ms"),
        ({"c": -0.1}, "c must"),
        ({"rollout": "genius"}, "rollout"),
        ({"rollout": "ismcts"}, "rollout"),
        ({"trust": -1}, "trust"),
        ({"depth": 3}, "no parameter"),
        ({"default": "genius"}, "default must"),
        ({"default": "ismcts"}, "default must"),
    ],
)
def test_bad_parameters_name_themselves(params: dict[str, object], match: str) -> None:
    game = tabletrek.load("touring", players=2)
    with pytest.raises(ValueError, match=match):
        make_search_bot(game, seat=0, seed=0, **params)


def test_offered_only_by_searchable_games() -> None:
    for name in tabletrek.games():
        game = tabletrek.load(name)
        assert ("ismcts" in game.bots()) == type(game).searchable
        if type(game).searchable:
            bot = game.bot("ismcts", seat=0, seed=1, iterations=3)
            assert isinstance(bot, SearchBot)
        else:
            with pytest.raises(ValueError, match="ismcts"):
                game.bot("ismcts", seat=0, seed=1)
    assert Game.searchable is False


def test_margin_rewards_stay_in_unit_range() -> None:
    game = tabletrek.load("touring", players=2)
    bot = make_search_bot(game, seat=0, seed=0, margin=True)
    state = game.new_game(seed=8)
    greedy = [game.bot("greedy", seat=s, seed=s) for s in range(2)]
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.apply(greedy[seat].act(state))
    rewards = bot._rollout(state)
    result = state.result
    assert result is not None
    winner = result.winners[0]
    assert all(0.0 <= r <= 1.0 for r in rewards)
    assert rewards[winner] == max(rewards) and rewards[winner] >= 0.5

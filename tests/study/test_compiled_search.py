"""The search's compiled paired playouts (``Game.paired_playouts``) against its Python ones."""

from __future__ import annotations

import math
import random

import pytest

import tabletrek
from tabletrek.bots.search import SearchBot, make_search_bot
from tabletrek.bots.search.stats import (
    bound_of_sums,
    lower_bound,
    pooled_variance,
    pooled_variance_of_sums,
)
from tabletrek.core.rng import make_rng
from tabletrek.games.touring import kernel

pytestmark = pytest.mark.skipif(not kernel.available(), reason="numba (extra [search]) is not installed")


def midgame(moves: int, seed: int) -> tabletrek.State:
    state = tabletrek.load("touring", players=2).new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_compiled_playouts_win_as_often_as_python_playouts() -> None:
    """Same worlds, same policy: each move's win rate agrees within sampling error."""
    state = midgame(moves=40, seed=2)
    seat = state.current_player
    assert seat is not None
    moves = [a.index for a in state.legal_actions()]
    assert len(moves) > 1
    compiled = state.game.paired_playouts()
    assert compiled is not None
    fast = compiled(state, seat, None, None)(moves, list(range(4000))).mean(axis=1)
    bot = make_search_bot(state.game, seat=seat, seed=0, paired=True, compiled=False)
    rng = make_rng(1)
    for row, move in enumerate(moves):
        wins = 0.0
        n = 200
        for _ in range(n):
            world = state.determinize(seat, rng)
            world.apply(state.game.action(move))
            wins += bot._rollout(world, make_rng(rng.getrandbits(63)))[seat]
        slow = wins / n
        error = math.sqrt(0.25 / n + 0.25 / 4000)
        assert abs(fast[row] - slow) < 4 * error, (move, fast[row], slow)


def test_compiled_playouts_are_used_only_where_they_play_the_same_game() -> None:
    game = tabletrek.load("touring", players=2)

    def uses(**params: object) -> bool:
        return make_search_bot(game, seat=0, seed=0, paired=True, **params).compiled is not None

    assert uses()
    assert not uses(compiled=False)
    assert not uses(margin=True)
    assert not uses(rollout="greedy")  # the named bot, not the fast policy
    assert make_search_bot(game, seat=0, seed=0).compiled is None  # the tree has no paired comparison
    mexican = tabletrek.load("mexican-train", players=2)
    assert mexican.search().paired_rollout == "greedy"  # greedy compiled, not a fast policy
    assert (
        make_search_bot(mexican, seat=0, seed=0, paired=True, rollout="greedy", margin=False).compiled is None
    )


def test_running_sums_give_the_listed_bounds() -> None:
    rng = random.Random(5)
    base = [float(rng.random() < 0.5) for _ in range(300)]
    rewards = {0: base, 1: [float(rng.random() < 0.6) for _ in range(300)], 2: [0.5] * 300}
    sums = {}
    for index in (1, 2):
        diffs = [v - b for v, b in zip(rewards[index], base, strict=True)]
        sums[index] = [len(diffs), sum(diffs), sum(d * d for d in diffs)]
    prior = pooled_variance(rewards, 0)
    assert pooled_variance_of_sums(sums.values()) == pytest.approx(prior)
    for index in (1, 2):
        expected = lower_bound(rewards[index], base, 2.0, prior)
        assert bound_of_sums(sums[index], prior, -2.0) == pytest.approx(expected)


def test_compiled_search_keeps_its_budget_and_is_reproducible() -> None:
    state = midgame(moves=30, seed=6)
    seat = state.current_player
    assert seat is not None
    picks = set()
    for _ in range(2):
        bot = make_search_bot(state.game, seat=seat, seed=11, iterations=500, paired=True, z=2.5)
        picks.add(bot.act(state).index)
        assert 0 < bot.last_iterations <= 500
    assert len(picks) == 1


def test_inference_feeds_the_belief_each_move_of_the_other_player() -> None:
    game = tabletrek.load("touring", players=2)
    state = game.new_game(seed=3)
    bot = make_search_bot(game, seat=1, seed=1, iterations=60, paired=True, infer=True)
    other = game.bot("greedy", seat=0, seed=0)
    assert bot.infer and bot.belief is not None
    replies = 0
    for _ in range(20):
        seat = state.current_player
        if seat == 0:
            state.apply(other.act(state))
            replies += 1
        else:
            state.apply(bot.act(state))
    # The opponent's first move came before the bot had a position to replay from.
    assert bot.belief.observed == replies - 1
    # A state from another game starts a new belief.
    fresh = game.new_game(seed=4)
    fresh.apply(fresh.legal_actions()[0])
    bot.act(fresh)
    assert bot.belief.observed == 0
    assert not make_search_bot(game, seat=1, seed=1, paired=True, infer=True, compiled=False).infer
    assert tabletrek.load("mexican-train", players=2).search().belief is None


def test_touring_searches_compiled_by_default_and_in_python_without_numba(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = tabletrek.load("touring", players=2)
    bot = game.bot("ismcts", seat=0, seed=1)
    assert isinstance(bot, SearchBot)
    assert bot.paired and bot.compiled is not None and bot.infer
    assert bot.rollout_depth == 40  # two players: the value network scores the cuts
    three = tabletrek.load("touring", players=3).bot("ismcts", seat=0, seed=1)
    assert isinstance(three, SearchBot) and three.rollout_depth == 60  # the logistic model does
    # Two threads where there are two cores: the same picks, sooner (see the threads test).
    monkeypatch.setattr("os.cpu_count", lambda: 1)
    assert game.search_defaults()["threads"] == 1
    monkeypatch.setattr("os.cpu_count", lambda: 8)
    assert game.search_defaults()["threads"] == 2
    monkeypatch.setattr(kernel, "HAVE_NUMBA", False)
    assert game.paired_playouts() is None and game.search_belief(0, 1) is None
    python = game.bot("ismcts", seat=0, seed=1)
    assert isinstance(python, SearchBot)
    assert not python.paired and python.compiled is None and not python.infer


def test_preparing_the_search_compiles_what_a_search_move_runs() -> None:
    from tabletrek.games.touring import worlds

    tabletrek.load("touring", players=2).prepare_search()
    assert worlds.observe_move.signatures
    assert worlds.paired_rewards.signatures


def test_threads_change_how_soon_a_move_comes_never_which_move() -> None:
    """Each world is dealt and played from its own seed, so splitting a batch over threads
    gives the same rewards in the same order, and the same picks move after move."""
    game = tabletrek.load("touring", players=2)
    state = game.new_game(seed=8)
    other = game.bot("greedy", seat=1, seed=0)
    bots = [
        make_search_bot(game, seat=0, seed=4, iterations=900, paired=True, infer=True, threads=n)
        for n in (1, 2, 3)
    ]
    compared = 0
    while not state.is_over and compared < 12:
        if state.current_player == 1:
            state.apply(other.act(state))
            continue
        picks = {bot.act(state).index for bot in bots}
        assert len(picks) == 1, picks
        assert len({bot.last_iterations for bot in bots}) == 1
        state.apply(game.action(picks.pop()))
        compared += 1
    assert compared == 12
    assert not state.is_over
    moves = [a.index for a in state.legal_actions()]
    seeds = list(range(50))
    prepare = game.paired_playouts()
    assert prepare is not None
    one, two = (prepare(state, 0, bot.belief, bot.rollout_depth) for bot in bots[:2])
    assert (bots[0]._playouts(one, moves, seeds) == bots[1]._playouts(two, moves, seeds)).all()


@pytest.mark.parametrize("threads", [0, -1, True, 1.5])
def test_threads_must_be_a_positive_integer(threads: object) -> None:
    game = tabletrek.load("touring", players=2)
    with pytest.raises(ValueError, match="threads"):
        make_search_bot(game, seat=0, seed=0, paired=True, threads=threads)

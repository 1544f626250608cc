"""Fast playout policies (``Game.rollout_policy``) and the search's paired root comparison."""

from __future__ import annotations

import random

import pytest

import tabletrek
from tabletrek.bots.search import make_search_bot
from tabletrek.bots.search.stats import lower_bound, paired_stats
from tabletrek.core.errors import UsageError
from tabletrek.core.game import Game
from tabletrek.games.touring.rollout import greedy_policy, scores
from tabletrek.games.touring.scoring import Seen
from tabletrek.games.touring.scoring import scores as shared_scores


def test_touring_policy_scores_every_move_as_greedy_does() -> None:
    game = tabletrek.load("touring", players=2)
    checked = 0
    for seed in range(3):
        state = game.new_game(seed=seed)
        greedy = [game.bot("greedy", seat=s, seed=s) for s in range(2)]
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            # The greedy bot reads its view, the playout policy the state: the same scores.
            seen = Seen.from_view(state.view(seat))
            expected = shared_scores(seen, legal, greedy[seat].w)
            assert [score for score, _ in scores(state, legal)] == expected
            checked += 1
            state.apply(rng.choice(legal))  # random play reaches positions greedy avoids
    assert checked > 300


def test_touring_policy_plays_a_best_scored_legal_move() -> None:
    game = tabletrek.load("touring", players=2)
    state = game.new_game(seed=5)
    rng = random.Random(0)
    while not state.is_over:
        legal = state.legal_actions()
        action = greedy_policy(state, rng)
        scored = scores(state, legal)
        best = max(score for score, _ in scored)
        assert action in legal
        assert {a.index: sc for sc, a in scored}[action.index] == best
        state.apply(action)


def test_games_offer_a_policy_only_when_they_have_one() -> None:
    assert tabletrek.load("touring").rollout_policy() is greedy_policy
    assert tabletrek.load("mexican-train").search().policy is None
    # "auto" falls back to random playouts where there is no policy.
    bot = make_search_bot(tabletrek.load("mexican-train", players=2), seat=0, seed=0, iterations=2)
    assert bot.policy is None
    assert Game.search(tabletrek.load("touring")).policy is None  # the base offers no search support


def midgame(moves: int = 12, seed: int = 4) -> tabletrek.State:
    game = tabletrek.load("touring", players=2)
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("compiled", [True, False])
def test_paired_search_is_legal_reproducible_and_leaves_the_state_alone(compiled: bool) -> None:
    state = midgame()
    seat = state.current_player
    assert seat is not None
    before = state.to_json()
    picks = []
    for _ in range(2):
        bot = make_search_bot(state.game, seat=seat, seed=7, iterations=30, paired=True, compiled=compiled)
        picks.append(bot.act(state))
        assert 0 < bot.last_iterations <= 30 + len(state.legal_actions())
    assert picks[0] == picks[1]
    assert picks[0] in state.legal_actions()
    assert state.to_json() == before


@pytest.mark.parametrize("compiled", [True, False])
def test_paired_search_keeps_the_policy_move_without_clear_evidence(compiled: bool) -> None:
    state = midgame(moves=20)
    seat = state.current_player
    assert seat is not None
    legal = state.legal_actions()
    bot = make_search_bot(
        state.game, seat=seat, seed=3, iterations=400, paired=True, z=100.0, compiled=compiled
    )
    best = max(score for score, _ in scores(state, legal))
    favourites = {a.index for score, a in scores(state, legal) if score == best}
    assert bot.act(state).index in favourites
    assert not bot.last_override


def test_paired_needs_a_policy() -> None:
    game = tabletrek.load("mexican-train", players=2)
    with pytest.raises(UsageError) as caught:
        make_search_bot(game, seat=0, seed=0, paired=True)
    assert caught.value.key == "core.error.paired_rollout"
    assert caught.value.params["known"] == ["greedy", "planner"]  # neither itself nor random play
    make_search_bot(game, seat=0, seed=0, paired=True, rollout="greedy")  # a named bot will do


def test_paired_bounds_distrust_a_few_lucky_worlds() -> None:
    # A move that won in all of four worlds where the default lost is not yet "clearly" better.
    mean, se = paired_stats([1.0] * 4, [0.0] * 4)
    assert mean == 1.0 and se >= 0.25
    assert lower_bound([1.0] * 4, [0.0] * 4, 2.0) <= 0.5
    assert lower_bound([1.0] * 40, [0.0] * 40, 2.0) > 0.8
    assert paired_stats([0.5, 0.5], [0.5, 0.5])[0] == 0.0


def test_touring_evaluation_is_a_value_in_range_that_favours_the_leader() -> None:
    from tabletrek.games.touring.rollout import EVAL_WEIGHTS, evaluate, features

    game = tabletrek.load("touring", players=2)
    assert game.evaluator() is evaluate
    assert tabletrek.load("codenames-duet").search().evaluate is None
    state = midgame(moves=40)
    assert len(features(state, 0)) == len(EVAL_WEIGHTS)
    for seat in range(2):
        assert -1.0 <= evaluate(state, seat) <= 1.0
    leader = state.clone()
    leader.miles = [[8, 4, 2, 1], [2, 0, 0, 0]]  # one 30 from the goal
    assert evaluate(leader, 0) > 0.3 > -0.3 > evaluate(leader, 1)


def test_double_crossing_evaluation_favours_contracts_and_the_way_home() -> None:
    from tabletrek.games.double_crossing.evaluation import EVAL_WEIGHTS, evaluate, features

    game = tabletrek.load("double-crossing", players=2)
    assert game.evaluator() is evaluate
    state = game.new_game(seed=4)
    bots = [game.bot("trader", seat=s, seed=s) for s in range(2)]
    for _ in range(60):
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(state))
    assert len(features(state, 0)) == len(EVAL_WEIGHTS)
    assert all(-1.0 <= evaluate(state, seat) <= 1.0 for seat in range(2))
    ahead = state.clone()
    ahead.owner = [0] * 6 + [1] + [-1] * (len(ahead.owner) - 7)
    assert evaluate(ahead, 0) > 0.3 > -0.3 > evaluate(ahead, 1)
    size = ahead.content.size
    near, far = ahead.clone(), ahead.clone()
    near.pos = [size - 2, 0]  # six contracts, two steps from home
    far.pos = [2, 0]
    assert evaluate(near, 0) > evaluate(far, 0)


def test_mexican_train_playouts_stop_with_their_round_and_score_the_match() -> None:
    from tabletrek.games.mexican_train.evaluation import evaluate, horizon, projected

    game = tabletrek.load("mexican-train", players=2, rounds=3)
    assert game.search_horizon() is horizon and game.evaluator() is evaluate
    state = game.new_game(seed=2)
    planner = [game.bot("planner", seat=s, seed=s) for s in range(2)]
    while horizon(state) == 0:
        seat = state.current_player
        assert seat is not None
        state.apply(planner[seat].act(state))
    totals = list(state.totals)
    assert projected(state) == [float(t) for t in totals], "a fresh deal adds nothing"
    leader = min(range(2), key=lambda s: totals[s])
    if totals[0] != totals[1]:
        assert evaluate(state, leader) > 0 > evaluate(state, 1 - leader)
    # A playout that starts in round 2 stops when round 2 is over, not at the end of the match.
    bot = make_search_bot(game, seat=0, seed=0, rollout="planner")
    trial = state.clone()
    rewards = bot._rollout(trial)
    assert not trial.is_over and horizon(trial) == 2
    assert rewards == [(1 + evaluate(trial, s)) / 2 for s in range(2)]


def test_cut_playouts_are_scored_by_the_evaluator() -> None:
    state = midgame(moves=10)
    bot = make_search_bot(state.game, seat=0, seed=0, rollout_depth=0)
    rewards = bot._rollout(state.clone())
    evaluator = state.game.evaluator()
    assert evaluator is not None
    assert rewards == [(1 + evaluator(state, s)) / 2 for s in range(2)]
    bot.evaluate = None  # a game with no evaluator: a cut playout is a draw
    assert bot._rollout(state.clone()) == [0.5, 0.5]

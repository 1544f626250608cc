"""The compiled Touring (``kernel.py``) plays the same game and the same greedy policy as Python."""

from __future__ import annotations

import random

import numpy as np
import pytest

import tabletrek
from tabletrek.games.touring import kernel as K
from tabletrek.games.touring.rollout import scores
from tabletrek.games.touring.state import TouringState

pytestmark = pytest.mark.skipif(not K.available(), reason="numba (extra [search]) is not installed")


def hidden_total(s: np.ndarray) -> np.ndarray:
    """Cards per type in the hands and the draw pile together (what a reshuffle's draw moves)."""
    draw = s[K.DRAW : K.DRAW + s[K.DRAW_N]]
    hands = s[K.HANDS : K.HANDS + K.MAX_PLAYERS * K.C].reshape(K.MAX_PLAYERS, K.C).sum(axis=0)
    return np.bincount(draw, minlength=K.C) + hands


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {}), (4, {}), (5, {}), (6, {}), (2, {"country_first": True})],
)
def test_kernel_rules_and_scores_follow_python_move_for_move(players: int, options: dict[str, bool]) -> None:
    game = tabletrek.load("touring", players=players, **options)
    weights = K.weights_array()
    legal = np.empty(K.MAX_LEGAL, dtype=np.int64)
    rng = random.Random(players)
    checked = reshuffles = 0
    for seed in range(12 if players == 2 else 4):
        state = game.new_game(seed=seed)
        assert isinstance(state, TouringState)
        cfg = K.config(state)
        while not state.is_over:
            packed = K.pack(state)
            actions = state.legal_actions()
            n = K.legal_actions(packed, cfg, legal)
            assert list(legal[:n]) == [a.index for a in actions]
            expected = [value for value, _ in scores(state, actions)]
            assert [K.score(packed, cfg, weights, a.index) for a in actions] == pytest.approx(expected)
            reshuffling = not state.draw
            action = rng.choice(actions)  # random play reaches positions greedy avoids
            state.apply(action)
            K.apply(packed, cfg, action.index)
            after = K.pack(state)
            if reshuffling:
                # The new draw pile's order (and so the card just drawn) is the shuffle's own.
                reshuffles += 1
                assert (packed[K.GO_TOP : K.DRAW] == after[K.GO_TOP : K.DRAW]).all()
                assert (hidden_total(packed) == hidden_total(after)).all()
            else:
                end = K.DRAW + after[K.DRAW_N]
                assert (packed[:end] == after[:end]).all()
            checked += 1
    assert checked > (1000 if players == 2 else 400)
    assert reshuffles > 0


def test_kernel_greedy_move_is_a_best_scored_legal_move() -> None:
    game = tabletrek.load("touring", players=2)
    weights = K.weights_array()
    legal = np.empty(K.MAX_LEGAL, dtype=np.int64)
    state = game.new_game(seed=3)
    assert isinstance(state, TouringState)
    cfg = K.config(state)
    rng = random.Random(0)
    for _ in range(200):
        if state.is_over:
            break
        actions = state.legal_actions()
        packed = K.pack(state)
        move = K.greedy_move(packed, cfg, weights, legal)
        values = {a.index: v for v, a in scores(state, actions)}
        assert values[move] == max(values.values())
        state.apply(rng.choice(actions))


def test_the_state_generator_draws_evenly_and_travels_with_a_copy() -> None:
    s = np.zeros(K.SIZE, dtype=np.int32)
    K.seed(s, 2026)
    copy = s.copy()
    counts = np.zeros(6, dtype=np.int64)
    first = []
    for i in range(60000):
        value = K.draw_below(s, 6)
        counts[value] += 1
        if i < 50:
            first.append(value)
        assert s[K.RNG] != 0  # xorshift's only absorbing state
    # 10,000 expected per value; a fair die strays by more than 5% about once in 10^20 runs.
    assert (abs(counts - 10000) < 500).all(), counts
    assert [K.draw_below(copy, 6) for _ in range(50)] == first
    other = np.zeros(K.SIZE, dtype=np.int32)
    K.seed(other, 2027)
    assert [K.draw_below(other, 6) for _ in range(50)] != first


def test_a_copied_state_plays_on_as_the_original_through_reshuffles() -> None:
    """The paired playouts' common random numbers: a copy of a world replays it exactly."""
    game = tabletrek.load("touring", players=2)
    state = game.new_game(seed=11)
    assert isinstance(state, TouringState)
    cfg = K.config(state)
    weights = K.weights_array()
    legal = np.empty(K.MAX_LEGAL, dtype=np.int64)
    endings = []
    for value in (5, 5, 6):
        s = K.pack(state)
        K.seed(s, value)
        reshuffled = False
        while s[K.ENDED] == 0:
            before = s[K.DRAW_N]
            K.apply(s, cfg, K.greedy_move(s, cfg, weights, legal))
            reshuffled |= before == 0 and s[K.DRAW_N] > 0
        assert reshuffled
        endings.append(s)
    assert (endings[0] == endings[1]).all()
    assert (endings[0] != endings[2]).any()

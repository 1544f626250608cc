"""The compiled Touring (``kernel.py``) plays the same game and the same greedy policy as Python."""

from __future__ import annotations

import random

import numpy as np
import pytest

import tabletrek
from tabletrek.games.touring import kernel as K
from tabletrek.games.touring.cards import CODE
from tabletrek.games.touring.rollout import scores
from tabletrek.games.touring.rules import TouringState
from tests.touring.helpers import position

pytestmark = pytest.mark.skipif(not K.available(), reason="numba (extra [search]) is not installed")


def hidden_total(s: np.ndarray) -> np.ndarray:
    """Cards per type in the hands and the draw pile together (what a reshuffle's draw moves)."""
    draw = s[K.DRAW : K.DRAW + s[K.DRAW_N]]
    hands = s[K.HANDS : K.HANDS + K.MAX_PLAYERS * K.C].reshape(K.MAX_PLAYERS, K.C).sum(axis=0)
    return np.bincount(draw, minlength=K.C) + hands


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_kernel_rules_and_scores_follow_python_move_for_move(players: int) -> None:
    game = tabletrek.load("touring", players=players)
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


def test_a_dealt_world_keeps_what_the_seat_knows_and_hides_the_rest() -> None:
    game = tabletrek.load("touring", players=2)
    state = game.new_game(seed=8)
    assert isinstance(state, TouringState)
    for _ in range(30):
        state.apply(state.legal_actions()[0])
    cfg = K.config(state)
    seat = state.current_player
    assert seat is not None
    known = K.pack(state, seat)
    pool, sizes = K.unseen(state, seat)
    # What the seat cannot see is absent from its packed state: the other hand and the draw pile.
    assert known[K.DRAW_N] == 0
    assert known[K.HANDS + (1 - seat) * K.C : K.HANDS + (2 - seat) * K.C].sum() == 0
    world = np.empty_like(known)
    opponent_hands = set()
    for seed in range(20):
        np.random.seed(seed)
        K.deal(known, seat, pool, sizes, cfg, world)
        # The public piles, counts and turn are the real ones.
        assert (world[K.GO_TOP : K.DRAW_N] == K.pack(state)[K.GO_TOP : K.DRAW_N]).all()
        assert (
            world[K.HANDS + seat * K.C : K.HANDS + (seat + 1) * K.C]
            == known[K.HANDS + seat * K.C : K.HANDS + (seat + 1) * K.C]
        ).all()
        assert world[K.HANDS + (1 - seat) * K.C : K.HANDS + (2 - seat) * K.C].sum() == sizes[1 - seat]
        assert (hidden_total(world) - hidden_total(known) == np.bincount(pool, minlength=K.C)).all()
        opponent_hands.add(world[K.HANDS + (1 - seat) * K.C : K.HANDS + (2 - seat) * K.C].tobytes())
    assert len(opponent_hands) > 10


def test_paired_rewards_use_common_random_numbers() -> None:
    game = tabletrek.load("touring", players=2)
    state = game.new_game(seed=4)
    assert isinstance(state, TouringState)
    seat = state.current_player
    assert seat is not None
    move = state.legal_actions()[0].index
    seeds = list(range(200))
    # The same move twice in one call, and again in another call: identical results world by world.
    first = K.paired_playouts(state, seat, [move, move], seeds)
    again = K.paired_playouts(state, seat, [move, move], seeds)
    assert (first[0] == first[1]).all()
    assert (first == again).all()
    # Rewards are wins and losses, and both happen.
    assert set(np.unique(first)) <= {0.0, 0.5, 1.0}
    assert 0.2 < first[0].mean() < 0.8


def test_worlds_follow_a_greedy_opponents_discard() -> None:
    """An opponent stopped by Out of Gasoline who discarded held nothing it could play (no
    Gasoline, no hazard for the moving player, no Country): hands with one cannot explain the move
    and are dealt again. (A hand with nothing playable must also make the 30 its likeliest
    discard.)"""
    state = position(
        hands={0: ["1", "3", "15", "go", "country"], 1: ["1", "1", "3", "3", "15"]},
        go={0: ["go"], 1: ["go", "out-of-gasoline"]},
        to_act=1,
    )
    seat = 0
    before = state.clone()
    before.hands[1].append(CODE["30"])  # what the opponent drew; it cannot play it while stopped
    discard = before.parse("discard 30")
    before_packed = K.pack(before, seat)
    after = before.clone()
    after.apply(discard)
    cfg = K.config(after)
    known = K.pack(after, seat)
    pool, sizes = K.unseen(after, seat)
    weights = K.weights_array()
    world = np.empty_like(known)
    scratch = np.empty_like(known)
    legal = np.empty(K.MAX_LEGAL, dtype=np.int64)
    cards = pool.copy()
    kept = refused = 0
    for seed in range(300):
        np.random.seed(seed)
        world[:] = known
        K.deal_hands(world, seat, cards, sizes, cfg)
        hand = world[K.HANDS + K.C : K.HANDS + 2 * K.C]
        fits = K.plausible(world, before_packed, cfg, weights, discard.index, scratch, legal)
        playable = hand[CODE["gasoline"]] + hand[CODE["out-of-gasoline"]] + hand[CODE["puncture"]]
        playable += hand[CODE["collision"]] + hand[CODE["country"]]
        if playable:
            assert not fits
        kept += fits
        refused += not fits
    assert kept > 0 and refused > 0

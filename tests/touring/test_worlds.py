"""The search's compiled worlds (``worlds.py``): dealing, paired playouts and the hand belief."""

from __future__ import annotations

import numpy as np
import pytest

import tabletrek
from tabletrek.games.touring import evaluation as E
from tabletrek.games.touring import kernel as K
from tabletrek.games.touring import worlds as W
from tabletrek.games.touring.cards import CODE
from tabletrek.games.touring.state import TouringState
from tests.touring.helpers import position

pytestmark = pytest.mark.skipif(not K.available(), reason="numba (extra [search]) is not installed")


def hand_of(world: np.ndarray, seat: int) -> np.ndarray:
    return world[K.HANDS + seat * K.C : K.HANDS + (seat + 1) * K.C]


def hidden_total(s: np.ndarray) -> np.ndarray:
    draw = s[K.DRAW : K.DRAW + s[K.DRAW_N]]
    hands = s[K.HANDS : K.HANDS + K.MAX_PLAYERS * K.C].reshape(K.MAX_PLAYERS, K.C).sum(axis=0)
    return np.bincount(draw, minlength=K.C) + hands


def midgame(seed: int, moves: int = 30) -> TouringState:
    state = tabletrek.load("touring", players=2).new_game(seed=seed)
    assert isinstance(state, TouringState)
    for _ in range(moves):
        state.apply(state.legal_actions()[0])
    return state


def deal(state: TouringState, seat: int, particles: np.ndarray, seed: int) -> np.ndarray:
    known = K.pack(state, seat)
    pool, sizes = K.unseen(state, seat)
    world = np.empty_like(known)
    np.random.seed(seed)
    counts = np.bincount(pool, minlength=K.C).astype(np.int64)
    free = np.zeros(K.C, dtype=np.int64)
    W.deal(world, known, seat, pool, counts, sizes, particles, K.config(state), free, pool.copy())
    return world


def test_a_dealt_world_keeps_what_the_seat_knows_and_hides_the_rest() -> None:
    state = midgame(seed=8)
    seat = state.current_player
    assert seat is not None
    known = K.pack(state, seat)
    pool, sizes = K.unseen(state, seat)
    # What the seat cannot see is absent from its packed state: the other hand and the draw pile.
    assert known[K.DRAW_N] == 0
    assert hand_of(known, 1 - seat).sum() == 0
    opponent_hands = set()
    for seed in range(20):
        world = deal(state, seat, W.NO_PARTICLES, seed)
        assert (world[K.GO_TOP : K.DRAW_N] == K.pack(state)[K.GO_TOP : K.DRAW_N]).all()
        assert (hand_of(world, seat) == hand_of(known, seat)).all()
        assert hand_of(world, 1 - seat).sum() == sizes[1 - seat]
        assert (hidden_total(world) - hidden_total(known) == np.bincount(pool, minlength=K.C)).all()
        opponent_hands.add(hand_of(world, 1 - seat).tobytes())
    assert len(opponent_hands) > 10


def test_paired_playouts_use_common_random_numbers() -> None:
    state = midgame(seed=4, moves=0)
    seat = state.current_player
    assert seat is not None
    move = state.legal_actions()[0].index
    seeds = list(range(200))
    # The same move twice in one call, and again in another call: identical results world by world.
    first = W.paired_playouts(state, seat, [move, move], seeds)
    again = W.paired_playouts(state, seat, [move, move], seeds)
    assert (first[0] == first[1]).all()
    assert (first == again).all()
    assert set(np.unique(first)) <= {0.0, 0.5, 1.0}
    assert 0.2 < first[0].mean() < 0.8


def stopped_discard() -> tuple[TouringState, TouringState, object]:
    """The opponent (seat 1), stopped by Out of Gasoline, discards a 30: a greedy player does that
    only holding nothing it can play (no Gasoline, no hazard for the moving seat 0, no Country)."""
    before = position(
        hands={0: ["1", "3", "15", "go", "country"], 1: ["1", "1", "3", "3", "15", "30"]},
        go={0: ["go"], 1: ["go", "out-of-gasoline"]},
        to_act=1,
    )
    discard = before.parse("discard 30")
    after = before.clone()
    after.apply(discard)
    return before, after, discard


PLAYABLE = ("gasoline", "out-of-gasoline", "puncture", "collision", "country")


def test_would_play_reads_a_greedy_discard() -> None:
    before, _, discard = stopped_discard()
    packed = K.pack(before, 0)
    cfg = K.config(before)
    scratch = np.empty_like(packed)
    legal = np.empty(K.MAX_LEGAL, dtype=np.int64)

    def explains(*cards: str) -> bool:
        hand = np.zeros(K.C, dtype=np.int32)
        for card in cards:
            hand[CODE[card]] += 1
        return bool(W.would_play(packed, hand, cfg, K.WEIGHTS, discard.index, scratch, legal))

    assert explains("1", "1", "3", "3", "15", "30")  # the real hand
    for card in PLAYABLE:
        assert not explains("1", "1", "3", "3", card, "30")
    # Holding a card it needs less than the 30 (a 15 beyond the two it may play), it discards that.
    assert not explains("1", "3", "15", "15", "15", "30")


def test_the_belief_keeps_only_hands_that_explain_the_move() -> None:
    before, after, discard = stopped_discard()
    belief = W.HandBelief(seat=0, seed=3, particles=400)
    belief.observe(before, discard)
    assert belief.explained > 0
    hands = belief.particles[:, 1, :]
    assert (hands.sum(axis=1) == 5).all()  # the discarded card is gone from every particle
    explained = [h for h in hands if not any(h[CODE[c]] for c in PLAYABLE)]
    # Survivors and their copies explain the discard; only the fresh share (10%) may not.
    assert len(explained) >= 0.85 * len(hands)
    # Worlds are dealt from the particles: the opponent's hand is one of them, the rest the draw.
    pool, _ = K.unseen(after, 0)
    known = K.pack(after, 0)
    for seed in range(10):
        world = deal(after, 0, belief.particles, seed)
        assert any((hand_of(world, 1) == h).all() for h in hands)
        assert (hidden_total(world) - hidden_total(known) == np.bincount(pool, minlength=K.C)).all()


def test_every_particle_stays_a_possible_hand_even_against_a_player_who_is_not_greedy() -> None:
    """Seat 1 plays at random, so some of its moves explain nothing; after each, every particle
    still holds a hand of the real size made of cards seat 0 could not see."""
    state = tabletrek.load("touring", players=2).new_game(seed=12)
    assert isinstance(state, TouringState)
    belief = W.HandBelief(seat=0, seed=2, particles=200)
    rng = np.random.default_rng(0)
    unexplained = 0
    while belief.observed < 60 and not state.is_over:
        legal = state.legal_actions()
        if state.current_player == 0:
            state.apply(legal[0])
            continue
        action = legal[int(rng.integers(len(legal)))]
        pool, sizes = K.unseen(state, 0)
        belief.observe(state, action)
        unexplained += belief.explained == 0
        hands = belief.particles[:, 1, :]
        after = sizes[1] - (action.text != "pass")
        assert (hands.sum(axis=1) == after).all()
        assert (hands <= np.bincount(pool, minlength=K.C)).all()
        state.apply(action)
    assert belief.observed == 60
    assert unexplained > 0  # random play did what no greedy hand explains, and the belief went on


@pytest.mark.parametrize("players", [2, 3])
def test_cut_playouts_are_scored_as_the_python_evaluation_scores_them(players: int) -> None:
    """Two players: the value network, compiled and in numpy; more: the logistic model."""
    game = tabletrek.load("touring", players=players)
    state = game.new_game(seed=2)
    assert isinstance(state, TouringState)
    rng = np.random.default_rng(1)
    scratch = np.empty(E.SCRATCH)
    checked = 0
    while not state.is_over and checked < 150:
        packed = K.pack(state)
        cfg = K.config(state)
        for seat in range(players):
            expected = (1 + game.evaluator()(state, seat)) / 2
            assert E.cut_value(packed, cfg, seat, E.network(), scratch) == pytest.approx(expected)
            if players > 2:
                assert E.logistic(packed, cfg, seat) == pytest.approx(expected)
        checked += 1
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    assert checked > 100


def test_cut_playouts_are_scored_between_a_loss_and_a_win() -> None:
    state = midgame(seed=5, moves=10)
    seat = state.current_player
    assert seat is not None
    moves = [a.index for a in state.legal_actions()]
    cut = W.paired_playouts(state, seat, moves, list(range(100)), None, 5)
    assert ((cut > 0) & (cut < 1)).mean() > 0.9  # after 5 moves hardly any game is over
    full = W.paired_playouts(state, seat, moves, list(range(100)), None, None)
    assert set(np.unique(full)) <= {0.0, 0.5, 1.0}

"""Invariants over random games: conservation, replay, JSON, illegal moves, views, clones."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import tabletrek
from tabletrek import IllegalAction, State
from tabletrek.games.touring.cards import CODE
from tabletrek.games.touring.rules import NUM_ACTIONS, hand_kinds
from tabletrek.games.touring.state import TouringState

PLAYERS = st.sampled_from([2, 3, 4, 6])
SEEDS = st.integers(min_value=0, max_value=2**31)


def random_game(players: int, seed: int, steps: int, **options: object) -> TouringState:
    state = tabletrek.load("touring", players=players, **options).new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    assert isinstance(state, TouringState)
    return state


@settings(max_examples=25, deadline=None)
@given(players=PLAYERS, seed=SEEDS, free=st.booleans())
def test_every_card_is_in_exactly_one_place_after_every_action(players: int, seed: int, free: bool) -> None:
    state = tabletrek.load("touring", players=players, free_discard=free).new_game(seed=seed)
    assert isinstance(state, TouringState)
    deck = list(state.game.deck_counts)
    rng = random.Random(seed)
    while not state.is_over:
        assert state.card_counts() == deck
        state.apply(rng.choice(state.legal_actions()))
    assert state.card_counts() == deck


def held_matches_hands(state: TouringState) -> bool:
    return state.held == [hand_kinds(hand) for hand in state.hands]


@settings(max_examples=20, deadline=None)
@given(players=st.sampled_from([2, 3, 4, 5, 6]), seed=SEEDS, free=st.booleans())
def test_each_seats_card_types_follow_its_hand(players: int, seed: int, free: bool) -> None:
    """``held`` is kept by the moves rather than read off the hands, so it must follow every
    play, discard, draw and reshuffle, and every copy of the state."""
    state = tabletrek.load("touring", players=players, free_discard=free).new_game(seed=seed)
    assert isinstance(state, TouringState)
    rng = random.Random(seed)
    while not state.is_over:
        assert held_matches_hands(state)
        state.apply(rng.choice(state.legal_actions()))
        if rng.random() < 0.05:
            copies = [state.clone(), State.from_json(state.to_json()), state.determinize(0, rng)]
            for copy in copies:
                assert isinstance(copy, TouringState)
                assert held_matches_hands(copy)
    assert held_matches_hands(state)


@settings(max_examples=20, deadline=None)
@given(players=PLAYERS, seed=SEEDS, steps=st.integers(0, 400))
def test_replaying_the_record_gives_the_identical_state(players: int, seed: int, steps: int) -> None:
    state = random_game(players, seed, steps)
    record = state.record()
    assert tabletrek.replay(record).to_json() == state.to_json()
    assert tabletrek.replay(record.to_json()).to_json() == state.to_json()


@settings(max_examples=20, deadline=None)
@given(players=PLAYERS, seed=SEEDS, steps=st.integers(0, 400))
def test_json_round_trip_is_exact_and_the_game_continues_identically(
    players: int, seed: int, steps: int
) -> None:
    state = random_game(players, seed, steps)
    copy = State.from_json(state.to_json())
    assert copy.to_json() == state.to_json()
    rng_a, rng_b = random.Random(1), random.Random(1)
    for _ in range(30):
        if state.is_over:
            break
        a = rng_a.choice(state.legal_actions())
        b = rng_b.choice(copy.legal_actions())
        assert a == b
        assert [e.for_viewer(0) for e in state.apply(a)] == [e.for_viewer(0) for e in copy.apply(b)]
    assert copy.to_json() == state.to_json()


@settings(max_examples=20, deadline=None)
@given(players=PLAYERS, seed=SEEDS, steps=st.integers(0, 300))
def test_an_illegal_action_changes_nothing(players: int, seed: int, steps: int) -> None:
    state = random_game(players, seed, steps)
    if state.is_over:
        return
    before = state.to_json()
    legal = {a.index for a in state.legal_actions()}
    game = state.game
    for index in range(NUM_ACTIONS):
        if index in legal or not game._actions[index].text:
            continue
        action = game.action(index)
        try:
            state.apply(action)
        except IllegalAction as exc:
            assert exc.reason
        else:
            raise AssertionError(f"{action.text} was accepted but is not legal")
        try:
            state.apply(action.text)
        except IllegalAction as exc:
            assert exc.reason
        else:
            raise AssertionError(f"{action.text!r} was accepted as text but is not legal")
        assert state.to_json() == before


@settings(max_examples=20, deadline=None)
@given(players=PLAYERS, seed=SEEDS, steps=st.integers(0, 300), rng_seed=SEEDS)
def test_views_do_not_depend_on_hidden_cards(players: int, seed: int, steps: int, rng_seed: int) -> None:
    state = random_game(players, seed, steps)
    rng = random.Random(rng_seed)
    for seat in range(players):
        view = state.view(seat)
        for _ in range(3):
            other = state.determinize(seat, rng)
            assert other.view(seat) == view
            assert isinstance(other, TouringState)
            assert other.card_counts() == state.card_counts()
        assert state.public_view() == state.determinize(seat, rng).public_view()


def test_determinize_does_resample_hidden_cards() -> None:
    state = random_game(2, 11, 10)
    rng = random.Random(0)
    samples = {tuple(sorted(state.determinize(0, rng).hands[1])) for _ in range(20)}
    assert len(samples) > 1


def test_views_hold_no_other_hand_and_public_view_holds_none() -> None:
    state = random_game(4, 3, 20)
    view = state.view(1)
    assert view["hand"] == sorted(view["hand"], key=CODE.__getitem__)  # in card order
    assert len(view["hand"]) == len(state.hands[1])
    assert state.public_view()["hand"] is None
    assert "draw" not in view and "hands" not in view
    assert view["draw_pile"] == len(state.draw)


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, steps=st.integers(0, 200))
def test_clone_is_independent(seed: int, steps: int) -> None:
    state = random_game(2, seed, steps)
    snapshot = state.to_json()
    copy = state.clone()
    rng = random.Random(seed)
    while not copy.is_over:
        copy.apply(rng.choice(copy.legal_actions()))
    assert state.to_json() == snapshot

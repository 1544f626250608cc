"""Property tests: conservation of money, cars, cards and contracts after every action; replay and
JSON round trips; illegal actions change nothing; views leak no hand and no deck order."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tabletrek
from tabletrek import IllegalAction
from tabletrek.core.bots import Bot
from tabletrek.games.double_crossing.state import DoubleCrossingState
from tests.contract import advance, assert_exact_round_trips

from .positions import conserved

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

configs = st.sampled_from(
    [
        {"players": 4, "max_rounds": 60},
        {"players": 2, "max_rounds": 40, "exact_return": True},
        {"players": 3, "max_rounds": 40, "connections_needs_cars": False},
        {"players": 5, "max_rounds": 30, "stops_per_turn": 2},
        {"players": 6, "max_rounds": 30},
    ]
)


def new_state(config: dict[str, Any], seed: int) -> DoubleCrossingState:
    config = dict(config)
    players = config.pop("players")
    state = tabletrek.load("double-crossing", players=players, **config).new_game(seed=seed)
    assert isinstance(state, DoubleCrossingState)
    return state


def lineup(state: DoubleCrossingState, rng: random.Random) -> list[Bot | None]:
    """A mix of trader bots (which finish games) and uniformly random moves (None)."""
    game = state.game
    return [
        game.bot("trader", seat=s, seed=rng.randrange(2**32)) if rng.random() < 0.5 else None
        for s in range(game.players)
    ]


def step(state: DoubleCrossingState, bots: list[Bot | None], rng: random.Random) -> None:
    seat = state.current_player
    assert seat is not None
    bot = bots[seat]
    state.apply(bot.act(state) if bot is not None else rng.choice(state.legal_actions()))


@SETTINGS
@given(config=configs, seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_money_cars_cards_and_contracts_are_conserved_after_every_action(config, seed, choices):
    state = new_state(config, seed)
    rng = random.Random(choices)
    bots = lineup(state, rng)
    contracts = len(state.content.contracts)
    while not state.is_over:
        conserved(state)
        assert len(state.owner) == contracts and all(-1 <= o < state.players for o in state.owner)
        assert (
            all(sum(rack) <= state.content.rack_limit for rack in state.cars) or state.pending["k"] == "rack"
        )
        step(state, bots, rng)
    conserved(state)
    result = state.result
    assert result is not None and (state.winner is None) == (result.winners == ())


@SETTINGS
@given(config=configs, seed=st.integers(0, 2**32), choices=st.integers(0, 2**32), stop=st.integers(0, 600))
def test_replay_and_json_round_trip_are_exact(config, seed, choices, stop):
    state = new_state(config, seed)
    rng = random.Random(choices)
    bots = lineup(state, rng)
    advance(state, stop, lambda s: step(s, bots, rng))
    assert_exact_round_trips(state, rng)


@SETTINGS
@given(config=configs, seed=st.integers(0, 2**32), choices=st.integers(0, 2**32), stop=st.integers(0, 300))
def test_illegal_actions_leave_the_state_unchanged(config, seed, choices, stop):
    state = new_state(config, seed)
    rng = random.Random(choices)
    bots = lineup(state, rng)
    advance(state, stop, lambda s: step(s, bots, rng))
    before = state.to_json()
    legal = {a.text for a in state.legal_actions()}
    game = state.game
    for _ in range(15):
        action = game.action(rng.randrange(game.num_actions))
        if action.text in legal:
            continue
        for attempt in (action, action.text):
            try:
                state.apply(attempt)
            except IllegalAction as exc:
                assert exc.key.startswith(("double_crossing.illegal.", "core.illegal."))
                assert exc.message("zh-Hant") and exc.message("en")
            else:
                raise AssertionError(f"{action.text!r} was applied though not legal")
            assert state.to_json() == before
    for junk in ("", "roll twice", "trade nobody-9", "move p9 3", "go 99"):
        with pytest.raises(IllegalAction):
            state.apply(junk)
        assert state.to_json() == before


@SETTINGS
@given(config=configs, seed=st.integers(0, 2**32), choices=st.integers(0, 2**32), stop=st.integers(0, 400))
def test_views_are_identical_across_determinizations(config, seed, choices, stop):
    state = new_state(config, seed)
    rng = random.Random(choices)
    bots = lineup(state, rng)
    advance(state, stop, lambda s: step(s, bots, rng))
    for seat in range(state.players):
        view = state.view(seat)
        json.dumps(view)
        assert view["hand"] == dict(
            zip(("crew", "villain", "engineer", "stop"), state.hands[seat], strict=True)
        )
        assert "draw" not in view and "hands" not in view  # no other hand, no deck order
        for k in range(3):
            other = state.determinize(seat, random.Random(k))
            assert isinstance(other, DoubleCrossingState)
            assert other.view(seat) == view
            conserved(other)
            if state.current_player == seat:
                assert [a.text for a in other.legal_actions()] == [a.text for a in state.legal_actions()]
            if not other.is_over:
                # A determinized state is a consistent game: whoever is to act can go on from it.
                other.apply(random.Random(k).choice(other.legal_actions()))
                conserved(other)
                assert all(n >= 0 for hand in other.hands for n in hand)
    public = state.public_view()
    json.dumps(public)
    assert public["hand"] is None and public["hand_counts"] == [sum(h) for h in state.hands]


def test_trader_beats_random_decisively() -> None:
    wins = 0
    games = 12
    for i in range(games):
        game = tabletrek.load("double-crossing", players=4)
        state = game.new_game(seed=i)
        trader_seat = i % 4
        bots = [
            game.bot("trader" if s == trader_seat else "random", seat=s, seed=i * 10 + s) for s in range(4)
        ]
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].act(state))
        wins += state.result is not None and state.result.winners == (trader_seat,)
    assert wins >= 10


def test_trader_games_end_and_use_every_space_and_card() -> None:
    """A small, seeded version of the balance run (benchmarks/double_crossing_balance.py)."""
    from tabletrek.games.double_crossing.content import KINDS

    landed: set[str] = set()
    played = [0, 0, 0, 0]
    for seed in range(8):
        game = tabletrek.load("double-crossing", players=4)
        state = game.new_game(seed=seed)
        assert isinstance(state, DoubleCrossingState)
        bots = [game.bot("trader", seat=s, seed=seed * 10 + s) for s in range(4)]
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].act(state))
        assert state.winner is not None and state.rounds < state.game.max_rounds
        assert (
            state.owner.count(state.winner) >= state.content.contracts_to_win and state.pos[state.winner] == 0
        )
        landed |= set(state.landed)
        played = [a + b for a, b in zip(played, state.played, strict=True)]
    assert landed == set(KINDS)
    assert all(played)


@SETTINGS
@given(config=configs, seed=st.integers(0, 2**32), choices=st.integers(0, 2**32), stop=st.integers(0, 400))
def test_legal_moves_are_exactly_the_moves_the_pending_check_allows(config, seed, choices, stop):
    """One copy of the rules: the legal moves are the moves (of every kind the game has) that the
    pending step's check lets through, and every other move is refused with that check's reason."""
    state = new_state(config, seed)
    rng = random.Random(choices)
    for _ in range(stop):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    step = state.pending_step
    if step is None:
        return
    game = state.game
    allowed = set()
    for action in game.actions:
        kind, a, b = game.decode[action.index]
        if kind in step.answers and step.check(state, kind, a, b) is None:
            allowed.add(action.text)
    assert {a.text for a in state.legal_actions()} == allowed
    refused = next((a for a in game.actions if a.text not in allowed), None)
    if refused is not None:
        kind, a, b = game.decode[refused.index]
        with pytest.raises(IllegalAction) as info:
            state.apply(refused.text)
        assert info.value.key == step.refusal(state, kind, a, b).key

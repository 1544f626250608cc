"""Property tests: conservation, replay, JSON round trips, illegal moves, and no leak into views."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tabletrek
from tabletrek import IllegalAction
from tabletrek.games.mexican_train.rules import play_problem, turn_problems
from tabletrek.games.mexican_train.state import MexicanTrainState
from tests.contract import advance, assert_exact_round_trips

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

configs = st.sampled_from(
    [
        {"players": 4, "rounds": 2},
        {"players": 2, "engine": 3},
        {"players": 6, "rounds": 1, "relaxed_doubles": True},
        {"players": 3, "set_size": 9, "rounds": 2, "rotate_start": True},
        {"players": 10, "rounds": 1, "double_blank_points": 50},
    ]
)


def new_state(config: dict, seed: int) -> MexicanTrainState:
    config = dict(config)
    players = config.pop("players")
    state = tabletrek.load("mexican-train", players=players, **config).new_game(seed=seed)
    assert isinstance(state, MexicanTrainState)
    return state


@SETTINGS
@given(config=configs, seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_every_tile_is_in_exactly_one_place_after_every_action(config, seed, choices):
    state = new_state(config, seed)
    rng = random.Random(choices)
    size = state.game.tileset.size
    while not state.is_over:
        assert state.tile_places() == [1] * size
        state.apply(rng.choice(state.legal_actions()))
    assert state.tile_places() == [1] * size


@SETTINGS
@given(config=configs, seed=st.integers(0, 2**32), choices=st.integers(0, 2**32), stop=st.integers(0, 400))
def test_replay_and_json_round_trip_are_exact(config, seed, choices, stop):
    state = new_state(config, seed)
    rng = random.Random(choices)
    advance(state, stop, lambda s: s.apply(rng.choice(s.legal_actions())))
    assert_exact_round_trips(state, rng)


@SETTINGS
@given(config=configs, seed=st.integers(0, 2**32), choices=st.integers(0, 2**32), stop=st.integers(0, 200))
def test_illegal_actions_leave_the_state_unchanged(config, seed, choices, stop):
    state = new_state(config, seed)
    rng = random.Random(choices)
    advance(state, stop, lambda s: s.apply(rng.choice(s.legal_actions())))
    if state.is_over:
        return
    legal = {a.index for a in state.legal_actions()}
    game = state.game
    candidates = [game.action(i) for i in rng.sample(range(game.num_actions), 40) if i not in legal]
    texts = [a.text for a in candidates] + ["play 13-13 p1", "play 1-2 p99", "fly", "", "draw now"]
    before = state.to_json()
    for item in [*candidates, *texts]:
        try:
            state.apply(item)
        except IllegalAction as exc:
            assert exc.key and exc.reason
        else:
            raise AssertionError(f"{item!r} was accepted")
        assert state.to_json() == before


@SETTINGS
@given(config=configs, seed=st.integers(0, 2**32), choices=st.integers(0, 2**32), stop=st.integers(0, 300))
def test_legal_moves_are_the_moves_whose_check_passes_and_the_rest_are_explained(config, seed, choices, stop):
    state = new_state(config, seed)
    rng = random.Random(choices)
    advance(state, stop, lambda s: s.apply(rng.choice(s.legal_actions())))
    if state.is_over:
        return
    game = state.game
    plays = {
        game.play_actions[t][r]
        for t in range(game.tileset.size)
        for r in range(game.slots)
        if play_problem(state, t, r) is None
    }
    draw, pass_, end = turn_problems(state, bool(plays))
    checks = {game.draw_action: draw, game.pass_action: pass_, game.end_action: end}
    allowed = plays | {action for action, problem in checks.items() if problem is None}
    assert set(state.legal_actions()) == allowed
    for index in range(game.num_actions):
        action = game.action(index)
        if action not in allowed:
            # Every refusal names a Mexican Train rule, never the generic "not legal".
            assert state.explain(action.text).key.startswith("mexican_train.illegal."), action.text


@SETTINGS
@given(config=configs, seed=st.integers(0, 2**32), choices=st.integers(0, 2**32), stop=st.integers(0, 300))
def test_views_do_not_depend_on_what_the_seat_cannot_see(config, seed, choices, stop):
    state = new_state(config, seed)
    rng = random.Random(choices)
    advance(state, stop, lambda s: s.apply(rng.choice(s.legal_actions())))
    for seat in range(state.players):
        view = state.view(seat)
        for k in range(3):
            other = state.determinize(seat, random.Random(k))
            assert other.view(seat) == view
            assert other.tile_places() == [1] * state.game.tileset.size
            if other.current_player == seat:
                assert [a.text for a in other.legal_actions()] == [a.text for a in state.legal_actions()]
        ts = state.game.tileset
        assert sorted(tuple(p) for p in view["hand"]) == sorted(ts.tiles[t] for t in state.hands[seat])
        if view["drawn"] is not None:
            assert seat == state.current_player
        assert "boneyard_order" not in view and isinstance(view["boneyard"], int)
    public = state.public_view()
    assert public["hand"] is None and public["drawn"] is None

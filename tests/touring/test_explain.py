"""Reasons for illegal moves come from the checks that list the legal moves (one copy of the rules)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import tabletrek
from tabletrek import IllegalAction
from tabletrek.games.touring import rules
from tabletrek.games.touring.state import TouringState
from tests.touring.helpers import position

PLAYERS = st.sampled_from([2, 3, 4, 5, 6])
SEEDS = st.integers(min_value=0, max_value=2**31)
CATCH_ALL = {"core.illegal.not_legal", "touring.illegal.unknown"}


def played_to(players: int, seed: int, steps: int, **options: object) -> TouringState:
    state = tabletrek.load("touring", players=players, **options).new_game(seed=seed)
    assert isinstance(state, TouringState)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@settings(max_examples=30, deadline=None)
@given(players=PLAYERS, seed=SEEDS, steps=st.integers(0, 300), free=st.booleans())
def test_every_move_outside_the_legal_list_gets_its_rule_as_the_reason(
    players: int, seed: int, steps: int, free: bool
) -> None:
    state = played_to(players, seed, steps, free_discard=free)
    if state.is_over:
        return
    game = state.game
    legal = {a.index for a in state.legal_actions()}
    for action in game._actions:
        if not action.text or action.index in legal:
            continue
        error = state.explain(action.text)
        assert isinstance(error, IllegalAction)
        assert error.key not in CATCH_ALL, (action.text, error.key)


@settings(max_examples=30, deadline=None)
@given(players=PLAYERS, seed=SEEDS, steps=st.integers(0, 300))
def test_the_checks_pass_exactly_the_legal_plays(players: int, seed: int, steps: int) -> None:
    state = played_to(players, seed, steps)
    if state.is_over:
        return
    game = state.game
    team = game.team_of[state.to_act]
    allowed = set()
    for card in set(state.hands[state.to_act]):
        own = rules.OWN_CHECKS.get(card)
        if own is not None:
            if own(state, team, card) is None:
                allowed.add(game._actions[card].text)
            continue
        slot = rules.TARGETED.index(card)
        for victim in range(game.teams):
            for variant in rules.ATTACK_VARIANTS[card]:
                if rules.attack_problem(state, team, card, victim, variant) is None:
                    allowed.add(game.action(rules.target_index(slot, victim, variant)).text)
    listed = {a.text for a in state.legal_actions() if a.text.startswith("play")}
    assert listed == allowed


def test_a_finished_game_says_so() -> None:
    state = position(hands={0: ["1"]}, go={0: ["go"]}, miles={0: {"1": 7, "3": 4, "15": 2, "30": 2}})
    state.apply("play 1")
    assert state.is_over
    assert state.explain("play 1").key == "core.illegal.game_over"


def test_extra_words_are_not_a_move() -> None:
    state = position(hands={0: ["puncture", "collision", "3"]}, go={1: ["go"]})
    assert state.explain("play puncture p2 30").key == "touring.illegal.unknown"
    assert state.explain("play collision p2 15s 30").key == "touring.illegal.unknown"
    assert state.explain("discard 3 now").key == "touring.illegal.unknown"

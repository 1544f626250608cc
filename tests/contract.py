"""Contract checks shared by every game's property tests."""

from __future__ import annotations

import random
from collections.abc import Callable

import tabletrek
from tabletrek import State


def assert_exact_round_trips(state: State, rng: random.Random) -> None:
    """Replaying the record, a JSON round trip and a clone all give this very state, and each copy
    goes on identically after the same move (the clone shares nothing with the original)."""
    text = state.to_json()
    assert tabletrek.replay(state.record()).to_json() == text
    assert tabletrek.replay(state.record().to_json()).to_json() == text
    again = State.from_json(text)
    assert again.to_json() == text
    assert state.clone().to_json() == text
    if state.is_over:
        return
    action = rng.choice(state.legal_actions())
    copy = state.clone()
    copy.apply(action)
    assert state.to_json() == text
    state.apply(action)
    assert copy.to_json() == state.to_json()
    again.apply(action.text)
    assert again.to_json() == state.to_json()


def advance(state: State, moves: int, move: Callable[[State], object]) -> None:
    """Make up to ``moves`` moves with ``move`` (it applies one), stopping when the game ends."""
    for _ in range(moves):
        if state.is_over:
            return
        move(state)

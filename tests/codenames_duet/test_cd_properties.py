"""Properties over random games: no key leaks, exact replays and JSON round trips, refusals change
nothing, and the components stay accounted for."""

from __future__ import annotations

import contextlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import tabletrek
from tabletrek.games.codenames_duet.key import AGENTS, GREEN, PAIR_COUNTS, pair_counts
from tabletrek.games.codenames_duet.state import DuetState

OPTION_SETS = [
    {},
    {"tokens": 11},
    {"tokens": 4, "mistakes": 1},
    {"clue_order": "two_one", "zero_clues": True, "first_clue": 1},
    {"strict_penalty": True, "relaxed_clues": True},
]


def playout(seed: int, options: dict[str, object], players: int, steps: int) -> list[DuetState]:
    """States along a random game, sometimes trying illegal or penalised moves as a player might."""
    game = tabletrek.load("codenames-duet", players=players, **options)
    state = game.new_game(seed=seed)
    assert isinstance(state, DuetState)
    rng = random.Random(seed)
    states = [state.clone()]
    while not state.is_over and len(states) < steps:
        roll = rng.random()
        if state.phase == "clue" and roll < 0.15:
            word = rng.choice(state.words)  # a visible or covered board word
            with contextlib.suppress(tabletrek.IllegalAction):
                state.apply(f"clue {word} 1")
        else:
            state.apply(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


def check_invariants(state: DuetState) -> None:
    game = state.game
    assert pair_counts(state.key) == PAIR_COUNTS
    assert state.agents_found() + state.agents_left() == AGENTS
    for c in range(25):
        side = state.agent[c]
        if side is not None:
            assert state.key[side][c] == GREEN  # an agent card sits only on a real agent
        for s in (0, 1):
            if state.bystander[s][c]:
                assert state.key[s][c] != GREEN
    # Every token is in the bank or was spent by a turn, a penalty or a costly mistake.
    penalties = sum(1 for clue in state.clues if clue["penalty"])
    extra = max(0, state.mistakes - game.mistakes)
    spent = state.turns + penalties + extra
    if state.ending == "time_mistake":
        spent -= 1  # the fatal mistake is counted but ends the game before taking tokens
    assert state.tokens == max(0, game.tokens - spent)


def check_no_leak(state: DuetState, rng: random.Random) -> None:
    public = state.public_view()
    assert public["key"] is None
    for seat in range(state.players):
        view = state.view(seat)
        side = state.game.side_of[seat]
        assert view["key"] == [("green", "bystander", "assassin")[k] for k in state.key[side]]
        for _ in range(3):
            other = state.determinize(seat, rng)
            assert other.view(seat) == view  # nothing of the partner's key shows in my view
            assert other.public_view() == public
            assert pair_counts(other.key) == PAIR_COUNTS


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    options=st.sampled_from(OPTION_SETS),
    players=st.sampled_from([2, 2, 3, 4]),
)
def test_random_games_keep_every_property(seed: int, options: dict[str, object], players: int) -> None:
    states = playout(seed, options, players, steps=80)
    rng = random.Random(seed)
    for state in states:
        check_invariants(state)
        text = state.to_json()
        assert tabletrek.State.from_json(text).to_json() == text
    for state in states[:: max(1, len(states) // 6)]:
        check_no_leak(state, rng)
    final = states[-1]
    assert tabletrek.replay(final.record()).to_json() == final.to_json()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_refused_moves_change_nothing(seed: int) -> None:
    for state in playout(seed, {}, 2, steps=40):
        if state.is_over:
            continue
        before = state.to_json()
        covered = [state.words[c] for c in range(25) if state.agent[c] is not None]
        attempts = ["stop" if state.phase != "guess" else "clue ocean 1", "guess nowhere", "clue two words 3"]
        attempts += [f"clue {state.words[0]}s 1", "clue ocean 99", *(f"guess {w}" for w in covered[:2])]
        for text in attempts:
            trial = state.clone()
            try:
                trial.apply(text)
            except tabletrek.IllegalAction:
                assert trial.to_json() == before


def test_a_full_random_game_reaches_an_end() -> None:
    states = playout(7, {}, 2, steps=10_000)
    final = states[-1]
    assert final.is_over and final.result is not None
    assert final.result.reason.startswith("codenames_duet.end.")

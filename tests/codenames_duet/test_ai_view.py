"""The AI decides from its own seat's view only: never the partner's key, in either language."""

from __future__ import annotations

import random
from typing import Any

import pytest

import tabletrek
from tabletrek.core.state import State


class SeatOnly:
    """A state that answers only what a seat may ask: its own view, the legal moves and the rules'
    clue check (which reads only the visible words). Anything else fails the test."""

    ALLOWED = frozenset({"current_player", "is_over", "legal_actions", "clue_problem"})

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self._seat = seat
        self.views = 0

    def view(self, seat: int) -> dict[str, Any]:
        assert seat == self._seat, f"the AI of seat {self._seat} read the view of seat {seat}"
        self.views += 1
        return self._state.view(seat)

    def __getattr__(self, name: str) -> Any:
        if name not in self.ALLOWED:
            raise AssertionError(f"the AI read state.{name}")
        return getattr(self._state, name)


@pytest.mark.parametrize("pack", ["en", "zh-Hant"])
def test_ai_plays_whole_games_through_its_own_view_only(pack: str) -> None:
    game = tabletrek.load("codenames-duet", word_pack=pack)
    state = game.new_game(seed=4)
    bots = [game.bot("codenames-clue", seat=s, seed=s) for s in (0, 1)]
    guards = [SeatOnly(state, s) for s in (0, 1)]
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(guards[seat]))
    assert guards[0].views and guards[1].views


@pytest.mark.parametrize("pack", ["en", "zh-Hant"])
def test_the_partners_key_does_not_change_the_ais_moves(pack: str) -> None:
    # Two tables that look the same from one seat (the partner's key shuffled) get the same clue
    # and, after the same clue, the same guesses.
    game = tabletrek.load("codenames-duet", word_pack=pack)
    for seed in range(3):
        state = game.new_game(seed=seed)
        seat = state.current_player
        assert seat is not None
        other = state.clone()
        partner = other.key[1 - seat]
        random.Random(seed).shuffle(partner)
        assert other.key[1 - seat] != state.key[1 - seat]
        assert other.view(seat) == state.view(seat)
        clue = [game.bot("codenames-clue", seat=seat, seed=1).act(s) for s in (state, other)]
        assert clue[0] == clue[1]
        # The partner's guess reads its own key side, which is the same on both tables.
        for s in (state, other):
            s.apply(clue[0])
        guesser = 1 - seat
        shuffled = state.clone()
        random.Random(seed + 10).shuffle(shuffled.key[seat])
        assert shuffled.key[seat] != state.key[seat]
        assert shuffled.view(guesser) == state.view(guesser)
        picks = [game.bot("codenames-guess", seat=guesser, seed=1).act(s) for s in (state, shuffled)]
        assert picks[0] == picks[1]

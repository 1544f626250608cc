"""The bot protocol and Touring's bots."""

from __future__ import annotations

import random

import pytest

import tabletrek
from tabletrek.core.bots import Bot
from tabletrek.sim import simulate, summarize


def test_bots_listed_and_made() -> None:
    game = tabletrek.load("touring")
    assert game.bots() == ["random", "ismcts", "greedy"]
    for name in game.bots():
        bot = game.bot(name, seat=1, seed=3)
        assert isinstance(bot, Bot)
        assert bot.seat == 1 and bot.name == name


def test_unknown_bot_and_bad_seat_are_refused() -> None:
    game = tabletrek.load("touring")
    with pytest.raises(ValueError, match="no bot 'clever'"):
        game.bot("clever", seat=0)
    with pytest.raises(ValueError, match=r"seat must be in 0\.\.1"):
        game.bot("greedy", seat=2)
    with pytest.raises(ValueError, match="no parameter"):
        game.bot("greedy", seat=0, boldness=3)


def test_a_bot_only_acts_for_its_seat() -> None:
    game = tabletrek.load("touring")
    state = game.new_game(seed=1)
    with pytest.raises(ValueError, match="plays seat 1"):
        game.bot("greedy", seat=1, seed=0).act(state)


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_bots_decide_from_what_their_seat_may_know(name: str) -> None:
    """The same decision on every state consistent with the seat's view."""
    game = tabletrek.load("touring", players=3)
    rng = random.Random(4)
    state = game.new_game(seed=9)
    for _ in range(60):
        if state.is_over:
            break
        seat = state.current_player
        assert seat is not None
        choice = game.bot(name, seat=seat, seed=5).act(state)
        for _ in range(3):
            other = state.determinize(seat, rng)
            assert game.bot(name, seat=seat, seed=5).act(other) == choice
        state.apply(choice)


def test_greedy_beats_random_clearly() -> None:
    result = simulate("touring", 120, ["greedy", "random"], seed=2024)
    greedy = summarize(result).bots[0]
    assert greedy.bot == "greedy"
    assert greedy.win_rate >= 0.8


def test_greedy_weights_are_parameters() -> None:
    game = tabletrek.load("touring")
    bot = game.bot("greedy", seat=0, seed=1, go=50)
    assert bot.w.go == 50.0

"""The seed as written (turn 2 of the rules review): Go is the first card of a player's area, and
five players play individually with the 3-player deck and the 70-mile set."""

from __future__ import annotations

import pytest

import tabletrek
from tabletrek.core.actions import IllegalAction
from tabletrek.games.touring import kernel as K
from tabletrek.games.touring.state import TouringState

from .helpers import position, texts


def test_go_is_the_first_card_so_country_cannot_open_the_area() -> None:
    # Seed, Go: "為玩家置於自家區域的第1張卡牌" — the first card a player places in their own area.
    state = tabletrek.load("touring", players=2).new_game(seed=3)
    assert isinstance(state, TouringState)
    assert 5 in state.hands[0] and 0 not in state.hands[0]  # Country, no Go
    # Before this reading the must-play rule forced `play country`; now nothing is playable.
    assert all(a.text.startswith("discard") for a in state.legal_actions())
    with pytest.raises(IllegalAction) as info:
        state.apply("play country")
    assert info.value.key == "touring.illegal.go_first"


def test_country_on_an_empty_speed_pile_once_the_area_holds_a_go() -> None:
    state = position(hands={0: ["country"]}, go={0: ["go"]})
    assert texts(state) == ["play country"]
    # A delay on top of the Go still means the area began with a Go.
    late = position(hands={0: ["country"]}, go={0: ["go", "puncture"]})
    assert texts(late) == ["play country"]


def test_country_first_option_keeps_the_old_reading() -> None:
    state = tabletrek.load("touring", players=2, country_first=True).new_game(seed=3)
    assert [a.text for a in state.legal_actions()] == ["play country"]
    bare = position(hands={0: ["country"]}, country_first=True)
    assert texts(bare) == ["play country"]


def test_five_players_play_individually_with_96_cards_and_70_miles() -> None:
    # Seed: "2~6人" (2-6 players); it details 2, 3, 4 and 6. Our ruling: 5 play as 3 do.
    game = tabletrek.load("touring", players=5)
    state = game.new_game(seed=11)
    assert isinstance(state, TouringState)
    assert sum(state.card_counts()) == 96 and game.goal_miles == 70
    assert game.teams == 5 and not game.team_games
    assert state.view(0)["goal"] == 70


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bots_finish_five_player_games(bot: str) -> None:
    game = tabletrek.load("touring", players=5)
    for seed in range(3):
        state = game.new_game(seed=seed)
        seats = [game.bot(bot, seat=s, seed=s) for s in range(5)]
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            state.apply(seats[seat].act(state))
        assert state.result is not None
        assert tabletrek.replay(state.record()).to_json() == state.to_json()


def test_five_player_attacks_name_every_opponent() -> None:
    state = position(5, hands={0: ["puncture"]}, go={t: ["go"] for t in range(5)})
    assert texts(state) == [f"play puncture p{p}" for p in (2, 3, 4, 5)]
    state.apply("play puncture p5")
    assert state.go[4] == [0, 7]


@pytest.mark.skipif(not K.available(), reason="numba (extra [search]) is not installed")
def test_search_bot_plays_five_players_with_compiled_playouts() -> None:
    game = tabletrek.load("touring", players=5)
    assert game.paired_playouts() is not None
    state = game.new_game(seed=2)
    bot = game.bot("ismcts", seat=0, seed=1, iterations=200)
    for _ in range(10):
        seat = state.current_player
        assert seat is not None
        move = bot.act(state) if seat == 0 else game.bot("greedy", seat=seat, seed=seat).act(state)
        assert move in state.legal_actions()
        state.apply(move)

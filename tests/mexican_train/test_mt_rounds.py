"""Scenario tests for the deal, the engine, round ends, scoring and the 13-round match."""

from __future__ import annotations

import random

import pytest

import tabletrek
from tabletrek.core.errors import UsageError
from tabletrek.core.rng import make_rng
from tabletrek.games.mexican_train.rules import FIRST, start_round
from tabletrek.games.mexican_train.state import MexicanTrainState

from .positions import position


@pytest.mark.parametrize(
    ("size", "players", "hand"),
    [
        (12, 2, 15),
        (12, 4, 15),
        (12, 5, 12),
        (12, 6, 12),
        (12, 7, 10),
        (12, 8, 10),
        (12, 9, 8),
        (12, 10, 8),
        (9, 4, 10),
        (9, 6, 8),
        (9, 8, 6),
    ],
)
def test_deal_hand_sizes(size, players, hand):
    game = tabletrek.load("mexican-train", players=players, set_size=size, rotate_start=True)
    state = game.new_game(seed=5)
    assert [len(h) for h in state.hands] == [hand] * players
    assert game.tileset.size == {12: 91, 9: 55}[size]
    assert sorted(state.tile_places()) == [1] * game.tileset.size


def test_double_nine_seats_at_most_eight():
    with pytest.raises(ValueError, match="2, 3, 4, 5, 6, 7, 8 players"):
        tabletrek.load("mexican-train", players=9, set_size=9)


@pytest.mark.parametrize(
    ("players", "options", "english", "chinese"),
    [
        (
            9,
            {"set_size": 9},
            "with a double-9 set is played by 2, 3, 4, 5, 6, 7, 8 players, not 9",
            "用雙 9 骨牌時，玩家人數可以是 2、3、4、5、6、7、8，不能是 9",
        ),
        (
            3,
            {"set_size": 9, "engine": 12},
            "option 'engine' of mexican-train must be at most 9 with a double-9 set, not 12",
            "選項 'engine' 最多只能是 9，而不是 12",
        ),
        (
            3,
            {"engine": 3, "rounds": 9},
            "option 'rounds' of mexican-train must be at most 4, not 9",
            "選項 'rounds' 最多只能是 4，而不是 9：車站雙點牌每局遞減一，從 3-3 降到 0-0",
        ),
    ],
)
def test_options_that_cannot_go_together_are_refused_in_the_readers_language(
    players, options, english, chinese
):
    # Before: plain ValueErrors in English, so a Chinese reader of the terminal or the browser
    # was told "option 'engine' of mexican-train must be at most 9 with a double-9 set".
    with pytest.raises(UsageError) as caught:
        tabletrek.load("mexican-train", players=players, **options)
    assert english in str(caught.value)
    said = caught.value.message("zh-Hant")
    assert chinese in said and "must" not in said and "set" not in said


def deal_events(players: int, seed: int, **options):
    game = tabletrek.load("mexican-train", players=players, **options)
    state = game.new_game(seed=seed)
    assert isinstance(state, MexicanTrainState)
    events: list = []
    state.rng = make_rng(seed)  # the same deal again, this time keeping its events
    start_round(state, 0, events)
    return state, events


def test_engine_holder_places_it_and_the_left_player_starts():
    for seed in range(50):
        state, events = deal_events(4, seed, set_size=12)
        if not any(e.key == "mexican_train.event.engine_draw" for e in events):
            break
    placer = state.engine_placer
    assert placer is not None
    assert len(state.hands[placer]) == 14 and sum(map(len, state.hands)) == 59
    assert state.current_player == (placer + 1) % 4 and state.phase == FIRST
    assert not any(state.game.tileset.double_of[12] in h for h in state.hands)


def test_nobody_holds_the_engine_so_players_draw_in_turn_until_it_appears():
    for seed in range(100):
        state, events = deal_events(2, seed, set_size=12)
        draws = [e for e in events if e.key == "mexican_train.event.engine_draw"]
        if len(draws) >= 3:
            break
    drawers = [e.args["player"]["$seat"] for e in draws]
    assert drawers == [i % 2 for i in range(len(drawers))]  # round 1 starts the search at the first seat
    assert draws[-1].secret == {"tile": "12-12"}
    assert state.engine_placer == drawers[-1]
    assert state.current_player == (drawers[-1] + 1) % 2


def test_rotate_start_sets_the_engine_aside_and_rotates_the_first_player():
    state = position([["3-12"], ["5-6"], ["0-0"]], rounds=2, rotate_start=True)
    assert state.to_act == 0
    state.apply("play 3-12 p1")
    assert state.round_index == 1 and state.engine_placer is None
    assert state.current_player == 1  # round 2 starts with the second seat
    assert [len(h) for h in state.hands] == [15, 15, 15]


def test_round_end_scores_pips_in_hand():
    state = position([["3-12"], ["6-6", "0-0"], ["1-2", "0-1"]])
    events = state.apply("play 3-12 p1")
    assert state.round_scores == [[0, 12, 4]]
    assert [e.args["points"] for e in events if e.key == "mexican_train.event.score"] == [0, 12, 4]
    assert state.result is not None and state.result.winners == (0,)


def test_double_blank_house_rule():
    state = position([["3-12"], ["6-6", "0-0"], ["1-2"]], double_blank_points=50)
    state.apply("play 3-12 p1")
    assert state.round_scores == [[0, 62, 3]]


def test_blocked_round_ends_when_everyone_passes_with_an_empty_boneyard():
    state = position([["0-1", "2-3"], ["4-5"], ["6-7", "7-7"]], boneyard=[])
    state.apply("pass")
    state.apply("pass")
    assert not state.is_over
    events = state.apply("pass")
    assert state.is_over
    assert any(e.key == "mexican_train.event.blocked" for e in events)
    assert state.round_scores == [[6, 9, 27]]
    assert state.result is not None and state.result.winners == (0,)


def test_a_play_resets_the_blocked_count():
    state = position([["0-1"], ["12-5", "4-4"], ["6-7"]], boneyard=[])
    state.apply("pass")
    state.apply("play 5-12 p2")
    assert state.passes == 0 and not state.is_over


def test_match_totals_lowest_wins_and_ties_share():
    state = position([["0-3"], ["1-2"], ["0-1", "1-1"]], totals=[40, 20, 20], round_index=12, rounds=None)
    assert state.engine == 0
    state.apply("play 0-3 p1")
    result = state.result
    assert result is not None and state.is_over
    assert state.totals == [40, 23, 23]
    assert result.winners == (1, 2) and result.returns == (-1.0, 1.0, 1.0)
    assert result.reason == "mexican_train.end.match"


def play_out(state, seed: int = 0):
    rng = random.Random(seed)
    engines = []
    while not state.is_over:
        for event in state.apply(rng.choice(state.legal_actions())):
            if event.key == "mexican_train.event.round_start":
                engines.append(event.args["engine"])
    return engines


def test_thirteen_round_schedule_counts_the_engine_down():
    game = tabletrek.load("mexican-train", players=4, set_size=12)
    assert game.num_rounds == 13
    state = game.new_game(seed=11)
    engines = ["12-12", *play_out(state)]
    assert engines == [f"{v}-{v}" for v in range(12, -1, -1)]
    assert len(state.round_scores) == 13
    assert state.totals == [sum(r[s] for r in state.round_scores) for s in range(4)]


def test_double_nine_plays_ten_rounds():
    game = tabletrek.load("mexican-train", players=3, set_size=9)
    state = game.new_game(seed=2)
    assert ["9-9", *play_out(state)] == [f"{v}-{v}" for v in range(9, -1, -1)]


def test_single_round_and_starting_engine_options():
    one = tabletrek.load("mexican-train", players=4, rounds=1)
    state = one.new_game(seed=3)
    assert play_out(state) == [] and len(state.round_scores) == 1
    assert state.result is not None and state.result.reason == "mexican_train.end.round"
    short = tabletrek.load("mexican-train", players=4, engine=2)
    assert short.num_rounds == 3
    state = short.new_game(seed=3)
    assert ["2-2", *play_out(state)] == ["2-2", "1-1", "0-0"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rounds": 14, "set_size": 12}, "at most 13"),
        ({"engine": 13, "set_size": 12}, "at most 12"),
        ({"rounds": 11}, "at most 10"),  # 4 players: double-9 by default
        ({"engine": 10}, "at most 9"),
        ({"set_size": 6}, "must be one of"),
        ({"rounds": 0}, "at least 1"),
        ({"colour": 1}, "unknown option"),
    ],
)
def test_bad_options_are_named(options, message):
    with pytest.raises(ValueError, match=message):
        tabletrek.load("mexican-train", players=4, **options)

"""Scenario tests for the turn rules: first turns, later turns, drawing, markers, the Mexican train."""

from __future__ import annotations

import pytest

from tabletrek import IllegalAction
from tabletrek.games.mexican_train.rules import DRAWN, FIRST, PLAY

from .positions import hand_texts, position, texts


def illegal_key(state, text: str) -> str:
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        state.apply(text)
    assert state.to_json() == before
    return info.value.key


# ----- first turn of a round [seed; ruling: every round] ---------------------------------------------


def first_turn(hand: list[str], **kw):
    return position([hand, ["1-1"], ["2-2"]], phase=FIRST, first_pending=[True, True, True], **kw)


def test_first_turn_is_a_run_on_own_train_as_long_as_tiles_match():
    state = first_turn(["3-12", "3-5", "0-5", "1-2"])
    assert texts(state) == ["play 3-12 p1"]
    state.apply("play 12-3 p1")
    assert state.current_player == 0 and state.phase == FIRST
    assert texts(state) == ["end", "play 3-5 p1"]
    state.apply("play 3-5 p1")
    state.apply("play 0-5 p1")
    # 1-2 matches nothing: the run ends by itself and play passes to the left.
    assert state.current_player == 1
    assert state.first_pending == [False, True, True]
    assert [list(p) for p in state.view(0)["trains"][0]["tiles"]] == [[12, 3], [3, 5], [5, 0]]


def test_first_turn_run_may_stop_early():
    state = first_turn(["3-12", "3-5"])
    state.apply("play 3-12 p1")
    state.apply("end")
    assert state.current_player == 1 and hand_texts(state, 0) == ["3-5"]


def test_first_turn_plays_nowhere_but_own_train():
    state = first_turn(["3-12", "7-12"])
    assert illegal_key(state, "play 7-12 mx") == "mexican_train.illegal.first_own_only"
    assert illegal_key(state, "play 7-12 p2") == "mexican_train.illegal.first_own_only"


def test_first_turn_without_a_start_passes_without_drawing():
    state = first_turn(["3-4", "5-6"])
    assert texts(state) == ["pass"]
    assert illegal_key(state, "draw") == "mexican_train.illegal.first_no_draw"
    boneyard = len(state.boneyard)
    state.apply("pass")
    assert len(state.boneyard) == boneyard
    assert hand_texts(state, 0) == ["3-4", "5-6"]
    assert state.markers == [False, False, False]  # no public marker on a first-turn pass
    assert state.current_player == 1 and state.phase == FIRST


def test_first_turn_pass_is_only_for_when_no_tile_starts_the_train():
    state = first_turn(["3-12"])
    assert illegal_key(state, "pass") == "mexican_train.illegal.must_start"


def test_first_turn_double_must_be_followed_when_possible():
    state = first_turn(["4-12", "4-4", "4-6", "1-2"])
    state.apply("play 4-12 p1")
    state.apply("play 4-4 p1")
    assert texts(state) == ["play 4-6 p1"]
    assert illegal_key(state, "end") == "mexican_train.illegal.double_continue"


def test_double_ending_a_first_run_binds_only_after_every_first_turn():
    # Two players: p1 ends its run on 4-4; p2's first turn still plays freely on its own train.
    state = position([["4-12", "4-4", "1-2"], ["7-12", "4-9"]], phase=FIRST, first_pending=[True, True])
    state.apply("play 4-12 p1")
    events = state.apply("play 4-4 p1")
    assert any(e.key == "mexican_train.event.run_ends_double" for e in events)
    assert state.current_player == 1 and state.phase == FIRST
    assert texts(state) == ["play 7-12 p2"]
    state.apply("play 7-12 p2")
    # Now every first turn is done: p1 must satisfy its own open double before anything else.
    assert state.current_player == 0 and state.phase == PLAY
    assert texts(state) == ["draw"]  # p1 holds no 4; 1-2 could go nowhere anyway


def test_first_turn_applies_in_every_round():
    state = position([["3-12"], ["5-6"]], trains={0: ["12-4"]}, rounds=2, first_pending=[False, False])
    state.apply("play 3-12 mx")
    assert state.round_index == 1 and state.engine == 11
    assert state.phase == FIRST and state.first_pending == [True, True]


# ----- later turns --------------------------------------------------------------------------------


def test_later_turn_is_one_tile_then_the_next_player():
    state = position([["3-12", "3-5"], ["1-1"], ["2-2"]])
    state.apply("play 3-12 p1")
    assert state.current_player == 1


def test_mexican_train_may_be_started_before_own_train_and_only_once():
    state = position([["7-12", "3-4"], ["12-9", "7-8"], ["2-2"]])
    assert "play 7-12 mx" in texts(state)
    state.apply("play 7-12 mx")
    # The one Mexican train now ends at 7: a second engine tile cannot start another.
    assert "play 9-12 mx" not in texts(state)
    assert illegal_key(state, "play 9-12 mx") == "mexican_train.illegal.no_match"
    state.apply("play 7-8 mx")  # anyone may extend it
    assert state.trains[state.game.mexican][-1] == state.game.tileset.parse_tile("7-8")


def test_no_play_on_another_players_private_train():
    state = position([["5-9", "1-2"], ["3-3"], ["0-0"]], trains={1: ["12-5"], 0: ["12-1"]})
    assert illegal_key(state, "play 5-9 p2") == "mexican_train.illegal.private_train"
    assert "play 5-9 p2" not in texts(state)


def test_public_train_is_open_to_everyone():
    state = position(
        [["5-9", "1-3"], ["3-3"], ["0-0"]], trains={1: ["12-5"], 0: ["12-1"]}, markers=[False, True, False]
    )
    assert "play 5-9 p2" in texts(state)
    state.apply("play 5-9 p2")
    assert state.markers[1]  # only the owner's own play removes the marker


def test_cannot_play_draws_one_and_may_play_it_at_once():
    state = position([["0-1"], ["3-3"], ["4-4"]], boneyard=["12-6"])
    assert texts(state) == ["draw"]
    assert illegal_key(state, "pass") == "mexican_train.illegal.must_draw"
    state.apply("draw")
    assert state.phase == DRAWN and state.current_player == 0
    assert texts(state) == ["pass", "play 6-12 mx", "play 6-12 p1"]
    assert illegal_key(state, "play 0-1 p1") == "mexican_train.illegal.only_drawn"
    assert illegal_key(state, "play 0-1") == "mexican_train.illegal.only_drawn"
    state.apply("play 6-12 p1")
    assert state.markers[0] is False and state.current_player == 1


def test_drawn_tile_that_does_not_fit_makes_the_train_public():
    state = position([["0-1"], ["3-3"], ["4-4"]], boneyard=["5-6"])
    state.apply("draw")
    assert texts(state) == ["pass"]
    events = state.apply("pass")
    assert state.markers[0] is True
    assert any(e.key == "mexican_train.event.marker_on" for e in events)
    assert state.current_player == 1


def test_passing_on_a_drawn_tile_that_fits_also_marks():
    state = position([["0-1"], ["3-3"], ["4-4"]], boneyard=["12-6"])
    state.apply("draw")
    state.apply("pass")
    assert state.markers[0] is True and "6-12" in hand_texts(state, 0)


def test_empty_boneyard_marks_and_passes():
    state = position([["0-1"], ["3-3"], ["4-4"]], boneyard=[])
    assert texts(state) == ["pass"]
    assert illegal_key(state, "draw") == "mexican_train.illegal.boneyard_empty"
    state.apply("pass")
    assert state.markers[0] is True and state.current_player == 1


def test_marker_comes_off_when_the_owner_plays_on_own_train():
    state = position([["1-5", "12-7"], ["3-3"], ["4-4"]], trains={0: ["12-1"]}, markers=[True, False, False])
    state.apply("play 7-12 mx")
    assert state.markers[0] is True  # playing elsewhere keeps it
    state = position([["1-5", "12-7"], ["3-3"], ["4-4"]], trains={0: ["12-1"]}, markers=[True, False, False])
    events = state.apply("play 1-5 p1")
    assert state.markers[0] is False
    assert any(e.key == "mexican_train.event.marker_off" for e in events)


def test_playable_tile_must_be_played():
    state = position([["12-7"], ["3-3"], ["4-4"]])
    assert illegal_key(state, "draw") == "mexican_train.illegal.must_play"
    assert illegal_key(state, "pass") == "mexican_train.illegal.must_play"

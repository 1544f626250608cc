"""Scenario tests for doubles: play again, satisfy first, the private-train case, relaxed_doubles."""

from __future__ import annotations

from tabletrek.games.mexican_train.rules import PLAY

from .positions import hand_texts, position, texts
from .test_mt_turns import illegal_key


def test_double_earns_another_play_which_must_satisfy_it():
    # "Satisfy your own double at once" (relaxed_doubles=False), tabletrek's first default.
    state = position([["5-5", "5-8", "7-12"], ["3-3"], ["4-4"]], trains={0: ["12-5"]}, relaxed_doubles=False)
    events = state.apply("play 5-5 p1")
    assert any(e.key == "mexican_train.event.double" for e in events)
    assert state.current_player == 0 and state.bonus
    # 7-12 could start the Mexican train, but the open double comes first.
    assert texts(state) == ["play 5-8 p1"]
    assert illegal_key(state, "play 7-12 mx") == "mexican_train.illegal.must_satisfy"
    state.apply("play 5-8 p1")
    assert state.current_player == 1 and not state.bonus


def test_unsatisfied_double_treated_as_cannot_play_then_binds_the_next_player():
    state = position(
        [["5-5", "7-12"], ["5-9", "12-3"], ["4-4"]],
        trains={0: ["12-5"]},
        boneyard=["0-1"],
        relaxed_doubles=False,
    )
    state.apply("play 5-5 p1")
    assert texts(state) == ["draw"]
    state.apply("draw")
    assert texts(state) == ["pass"]  # 0-1 does not satisfy the double
    state.apply("pass")
    assert state.markers[0] is True and state.current_player == 1
    # p2 must satisfy the double on p1's (now public) train; starting p2's own train waits.
    assert texts(state) == ["play 5-9 p1"]
    state.apply("play 5-9 p1")
    assert state.current_player == 2


def test_open_double_on_a_private_train_blocks_the_others_who_draw_and_mark():
    hands = [["5-6", "1-2"], ["12-9", "5-10"], ["12-3", "0-1"]]
    state = position(hands, trains={0: ["12-5", "5-5"]}, to_act=1, boneyard=["6-6", "2-3", "5-11", "0-2"])
    # p2 holds 5-10 but p1's train is private: nobody else may satisfy it.
    assert texts(state) == ["draw"]
    state.apply("draw")
    assert texts(state) == ["pass"]  # even 5-11, which matches, cannot go on a private train
    state.apply("pass")
    assert state.markers[1] is True and state.current_player == 2
    assert texts(state) == ["draw"]
    state.apply("draw")
    state.apply("pass")
    assert state.markers[2] is True
    # The owner satisfies it; then play is free again.
    assert state.current_player == 0
    assert texts(state) == ["play 5-6 p1"]
    state.apply("play 5-6 p1")
    assert state.current_player == 1
    assert "play 9-12 p2" in texts(state)


def test_private_double_becomes_public_when_its_owner_cannot_satisfy_it():
    hands = [["1-2"], ["5-10", "12-9"], ["0-3"]]
    state = position(hands, trains={0: ["12-5", "5-5"]}, boneyard=["7-8"])
    state.apply("draw")
    state.apply("pass")
    assert state.markers[0] is True
    assert texts(state) == ["play 5-10 p1"]  # now the others may satisfy it


def test_relaxed_doubles_lets_the_next_tile_go_anywhere():
    state = position([["5-5", "7-12", "5-8"], ["5-9"], ["4-4"]], trains={0: ["12-5"]})  # the default
    state.apply("play 5-5 p1")
    assert texts(state) == ["play 5-8 p1", "play 7-12 mx"]
    state.apply("play 7-12 mx")
    # The double is still open: the next player must satisfy it (p1's train is private: draw).
    assert state.current_player == 1
    assert texts(state) == ["draw"]


def test_double_as_last_tile_ends_the_round():
    state = position([["5-5"], ["3-3", "0-1"], ["2-4"]], trains={0: ["12-5"]})
    events = state.apply("play 5-5 p1")
    assert state.is_over
    assert any(e.key == "mexican_train.event.domino" for e in events)
    assert state.round_scores == [[0, 7, 6]]


def test_more_than_one_open_double_any_may_be_satisfied():
    hands = [["3-9", "4-9", "0-1"], ["1-1"], ["2-2"]]
    state = position(hands, trains={0: ["12-3", "3-3"], "mx": ["12-4", "4-4"]}, phase=PLAY)
    assert texts(state) == ["play 3-9 p1", "play 4-9 mx"]
    assert hand_texts(state, 0) == ["0-1", "3-9", "4-9"]

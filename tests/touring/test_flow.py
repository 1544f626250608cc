"""Turn flow: must-play, discards, winning, the draw-pile reshuffle, the turn limit, teams."""

from __future__ import annotations

import pytest

from tabletrek import IllegalAction
from tabletrek.games.touring import rules
from tests.touring.helpers import hand, position, team_miles, texts


def test_a_player_with_a_playable_card_must_play() -> None:
    state = position(hands={0: ["go", "city-limits"]})
    assert texts(state) == ["play go"]
    with pytest.raises(IllegalAction, match="must play one"):
        state.apply("discard city-limits")


def test_discard_any_card_when_nothing_can_be_played() -> None:
    state = position(hands={0: ["1", "city-limits", "gasoline"]})
    assert texts(state) == ["discard 1", "discard city-limits", "discard gasoline"]
    state.apply("discard gasoline")
    assert state.discard == [10]


def test_free_discard_option_allows_discarding_with_a_play() -> None:
    state = position(hands={0: ["go", "city-limits"]}, free_discard=True)
    assert texts(state) == ["play go", "discard go", "discard city-limits"]
    state.apply("discard go")
    assert state.discard == [0]


def test_turn_draws_one_then_passes_to_the_left() -> None:
    state = position(hands={0: ["go"], 1: []}, draw_top=["30"])
    events = state.apply("play go")
    assert state.current_player == 1
    assert hand(state, 1) == ["30"]
    drew = events[-1]
    assert drew.render(0, "en") == "P2 drew a card."
    assert drew.render(1, "en") == "P2 drew 30 Miles."


def test_completing_the_exact_set_wins_at_once() -> None:
    state = position(
        hands={0: ["30"]},
        go={0: ["go"]},
        speed={0: ["country"]},
        miles={0: {"1": 8, "3": 4, "15": 2, "30": 1}},
    )
    events = state.apply("play 30")
    assert state.is_over and state.current_player is None
    result = state.result
    assert result is not None and result.winners == (0,)
    assert result.scores == (110.0, 0.0)
    assert result.returns == (1.0, -1.0)
    assert events[-1].key == "touring.event.won"
    assert state.legal_actions() == ()
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply("play 1")


@pytest.mark.parametrize("players", [2, 4])
def test_mileage_events_name_the_new_total_and_are_shared(players: int) -> None:
    # A mileage play's event is made on first use and shared by later plays of the same game that
    # reach the same total: it must still name the player, the card and the table's new total.
    setup = {"hands": {0: ["15"]}, "go": {0: ["go"]}, "speed": {0: ["country"]}}
    first = position(players, **setup, miles={0: {"3": 1}})
    twin = first.clone()
    [event, *_] = first.apply("play 15")
    assert event.key == "touring.event.miles"
    assert event.render(0, "en") == "P1 played 15 Miles (18 in all)."
    assert twin.apply("play 15")[0] is event
    farther = position(players, **setup, miles={0: {"30": 1}})
    assert farther.apply("play 15")[0].render(0, "en") == "P1 played 15 Miles (45 in all)."


def test_one_card_short_of_the_set_is_not_a_win() -> None:
    state = position(hands={0: ["1"]}, go={0: ["go"]}, miles={0: {"1": 6, "3": 4, "15": 2, "30": 2}})
    state.apply("play 1")
    assert not state.is_over and state.team_miles(0) == 109


def test_three_players_race_to_seventy() -> None:
    state = position(
        3, hands={0: ["30"]}, go={0: ["go"]}, speed={0: ["country"]}, miles={0: {"1": 4, "3": 2, "15": 2}}
    )
    state.apply("play 30")
    assert state.is_over and state.result is not None and state.result.winners == (0,)
    assert state.team_miles(0) == 70


def test_three_players_target_either_opponent() -> None:
    state = position(3, hands={0: ["puncture"]}, go={1: ["go"], 2: ["go"]})
    assert texts(state) == ["play puncture p2", "play puncture p3"]


def test_reshuffle_keeps_pile_tops_and_mileage() -> None:
    state = position(
        hands={0: ["go"], 1: ["1", "1", "1", "1", "1"]},
        go={0: ["go", "puncture"], 1: ["go", "out-of-gasoline", "gasoline"]},
        speed={0: ["country", "city-limits"], 1: ["country"]},
        miles={0: {"1": 2}},
        discard=["3", "15"],
        draw=[],
    )
    before = sum(state.card_counts())
    events = state.apply("play go")
    keys = [e.key for e in events]
    assert "touring.event.reshuffle" in keys
    assert state.go == [[0], [10]]  # only the tops stay
    assert state.speed == [[6], [5]]
    assert team_miles(state, 0)["1"] == 2
    assert state.discard == []
    assert sum(state.card_counts()) == before
    # Everything not in a hand, a pile top or a mileage pile was shuffled in; seat 1 drew one.
    assert len(state.draw) == before - len(state.hands[0]) - len(state.hands[1]) - 4 - 2
    assert len(state.hands[1]) == 6


def test_no_draw_when_nothing_is_left_to_reshuffle() -> None:
    state = position(hands={0: ["go"]}, draw=[])
    state.discard = []
    state.hands[1] = []
    state.held[1] = 0
    events = state.apply("play go")
    assert events[-1].key == "touring.event.no_draw"
    assert state.legal_actions()[0].text == "pass"


def test_max_turns_ends_in_a_draw() -> None:
    state = position(hands={0: ["city-limits"], 1: ["city-limits"]}, max_turns=2)
    state.apply("discard city-limits")
    assert not state.is_over
    state.apply("discard city-limits")
    assert state.is_over
    assert (
        state.result is not None
        and state.result.winners == ()
        and state.result.reason == "core.end.max_turns"
    )


def test_partners_share_their_piles() -> None:
    state = position(4, hands={0: ["go"], 2: ["1"]}, to_act=0)
    state.apply("play go")
    state.apply(state.legal_actions()[0])  # seat 1 (other team) plays whatever it drew
    state.hands[2] = [1]
    state.held[2] = rules.hand_kinds([1])
    state._legal = None
    assert "play 1" in texts(state)  # seat 2 moves on the Go its partner played
    state.apply("play 1")
    assert team_miles(state, 0)["1"] == 1


def test_team_hazards_target_the_other_team_by_name() -> None:
    state = position(4, hands={0: ["puncture"]}, go={1: ["go"]})
    assert texts(state) == ["play puncture t2"]
    with pytest.raises(IllegalAction, match="opponent, not on your own side"):
        state.apply("play puncture t1")
    event = state.apply("play puncture t2")[0]
    assert event.render(None, "en") == "P1 played Puncture on Team 2."


def test_a_team_wins_together() -> None:
    state = position(
        6,
        hands={4: ["30"]},
        go={1: ["go"]},
        speed={1: ["country"]},
        miles={1: {"1": 4, "3": 2, "15": 2}},
        to_act=4,
    )
    state.apply("play 30")
    assert state.result is not None and state.result.winners == (1, 4)

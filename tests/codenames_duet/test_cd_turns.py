"""Scenarios for the turn rules: clue, guesses read on the clue-giver's key, tokens, winning, losing."""

from __future__ import annotations

import pytest

from tabletrek import IllegalAction

from .positions import GREENS_A, GREENS_B, clue, guess, position, turn


def test_green_lets_the_guesser_go_on_past_the_number() -> None:
    state = position()
    clue(state, 1)
    guess(state, 0)
    assert state.phase == "guess"
    guess(state, 1)  # the number is no cap
    guess(state, 3)
    assert state.agent[:4] == [0, 0, None, 0]
    assert state.tokens == 9
    assert "stop" in [a.text for a in state.legal_actions()]


def test_at_least_one_guess_before_stopping() -> None:
    state = position()
    clue(state, 2)
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply("stop")
    assert err.value.key == "codenames_duet.illegal.guess_first"
    assert state.to_json() == before
    assert "stop" not in [a.text for a in state.legal_actions()]


def test_guess_is_read_on_the_clue_givers_side() -> None:
    state = position()
    clue(state)  # side A gives; cell 8 is a bystander for A, green for B
    guess(state, 8)
    assert state.agent[8] is None
    assert state.bystander[0][8] and not state.bystander[1][8]
    assert state.giver == 1 and state.phase == "clue"
    clue(state)  # side B gives: the same word is an agent in this direction
    guess(state, 8)
    assert state.agent[8] == 1


def test_bystander_ends_the_turn_with_a_token_facing_the_guesser() -> None:
    state = position()
    clue(state)
    guess(state, 0)
    guess(state, 18)
    assert state.tokens == 8 and state.turns == 1 and state.mistakes == 1
    assert state.phase == "clue" and state.giver == 1
    assert state.public_view()["bystanders"] == [[18], []]
    assert state.is_visible(18)  # a token from one direction only leaves the word in play


def test_known_bystander_cannot_be_guessed_again_in_that_direction() -> None:
    state = position()
    turn(state, [18])  # A clues, B touches 18: bystander on A's key
    turn(state, [18])  # B clues, A touches 18: bystander on B's key too
    assert not state.is_visible(18)
    turn(state, [0])  # A clues again
    clue(state)
    with pytest.raises(IllegalAction) as err:
        guess(state, 18)
    assert err.value.key == "codenames_duet.illegal.known_bystander"


def test_assassin_loses_for_both() -> None:
    state = position()
    clue(state)
    guess(state, 16)  # assassin on A's key (only a bystander on the guesser's own key)
    assert state.is_over and state.ending == "assassin" and state.assassin == 16
    result = state.result
    assert result is not None
    assert result.winners == () and result.returns == (-1.0, -1.0)
    assert result.reason == "codenames_duet.end.assassin"


def test_assassin_on_the_guessers_side_is_harmless() -> None:
    state = position()
    clue(state)
    guess(state, 13)  # green on A's key, assassin on B's: read on A's, so an agent
    assert state.agent[13] == 0 and not state.is_over


def test_every_turn_uses_exactly_one_token() -> None:
    state = position()
    turn(state, [0])  # ends by stopping
    assert state.tokens == 8
    turn(state, [18])  # ends on a bystander
    assert state.tokens == 7
    turn(state, [3, 4, 5])
    assert state.tokens == 6 and state.turns == 3


def test_clue_givers_alternate() -> None:
    state = position()
    givers = []
    for _ in range(4):
        givers.append(state.current_player)
        turn(state, [18 + len(givers)])
    assert givers == [0, 1, 0, 1]


def test_first_clue_option_picks_the_starting_side() -> None:
    state = position(first_clue=1)
    assert state.current_player == 1
    turn(state, [18])
    assert state.current_player == 0


def test_two_one_clue_order() -> None:
    state = position(clue_order="two_one")
    givers = []
    for i in range(6):
        givers.append(state.giver)
        turn(state, [19 + i])
    assert givers == [0, 0, 1, 0, 0, 1]


def test_when_one_sides_greens_are_covered_the_other_gives_every_clue() -> None:
    state = position()
    clue(state)
    for cell in GREENS_A:
        guess(state, cell)
    # The last green on A's key ends the turn by itself.
    assert state.phase == "clue" and state.turns == 1 and state.tokens == 8
    assert state.greens_left(0) == 0
    for cell in (20, 21, 22):
        assert state.giver == 1 and state.current_player == 1
        turn(state, [cell])
        assert not state.is_over


def test_fifteen_agents_win() -> None:
    state = position()
    turn(state, GREENS_A)
    clue(state)
    for cell in GREENS_B:
        if state.agent[cell] is None:
            guess(state, cell)
    assert state.is_over and state.ending == "won"
    result = state.result
    assert result is not None
    assert result.winners == (0, 1) and result.returns == (1.0, 1.0) and result.scores == (15.0, 15.0)
    assert state.agents_found() == 15


def test_guessing_a_covered_word_or_one_off_the_table_is_refused() -> None:
    state = position()
    clue(state)
    guess(state, 0)
    before = state.to_json()
    for text, key in (
        ("guess acorn", "codenames_duet.illegal.covered"),
        ("guess zebra", "codenames_duet.illegal.not_on_board"),
        ("clue whale 2", "codenames_duet.illegal.clue_while_guessing"),
        ("dance", "codenames_duet.illegal.unknown"),
    ):
        with pytest.raises(IllegalAction) as err:
            state.apply(text)
        assert err.value.key == key
    assert state.to_json() == before


def test_guess_before_the_clue_is_refused() -> None:
    state = position()
    for text, key in (
        ("guess acorn", "codenames_duet.illegal.guess_before_clue"),
        ("stop", "codenames_duet.illegal.stop_before_clue"),
    ):
        with pytest.raises(IllegalAction) as err:
            state.apply(text)
        assert err.value.key == key


def test_views_show_only_the_own_key_side() -> None:
    state = position()
    assert state.public_view()["key"] is None
    assert state.view(0)["key"][15:18] == ["assassin", "assassin", "bystander"]
    assert state.view(1)["key"][15:18] == ["assassin", "bystander", "assassin"]
    assert state.view(0)["side"] == 0 and state.view(1)["side"] == 1


def test_action_indices_are_stable_and_decode() -> None:
    state = position()
    game = state.game
    clue(state)
    for action in state.legal_actions():
        assert 0 <= action.index < game.num_actions
        assert game.action(action.index) == action
    assert game.action(game.stop_index).text == "stop"
    with pytest.raises(ValueError, match="free text"):
        game.action(game.clue_base + 2)
    assert game.clue_action("ocean", 2).index == game.clue_base + 2

"""Scenarios for time running out, mission mistakes and every variant option."""

from __future__ import annotations

import pytest

import tabletrek
from tabletrek import IllegalAction

from .positions import GREENS_A, GREENS_B, clue, guess, position, turn

# ----- time runs out: sudden death ---------------------------------------------------------------


def test_time_out_starts_sudden_death_without_clues() -> None:
    state = position(tokens=1)
    turn(state, [0])
    assert state.tokens == 0 and state.phase == "sudden"
    for text, key in (
        ("clue ocean 1", "codenames_duet.illegal.clue_sudden"),
        ("stop", "codenames_duet.illegal.stop_sudden"),
    ):
        with pytest.raises(IllegalAction) as err:
            state.apply(text)
        assert err.value.key == key
    assert all(a.text.startswith("guess ") for a in state.legal_actions())


def test_sudden_death_goes_on_while_correct_and_a_miss_loses() -> None:
    state = position(tokens=1)
    turn(state, [0])
    reader = state.giver
    greens = GREENS_A if reader == 0 else GREENS_B
    guess(state, greens[3])
    assert state.phase == "sudden" and state.agent[greens[3]] == reader
    guess(state, 24)  # a bystander on both keys
    assert state.is_over and state.ending == "sudden_death"
    result = state.result
    assert result is not None and result.winners == ()


def test_sudden_death_only_the_unfinished_side_is_guessed_then_win() -> None:
    state = position(tokens=2)
    clue(state)
    for cell in GREENS_A:
        guess(state, cell)  # all of A's greens: the turn ends by itself
    turn(state, [8])  # B clues (the only one who can now), A finds one
    assert state.phase == "sudden" and state.giver == 1  # A's key is done: A guesses on B's key
    assert state.current_player == 0
    for cell in (9, 10, 11, 12, 14):
        guess(state, cell)
    assert state.is_over and state.ending == "won"


def test_sudden_death_switches_to_the_other_side_when_one_is_done() -> None:
    state = position(tokens=1)
    clue(state)
    guess(state, 0)
    state.apply("stop")
    first = state.giver
    remaining = [c for c in (GREENS_A if first == 0 else GREENS_B) if state.agent[c] is None]
    for cell in remaining:
        guess(state, cell)
    assert state.phase == "sudden" and state.giver == 1 - first


# ----- mission mistakes --------------------------------------------------------------------------


def test_mistakes_beyond_the_allowed_cost_two_tokens() -> None:
    state = position(tokens=6, mistakes=1)
    turn(state, [18])
    assert state.tokens == 5 and state.mistakes == 1
    turn(state, [19])
    assert state.tokens == 3 and state.mistakes == 2
    turn(state, [0])  # a stop still costs one
    assert state.tokens == 2


def test_a_mistake_on_the_last_token_loses() -> None:
    state = position(tokens=3, mistakes=0)
    turn(state, [18])
    assert state.tokens == 1
    turn(state, [19])
    assert state.is_over and state.ending == "time_mistake"


def test_a_costly_mistake_can_end_time_into_sudden_death() -> None:
    state = position(tokens=2, mistakes=0)
    turn(state, [18])
    assert state.tokens == 0 and state.phase == "sudden"


def test_standard_game_never_charges_extra() -> None:
    state = position()
    for cell in range(17, 25):
        turn(state, [cell])
    assert state.tokens == 1 and state.mistakes == 8


# ----- options ------------------------------------------------------------------------------------


def test_tokens_option() -> None:
    state = position(tokens=11)
    assert state.tokens == 11 and state.public_view()["tokens_start"] == 11
    with pytest.raises(ValueError, match="tokens"):
        tabletrek.load("codenames-duet", tokens=12)


def test_zero_clues() -> None:
    state = position()
    with pytest.raises(IllegalAction) as err:
        clue(state, 0)
    assert err.value.key == "codenames_duet.clue.number_range"
    state = position(zero_clues=True)
    clue(state, 0)
    with pytest.raises(IllegalAction):
        state.apply("stop")  # zero still needs a guess
    guess(state, 0)
    assert state.agent[0] == 0


def test_number_may_exceed_the_greens_left() -> None:
    # The seed: "one word and one number", no cap at the greens left (test_cd_seed_readings.py).
    state = position()
    turn(state, [0, 1, 2, 3, 4])  # A has 4 greens left
    turn(state, [8])
    with pytest.raises(IllegalAction) as err:
        clue(state, 10)
    assert err.value.params == {"number": 10, "low": 1, "high": 9}
    clue(state, 7)


def test_teams_spokespeople_rotate_and_share_their_sides_key() -> None:
    state = position(players=4)
    assert state.game.sides == ((0, 2), (1, 3))
    acted = []
    for cell in (18, 19, 20, 21):
        acted.append(state.current_player)
        clue(state)
        acted.append(state.current_player)
        guess(state, cell)
    assert acted == [0, 1, 1, 0, 2, 3, 3, 2]
    assert state.view(2)["key"] == state.view(0)["key"]
    assert state.view(3)["key"] == state.view(1)["key"]
    result_seats = tabletrek.load("codenames-duet", players=5).sides
    assert result_seats == ((0, 2, 4), (1, 3))


def test_strict_penalty_voids_an_invalid_clue_for_a_token() -> None:
    state = position(strict_penalty=True)
    events = state.apply("clue acorns 2")  # a form of 'acorn' on the table
    assert [e.key for e in events] == ["codenames_duet.clue.form", "codenames_duet.event.penalty"]
    assert state.tokens == 8 and state.phase == "clue" and state.current_player == 0
    assert state.clues[-1]["penalty"] == "codenames_duet.clue.form"
    before = state.to_json()
    with pytest.raises(IllegalAction):
        clue(state, 12)  # a malformed number is refused, not penalised
    assert state.to_json() == before
    clue(state, 2)
    assert state.phase == "guess"


def test_strict_penalty_replays_exactly() -> None:
    state = tabletrek.load("codenames-duet", strict_penalty=True).new_game(seed=5)
    word = state.view(0)["words"][0]
    state.apply(f"clue {word} 1")
    state.apply("clue Zebra 1")  # capitalised: a proper noun, void again
    assert state.tokens == 7 and len(state.clues) == 2
    assert tabletrek.replay(state.record()).to_json() == state.to_json()


def test_strict_penalty_on_the_last_token_means_sudden_death() -> None:
    state = position(strict_penalty=True, tokens=1)
    state.apply("clue acorn 1")
    assert state.phase == "sudden"


def test_without_strict_penalty_an_invalid_clue_is_refused_and_free() -> None:
    state = position()
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply("clue acorns 2")
    assert err.value.key == "codenames_duet.clue.form"
    assert state.to_json() == before


def test_relaxed_clues_allow_names_abbreviations_and_compounds() -> None:
    strict = position()
    relaxed = position(relaxed_clues=True)
    for word, key in (
        ("Paris", "proper_noun"),
        ("NASA", "abbreviation"),
        ("u.s.a", "abbreviation"),
        ("ice-cream", "compound"),
        ("new york", "not_one_word"),
        ("r2d2", "mixed"),
    ):
        with pytest.raises(IllegalAction) as err:
            strict.apply(f"clue {word} 2")
        assert err.value.key == f"codenames_duet.clue.{key}"
        relaxed.clone().apply(f"clue {word} 2")
    with pytest.raises(IllegalAction) as err:
        relaxed.apply("clue acorn 2")  # the board rules still hold
    assert err.value.key == "codenames_duet.clue.visible"


def test_a_proper_noun_clue_keeps_its_case_in_the_record() -> None:
    state = position(relaxed_clues=True)
    state.apply("clue Paris 2")
    assert state.history == ("clue Paris 2",)
    assert state.clues[0]["word"] == "Paris"


def test_unknown_option_and_bad_values_are_named() -> None:
    with pytest.raises(ValueError, match="clue_order"):
        tabletrek.load("codenames-duet", clue_order="random")
    with pytest.raises(ValueError, match="unknown option"):
        tabletrek.load("codenames-duet", timer=9)
    with pytest.raises(ValueError, match="players"):
        tabletrek.load("codenames-duet", players=1)


def test_team_members_take_turns_touching_in_sudden_death() -> None:
    state = position(players=4, tokens=1)
    turn(state, [0])  # P1 clues, P2 touches; the last token is used
    assert state.phase == "sudden" and state.giver == 1  # side A now guesses on B's key
    assert state.current_player == 0
    guess(state, 8)
    assert state.current_player == 2
    guess(state, 9)
    assert state.current_player == 0

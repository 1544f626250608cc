"""Setup rules: deck sizes, deal, first player, required sets, teams, player counts, options."""

from __future__ import annotations

import pytest

import tabletrek
from tabletrek.games.touring.cards import CODE, load_deck
from tabletrek.games.touring.state import TouringState


@pytest.mark.parametrize(("players", "size"), [(2, 99), (3, 96), (4, 99), (5, 96), (6, 96)])
def test_deck_size_by_player_count(players: int, size: int) -> None:
    state = tabletrek.load("touring", players=players).new_game(seed=1)
    assert isinstance(state, TouringState)
    assert sum(state.card_counts()) == size


def test_reduced_deck_removes_one_of_each_delay() -> None:
    full = tabletrek.load("touring", players=2).deck_counts
    reduced = tabletrek.load("touring", players=3).deck_counts
    removed = {slug: full[CODE[slug]] - reduced[CODE[slug]] for slug in CODE}
    assert removed == {
        slug: (1 if slug in ("puncture", "out-of-gasoline", "collision") else 0) for slug in CODE
    }


def test_rulings_deck_counts() -> None:
    deck = load_deck()
    counts = dict(zip(CODE, deck.full, strict=True))
    assert counts == {
        "go": 13,
        "1": 19,
        "3": 10,
        "15": 10,
        "30": 12,
        "country": 6,
        "city-limits": 3,
        "puncture": 4,
        "out-of-gasoline": 4,
        "collision": 4,
        "gasoline": 7,
        "hauled-in": 7,
    }


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal_five_each_and_first_player_draws(players: int) -> None:
    state = tabletrek.load("touring", players=players).new_game(seed=5)
    assert isinstance(state, TouringState)
    assert state.current_player == 0  # the dealer's left: seat 0 starts
    assert [len(h) for h in state.hands] == [6] + [5] * (players - 1)
    assert len(state.draw) == sum(state.card_counts()) - 5 * players - 1


@pytest.mark.parametrize(
    ("players", "goal", "required"),
    [
        (2, 110, (8, 4, 2, 2)),
        (4, 110, (8, 4, 2, 2)),
        (3, 70, (4, 2, 2, 1)),
        (5, 70, (4, 2, 2, 1)),
        (6, 70, (4, 2, 2, 1)),
    ],
)
def test_required_mileage_sets(players: int, goal: int, required: tuple[int, ...]) -> None:
    game = tabletrek.load("touring", players=players)
    assert game.required == required
    assert game.goal_miles == goal
    assert game.new_game(seed=0).view(0)["goal"] == goal


def test_teams_alternate_around_the_table() -> None:
    assert tabletrek.load("touring", players=4).members == ((0, 2), (1, 3))
    assert tabletrek.load("touring", players=6).members == ((0, 3), (1, 4), (2, 5))
    assert tabletrek.load("touring", players=3).members == ((0,), (1,), (2,))
    five = tabletrek.load("touring", players=5)
    assert five.members == ((0,), (1,), (2,), (3,), (4,)) and not five.team_games


@pytest.mark.parametrize("players", [1, 7, 0, "2"])
def test_unsupported_player_counts_are_refused(players: object) -> None:
    with pytest.raises(ValueError, match="touring is played by 2, 3, 4, 5, 6 players"):
        tabletrek.load("touring", players=players)


def test_unknown_option_names_it() -> None:
    with pytest.raises(ValueError, match=r"unknown option 'free_discards'.*did you mean 'free_discard'"):
        tabletrek.load("touring", free_discards=True)


def test_option_types_are_checked() -> None:
    with pytest.raises(ValueError, match="'max_turns' of touring must be an integer"):
        tabletrek.load("touring", max_turns="many")
    with pytest.raises(ValueError, match="at least 1"):
        tabletrek.load("touring", max_turns=0)
    with pytest.raises(ValueError, match="true or false"):
        tabletrek.load("touring", free_discard="yes")


def test_unknown_game_is_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"unknown game 'tourin'.*did you mean 'touring'"):
        tabletrek.load("tourin")


def test_same_seed_same_game() -> None:
    game = tabletrek.load("touring")
    assert game.new_game(seed=3).to_json() == game.new_game(seed=3).to_json()
    assert game.new_game(seed=3).to_json() != game.new_game(seed=4).to_json()

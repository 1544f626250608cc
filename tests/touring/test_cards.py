"""Where each card may be played: Go, mileage, speed cards, delays and remedies (docs/rules/touring.md,
"Your piles")."""

from __future__ import annotations

import pytest

from tabletrek import IllegalAction
from tests.touring.helpers import position, team_miles, texts


def test_go_is_the_first_card_of_the_go_pile() -> None:
    state = position(hands={0: ["go", "1"]})
    assert texts(state) == ["play go"]
    state.apply("play go")
    assert state.go[0] == [0]


@pytest.mark.parametrize("top", ["puncture", "gasoline", "hauled-in"])
def test_go_covers_puncture_and_the_remedies(top: str) -> None:
    piles = {
        "puncture": ["go", "puncture"],
        "gasoline": ["go", "out-of-gasoline", "gasoline"],
        "hauled-in": ["go", "collision", "hauled-in"],
    }
    state = position(hands={0: ["go"]}, go={0: piles[top]})
    assert "play go" in texts(state)


@pytest.mark.parametrize(
    ("top", "reason"),
    [
        ("go", "already shows Go"),
        ("out-of-gasoline", "play the remedy first"),
        ("collision", "play the remedy first"),
    ],
)
def test_go_never_covers_go_or_an_unremedied_delay(top: str, reason: str) -> None:
    piles = ["go"] if top == "go" else ["go", top]
    state = position(hands={0: ["go", "city-limits"]}, go={0: piles})
    assert "play go" not in texts(state)
    with pytest.raises(IllegalAction, match=reason):
        state.apply("play go")


@pytest.mark.parametrize("card", ["1", "3", "15"])
def test_mileage_needs_go_on_top(card: str) -> None:
    stopped = position(hands={0: [card]}, go={0: ["go", "puncture"]})
    with pytest.raises(IllegalAction, match="Mileage needs Go"):
        stopped.apply(f"play {card}")
    empty = position(hands={0: [card]})
    with pytest.raises(IllegalAction, match="Mileage needs Go"):
        empty.apply(f"play {card}")
    moving = position(hands={0: [card]}, go={0: ["go"]})
    moving.apply(f"play {card}")
    assert team_miles(moving, 0)[card] == 1


def test_thirty_with_country_counts() -> None:
    state = position(hands={0: ["30"]}, go={0: ["go"]}, speed={0: ["country"]})
    state.apply("play 30")
    assert team_miles(state, 0)["30"] == 1
    assert state.discard == []


@pytest.mark.parametrize("speed", [[], ["country", "city-limits"]])
def test_thirty_while_limited_is_speeding_and_goes_to_the_discard(speed: list[str]) -> None:
    state = position(hands={0: ["30"]}, go={0: ["go"]}, speed={0: speed})
    assert texts(state) == ["play 30"]
    events = state.apply("play 30")
    assert team_miles(state, 0)["30"] == 0
    assert state.discard == [4]
    assert events[0].key == "touring.event.speeding"


def test_country_on_empty_speed_pile_or_on_city_limits() -> None:
    state = position(hands={0: ["country"]}, go={0: ["go"]})  # Go first (test_go_first.py)
    state.apply("play country")
    assert state.speed[0] == [5]
    again = position(hands={0: ["country"]}, speed={0: ["country", "city-limits"]})
    again.apply("play country")
    assert again.speed[0] == [5, 6, 5]


def test_country_not_on_country() -> None:
    state = position(hands={0: ["country", "1"]}, go={0: ["go"]}, speed={0: ["country"]})
    with pytest.raises(IllegalAction, match="empty speed pile or on City Limits"):
        state.apply("play country")


def test_city_limits_only_on_an_opponents_country() -> None:
    state = position(hands={0: ["city-limits"]}, speed={1: ["country"]})
    assert texts(state) == ["play city-limits p2"]
    state.apply("play city-limits p2")
    assert state.speed[1] == [5, 6]
    assert state.is_limited(1)


@pytest.mark.parametrize("speed", [[], ["country", "city-limits"]])
def test_city_limits_needs_country_showing(speed: list[str]) -> None:
    state = position(hands={0: ["city-limits", "1"]}, speed={1: speed})
    assert "play city-limits p2" not in texts(state)
    with pytest.raises(IllegalAction, match="whose speed pile shows Country"):
        state.apply("play city-limits p2")


def test_city_limits_not_on_yourself() -> None:
    state = position(hands={0: ["city-limits", "1"]}, speed={0: ["country"], 1: ["country"]})
    with pytest.raises(IllegalAction, match="opponent, not on your own side"):
        state.apply("play city-limits p1")


@pytest.mark.parametrize("delay", ["puncture", "out-of-gasoline", "collision"])
def test_delays_only_on_an_opponent_showing_go(delay: str) -> None:
    state = position(hands={0: [delay]}, go={1: ["go"]})
    state.apply(f"play {delay} p2")
    assert list(state.go[1])[-1] == {"puncture": 7, "out-of-gasoline": 8, "collision": 9}[delay]


@pytest.mark.parametrize("victim_go", [[], ["go", "puncture"], ["go", "out-of-gasoline", "gasoline"]])
@pytest.mark.parametrize("delay", ["puncture", "out-of-gasoline", "collision"])
def test_no_delay_without_go_showing(delay: str, victim_go: list[str]) -> None:
    state = position(hands={0: [delay, "city-limits"]}, go={1: victim_go})
    assert not any(t.startswith(f"play {delay}") for t in texts(state))
    with pytest.raises(IllegalAction, match="whose Go pile shows Go"):
        state.apply(f"play {delay} p2")


def test_delay_needs_a_target() -> None:
    state = position(hands={0: ["puncture"]}, go={1: ["go"]})
    with pytest.raises(IllegalAction, match="Say whom"):
        state.apply("play puncture")
    with pytest.raises(IllegalAction, match="not a table here"):
        state.apply("play puncture p7")


def test_puncture_is_cured_by_go() -> None:
    state = position(hands={0: ["go", "1"]}, go={0: ["go", "puncture"]})
    assert texts(state) == ["play go"]
    state.apply("play go")
    assert state.go_top(0) == 0


def test_out_of_gasoline_needs_gasoline_then_go() -> None:
    state = position(
        hands={0: ["go", "gasoline", "1"], 1: ["city-limits"]}, go={0: ["go", "out-of-gasoline"]}
    )
    assert texts(state) == ["play gasoline"]
    state.apply("play gasoline")
    state.apply("discard city-limits")  # the opponent's turn
    assert "play 1" not in texts(state)
    state.apply("play go")
    assert state.go_top(0) == 0


def test_collision_needs_hauled_in_then_go() -> None:
    state = position(hands={0: ["go", "hauled-in", "gasoline"]}, go={0: ["go", "collision"]})
    assert texts(state) == ["play hauled-in"]
    with pytest.raises(IllegalAction, match="goes only on your Out of Gasoline"):
        state.apply("play gasoline")
    state.apply("play hauled-in")
    assert state.go[0][-1] == 11


def test_hauled_in_only_on_collision() -> None:
    state = position(hands={0: ["hauled-in", "1"]}, go={0: ["go", "out-of-gasoline"]})
    with pytest.raises(IllegalAction, match="Hauled In goes only on your Collision"):
        state.apply("play hauled-in")


def test_a_full_mileage_pile_takes_no_more() -> None:
    state = position(hands={0: ["15", "3"]}, go={0: ["go"]}, miles={0: {"15": 2}})
    assert texts(state) == ["play 3"]
    with pytest.raises(IllegalAction, match="already holds the 2 the trip needs"):
        state.apply("play 15")


def test_card_not_in_hand() -> None:
    state = position(hands={0: ["1"]}, go={0: ["go"]})
    with pytest.raises(IllegalAction, match="no 30 Miles in your hand"):
        state.apply("play 30")


def test_gibberish_is_explained() -> None:
    state = position(hands={0: ["1"]}, go={0: ["go"]})
    with pytest.raises(IllegalAction, match="is not a Touring move"):
        state.apply("fly to the moon")
    with pytest.raises(IllegalAction, match="does not name a card"):
        state.apply("play 45")


def test_text_is_case_and_space_insensitive() -> None:
    state = position(hands={0: ["1"]}, go={0: ["go"]})
    state.apply("  PLAY   1 ")
    assert team_miles(state, 0)["1"] == 1

"""Mileage lost to Puncture and Collision (docs/rules/touring.md, "Mileage lost to delays")."""

from __future__ import annotations

import pytest

from tests.touring.helpers import position, team_miles, texts


def test_puncture_in_country_costs_one_fifteen() -> None:
    state = position(
        hands={0: ["puncture"]}, go={1: ["go"]}, speed={1: ["country"]}, miles={1: {"15": 2, "30": 1}}
    )
    events = state.apply("play puncture p2")
    assert team_miles(state, 1) == {"1": 0, "3": 0, "15": 1, "30": 1}
    assert state.discard == [3]
    assert events[0].key == "touring.event.attack_loss"
    assert events[0].args["miles"] == 15


@pytest.mark.parametrize("speed", [[], ["country", "city-limits"]])
def test_puncture_in_city_limits_costs_nothing(speed: list[str]) -> None:
    state = position(hands={0: ["puncture"]}, go={1: ["go"]}, speed={1: speed}, miles={1: {"15": 2}})
    events = state.apply("play puncture p2")
    assert team_miles(state, 1)["15"] == 2
    assert events[0].key == "touring.event.attack"


def test_puncture_in_country_without_fifteens_costs_nothing() -> None:
    state = position(
        hands={0: ["puncture"]}, go={1: ["go"]}, speed={1: ["country"]}, miles={1: {"30": 2, "1": 3}}
    )
    state.apply("play puncture p2")
    assert team_miles(state, 1) == {"1": 3, "3": 0, "15": 0, "30": 2}


def test_collision_in_country_attacker_chooses_when_both_are_possible() -> None:
    setup = {
        "hands": {0: ["collision"]},
        "go": {1: ["go"]},
        "speed": {1: ["country"]},
        "miles": {1: {"15": 2, "30": 1}},
    }
    assert texts(position(**setup)) == ["play collision p2 30", "play collision p2 15s"]
    thirty = position(**setup)
    thirty.apply("play collision p2 30")
    assert team_miles(thirty, 1) == {"1": 0, "3": 0, "15": 2, "30": 0}
    fifteens = position(**setup)
    fifteens.apply("play collision p2 15s")
    assert team_miles(fifteens, 1) == {"1": 0, "3": 0, "15": 0, "30": 1}
    assert sorted(fifteens.discard) == [3, 3]


def test_collision_choice_must_be_named() -> None:
    from tabletrek import IllegalAction

    state = position(
        hands={0: ["collision"]}, go={1: ["go"]}, speed={1: ["country"]}, miles={1: {"15": 2, "30": 1}}
    )
    with pytest.raises(IllegalAction, match="30 or 15s"):
        state.apply("play collision p2")


def test_a_collision_with_no_choice_refuses_a_named_loss() -> None:
    # docs/rules/touring.md, "Mileage lost to delays", ruling: "in Country, the attacker chooses
    # between the 30 and the two 15s when the victim has a 30 and at least two 15s ...; otherwise
    # whatever of those exists is removed": with a single 15 there is no loss to name.
    from tabletrek import IllegalAction

    state = position(hands={0: ["collision"]}, go={1: ["go"]}, speed={1: ["country"]}, miles={1: {"15": 1}})
    with pytest.raises(IllegalAction) as refused:
        state.apply("play collision p2 30")
    assert refused.value.key == "touring.illegal.collision_choice"
    assert refused.value.params == {"choices": "-"}
    assert texts(state) == ["play collision p2"]


@pytest.mark.parametrize(
    ("miles", "after"),
    [
        ({"30": 2, "15": 1}, {"15": 1, "30": 1}),  # one 30 exists: it goes
        ({"15": 2}, {"15": 0, "30": 0}),  # no 30: two 15s
        ({"15": 1}, {"15": 0, "30": 0}),  # a single 15 if that is all there is
        ({"1": 4}, {"15": 0, "30": 0}),  # nothing to lose
    ],
)
def test_collision_in_country_takes_what_exists(miles: dict[str, int], after: dict[str, int]) -> None:
    state = position(hands={0: ["collision"]}, go={1: ["go"]}, speed={1: ["country"]}, miles={1: miles})
    assert texts(state) == ["play collision p2"]
    state.apply("play collision p2")
    lost = team_miles(state, 1)
    assert {k: lost[k] for k in ("15", "30")} == after


@pytest.mark.parametrize("speed", [[], ["country", "city-limits"]])
def test_collision_in_city_limits_costs_one_fifteen(speed: list[str]) -> None:
    state = position(
        hands={0: ["collision"]}, go={1: ["go"]}, speed={1: speed}, miles={1: {"15": 2, "30": 2}}
    )
    state.apply("play collision p2")
    assert team_miles(state, 1) == {"1": 0, "3": 0, "15": 1, "30": 2}


def test_collision_in_city_limits_without_fifteens_costs_nothing() -> None:
    state = position(hands={0: ["collision"]}, go={1: ["go"]}, speed={1: []}, miles={1: {"30": 2}})
    state.apply("play collision p2")
    assert team_miles(state, 1)["30"] == 2


def test_losses_are_public_events() -> None:
    state = position(hands={0: ["collision"]}, go={1: ["go"]}, speed={1: ["country"]}, miles={1: {"30": 1}})
    event = state.apply("play collision p2")[0]
    assert event.render(None, "en") == "P1 played Collision on P2, who loses 30 miles (30 in all)."
    assert "碰撞" in event.render(1, "zh-Hant")

"""Every game's rules scenarios, found through its spec (``GameSpec.scenarios``) and played here:
the table, the moves, then what must hold (see the header of a scenarios file)."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

import pytest

import tabletrek
from tabletrek.core.actions import IllegalAction
from tabletrek.core.registry import specs


def scenarios() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for name, spec in sorted(specs().items()):
        if spec.scenarios is None:
            continue
        text = (resources.files(spec.package) / spec.scenarios).read_text(encoding="utf-8")
        out.extend((name, scenario) for scenario in tomllib.loads(text)["scenario"])
    return out


CASES = scenarios()


CHECKS = {"view", "legal", "illegal", "events", "result"}


def test_scenarios_are_found() -> None:
    assert CASES, "no game's spec names a scenarios file"


def test_every_scenario_checks_something() -> None:
    """A scenario with none of the checked keys (or a misspelt one) would pass whatever the rules did."""
    for game, scenario in CASES:
        unknown = set(scenario) - CHECKS - {"name", "players", "options", "seed", "moves"}
        assert not unknown, f"{game}: scenario {scenario['name']!r} has keys nothing reads: {sorted(unknown)}"
        checked = CHECKS & {key for key, value in scenario.items() if value or key == "legal"}
        assert checked, f"{game}: scenario {scenario['name']!r} checks nothing (keys: {sorted(scenario)})"


@pytest.mark.parametrize(("game", "scenario"), CASES, ids=[f"{g}: {s['name']}" for g, s in CASES])
def test_scenario(game: str, scenario: dict[str, Any]) -> None:
    loaded = tabletrek.load(game, players=scenario.get("players"), **scenario.get("options", {}))
    state = loaded.new_game(seed=scenario["seed"])
    events = []
    for move in scenario["moves"]:
        events = state.apply(move)
    view = state.public_view()
    for key, expected in scenario.get("view", {}).items():
        assert view[key] == expected, f"view[{key!r}]"
    if "legal" in scenario:
        assert [a.text for a in state.legal_actions()] == scenario["legal"]
    before = state.to_json()
    for move, key in scenario.get("illegal", {}).items():
        with pytest.raises(IllegalAction) as caught:
            state.apply(move)
        assert caught.value.key == key, move
        assert state.to_json() == before, f"{move!r} changed the state"
    if "events" in scenario:
        assert [e.key for e in events] == scenario["events"]
    if "result" in scenario:
        result = state.result
        assert result is not None, "the game should be over"
        expected = scenario["result"]
        assert list(result.winners) == expected["winners"]
        assert result.reason == expected["reason"]
        if "scores" in expected:
            assert list(result.scores) == expected["scores"]

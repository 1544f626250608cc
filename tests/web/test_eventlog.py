"""The compact event log shows every viewer exactly what ``Event.for_viewer`` shows."""

from __future__ import annotations

import random

import pytest

import tabletrek
from tabletrek.core.events import OMNISCIENT, Event
from tabletrek.web.eventlog import compact, for_viewer


def test_secrets_reach_only_the_audience() -> None:
    event = Event(
        "touring.event.drew", {"player": {"$seat": 1}}, {"card": {"$t": "touring.card.go"}}, frozenset({1})
    )
    entry = compact(event)
    for viewer in (None, 0, 1, 2, OMNISCIENT):
        assert for_viewer(entry, viewer) == event.for_viewer(viewer)
    assert for_viewer(entry, 0)["key"] == "touring.event.drew"
    assert for_viewer(entry, 1)["args"]["card"] == {"$t": "touring.card.go"}


@pytest.mark.parametrize("game", tabletrek.games())
def test_every_event_of_random_games_matches(game: str) -> None:
    try:
        loaded = tabletrek.load(game)
    except Exception:
        pytest.skip(f"{game} does not load in this tree")
    rng = random.Random(7)
    state = loaded.new_game(seed=7)
    viewers = [None, OMNISCIENT, *range(loaded.players)]
    checked = 0
    for _ in range(150):
        if state.is_over:
            break
        for event in state.apply(rng.choice(state.legal_actions())):
            entry = compact(event)
            for viewer in viewers:
                assert for_viewer(entry, viewer) == event.for_viewer(viewer)
            checked += 1
    assert checked > 0

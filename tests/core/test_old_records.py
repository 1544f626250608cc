"""Games recorded before a rule changed still replay exactly.

A record names every option its game had. When the rules review of turn 2 changed a default, the
record's explicit value keeps the old rule (Mexican Train's ``relaxed_doubles`` and ``set_size``,
Double Crossing's ``connections_needs_cars``); when it added an option for the old reading, a
record that does not name it gets the option's ``legacy`` value (``Game.recorded``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tabletrek
from tabletrek.core.records import GameRecord
from tabletrek.core.registry import game_class, load_recorded
from tabletrek.core.state import State

OLD = Path(__file__).resolve().parents[1] / "data" / "old_records"
NEW_FIELDS = {"double-crossing": {"crew_used"}}
"""State fields added since, which the old saves could not hold."""


def fixture(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((OLD / f"{name}.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", sorted(tabletrek.games()))
def test_old_record_replays_to_the_same_final_state(name: str) -> None:
    data = fixture(name)
    record = GameRecord.from_dict(data["record"])
    state = tabletrek.replay(record)
    assert state.is_over and len(state.history) == data["history_len"]
    now = json.loads(state.to_json())["state"]
    for key in NEW_FIELDS.get(name, ()):
        now.pop(key)
    assert now == data["final_state"]


def test_old_double_crossing_record_plays_by_the_old_readings() -> None:
    record = GameRecord.from_dict(fixture("double-crossing")["record"])
    assert "crew_per_roll" not in record.options  # made before the option existed
    game = load_recorded(record.game, record.players, record.options)
    assert game.options["crew_per_roll"] is True
    assert game.options["forced_moves"] is True and game.options["tower_to_tower"] is False
    assert game.options["connections_needs_cars"] is True  # named in the record: its old default
    # Under today's defaults the same moves are not a legal game: the old rules matter.
    fresh = tabletrek.load(record.game, players=record.players, **record.options)
    state = fresh.new_game(seed=record.seed)
    with pytest.raises(tabletrek.IllegalAction):
        for text in record.actions:
            state.apply(text)


def test_old_touring_record_lets_country_come_first() -> None:
    record = GameRecord.from_dict(fixture("touring")["record"])
    game = load_recorded(record.game, record.players, record.options)
    assert game.options["country_first"] is True


def test_old_state_json_loads_under_the_old_rules() -> None:
    data = fixture("double-crossing")
    record = GameRecord.from_dict(data["record"])
    state = tabletrek.replay(record)
    saved = json.loads(state.to_json())
    saved["options"] = dict(record.options)  # as an old save named them
    del saved["state"]["crew_used"]
    again = State.from_json(saved)
    assert again.game.options["crew_per_roll"] is True
    assert json.loads(again.to_json())["state"] == {**data["final_state"], "crew_used": 0}


def test_new_records_name_every_option() -> None:
    for name in tabletrek.games():
        state = tabletrek.load(name).new_game(seed=1)
        names = {spec.name for spec in game_class(name).option_specs}
        assert set(state.record().options) == names

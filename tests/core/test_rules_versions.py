"""Records, saved states and stored tables carry the rules version they were played under; one
from rules this code cannot replay exactly is refused by name before any move, never half-replayed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tabletrek
from tabletrek.core.records import GameRecord, iter_replay
from tabletrek.core.registry import spec
from tabletrek.core.state import State
from tabletrek.web.store import SeatRow, Store, TableRow


def finished(name: str) -> State:
    state = tabletrek.load(name).new_game(seed=11)
    while not state.is_over and len(state.history) < 40:
        state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("name", sorted(tabletrek.games()))
def test_records_and_states_carry_the_rules_version(name: str) -> None:
    state = finished(name)
    version = spec(name).rules_version
    record = state.record()
    assert record.rules == version
    assert GameRecord.from_json(record.to_json()).to_dict()["rules"] == version
    assert json.loads(state.to_json())["rules"] == version
    assert State.from_json(state.to_json()).to_json() == state.to_json()


@pytest.mark.parametrize("name", sorted(tabletrek.games()))
def test_a_record_from_other_rules_is_refused_naming_both_versions(name: str) -> None:
    data = finished(name).record().to_dict()
    current = spec(name).rules_version
    data["rules"] = current + 1
    replayed = []
    with pytest.raises(ValueError, match=rf"rules version {current + 1}.*rules version {current}"):
        for step in iter_replay(GameRecord.from_dict(data)):
            replayed.append(step)
    assert replayed == []  # refused before the deal: nothing was half-replayed
    saved = json.loads(finished(name).to_json())
    saved["rules"] = current + 1
    with pytest.raises(ValueError, match="cannot replay it exactly"):
        State.from_json(saved)


def test_a_record_without_a_version_replays_under_the_legacy_rules() -> None:
    old = Path(__file__).resolve().parents[1] / "data" / "old_records" / "double-crossing.json"
    record = GameRecord.from_dict(json.loads(old.read_text(encoding="utf-8"))["record"])
    assert record.rules is None and "rules" not in record.to_dict()
    assert tabletrek.replay(record).is_over


def test_a_bad_rules_version_is_a_clear_error() -> None:
    data = finished("touring").record().to_dict()
    data["rules"] = "one"
    with pytest.raises(ValueError, match="'rules' must be a rules version number"):
        GameRecord.from_dict(data)


def test_stored_tables_keep_the_rules_version(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'tables.db'}")
    try:
        row = TableRow(
            id="t" * 12,
            game="touring",
            players=2,
            options=dict(tabletrek.load("touring").options),
            seed=5,
            clock=None,
            host_hash="h" * 64,
            status="live",
            created=1.0,
            seats=[SeatRow(seat, "bot", "random") for seat in range(2)],
            rules=spec("touring").rules_version,
        )
        store.create_table(row)
        loaded = store.load_table(row.id)
        assert loaded is not None and loaded.rules == spec("touring").rules_version
    finally:
        store.close()

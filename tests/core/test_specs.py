"""Each game's spec agrees with its Game class, and every part a spec names loads."""

from __future__ import annotations

from importlib import resources

import pytest

from tabletrek.core.analysis import Probe
from tabletrek.core.registry import spec, specs
from tabletrek.core.spec import GameSpec, load_attribute, register_game


@pytest.mark.parametrize("name", sorted(specs()))
def test_a_spec_agrees_with_its_game_class(name: str) -> None:
    declared = spec(name)
    cls = declared.game_class()
    assert cls.name == declared.name and cls.package == declared.package
    assert cls.cooperative == declared.cooperative
    assert declared.rules_version >= 1 and declared.rules_version not in declared.replays
    if declared.probe is not None:
        assert issubclass(load_attribute(declared.probe), Probe)
    for path in declared.web_files().values():
        assert (resources.files(declared.package) / path).is_file(), path
    for command in declared.cli:
        assert load_attribute(command.app).info.name == command.name


def test_a_name_cannot_be_registered_twice_with_another_spec() -> None:
    taken = next(iter(specs().values()))
    clash = GameSpec(**{**{f: getattr(taken, f) for f in GameSpec.__dataclass_fields__}, "rules_version": 99})
    with pytest.raises(ValueError, match="already registered"):
        register_game(clash)
    assert register_game(taken) is taken

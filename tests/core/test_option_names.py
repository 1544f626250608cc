"""Options someone gave as a mapping (a command line's -o, a record, a saved state, an OpenSpiel
game string) may name anything. A name that is not an option of the game is refused by name in
the reader's language, ``players`` and ``self`` included: spread into ``Game(players, **options)``
they once clashed with the call's own arguments and ended in a Python traceback."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tabletrek
from tabletrek.cli.command import app
from tabletrek.core.errors import UsageError
from tabletrek.core.records import GameRecord, iter_replay
from tabletrek.core.registry import load_with
from tabletrek.core.state import State

CJK = re.compile(r"[\u4e00-\u9fff]")
CLASHING = ["players", "self"]


@pytest.mark.parametrize("name", CLASHING)
def test_the_library_refuses_a_clashing_name_as_an_unknown_option(name: str) -> None:
    with pytest.raises(UsageError) as caught:
        load_with("touring", 2, {name: 3})
    assert caught.value.key == "core.error.unknown_option" and caught.value.params["name"] == name
    assert load_with("touring", 3, {"free_discard": True}).options["free_discard"] is True


@pytest.mark.parametrize("name", CLASHING)
@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "touring", "-n", "1"],
        ["tournament", "touring", "-n", "1", "-b", "random,greedy"],
        ["analyze", "touring", "-n", "1"],
        ["play", "touring", "-b", "greedy,greedy"],
    ],
)
@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_every_command_refuses_it_in_the_readers_language(
    name: str, command: list[str], lang: str, tmp_path: Path
) -> None:
    extra = ["--out", str(tmp_path / "r.html")] if command[0] == "analyze" else []
    result = CliRunner().invoke(app, [*command, "-o", f"{name}=3", "--lang", lang, *extra])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output and "multiple values" not in result.output
    assert repr(name) in result.output
    if lang == "zh-Hant":
        assert "沒有選項" in result.output
    else:
        assert "unknown option" in result.output


def recorded(options: dict[str, object]) -> dict[str, Any]:
    data: dict[str, Any] = tabletrek.load("touring").new_game(seed=3).record().to_dict()
    data["options"] = {**data["options"], **options}
    return data


@pytest.mark.parametrize("name", CLASHING)
def test_a_record_or_saved_state_naming_it_is_refused_by_name(name: str, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=f"unknown option '{name}'"):
        next(iter(iter_replay(GameRecord.from_dict(recorded({name: 3})))))
    state = json.loads(tabletrek.load("touring").new_game(seed=3).to_json())
    state["options"][name] = 3
    with pytest.raises(UsageError, match=f"unknown option '{name}'"):
        State.from_json(state)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(recorded({name: 3})), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path), "--no-step", "--lang", "zh-Hant"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "沒有選項" in result.output and repr(name) in result.output


def test_openspiel_game_strings_refuse_it_by_name() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel face needs the [openspiel] extra")
    from tabletrek.openspiel import register

    with pytest.raises(Exception, match="unknown option 'players'"):
        pyspiel.load_game(register("touring"), {"players": 2, "options": "players:3"})


def test_a_record_from_other_rules_is_refused_in_the_readers_language(tmp_path: Path) -> None:
    data = recorded({})
    data["rules"] = 99
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    chinese = CliRunner().invoke(app, ["replay", str(path), "--no-step", "--lang", "zh-Hant"])
    assert chinese.exit_code == 2 and "第 99 版" in chinese.output and CJK.search(chinese.output)
    assert "played under" not in chinese.output
    english = CliRunner().invoke(app, ["replay", str(path), "--no-step"])
    assert english.exit_code == 2 and "rules version 99" in english.output


@pytest.mark.parametrize("name", CLASHING)
def test_the_research_faces_refuse_it_by_name(name: str) -> None:
    pytest.importorskip("pettingzoo", reason="the research faces need the [rl] extra")
    from tabletrek.rl import SingleSeatEnv, aec_env, parallel_env

    for make in (aec_env, parallel_env, SingleSeatEnv):
        with pytest.raises(UsageError, match=f"unknown option '{name}'"):
            make("touring", options={name: 3})

"""A data folder tabletrek cannot make (TABLETREK_HOME, or the platform's own, with a file in the
way) is refused with the folder's name and what to do, before anything is played or served.

Before, every command that keeps files (play, the campaign, serve) ended in a FileExistsError
traceback, and a campaign mission whose record could not be saved was found out only after it
had been played."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tabletrek.cli import app
from tabletrek.core.errors import UsageError
from tabletrek.paths import records_dir, user_data_dir

COMMANDS = [
    ["play", "touring", "--seed", "1"],
    ["campaign", "play", "Prague"],
    ["campaign", "record", "Prague", "won"],
    ["campaign", "profiles"],
    ["campaign", "reset", "--yes"],
    ["serve", "--port", "0"],
]

SAID = {
    "en": "but a file stands there or on the way to it; set TABLETREK_HOME to a folder you can write to",
    "zh-Hant": "但那裡或通往那裡的路徑上是一個檔案；請把 TABLETREK_HOME 設為一個你能寫入的資料夾",
}


def run(args: list[str], home: Path, lang: str) -> tuple[int, str]:
    env = {"TABLETREK_HOME": str(home), "TABLETREK_LANG": lang, "COLUMNS": "300"}
    result = CliRunner().invoke(app, args, env=env, input="")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_file_where_the_data_folder_goes_is_named(args: list[str], lang: str, tmp_path: Path) -> None:
    home = tmp_path / "notes.txt"
    home.write_text("a file, not a folder\n")
    code, output = run(args, home, lang)
    assert code == 2 and str(home) in output and SAID[lang] in output, output
    assert home.read_text() == "a file, not a folder\n"
    code, output = run(args, home / "below", lang)  # a file on the way to it
    assert code == 2 and str(home / "below") in output and SAID[lang] in output, output


def test_a_campaign_mission_that_could_not_be_saved_is_not_played(tmp_path: Path) -> None:
    """The record folder is checked before the mission, as ``play`` checks it before the game."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "records").write_text("in the way\n")
    code, output = run(["campaign", "play", "Prague"], home, "en")
    assert code == 2 and f"{home / 'records'}, but a file stands there" in output
    assert "Mission Prague" not in output  # refused before the mission was announced
    assert not (home / "campaign").exists() or not any((home / "campaign").rglob("*.json"))


def test_the_library_raises_a_refusal_not_an_os_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("")
    monkeypatch.setenv("TABLETREK_HOME", str(blocked))
    with pytest.raises(UsageError) as refused:
        user_data_dir()
    assert refused.value.key == "core.error.data_folder_file"
    monkeypatch.setenv("TABLETREK_HOME", str(tmp_path / "fine"))
    assert records_dir() == tmp_path / "fine" / "records" and records_dir().is_dir()

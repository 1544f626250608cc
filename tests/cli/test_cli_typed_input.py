"""What people type comes back as they typed it: names, moves, bot names and paths holding rich's
markup ("[/]", "[bold]") are printed as text, never read as tags (which raised MarkupError, a
traceback in the middle of a game, or dropped the bracketed words). And a place the CLI cannot write
to is refused before any game is played, with the reason and exit status 2, never a traceback after
the run (``cli.common.ready_folder`` / ``ready_file``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from tabletrek.cli import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TABLETREK_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "300")
    monkeypatch.setenv("TABLETREK_LANG", "en")
    return tmp_path / "home"


def no_crash(result: Result) -> str:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output and "MarkupError" not in result.output
    return result.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["simulate", "touring", "-n", "1", "--bots", "x[/]"], "no bot 'x[/]'"),
        (["tournament", "touring", "-n", "1", "--bots", "a[/],greedy"], "no bot 'a[/]'"),
        (["play", "touring", "--bots", "zz[bold]"], "no bot 'zz[bold]'"),
        (["simulate", "touring", "-n", "1", "--ray", "x[/]"], "x[/]"),
    ],
)
def test_bad_names_are_refused_and_echoed_as_typed(args: list[str], said: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert said in no_crash(result)


def test_a_missing_record_is_named_as_typed(tmp_path: Path) -> None:
    path = tmp_path / "no[/]such[bold].json"
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "such[bold].json" in " ".join(no_crash(result).split())


def test_a_typed_move_with_markup_is_refused_and_the_game_goes_on(home: Path) -> None:
    answers = "[/]\n[bold]fly\n1\nquit\n"
    result = runner.invoke(app, ["play", "touring", "--bots", "greedy", "--seed", "3"], input=answers)
    assert result.exit_code == 0
    out = no_crash(result)
    assert "'[/]' is not a Touring move" in out and "'[bold]fly' is not a Touring move" in out
    assert len(list((home / "records").glob("*.json"))) == 1  # quit saved the game as usual


def test_player_names_with_markup_are_shown_as_typed() -> None:
    args = ["play", "touring", "--seat", "1", "--seat", "2", "--seed", "2", "--names", "A[/]:x:,[red]Bo"]
    result = runner.invoke(app, args, input="1\n" * 6)
    assert result.exit_code == 0
    out = no_crash(result)
    assert "A[/]:x:" in out and "Pass the screen to [red]Bo" in out
    assert "\u274c" not in out  # ":x:" is not an emoji either


def test_a_records_folder_with_brackets_is_reported_as_typed(tmp_path: Path) -> None:
    folder = tmp_path / "runs[bold]"
    args = ["simulate", "touring", "-n", "2", "--bots", "greedy,random", "--records", str(folder)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0
    assert str(folder) in "".join(no_crash(result).split("\n"))
    assert len(list(folder.glob("*.json"))) == 2


@pytest.fixture
def blocked(tmp_path: Path) -> Path:
    """A folder that cannot be made, even by root: its parent is a file."""
    plain = tmp_path / "plain.txt"
    plain.write_text("not a folder", "utf-8")
    return plain / "inside"


def refused(args: list[str], where: Path, reason: str) -> str:
    result = runner.invoke(app, args, input="1\n" * 50)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    out = " ".join(result.output.split())
    assert f"Cannot write to {where}: {reason}." in out, out
    return out


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_records_into_a_folder_that_cannot_be_made(command: str, blocked: Path) -> None:
    out = refused(
        [command, "touring", "-n", "2", "-b", "greedy,random", "--records", str(blocked)],
        blocked,
        "Not a directory",
    )
    assert "Wins by seat" not in out and "Rating" not in out  # refused before playing


def test_a_report_onto_a_folder_or_into_a_blocked_one(tmp_path: Path, blocked: Path) -> None:
    onto = refused(["analyze", "touring", "-n", "2", "--out", str(tmp_path)], tmp_path, "Is a directory")
    into = refused(
        ["analyze", "touring", "-n", "2", "--out", str(blocked / "r.html")], blocked, "Not a directory"
    )
    assert "Wrote" not in onto + into  # refused before the games: no report was written


def test_a_game_saved_onto_a_folder_is_refused_before_it_starts(tmp_path: Path, home: Path) -> None:
    out = refused(
        ["play", "touring", "--bots", "greedy", "--save", str(tmp_path)], tmp_path, "Is a directory"
    )
    assert "Welcome to Touring" not in out
    assert not (home / "records").exists() or not list((home / "records").glob("*.json"))


def test_a_resumed_game_saved_into_a_blocked_folder_is_refused(tmp_path: Path, blocked: Path) -> None:
    saved = tmp_path / "game.json"
    first = runner.invoke(app, ["play", "touring", "--seed", "1", "--save", str(saved)], input="quit\n")
    assert first.exit_code == 0 and saved.exists(), first.output
    refused(["play", "--resume", str(saved), "--save", str(blocked / "g.json")], blocked, "Not a directory")


def test_a_game_is_not_saved_over_a_file_that_is_not_a_record(tmp_path: Path) -> None:
    # Before: a mistyped --save replaced whatever the file held with the record, without a word.
    notes = tmp_path / "notes.md"
    notes.write_text("my notes\n", "utf-8")
    saved = tmp_path / "game.json"
    first = runner.invoke(app, ["play", "touring", "--seed", "1", "--save", str(saved)], input="quit\n")
    assert first.exit_code == 0, first.output
    for lang, said in (
        ("en", "already holds something other than a game record"),
        ("zh-Hant", "裡已有遊戲紀錄以外的內容"),
    ):
        for args in (
            ["play", "touring", "--seed", "1", "--save", str(notes), "--lang", lang],
            ["play", "--resume", str(saved), "--save", str(notes), "--lang", lang],
        ):
            result = runner.invoke(app, args, input="quit\n")
            assert result.exit_code == 2
            out = " ".join(no_crash(result).split())
            assert said in out and "Welcome to Touring" not in out, out
    assert notes.read_text("utf-8") == "my notes\n"
    # A record (any game's) and an empty file are written over, as saving a resumed game does.
    other = tmp_path / "other.json"
    second = ["play", "mexican-train", "--seed", "2", "--save", str(other)]
    assert runner.invoke(app, second, input="quit\n").exit_code == 0
    empty = tmp_path / "empty.json"
    empty.touch()
    for target in (saved, other, empty):
        result = runner.invoke(app, ["play", "touring", "--seed", "5", "--save", str(target)], input="quit\n")
        assert result.exit_code == 0, result.output
        data = json.loads(target.read_text("utf-8"))
        assert (data["game"], data["seed"]) == ("touring", 5)
    resumed = runner.invoke(app, ["play", "--resume", str(saved)], input="quit\n")
    assert resumed.exit_code == 0, resumed.output


def test_a_name_carrying_a_terminal_command_is_refused() -> None:
    result = runner.invoke(app, ["play", "touring", "--names", "A\x1b]0;owned\x07,Bo"])
    assert result.exit_code == 2
    out = no_crash(result)
    assert "A player name may not hold the character U+001B" in out and "\x1b]" not in out


@pytest.mark.parametrize(
    ("names", "english", "chinese"),
    [
        (
            "Ann,Bo,Cy",
            "--names gives 3 names, but the table has 2 seats.",
            "--names 給了 3 個名字，但這桌只有 2 個座位。",
        ),
        (
            "x" * 33 + ",Bo",
            "A player name may have at most 32 characters: '" + "x" * 32 + "…'.",
            "玩家名稱最多 32 個字元",
        ),
    ],
)
def test_more_names_than_seats_or_a_name_too_long_for_the_table_is_refused(
    names: str, english: str, chinese: str
) -> None:
    # before: a third name for two seats was dropped without a word, and a name of 3,000
    # characters filled the board's name column over 150 lines
    for lang, said in (("en", english), ("zh-Hant", chinese)):
        result = runner.invoke(app, ["play", "touring", "--names", names, "--lang", lang], input="quit\n")
        assert result.exit_code == 2
        assert said in no_crash(result)
    at_the_limit = runner.invoke(app, ["play", "touring", "--names", "x" * 32 + ",Bo"], input="quit\n")
    assert at_the_limit.exit_code == 0, at_the_limit.output


def test_a_record_carrying_a_terminal_command_is_refused_by_replay_and_resume(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    first = runner.invoke(app, ["play", "touring", "--seed", "1", "--save", str(saved)], input="quit\n")
    assert first.exit_code == 0, first.output
    data = json.loads(saved.read_text("utf-8"))
    data["meta"]["names"] = ["Ann", "Bo\x1b[2J"]
    saved.write_text(json.dumps(data), "utf-8")
    for args in (["replay", str(saved)], ["play", "--resume", str(saved)]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2
        out = " ".join(no_crash(result).split())
        assert "key 'meta.names[1]' holds the character U+001B" in out and "\x1b[2J" not in out


def test_a_number_typed_in_other_digits_picks_the_move_it_looks_like_or_is_refused(tmp_path: Path) -> None:
    # Before: "²" (and any run of over 4,300 digits) passed str.isdigit() and made int() raise,
    # ending the game with a traceback; "٣" was read as 3. Now a typed line is folded as the web
    # folds moves (NFKC: "²" and the full-width "１" are 2 and 1), and a menu number is ASCII digits.
    def play(answers: str, name: str) -> tuple[str, list[str]]:
        saved = tmp_path / name
        args = ["play", "touring", "--bots", "greedy", "--seed", "3", "--save", str(saved)]
        result = runner.invoke(app, args, input=answers)
        assert result.exit_code == 0, result.output
        return " ".join(no_crash(result).split()), json.loads(saved.read_text("utf-8"))["actions"]

    plain_out, plain = play("2\n1\nquit\n", "plain.json")
    typed_out, typed = play(
        "\uff48\uff45\uff4c\uff50\n\u00b2\n\u0663\n" + "9" * 5000 + "\n1234567890\n\uff11\nquit\n",
        "typed.json",
    )
    assert typed == plain and len(plain) >= 3
    assert "'\u0663' is not a Touring move" in typed_out
    unboxed = " ".join(typed_out.replace("\u2502", " ").split())  # the help panel may wrap
    assert "Full-width letters and digits count as the plain ones" in unboxed  # "ｈｅｌｐ" is help
    assert typed_out.count("Choose a number from 1 to") == plain_out.count("Choose a number from 1 to") + 2


def test_replay_jumps_only_to_a_number_in_ascii_digits(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    args = ["simulate", "touring", "-n", "1", "-b", "greedy,random", "--seed", "5", "--records", str(folder)]
    assert runner.invoke(app, args).exit_code == 0
    [path] = list(folder.glob("*.json"))
    result = runner.invoke(app, ["replay", str(path)], input="\u00b2\n" + "9" * 5000 + "\n\uff14\nq\n")
    assert result.exit_code == 0, result.output
    steps = re.findall(r"Move (\d+) of (\d+)", no_crash(result))
    total = steps[0][1]
    # "²" is 2 (as the page reads it), 5,000 nines is past the end, the full-width "４" is 4
    assert [int(step) for step, _ in steps[1:]] == [2, int(total), 4]


@pytest.mark.parametrize("bots", ["ismcts:ms=inf,random", "ismcts:ms=nan,random", "greedy:go=nan,random"])
def test_a_bot_setting_of_inf_or_nan_is_refused_before_any_game(bots: str) -> None:
    # Before: "ms=inf" was read as an endless time budget: the first search move never ended
    result = runner.invoke(app, ["simulate", "touring", "-n", "1", "--bots", bots])
    assert result.exit_code == 2, result.output
    assert "must be a finite number" in " ".join(no_crash(result).split())

"""The terminal's frame (typer's Usage line, panel titles, --help line, type column and its own
usage errors) follows the reader's language; in English it is typer's own, byte for byte."""

from __future__ import annotations

import dataclasses
import enum
import json
import os
import re
import subprocess
import sys
from typing import Annotated, Literal

import pytest
import typer
from typer import rich_utils
from typer.core import TyperGroup
from typer.testing import CliRunner

from tabletrek.cli import app
from tabletrek.cli.frame import FrameGroup, frame_lang

ENGLISH_FRAME = (
    "Usage:",
    "Options",
    "Commands",
    "Arguments",
    "Show this message and exit.",
    "<bool>",
    "<int>",
    "<str>",
    "[OPTIONS]",
    "COMMAND [ARGS]",
    "Error",
    "No such option",
    "No such command",
    "Missing argument",
    "Invalid value",
    "Try '",
    "for help",
    "Possible options",
    "Input should be",
)


def run(*args: str, lang: str | None = "zh-Hant") -> str:
    env = {**os.environ, "COLUMNS": "100"}
    env.pop("TABLETREK_LANG", None)
    if lang is not None:
        env["TABLETREK_LANG"] = lang
    done = subprocess.run(
        [sys.executable, "-m", "tabletrek", *args],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode in {0, 2}, done.stderr  # help, or a usage error: never a traceback
    return done.stdout + done.stderr


def english_left(text: str) -> list[str]:
    return [word for word in ENGLISH_FRAME if word in text]


def test_the_top_help_is_framed_in_chinese() -> None:
    text = run("--help")
    assert english_left(text) == []
    for word in ("用法：", "╭─ 選項", "╭─ 指令", "顯示這份說明並結束。", "<是非>", "[選項] 指令 [引數]"):
        assert word in text


def test_a_command_help_is_framed_in_chinese() -> None:
    text = run("play", "--help")
    assert english_left(text) == []
    for word in ("用法：", "╭─ 引數", "╭─ 選項", "<整數>", "<文字…>", "<路徑>", "顯示這份說明並結束。"):
        assert word in text


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("play", "--bogus"), "沒有這個選項：--bogus（可能是：--bots）"),
        (("rules",), "缺少引數 'game'。"),
        (("play", "--players", "abc"), "'--players' / '-p' 的值無效：「abc」不是整數。"),
        (("nosuch",), "沒有「nosuch」這個指令。"),
        (("games", "extra"), "多出了無法處理的引數（extra）"),
        (("campaign", "play"), "缺少引數 'city'。"),
    ],
)
def test_typers_own_errors_are_said_in_chinese(args: tuple[str, ...], said: str) -> None:
    text = run(*args)
    assert english_left(text) == []
    assert said in text
    assert "╭─ 錯誤" in text and "查看說明" in text


def test_the_lang_option_frames_an_error_too() -> None:
    text = run("play", "--lang", "zh-Hant", "--bogus", lang="en")
    assert "沒有這個選項：--bogus" in text and english_left(text) == []
    assert frame_lang(["play", "--lang=zh-TW"]) == "zh-Hant"
    assert frame_lang(["play", "--", "--lang", "zh-Hant"]) == "en"


def test_english_is_typers_own_frame() -> None:
    text = run("play", "--bogus", lang="en")
    assert "No such option: --bogus (Possible options: --bots)" in text
    assert "Try 'python -m tabletrek play --help' for help." in text


@pytest.mark.parametrize(
    "args",
    [["--help"], ["play", "--help"], ["play", "--bogus"], ["rules"], ["play", "-p", "x"], ["nosuch"]],
)
def test_english_output_is_byte_identical_to_plain_typer(
    args: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    env = {"TABLETREK_LANG": "en", "COLUMNS": "100"}
    ours = runner.invoke(app, args, env=env)
    for name in ("main", "make_context", "invoke"):
        monkeypatch.setattr(FrameGroup, name, getattr(TyperGroup, name))
    plain = runner.invoke(app, args, env=env)
    assert ours.output == plain.output and ours.exit_code == plain.exit_code
    assert "Usage: " in ours.output


def test_a_chinese_run_leaves_typer_as_it_found_it() -> None:
    """A library user's process (here pytest's) keeps typer's English after a Chinese run."""
    runner = CliRunner()
    result = runner.invoke(app, ["play", "--bogus"], env={"TABLETREK_LANG": "zh-Hant"})
    assert "沒有這個選項" in result.output
    assert rich_utils.OPTIONS_PANEL_TITLE == "Options" and rich_utils.ERRORS_PANEL_TITLE == "Error"
    again = runner.invoke(app, ["play", "--bogus"], env={"TABLETREK_LANG": "en"})
    assert "No such option: --bogus" in again.output and "Usage: " in again.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["serve", "--sync", "x"], "--sync 的值無效：必須是 notify 或 poll，而不是「x」"),
        (["serve", "--limit", "nope=1"], "沒有名為 'nope' 的限制；現有的限制：body_seconds"),
        (["serve", "--limit", "clock=abc"], "限制 clock 必須是不小於 0 的有限數字，而不是「abc」"),
        (["serve", "--limit", "bot_slots=0"], "限制 bot_slots 至少須為 1，而不是「0」"),
        (["serve", "--limit", "clock=0.5"], "限制 clock 是每步的秒數，須在 1 到 86400 之間（0 表示"),
        (["serve", "--limit", "max_conns=0.5"], "限制 max_conns 必須是不小於 0 的整數，而不是「0.5」"),
        (["serve", "--limit", "bot_ms=٣٠٠٠"], "限制 bot_ms 必須是不小於 0 的有限數字，而不是「٣٠٠٠」"),
    ],
)
def test_serve_refuses_its_settings_in_the_readers_language(args: list[str], said: str) -> None:
    result = CliRunner().invoke(app, args, env={"TABLETREK_LANG": "zh-Hant", "COLUMNS": "200"})
    assert result.exit_code == 2 and said in result.output
    assert english_left(result.output) == []
    english = CliRunner().invoke(app, args, env={"TABLETREK_LANG": "en", "COLUMNS": "200"})
    assert english.exit_code == 2 and "Invalid value for --" in english.output


def test_a_lang_option_puts_the_help_texts_in_its_language_too() -> None:
    text = run("play", "--lang", "zh-Hant", "--help", lang="en")
    assert "玩家人數。" in text and "顯示這份說明並結束。" in text and "Number of players" not in text
    assert english_left(text) == []


class Colour(enum.StrEnum):
    red = "red"
    blue = "blue"


def choosing_app() -> typer.Typer:
    """A command with choices (tabletrek's own take free names, checked by the games)."""
    chooser = typer.Typer(cls=FrameGroup, rich_markup_mode="rich")

    @chooser.command()
    def paint(colour: Colour, size: Annotated[Literal["s", "m"], typer.Option()] = "s") -> None:
        typer.echo(f"{colour.value} {size}")

    @chooser.command()
    def rest() -> None:
        typer.echo("rest")

    return chooser


@pytest.mark.parametrize(
    ("args", "english", "chinese"),
    [
        (
            ["paint", "green"],
            "'green' is not one of 'red', 'blue'.",
            "'colour' 的值無效：「green」不是 red, blue 其中之一。",
        ),
        (["paint", "red", "--size", "x"], "'x' is not one of 's', 'm'.", "「x」不是 s, m 其中之一。"),
        (
            ["paint"],
            "Missing argument 'colour'. Choose from:",
            "缺少引數 'colour'。請從這些當中選擇：red, blue。",
        ),
    ],
)
def test_a_bad_or_missing_choice_is_said_in_chinese(args: list[str], english: str, chinese: str) -> None:
    runner = CliRunner()
    zh = runner.invoke(choosing_app(), args, env={"TABLETREK_LANG": "zh-Hant", "COLUMNS": "200"})
    assert zh.exit_code == 2 and chinese in zh.output and english_left(zh.output) == []
    en = runner.invoke(choosing_app(), args, env={"TABLETREK_LANG": "en", "COLUMNS": "200"})
    assert en.exit_code == 2 and english in en.output


# Run in a fresh interpreter: the help texts are read from the catalogs when the commands are
# defined, in the language of that moment.
CUT_HELP = """
import json, re, sys
import typer
from typer.testing import CliRunner
from tabletrek.cli import app
root = typer.main.get_command(app)
paths = [[]]
for name, command in root.commands.items():
    paths.append([name])
    paths.extend([name, sub] for sub in getattr(command, "commands", {}))
cut = {}
for columns in sys.argv[1:]:
    for path in paths:
        shown = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": columns})
        assert shown.exit_code == 0, shown.output
        lines = [line for line in shown.output.splitlines() if "…" in re.sub(r"<[^<>]*>", "", line)]
        if lines:
            cut[f"{' '.join(path)} at {columns}"] = lines
print(json.dumps({"commands": len(paths), "cut": cut}))
"""


@pytest.mark.parametrize(
    ("lang", "widths"), [("zh-Hant", ["60", "80", "100"]), ("en", ["60", "70", "80", "100"])]
)
def test_no_help_text_loses_words(lang: str, widths: list[str]) -> None:
    # Before: rich broke a help text at its spaces only and cut a run wider than its cell with
    # "…": '每個都可帶參數，例 …' lost 如 ismcts:iterations=50;rollout=greedy（預設：遊戲…; in
    # English, at 60 and 70 columns, 'ismcts:iterations=50;rollout=gree…' and 'postgresql://user:pass@…'.
    env = {**os.environ, "TABLETREK_LANG": lang}
    done = subprocess.run(
        [sys.executable, "-c", CUT_HELP, *widths],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    found = json.loads(done.stdout)
    assert found["commands"] > 10
    assert not found["cut"], found["cut"]


def test_an_error_panel_breaks_a_chinese_list_between_its_entries() -> None:
    # A refusal's list is joined with 、 in Chinese, one run without a space: rich alone folded it
    # anywhere in typer's error panel ('bot_thr' over 'eads', a line opening with 、).
    from tabletrek.web.ratelimit import Limits

    text = run("serve", "--limit", "nope=1")
    lines = [line.strip("│ ") for line in text.splitlines() if line.startswith("│")]
    names = {name for line in lines for name in re.findall(r"[a-z_]+", line)}
    known = {field.name for field in dataclasses.fields(Limits)}
    assert known <= names, known - names  # every limit named whole, none cut in two
    assert not any(line.startswith("、") for line in lines), lines

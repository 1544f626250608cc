"""The terminal game, the same care as the browser: a Codenames key readable without colour, a
Double Crossing turn within 80×24, a helpful --lang error, resuming a saved game, Ctrl-C → 130."""

from __future__ import annotations

import io
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console
from typer.testing import CliRunner

import tabletrek
import tabletrek.cli.play as play_module
from tabletrek import GameRecord
from tabletrek.cli import app
from tabletrek.core.bots import make_bot

runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TABLETREK_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "120")
    return tmp_path / "home"


def test_codenames_key_is_readable_with_no_color() -> None:
    game = tabletrek.load("codenames-duet")
    state = game.new_game(seed=4)
    view = state.view(0)
    out = io.StringIO()
    Console(file=out, width=160, no_color=True, color_system=None).print(
        game.terminal().render(view, "en", ["A", "B"])
    )
    text = out.getvalue()
    assert "\x1b[" not in text  # no colour codes at all
    for word, kind in zip(view["words"], view["key"], strict=True):
        if kind == "green":
            assert f"● {word}" in text, word
        elif kind == "assassin":
            assert f"✖ {word}" in text, word
        else:
            assert f"● {word}" not in text and f"✖ {word}" not in text
    assert "● " in text.split("\n")[-3] or "●" in text  # the legend names the markers


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_every_double_crossing_turn_fits_80_by_24(
    lang: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = tabletrek.load("double-crossing", players=players)
    state = game.new_game(seed=players)
    bots = {seat: make_bot(game, "trader", seat=seat, seed=seat) for seat in range(1, players)}
    names = ["P1 (you)"] + [f"P{seat + 1} (trader)" for seat in range(1, players)]
    table = play_module.TerminalTable(game, state, [0], bots, names, lang)
    me = make_bot(game, "trader", seat=0, seed=9)
    turns = tallest = widest = 0
    while not state.is_over and turns < 150:
        seat = state.current_player
        assert seat is not None
        if seat != 0:
            table.log.extend(state.apply(bots[seat].act(state)))
            continue
        screen = io.StringIO()
        monkeypatch.setattr(
            play_module, "console", Console(file=screen, width=80, height=24, color_system=None)
        )
        table.show(0)
        table.menu(0, state.legal_actions())
        lines = screen.getvalue().splitlines()
        tallest = max(tallest, len(lines) + 1)  # and the prompt line
        widest = max(widest, *(cell_len(line) for line in lines))
        turns += 1
        table.log.extend(state.apply(me.act(state)))
    assert turns > 20
    assert tallest <= 24, tallest
    assert widest <= 80, widest


def test_board_and_market_show_the_details_the_compact_turn_leaves_out() -> None:
    answers = "board\nmarket\nmoves\nquit\n"
    result = runner.invoke(app, ["play", "double-crossing", "--seed", "2", "--lang", "en"], input=answers)
    assert result.exit_code == 0, result.output
    assert "Contracts open at each company's Trade space" in result.output  # market
    assert "Central Station" in result.output and "Player" in result.output  # legend, full board table


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
@pytest.mark.parametrize("game", ["touring", "mexican-train", "codenames-duet", "double-crossing"])
def test_help_lists_only_the_commands_of_its_game(game: str, lang: str) -> None:
    # Before: every game's help offered `board` and `market` ("the open contracts (Double
    # Crossing)"), which in Touring, Mexican Train and Codenames were read as an illegal move.
    result = runner.invoke(app, ["play", game, "--seed", "2", "--lang", lang], input="help\nquit\n")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    first = next(i for i, line in enumerate(lines) if "Type the number" in line or "輸入行動的編號" in line)
    panel = lines[first : next(i for i in range(first, len(lines)) if lines[i].startswith("╰"))]
    commands = {match[1] for line in panel if (match := re.match(r"│   ([a-z]+) ", line))}
    everywhere = {"help", "rules", "log", "hint", "show", "quit", "moves"}
    assert commands == (everywhere | {"board", "market"} if game == "double-crossing" else everywhere)
    intro = re.sub(r"[│\s]+", "", "".join(panel[:2]))
    assert ("`moves`" in intro) == (game == "double-crossing")  # where a move's text is shown
    said = re.sub(r"[│\s]+", "", "".join(panel))
    assert "DoubleCrossing" not in said and "雙叉路口" not in said.split("market")[-1]


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_compact_turns_title_is_never_cut(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Before, at 40 columns: '─ P1 (you) to play · board, market: m… ─', cut by rich's rule.
    from tabletrek.cli.common import console

    for width, hint in ((40, False), (80, True)):
        monkeypatch.setattr(console, "_width", width)  # the console's own field, as test_cli does
        args = ["play", "double-crossing", "--seed", "2", "--lang", lang]
        result = runner.invoke(app, args, input="quit\n")
        assert result.exit_code == 0, result.output
        rule = next(line for line in result.output.splitlines() if line.startswith("─"))
        assert "…" not in rule and ("market" in rule) == hint, rule


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "may not hold the character"), ("zh-Hant", "不可含有字元")]
)
def test_a_typed_move_with_a_terminal_command_is_refused_not_echoed(lang: str, said: str) -> None:
    # Before: '\x1b[31mred' came back in the refusal ("'\x1b[31mred' is not a Mexican Train
    # move"), and the terminal ran it; a bidi override turned the line around.
    typed = "\x1b[31mred\n\u202eplay\nquit\n"
    result = runner.invoke(app, ["play", "mexican-train", "--seed", "5", "--lang", lang], input=typed)
    assert result.exit_code == 0, result.output
    assert f"{said} U+001B" in result.output and f"{said} U+202E" in result.output
    assert "\x1b" not in result.output and "\u202e" not in result.output


def test_moves_shows_each_moves_text_in_a_compact_turn() -> None:
    # Before: help said to type a move's text "shown in brackets", but a compact turn (Double
    # Crossing) never showed it, not even under `moves`: 'Pass (let the turn go on)' and no '(pass)'.
    args = ["play", "double-crossing", "--seed", "3", "--lang", "en"]
    result = runner.invoke(app, args, input="moves\nquit\n")
    assert result.exit_code == 0, result.output
    passes = [line.strip() for line in result.output.splitlines() if "Pass (let the turn go on)" in line]
    assert passes[0].endswith("Pass (let the turn go on)")  # the compact menu fits the screen
    assert passes[1].endswith("Pass (let the turn go on)  (pass)")  # `moves` says what to type


def test_chinese_lists_use_the_enumeration_comma() -> None:
    # Before: '你的手牌：2 鐵路員, 2 暫停' and '車廠：6 客車, 4 箱車' with an ASCII comma.
    answers = "board\nquit\n"
    result = runner.invoke(
        app, ["play", "double-crossing", "--seed", "2", "--lang", "zh-Hant"], input=answers
    )
    assert result.exit_code == 0, result.output
    hand = next(line for line in result.output.splitlines() if line.startswith("你的手牌："))
    yard = next(line for line in result.output.splitlines() if line.startswith("車廠："))
    assert "、" in hand and ", " not in hand, hand
    assert "客車、" in yard and ", " not in yard, yard
    english = runner.invoke(app, ["play", "double-crossing", "--seed", "2", "--lang", "en"], input=answers)
    assert any(line.startswith("Your hand: ") and ", " in line for line in english.output.splitlines())


def test_double_crossing_counts_its_cars_and_cards_in_english() -> None:
    # Before: 'Your hand: 2 Railroad Crew, 2 Stop', '2 tank car', and in the market '3: 2hopper $100,000'.
    result = runner.invoke(
        app, ["play", "double-crossing", "--seed", "2", "--lang", "en"], input="board\nmarket\nquit\n"
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "2 Railroad Crew cards" in out and "1 boxcar" in out and "2 hoppers" in out, out
    assert not re.search(r"\b([2-9]|\d\d+) ?(passenger car|boxcar|hopper|tank car)(?!s)", out)
    assert not re.search(r"\b[0-9](hopper|boxcar|tank|passenger)", out)  # a number glued to its car
    assert not re.search(r"\b[2-9] (Railroad Crew|Villain|Engineer|Stop)(?! cards)", out)


def test_an_unknown_language_lists_the_languages() -> None:
    result = runner.invoke(app, ["play", "touring", "--lang", "fr"])
    assert result.exit_code == 2
    assert "fr" in result.output and "en, zh-Hant" in result.output


def test_a_saved_game_resumes_where_it_stopped(home: Path) -> None:
    first = runner.invoke(
        app, ["play", "touring", "--bots", "greedy", "--seed", "3"], input="1\n1\n1\nquit\n"
    )
    assert first.exit_code == 0, first.output
    saved = sorted((home / "records").glob("*.json"))
    assert len(saved) == 1
    stopped = GameRecord.load(saved[0])
    assert "--resume" in first.output
    second = runner.invoke(app, ["play", "--resume", str(saved[0])], input="1\n" * 3000)
    assert second.exit_code == 0, second.output
    assert "Resuming the saved game" in second.output and "Game over" in second.output
    finished = GameRecord.load(saved[0])
    assert finished.actions[: len(stopped.actions)] == stopped.actions  # the same game, played on
    assert len(finished.actions) > len(stopped.actions)
    assert tabletrek.replay(finished).is_over
    assert finished.meta["bots"] == {"1": "greedy"} and finished.meta["humans"] == [0]


def test_resume_of_a_file_that_is_not_a_record_says_so(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    result = runner.invoke(app, ["play", "--resume", str(bad)])
    assert result.exit_code == 2 and "Cannot resume" in result.output


@contextmanager
def sigint_as_at_a_terminal() -> Iterator[None]:
    """Start children with SIGINT at its default, as a command typed at a terminal has it.

    A child inherits an *ignored* SIGINT, and Python keeps it ignored: pytest run as a background job
    (``pytest ... &`` from a script or a non-interactive shell) ignores SIGINT, and so did the game
    under test, which then sat at its prompt until the test closed its input, took that for "quit"
    and exited 0. A caught signal is reset to the default in a new program, so catching it here for
    the moment of the start is enough.
    """
    previous = signal.getsignal(signal.SIGINT)
    if previous is not signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.fixture(params=["default", "ignored"])
def parent_sigint(request: pytest.FixtureRequest) -> Iterator[str]:
    """The SIGINT disposition pytest itself runs with: "ignored" is pytest started as a background job."""
    if request.param == "ignored":
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        yield request.param
        signal.signal(signal.SIGINT, previous)
    else:
        yield request.param


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
def test_ctrl_c_saves_the_game_and_exits_130(parent_sigint: str, home: Path) -> None:
    env = {**os.environ, "TABLETREK_HOME": str(home), "TABLETREK_LANG": "en"}
    command = [sys.executable, "-m", "tabletrek", "play", "touring", "--seed", "5"]
    started = time.monotonic()
    with sigint_as_at_a_terminal():
        proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env
        )
    assert proc.stdout is not None
    seen = b""
    while b"Your move" not in seen:  # the prompt: the game waits for the player
        waited = time.monotonic() - started
        assert waited < 60 and proc.poll() is None, f"{waited:.1f} s: " + seen.decode(errors="replace")
        ready, _, _ = select.select([proc.stdout], [], [], 0.5)
        if ready:
            seen += os.read(proc.stdout.fileno(), 65536)
    proc.send_signal(signal.SIGINT)
    try:
        rest, _ = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        rest, _ = proc.communicate()
        pytest.fail("no exit 30 s after Ctrl-C: " + (seen + rest).decode(errors="replace"))
    assert proc.returncode == 130, (seen + rest).decode(errors="replace")
    assert b"Traceback" not in seen + rest
    assert len(list((home / "records").glob("*.json"))) == 1  # saved, so it can be resumed

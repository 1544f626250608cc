"""Ctrl-C at any moment of a terminal game: at the prompt, while a bot thinks, while the record is
being saved, while the command is still loading. Each case raises a real SIGINT in this process at
that exact point (a signal a process sends itself is handled before its next bytecode), so nothing
here depends on timing; the subprocess test in test_terminal_play.py covers the prompt end to end."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from typer.testing import CliRunner

import tabletrek
import tabletrek.cli
import tabletrek.cli.play as play_module
from tabletrek import GameRecord
from tabletrek.cli import app
from tabletrek.cli.common import console
from tabletrek.core.bots import Bot, make_bot
from tabletrek.core.interrupts import sigint_held

pytestmark = pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")

runner = CliRunner()
GAME = ["play", "touring", "--seed", "5", "--lang", "en"]


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TABLETREK_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "120")
    return tmp_path / "home"


@pytest.fixture(autouse=True)
def ctrl_c_raises() -> Iterator[None]:
    """Python's own SIGINT handler, even when pytest runs as a background job that ignores SIGINT."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def press_ctrl_c() -> None:
    """What the terminal does on Ctrl-C: SIGINT to the process (here, to ourselves, handled now)."""
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(30)  # not reached while the default handler raises KeyboardInterrupt above


def the_record(home: Path) -> GameRecord:
    saved = sorted((home / "records").iterdir())
    assert [p.suffix for p in saved] == [".json"], saved  # one record, no temporary file left
    record = GameRecord.load(saved[0])
    assert not tabletrek.replay(record).is_over  # whole, and replays up to where it stopped
    return record


def assert_quiet_130(result: Any) -> None:
    assert result.exit_code == 130, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output and "Aborted" not in result.output
    assert "--resume" in result.output  # it told the player how to go on
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Ctrl-C works again after


def test_ctrl_c_at_the_prompt_saves_and_exits_130(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(console, "input", lambda prompt="": press_ctrl_c())
    result = runner.invoke(app, GAME)
    assert_quiet_130(result)
    assert len(the_record(home).actions) == 0  # seat 1 (you) moves first: nothing played yet


class ThinkingBot:
    """The game's bot, pressed Ctrl-C on while it works out its second move."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.moves = 0

    def act(self, state: Any) -> Any:
        self.moves += 1
        if self.moves == 2:
            press_ctrl_c()
        return self.bot.act(state)


def test_ctrl_c_while_a_bot_is_thinking_saves_and_exits_130(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(play_module, "make_bot", lambda *a, **k: ThinkingBot(make_bot(*a, **k)))
    result = runner.invoke(app, GAME, input="1\n" * 50)
    assert_quiet_130(result)
    record = the_record(home)
    assert len(record.actions) >= 3  # the human's moves and the bot's first, up to the interrupted one
    assert record.meta["bots"] == {"1": "greedy"}  # resumable with the same bot


@pytest.mark.parametrize("ending", ["quit\n", None], ids=["after-quit", "after-ctrl-c"])
def test_ctrl_c_while_the_record_is_being_saved_still_saves_all_of_it(
    ending: str | None, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if ending is None:  # the first Ctrl-C at the prompt, a second one while saving
        monkeypatch.setattr(console, "input", lambda prompt="": press_ctrl_c())
    original = GameRecord.to_json

    def interrupted_to_json(self: GameRecord, indent: int | None = None) -> str:
        text = original(self, indent=indent)
        os.kill(os.getpid(), signal.SIGINT)  # half way through saving
        return text

    monkeypatch.setattr(GameRecord, "to_json", interrupted_to_json)
    result = runner.invoke(app, GAME, input=ending)
    assert_quiet_130(result)
    the_record(home)


def test_an_interrupted_save_keeps_the_previous_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tabletrek.load("touring").new_game(seed=5)
    path = tmp_path / "game.json"
    state.record().save(path)
    before = path.read_bytes()
    state.apply(state.legal_actions()[0])

    def interrupted(self: Path, target: Path) -> Path:
        raise KeyboardInterrupt

    monkeypatch.setattr(Path, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        state.record().save(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


class InterruptedImport(importlib.abc.MetaPathFinder):
    """Ctrl-C while Python imports the command's modules."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname == "tabletrek.cli.command":
            press_ctrl_c()
        return None


def test_ctrl_c_while_the_command_loads_exits_130_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(sys.modules, "tabletrek.cli.command", raising=False)
    monkeypatch.delattr(tabletrek.cli, "command", raising=False)
    monkeypatch.setattr(sys, "meta_path", [InterruptedImport(), *sys.meta_path])
    try:
        tabletrek.cli.main()
    except KeyboardInterrupt:  # what Python would show as a traceback
        pytest.fail("the Ctrl-C came out of main() as KeyboardInterrupt")
    except SystemExit as stop:
        assert stop.code == 130
        assert stop.__suppress_context__  # no "during handling of ... another exception" chain
    else:
        pytest.fail("main() went on after the Ctrl-C")


def test_sigint_held_notes_a_press_and_restores_the_handler() -> None:
    with sigint_held() as presses:
        assert not presses
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0)  # a bytecode boundary: the handler has run by now, and raised nothing
    assert presses
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with pytest.raises(KeyboardInterrupt):
        press_ctrl_c()

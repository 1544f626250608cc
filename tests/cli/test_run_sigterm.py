"""SIGTERM (``kill PID``, ``timeout``, a batch scheduler's time limit) stops ``tabletrek
simulate``, ``tournament`` and ``analyze`` as Ctrl+C does: the games that finished are summarised,
their records saved, their report written, and the command exits 143 (128 + SIGTERM's 15)."""

from __future__ import annotations

import contextlib
import html
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tabletrek.cli
from tabletrek.cli import app
from tabletrek.core.interrupts import Stopped
from tests.cli.stopping import signal_before_the_fourth_game

pytestmark = pytest.mark.skipif(os.name != "posix", reason="sends SIGTERM")

SRC = str(Path(__file__).resolve().parents[2] / "src")
runner = CliRunner()
STOPPED = {
    "en": "Stopped by SIGTERM (kill, timeout or a scheduler's time limit) after 3 finished games of {n}: "
    "the figures below are theirs.",
    "zh-Hant": "已因終止訊號 SIGTERM（kill、timeout 或排程器的時限）停止："
    "{n} 局中已完成 3 局，以下數字只計這些對局。",
}


@pytest.fixture
def sigterm_before_the_fourth_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COLUMNS", "200")
    yield from signal_before_the_fourth_game(monkeypatch, signal.SIGTERM)


COMMANDS = {
    "simulate": ["simulate", "touring", "-n", "40"],
    "tournament": ["tournament", "touring", "-n", "20"],
    "analyze": ["analyze", "touring", "-n", "40"],
}


@pytest.mark.usefixtures("sigterm_before_the_fourth_game")
@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_sigterm_stops_each_command_as_ctrl_c_does(command: str, lang: str, tmp_path: Path) -> None:
    saved = ["--out", str(tmp_path / "report.html")] if command == "analyze" else ["--records", str(tmp_path)]
    args = [*COMMANDS[command], *saved, "--bots", "random,greedy", "--lang", lang]
    result = runner.invoke(app, args)
    assert result.exit_code == 128 + signal.SIGTERM, result.output
    stopped = STOPPED[lang].format(n=COMMANDS[command][3])
    assert stopped in " ".join(result.output.split()), result.output
    assert "Traceback" not in result.output
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # the command's handler is gone
    if command == "analyze":
        assert stopped in html.unescape((tmp_path / "report.html").read_text("utf-8"))  # the page too
    else:
        assert len(list(tmp_path.glob("touring-*.json"))) == 3
    if command == "tournament":
        assert json.loads((tmp_path / "tournament.json").read_text("utf-8"))["games"] == 3


@pytest.mark.parametrize(
    ("jobs", "ctrl_c"),
    # SIG_IGN: as for a command a script started with `&`
    [(1, signal.SIG_DFL), (2, signal.SIG_DFL), (1, signal.SIG_IGN), (2, signal.SIG_IGN)],
    ids=["j1", "j2", "j1-ctrl-c-ignored", "j2-ctrl-c-ignored"],
)
def test_kill_pid_prints_the_summary_of_the_finished_games(
    jobs: int, ctrl_c: signal.Handlers, tmp_path: Path
) -> None:
    # before: the command ended at once, printing nothing of the games it had played
    records = tmp_path / "records"
    command = ["simulate", "touring", "-n", str(10**8), "-j", str(jobs), "--bots", "random,greedy"]
    run = subprocess.Popen(
        [sys.executable, "-m", "tabletrek", *command, "--records", str(records), "--lang", "en"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, ctrl_c),  # noqa: PLW1509 - nothing to deadlock
        env={**os.environ, "PYTHONPATH": SRC, "HOME": str(tmp_path), "COLUMNS": "200"},
    )
    try:
        deadline = time.monotonic() + 60
        while not any(records.glob("*.json")) and time.monotonic() < deadline:
            time.sleep(0.05)
        run.send_signal(signal.SIGTERM)  # the run's own process alone, as `kill PID` does
        out, err = run.communicate(timeout=60)
    finally:  # nothing of this test may outlive it
        with contextlib.suppress(ProcessLookupError):
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 128 + signal.SIGTERM, (run.returncode, out[-2000:], err[-2000:])
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    said = re.search(r"Stopped by SIGTERM \(.*?\) after (\d+) finished games? of 100000000", out)
    assert said is not None, out
    assert int(said[1]) == len(list(records.glob("*.json"))) >= 1, (out[:300], err[-2000:])


def test_a_sigterm_that_reaches_the_command_itself_exits_143(monkeypatch: pytest.MonkeyPatch) -> None:
    # a second SIGTERM while a stopped run hands over its last games; before: exit 130
    from tabletrek.cli import command

    def stopped_twice() -> None:
        raise Stopped(signal.SIGTERM)

    monkeypatch.setattr(command, "main", stopped_twice)
    with pytest.raises(SystemExit) as stop:
        tabletrek.cli.main()
    assert stop.value.code == 128 + signal.SIGTERM
    assert stop.value.__suppress_context__  # no traceback chain

"""Ctrl+C during ``tabletrek simulate``, ``tournament`` or ``analyze``: the games that finished
are summarised (their records saved, their report written), and the command exits 130. The
press is a real SIGINT this process sends itself before the fourth game (handled before the
next bytecode), so nothing depends on timing."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tabletrek.cli import app
from tests.cli.stopping import signal_before_the_fourth_game

pytestmark = pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")

runner = CliRunner()


@pytest.fixture(autouse=True)
def ctrl_c_before_the_fourth_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("COLUMNS", "120")
    yield from signal_before_the_fourth_game(monkeypatch, signal.SIGINT)


@pytest.mark.parametrize(
    ("lang", "stopped", "title"),
    [
        (
            "en",
            "Stopped by Ctrl+C after 3 finished games of 40: the figures below are theirs.",
            "Touring: 3 games",
        ),
        ("zh-Hant", "已按 Ctrl+C 停止：40 局中已完成 3 局，以下數字只計這些對局。", "3 局"),
    ],
)
def test_ctrl_c_summarises_and_saves_the_finished_games(
    lang: str, stopped: str, title: str, tmp_path: Path
) -> None:
    records = tmp_path / "records"
    command = ["simulate", "touring", "-n", "40", "--bots", "random,greedy", "--records", str(records)]
    result = runner.invoke(app, [*command, "--lang", lang])
    assert result.exit_code == 130, result.output
    assert "Traceback" not in result.output
    assert stopped in result.output
    assert title in result.output
    assert len(list(records.glob("*.json"))) == 3


def test_ctrl_c_with_json_prints_the_finished_games_and_says_so_on_stderr() -> None:
    result = runner.invoke(app, ["simulate", "touring", "-n", "40", "--json", "--lang", "en"])
    assert result.exit_code == 130, result.output
    assert json.loads(result.stdout)["games"] == 3
    assert "Stopped by Ctrl+C after 3 finished games of 40" in result.stderr


def test_ctrl_c_gives_the_standings_of_the_finished_tournament_games(tmp_path: Path) -> None:
    records = tmp_path / "records"
    command = ["tournament", "touring", "-n", "20", "--bots", "random,greedy", "--records", str(records)]
    result = runner.invoke(app, [*command, "--lang", "en"])
    assert result.exit_code == 130, result.output
    assert "Stopped by Ctrl+C after 3 finished games of 20: the figures below are theirs." in result.output
    assert "Touring: 3 games, round-robin" in result.output
    assert len(list(records.glob("touring-*.json"))) == 3
    assert json.loads((records / "tournament.json").read_text("utf-8"))["games"] == 3


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_ctrl_c_writes_the_report_of_the_finished_games(lang: str, tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    command = ["analyze", "touring", "-n", "40", "--bots", "random,greedy", "--out", str(report)]
    result = runner.invoke(app, [*command, "--lang", lang])
    assert result.exit_code == 130, result.output
    stopped = {
        "en": "Stopped by Ctrl+C after 3 finished games of 40: the figures below are theirs.",
        "zh-Hant": "已按 Ctrl+C 停止：40 局中已完成 3 局，以下數字只計這些對局。",
    }[lang]
    assert stopped in result.output
    assert stopped in report.read_text("utf-8")  # the page says it too, beside the command's -n 40
    if lang == "en":
        assert "Wrote the report on 3 games" in " ".join(result.output.split())


def test_a_bot_not_yet_seated_when_stopped_reads_a_dash_not_zero_percent() -> None:
    # three bots at two seats: the third sits down in the second table, after the press
    result = runner.invoke(
        app, ["tournament", "touring", "-n", "20", "--bots", "random,greedy,greedy:go=120"]
    )
    assert result.exit_code == 130, result.output
    row = next(line for line in result.output.splitlines() if "greedy:go=120" in line)
    assert "0/0" in row and "—" in row and "%" not in row, row

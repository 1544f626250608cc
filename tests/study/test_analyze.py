"""Analysis reports: per-game statistics from events, and a self-contained HTML page."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tabletrek.cli import app
from tabletrek.sim import simulate
from tabletrek.sim.analyze import analyze, render_html

pytest.importorskip("matplotlib", reason="analysis plots need the [study] extra")
runner = CliRunner()


def test_same_games_as_simulate() -> None:
    analysis = analyze("touring", 4, ["greedy", "random"], seed=3)
    plain = simulate("touring", 4, ["greedy", "random"], seed=3)
    assert [o.winners for o in analysis.result.outcomes] == [o.winners for o in plain.outcomes]
    assert [o.actions for o in analysis.result.outcomes] == [o.actions for o in plain.outcomes]


@pytest.mark.parametrize(
    ("game", "bots", "title"),
    [
        ("touring", ["greedy", "random"], "cli.analyze.touring.title"),
        ("mexican-train", ["greedy", "random"], "cli.analyze.mexican.points_title"),
        ("double-crossing", ["trader", "random"], "cli.analyze.crossing.contract_title"),
        ("codenames-duet", ["random"], "cli.analyze.duet.turns_title"),
    ],
)
def test_each_game_gets_its_own_statistics(game: str, bots: list[str], title: str) -> None:
    options = {"rounds": 2} if game == "mexican-train" else {}
    analysis = analyze(game, 2, bots, players=2, seed=1, options=options)
    titles = [s.title for s in analysis.sections]
    assert titles[0] == title and "cli.analyze.events.title" in titles
    events = next(s for s in analysis.sections if s.title == "cli.analyze.events.title")
    assert events.rows, "every game has events to count"
    page = render_html(analysis, "en")
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") >= 3
    for loader in ('src="http', "src='http", 'href="http', "<link", "<script", "@import"):
        assert loader not in page, f"the page must not load anything ({loader})"


def test_touring_hazards_are_counted() -> None:
    analysis = analyze("touring", 3, ["greedy"], seed=5)
    hazards = analysis.sections[0]
    assert hazards.rows and all(float(row[1]) > 0 for row in hazards.rows)


def test_command_writes_a_report_in_either_language(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = runner.invoke(app, ["analyze", "touring", "-n", "3", "--out", str(out), "--lang", "zh-Hant"])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert "勝率" in page and "<svg" in page
    bad = runner.invoke(app, ["analyze", "touring", "-n", "0", "--out", str(out)])
    assert bad.exit_code != 0

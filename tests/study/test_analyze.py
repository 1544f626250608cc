"""Analysis reports: per-game statistics from events, and a self-contained HTML page."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tabletrek.cli import app
from tabletrek.core.analysis import Section
from tabletrek.i18n import translate
from tabletrek.sim import simulate, summarize
from tabletrek.sim.analyze import Analysis, analyze, cell_text, plot_fonts, render_html

pytest.importorskip("matplotlib", reason="analysis plots need the [study] extra")
runner = CliRunner()


def test_same_games_as_simulate() -> None:
    analysis = analyze("touring", 4, ["greedy", "random"], seed=3)
    plain = simulate("touring", 4, ["greedy", "random"], seed=3)
    assert analysis.summary == summarize(plain)
    assert analysis.result.totals().actions == Counter(o.actions for o in plain.outcomes)


@pytest.mark.parametrize(
    ("game", "bots", "title"),
    [
        ("touring", ["greedy", "random"], "touring.analyze.title"),
        ("mexican-train", ["greedy", "random"], "mexican_train.analyze.points_title"),
        ("double-crossing", ["trader", "random"], "double_crossing.analyze.contract_title"),
        ("codenames-duet", ["random"], "codenames_duet.analyze.turns_title"),
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
    # the bots studied, listed as Chinese lists things (before: 'random, greedy')
    assert "電腦玩家 random、greedy 輪流坐各座位" in page
    bad = runner.invoke(app, ["analyze", "touring", "-n", "0", "--out", str(out)])
    assert bad.exit_code != 0


def test_a_report_is_written_over_a_report_only(tmp_path: Path) -> None:
    # Before: --out (default report.html in the working folder) replaced whatever file was there.
    page = tmp_path / "report.html"
    page.write_text("<!DOCTYPE html><title>My own page</title>\n", encoding="utf-8")
    for lang, said in (
        ("en", "already holds something other than a tabletrek report"),
        ("zh-Hant", "裡已有 tabletrek 報告以外的內容"),
    ):
        refused = runner.invoke(app, ["analyze", "touring", "-n", "2", "--out", str(page), "--lang", lang])
        assert refused.exit_code == 2 and said in " ".join(refused.output.split()), refused.output
    assert page.read_text(encoding="utf-8") == "<!DOCTYPE html><title>My own page</title>\n"
    fresh = tmp_path / "fresh.html"
    empty = tmp_path / "empty.html"
    empty.touch()
    for target in (fresh, empty, fresh):  # new, empty, and a report written before: all written
        result = runner.invoke(app, ["analyze", "touring", "-n", "2", "--out", str(target)])
        assert result.exit_code == 0, result.output
        assert "<svg" in target.read_text(encoding="utf-8")


# ----- the report's figures can be trusted ------------------------------------------------------

PERCENT = re.compile(r"(-?\d+(?:\.\d+)?)%")
REPORTS = [
    ("touring", ["greedy", "random"], {}),
    ("mexican-train", ["greedy", "random"], {"rounds": 3}),
    ("double-crossing", ["trader", "random"], {"max_rounds": 30}),
    ("codenames-duet", ["random"], {}),
]


def cells(analysis: Analysis, lang: str) -> list[str]:
    return [cell_text(c, lang) for s in analysis.sections for row in s.rows for c in row]


@pytest.mark.parametrize(("game", "bots", "options"), REPORTS)
def test_every_percentage_is_a_percentage_and_counts_add_up(
    game: str, bots: list[str], options: dict[str, int]
) -> None:
    n = 6
    analysis = analyze(game, n, bots, players=2, seed=2, options=options)
    page = render_html(analysis, "en")
    found = [float(x) for x in PERCENT.findall(page)]
    assert found and all(0 <= x <= 100 for x in found), found
    s = analysis.summary
    assert sum(s.reasons.values()) == n == s.games
    assert sum(b.seats_played for b in s.bots) == n * s.players
    assert all(seat.games == n for seat in s.seats)
    plain = simulate(game, n, bots, players=2, seed=2, options=options)
    assert sum(seat.wins for seat in s.seats) == sum(len(o.winners) for o in plain.outcomes)
    for section in analysis.sections:
        for row in section.rows:
            for cell in row:
                assert not (isinstance(cell, str) and cell.startswith(game.replace("-", "_") + ".")), (
                    f"raw key {cell} in {section.title}"
                )
    if game == "codenames-duet":
        wins = next(x for x in analysis.sections if x.title == "codenames_duet.analyze.turns_title")
        losses = next(x for x in analysis.sections if x.title == "codenames_duet.analyze.loss_title")
        assert sum(int(r[1]) for r in wins.rows) + sum(int(r[1]) for r in losses.rows) == n


@pytest.mark.parametrize(
    ("options", "rounds"), [({"set_size": 12}, 13), ({"set_size": 9}, 10), ({"set_size": 12, "rounds": 4}, 4)]
)
def test_mexican_train_rounds_are_counted_and_labelled_from_one(options: dict[str, int], rounds: int) -> None:
    n = 2 if rounds > 4 else 4
    analysis = analyze("mexican-train", n, ["greedy"], players=2, seed=1, options=options)
    points = next(x for x in analysis.sections if x.title == "mexican_train.analyze.points_title")
    assert [row[0] for row in points.rows] == [str(r) for r in range(1, rounds + 1)]
    assert all(row[2] == str(2 * n) for row in points.rows), "every seat scores every round"
    starts = next(x for x in analysis.sections if x.title == "mexican_train.analyze.start_title")
    measures = {row[0]["$t"]: row[1] for row in starts.rows}
    assert measures["mexican_train.analyze.rounds"] == str(n * rounds)
    share = float(measures["mexican_train.analyze.started"].rstrip("%"))
    assert 0 <= share <= 100


def test_event_names_are_translated_in_both_languages() -> None:
    analysis = analyze("touring", 2, ["greedy"], seed=1)
    events = next(x for x in analysis.sections if x.title == "cli.analyze.events.title")
    for lang in ("en", "zh-Hant"):
        names = [cell_text(row[0], lang) for row in events.rows]
        assert names and not any(name.startswith("touring.event") for name in names), names
        assert not any("{" in name for name in names)
    assert any("drew" in cell_text(row[0], "en") for row in events.rows)
    assert any("抽" in cell_text(row[0], "zh-Hant") for row in events.rows)


def test_plots_name_a_cjk_fallback_when_one_is_installed() -> None:
    fonts = plot_fonts()
    assert fonts[0] == "DejaVu Sans" and fonts[-1] == "sans-serif"
    analysis = analyze("touring", 2, ["greedy"], seed=1)
    page = render_html(analysis, "zh-Hant")
    assert "DejaVu Sans" in page, "the SVG text names the font chain for the browser"
    if len(fonts) > 2:
        assert fonts[1] in page


def test_cjk_fonts_installed_after_matplotlib_cached_its_list_are_still_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from matplotlib import font_manager

    cjk_files = [path for path in font_manager.findSystemFonts() if "CJK" in path]
    if not cjk_files:
        pytest.skip("no CJK font on this machine (.ci/run installs fonts-noto-cjk)")
    manager = font_manager.fontManager
    # The list matplotlib cached before the fonts were installed: everything but the CJK faces.
    stale = [entry for entry in manager.ttflist if "CJK" not in entry.fname]
    monkeypatch.setattr(manager, "ttflist", stale)
    fonts = plot_fonts()
    assert any("CJK" in name for name in fonts), fonts


@pytest.mark.parametrize(
    ("lang", "no_wins", "nothing"),
    [
        ("en", "No game of this run was won.", "None of these games gave anything to count here."),
        ("zh-Hant", "這批對局沒有一局獲勝。", "這批對局在這一項沒有可統計的資料。"),
    ],
)
def test_a_section_with_nothing_to_count_says_so(lang: str, no_wins: str, nothing: str) -> None:
    # Before: Codenames' 'Wins by turns used' of a run without a win was a heading and its note
    # over nothing, as if the report had failed to draw it.
    analysis = analyze("codenames-duet", 3, ["random"], seed=1)
    assert not any(seat.wins for seat in analysis.summary.seats), "random guessers lose these games"
    analysis.sections.append(Section("cli.analyze.events.title", None, ["cli.analyze.col.games"], []))
    page = render_html(analysis, lang)
    title = translate("codenames_duet.analyze.turns_title", lang)
    wins = next(part for part in page.split("<h2>") if part.startswith(title))
    assert f"<p class='empty'>{no_wins}</p>" in wins and "<svg" not in wins and "<table" not in wins
    assert page.count(f"<p class='empty'>{nothing}</p>") == 1, "the section added last, and no other"

"""``tabletrek tournament``'s standings at the widths terminals have, in both languages: each
bot's win rate stays on one line with its interval, and its rating with its spread."""

from __future__ import annotations

import io

import pytest
from rich.cells import cell_len

import tabletrek.cli.tournament as command
from tabletrek.core.linebreak import LineBreakingConsole
from tabletrek.sim.tournament import TournamentResult, tournament

# a bot named with its parameters, as ``--bots`` takes it, is longer than the figures beside it
BOTS = ["random", "greedy", "ismcts:iterations=5"]


@pytest.fixture(scope="module")
def result() -> TournamentResult:
    return tournament("touring", BOTS, 3, seed=1)


def printed(result: TournamentResult, lang: str, width: int, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    out = io.StringIO()
    monkeypatch.setattr(command, "console", LineBreakingConsole(file=out, width=width, color_system=None))
    command.print_result(result, lang)
    lines = out.getvalue().splitlines()
    assert all(cell_len(line) <= width for line in lines), lines
    return lines


def line_with(lines: list[str], *parts: str) -> str | None:
    return next((line for line in lines if all(part in line for part in parts)), None)


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_each_figure_keeps_to_its_lines(
    result: TournamentResult, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: nine columns in 80 set '49.0% –' over '94.3%'. Now at 80 each figure is one line.
    lines = printed(result, lang, 80, monkeypatch)
    for s in result.standings:
        low, high = s.interval
        row = line_with(lines, f"{100 * s.win_rate:.1f}%", f"{100 * low:.1f}", f"{100 * high:.1f}%")
        assert row is not None, (s.bot, lines)
        # the interval's ends on one line (a rate of 100% is also the interval's top)
        assert row.index(f"{100 * low:.1f}") < row.rindex(f"{100 * high:.1f}%"), row
        assert f"{s.rating.mu:.2f} ± {s.rating.sigma:.2f}" in row
        assert f"{s.wins}/{s.games}" in row and f"{s.rating.ordinal:.2f}" in row
    # the headings are short because the note says what the brackets hold
    note = " ".join(lines)
    assert ("95% intervals in brackets" if lang == "en" else "勝率後的括號是 95% 信賴區間") in note
    # At 64 a rate stands over its interval, a rating over its spread.
    lines = printed(result, lang, 64, monkeypatch)
    for s in result.standings:
        low, high = s.interval
        rate = line_with(lines, f"{100 * s.win_rate:.1f}%", f"{s.rating.mu:.2f}")
        assert rate is not None, (s.bot, lines)
        below = lines[lines.index(rate) + 1]
        assert f"({100 * low:.1f}–{100 * high:.1f}%)" in below and f"± {s.rating.sigma:.2f}" in below


def test_the_figures_give_way_before_a_name_is_squeezed_away() -> None:
    headers = ["Rank", "Bot", "Wins"]
    rows = [headers, ["1", "ismcts:iterations=5", "15/20"]]
    # 4 + 10 (a name is given ten cells) + 5, and three cells' padding and rules: 19 + 10
    assert command.figures_fit(rows, name_column=1, width=29)
    assert not command.figures_fit(rows, name_column=1, width=28)
    # a name shorter than the room needs only its own width; a figure on two lines, its wider line
    assert command.figures_fit([headers, ["1", "greedy", "15/20"]], name_column=1, width=25)
    assert command.figures_fit([headers, ["1", "greedy", "15/\n20"]], name_column=1, width=24)

"""The study commands' tables (``simulate``, ``tournament``) at the widths terminals have, in both
languages: a win rate stays on one line with its interval, a rating with its spread, and where
the table is too narrow for that a rate stands over its interval."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator

import pytest
from rich.cells import cell_len

import tabletrek.cli.simulate as simulate_command
import tabletrek.cli.tournament as tournament_command
from tabletrek.cli.figures import NAME_ROOM, plan
from tabletrek.core.linebreak import LineBreakingConsole
from tabletrek.sim import Summary, simulate, summarize
from tabletrek.sim.tournament import TournamentResult, tournament

# a bot named with its parameters, as ``--bots`` takes it, is longer than the figures beside it
SEARCH = "greedy:go=120;remedy=150"


@pytest.fixture(scope="module")
def standings() -> TournamentResult:
    return tournament("touring", ["random", "greedy", SEARCH], 3, seed=1)


@pytest.fixture(scope="module")
def summary() -> Summary:
    return summarize(simulate("touring", 6, ["greedy", SEARCH], seed=1))


def printed(
    module: object, show: Callable[[], None], width: int, monkeypatch: pytest.MonkeyPatch
) -> list[str]:
    out = io.StringIO()
    monkeypatch.setattr(module, "console", LineBreakingConsole(file=out, width=width, color_system=None))
    show()
    lines = out.getvalue().splitlines()
    assert all(cell_len(line) <= width for line in lines), lines
    return lines


def rows_of(lines: list[str], rate: float) -> Iterator[tuple[str, str]]:
    """Each line that shows ``rate``, with the line under it."""
    for at, line in enumerate(lines[:-1]):
        if f"{100 * rate:.1f}%" in line:
            yield line, lines[at + 1]


def one_line(lines: list[str], rate: float, interval: tuple[float, float], *more: str) -> bool:
    low, high = f"{100 * interval[0]:.1f}", f"{100 * interval[1]:.1f}%"
    # the interval's ends on one line (a rate of 100% is also the interval's top)
    return any(
        high in line and low in line[: line.rindex(high)] and all(part in line for part in more)
        for line, _ in rows_of(lines, rate)
    )


def stacked(lines: list[str], rate: float, interval: tuple[float, float], *more: str) -> bool:
    bracket = f"({100 * interval[0]:.1f}–{100 * interval[1]:.1f}%)"
    return any(bracket in below and all(part in below for part in more) for _, below in rows_of(lines, rate))


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_tournament_standings(
    standings: TournamentResult, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def show() -> None:
        tournament_command.print_result(standings, lang)

    # Before: nine columns in 80 set '49.0% –' over '94.3%'.
    lines = printed(tournament_command, show, 80, monkeypatch)
    for s in standings.standings:
        rating = f"{s.rating.mu:.2f} ± {s.rating.sigma:.2f}"
        assert one_line(lines, s.win_rate, s.interval, rating, f"{s.wins}/{s.games}"), (s.bot, lines)
    # the headings are short because the note says what the brackets hold
    note = "95% intervals in brackets" if lang == "en" else "勝率後的括號是 95% 信賴區間"
    assert any(note in line for line in lines), lines
    lines = printed(tournament_command, show, 64, monkeypatch)
    for s in standings.standings:
        assert stacked(lines, s.win_rate, s.interval, f"± {s.rating.sigma:.2f}"), (s.bot, lines)


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_simulation_summary(summary: Summary, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def show() -> None:
        simulate_command.print_summary(summary, lang)

    # Before: a bot named with its parameters at 80 set '18.8% –' over '81.2%'.
    lines = printed(simulate_command, show, 80, monkeypatch)
    for figures in [*summary.bots, *summary.seats]:
        assert one_line(lines, figures.win_rate, figures.interval), (figures, lines)
    lines = printed(simulate_command, show, 60, monkeypatch)
    for b in summary.bots:
        assert stacked(lines, b.win_rate, b.interval), (b.bot, lines)


def test_a_reader_gives_up_headings_then_names_then_figures_on_one_line() -> None:
    headers = ["Bot", "Seats played", "Rate"]
    wide = [["greedy-planner", "6", "50.0% (18.8–81.2%)"]]
    narrow = [["greedy-planner", "6", "50.0%\n(18.8–81.2%)"]]
    layouts = [wide, narrow]
    # each column's content and a space either side, and the rules between and around them
    assert plan(headers, layouts, 0, 14 + 12 + 18 + 10) == (wide, [14, 12, 18])
    assert plan(headers, layouts, 0, 14 + 12 + 18 + 9) == (wide, [14, 6, 18])  # "Seats" over "played"
    assert plan(headers, layouts, 0, NAME_ROOM + 6 + 18 + 10) == (wide, [14, 6, 18])  # the name wraps
    assert plan(headers, layouts, 0, NAME_ROOM + 6 + 18 + 9) == (narrow, [14, 6, 12])  # the rate stacks
    assert plan(headers, layouts, 0, 1 + 6 + 12 + 10) == (narrow, [14, 6, 12])
    assert plan(headers, layouts, 0, 1 + 6 + 12 + 9) == (narrow, None)  # rich shares the width
    assert plan(headers, layouts, None, 14 + 6 + 12 + 9) == (narrow, None)


def test_the_head_to_head_grid_of_five_bots_fits_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    # Before: a column per bot, headed by its name, folded the names ('greedy:go=' over '120')
    # and set some cells on one line and some on two.
    bots = ["random", "greedy", "greedy:go=120", "greedy:remedy=150", "greedy:go=90"]
    result = tournament("touring", bots, 2, seed=1)
    lines = printed(
        tournament_command, lambda: tournament_command.print_result(result, "en"), 80, monkeypatch
    )
    grid = lines[next(at for at, line in enumerate(lines) if line.startswith("Head to head")) :]
    # columns headed by rank
    assert [cell.strip() for cell in grid[2].split("┃")[1:-1]] == ["", "1", "2", "3", "4", "5"], grid
    for rank, s in enumerate(result.standings, 1):
        row = next(line for line in grid if f"│ {rank} {s.bot} " in line)
        below = grid[grid.index(row) + 1]
        for other in result.standings:
            if other.bot != s.bot:
                games, wins = result.head_to_head(s.bot, other.bot)
                assert f"{wins}/{games}" in row and f"({100 * wins / games:.1f}%)" in below, (s.bot, grid)

"""Tables of figures for the study commands (``simulate``, ``tournament``): a win rate with its
95% interval, a rating with its spread, each kept on one line where the table fits in the
terminal so, and stacked over two lines where it does not.

rich shares out a table's width by shrinking the widest columns that may wrap, figures and
names alike: at 80 columns it set an interval as ``49.0% –`` over ``94.3%``. Here the figures
never wrap while they fit, so a short table narrows the bots' names (down to ``NAME_ROOM``
cells; a longer name wraps) before it touches a figure."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.cells import cell_len
from rich.table import Table

from tabletrek.cli.common import pct
from tabletrek.core.linebreak import widest_word
from tabletrek.sim.stats import WinRate

# The narrowest a bot's name may be set before the figures beside it give way.
NAME_ROOM = 10

Rows = Sequence[Sequence[str]]

# What stands between a figure's two parts (a rate and its interval, a rating and its spread):
# a space where the table fits with them on one line, else a line break.
BETWEEN = (" ", "\n")


def span(interval: tuple[float, float]) -> str:
    """An interval of shares as one range, ``49.0–94.3%``: no space to break it at."""
    low, high = interval
    return f"{100 * low:.1f}–{pct(high)}"


def rate_in(stats: WinRate, between: str = " ") -> str:
    """A win rate and its 95% interval in brackets: ``75.0% (53.1–88.8%)``; a dash for one that
    played nothing (a bot not yet seated when Ctrl+C stopped the run), not 0.0% (0.0–100.0%)."""
    if not stats.trials:
        return "—"
    return f"{pct(stats.win_rate)}{between}({span(stats.interval)})"


def _shown(cell: str) -> int:
    return max(map(cell_len, cell.splitlines() or [""]))


def figure_widths(headers: Sequence[str], rows: Rows, *, break_headings: bool = False) -> list[int]:
    """Each column's width with its figures on their lines and its heading whole, or with
    ``break_headings`` broken only at its spaces ("Seats played" over two lines, 座位次數 whole)."""
    heads = [widest_word(header) if break_headings else cell_len(header) for header in headers]
    return [max(head, *map(_shown, column)) for head, *column in zip(heads, *rows, strict=True)]


def _fits(widths: Sequence[int], name_column: int | None, room: int | None, width: int) -> bool:
    needed = list(widths)
    if name_column is not None and room is not None:
        needed[name_column] = min(room, widths[name_column])
    return sum(needed) + 3 * len(needed) + 1 <= width  # a space each side of a cell, a rule between


def plan(
    headers: Sequence[str], layouts: Sequence[Rows], name_column: int | None, width: int
) -> tuple[Rows, list[int] | None]:
    """The rows and the columns' widths to set them in ``width`` cells, giving things up in the
    order a reader would: a heading whole (it may break at its spaces), then a name whole (it
    keeps ``NAME_ROOM`` cells), then a figure on one line (the next layout); narrower than all
    that, the last layout with whatever the names are left, or (None) rich's own sharing."""
    for layout in layouts:
        for room in (None, NAME_ROOM):
            for break_headings in (False, True):
                widths = figure_widths(headers, layout, break_headings=break_headings)
                if _fits(widths, name_column, room, width):
                    return layout, widths
    widths = figure_widths(headers, layouts[-1], break_headings=True)
    return layouts[-1], widths if name_column is not None and _fits(widths, name_column, 1, width) else None


def figures_table(
    title: str | None,
    headers: Sequence[str],
    rows: Callable[[str], Rows],
    width: int,
    name_column: int | None = None,
) -> Table:
    """A table of ``rows(between)`` in ``width`` cells, each figure's parts joined by one of
    ``BETWEEN`` as ``plan`` chooses; column ``name_column`` holds names, the rest figures."""
    shown, widths = plan(headers, [rows(between) for between in BETWEEN], name_column, width)
    table = Table(title=title)
    for at, header in enumerate(headers):
        figure = at != name_column
        # a figure column set to its width is one rich does not narrow; the names take the rest
        fixed = widths[at] if widths is not None and figure else None
        table.add_column(header, justify="right" if figure else "left", width=fixed)
    for row in shown:
        table.add_row(*row)
    return table

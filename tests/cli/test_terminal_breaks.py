"""Every game's terminal, at narrow widths in both languages, ends its lines where a reader
expects: never before 、 or ）, never after （, never between a number and the word it counts
("5" over "張", "1" over "tank car"), never between a label and its count ("30:" over "0/2"),
never leaving a mark apart from what it marks ("✓ found · ×" over "bystander on your key")."""

from __future__ import annotations

import io
import random
import re
import unicodedata
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest
from rich import box
from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

import tabletrek
from tabletrek.cli.common import RulesMarkdown, tr
from tabletrek.cli.seat_names import seat_names
from tabletrek.core.linebreak import LineBreakingConsole, break_offsets, wrapped

from .test_terminal_punctuation import GAMES

WIDTHS = (60, 80, 100)  # below 60 a table's cells are narrower than its words
CLOSING = "、。，；：）」』！？"
OPENING = "（「『"
BORDER = re.compile(r"[┏┡├└┃┌╭╰]")


def parts(renderable: RenderableType) -> Iterator[RenderableType]:
    """The texts and tables a game's render is made of (its own drawings, such as Double
    Crossing's board of fixed-width cells, are left out)."""
    if isinstance(renderable, Group):
        for child in renderable.renderables:
            yield from parts(child)
    elif isinstance(renderable, Text | Table):
        yield renderable


def runs(renderable: RenderableType, width: int) -> Iterator[list[str]]:
    """The lines of each text, and of each table cell, in order."""
    if isinstance(renderable, Table):
        # every row ruled off and every column boxed, so that a cell's lines can be read apart
        renderable.box = renderable.box or box.SQUARE
        renderable.show_lines = True
        renderable.show_edge = True
    out = io.StringIO()
    LineBreakingConsole(file=out, width=width, color_system=None).print(renderable)
    rows: list[list[str]] = []
    group: list[list[str]] = []
    for line in out.getvalue().splitlines():
        if "│" not in line:
            if group:
                yield from (list(column) for column in zip(*group, strict=True))
                group = []
            if not BORDER.search(line):
                rows.append([line.rstrip()])
            continue
        group.append([cell.strip() for cell in line.strip().strip("│").split("│")])
    if group:
        yield from (list(column) for column in zip(*group, strict=True))
    if rows:
        yield [row[0] for row in rows]


def wide_letter(char: str) -> bool:
    return char.isalpha() and unicodedata.east_asian_width(char) in "WF"


def bad_break(before: str, after: str, marks: bool = True) -> str | None:
    """Why a line ending in ``before`` should not be followed by one starting ``after``;
    ``marks``: whether a mark alone at a line's end counts (a table's marks mean something
    only with the word after them; a rules page's = and × are arithmetic)."""
    if not before or not after:
        return None
    if after[0] in CLOSING:
        return "a closing mark opens a line"
    if before[-1] in OPENING:
        return "an opening bracket ends a line"
    if before[-1].isdigit() and (after[0].islower() or wide_letter(after[0])):
        return "a number is parted from what it counts"
    if wide_letter(before[-1]) and after[0].isdigit():
        return "a number is parted from the word it belongs to"
    if re.search(r"\d[:：]$", before) and after[0].isdigit():
        return "a label is parted from its count"
    lone = before.rsplit(" ", 1)[-1]
    if (
        marks
        and len(lone) == 1
        and lone != "◀"
        and unicodedata.category(lone).startswith("S")
        and len(before) > 1
    ):
        return "a mark is parted from what it marks"
    return None


def forced(before: str, after: str, widest: int) -> bool:
    """Whether the break between two lines was the last resort: what stands between the break
    opportunities on either side of it is wider than any line of its cell, so no line could
    hold it whole (a word wider than its column is folded wherever the edge falls)."""
    joined = before + after
    offsets = [0, *break_offsets(joined), len(joined)]
    left = max(o for o in offsets if o <= len(before))
    right = min(o for o in offsets if o >= len(before))
    return left < len(before) < right and cell_len(joined[left:right].rstrip()) > widest


def screens(name: str, players: int, lang: str) -> Iterator[tuple[Any, dict[str, Any], list[str]]]:
    game = tabletrek.load(name, players=players)
    ui: Any = game.terminal()
    names = seat_names(name, players, [0], {}, lang)
    for seed in range(2):
        state, rng = game.new_game(seed=seed), random.Random(seed)
        for step in range(400):
            if step % 9 == 0 or state.is_over:
                seat = state.current_player
                for view in [state.public_view()] + ([] if seat is None else [state.view(seat)]):
                    yield ui, view, names
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
@pytest.mark.parametrize(("name", "players"), GAMES)
def test_lines_end_where_a_reader_expects(name: str, players: int, lang: str) -> None:
    found: dict[str, tuple[int, str, str]] = {}
    for ui, view, names in screens(name, players, lang):
        for width in WIDTHS:
            for part in parts(ui.render(view, lang, names)):
                for run in runs(part, width):
                    widest = max(cell_len(line) for line in run)
                    for before, after in pairwise(run):
                        reason = bad_break(before, after)
                        if reason is not None and not forced(before, after, widest):
                            found.setdefault(reason, (width, before, after))
    assert not found, found


def paragraphs(markdown: str) -> list[str]:
    """A rules page's paragraphs and lists (its tables and headings left out: a table's rows
    are not one text, and a heading is one line)."""
    blocks = (block.strip() for block in markdown.split("\n\n"))
    return [
        block
        for block in blocks
        if block
        and not block.startswith("#")
        and not any(line.startswith("|") for line in block.splitlines())
    ]


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
@pytest.mark.parametrize("name", sorted(tabletrek.games()))
def test_rules_paragraphs_end_lines_where_a_reader_expects(name: str, lang: str) -> None:
    found: dict[str, tuple[int, str, str]] = {}
    for block in paragraphs(tabletrek.load(name).rules_markdown(lang)):
        for width in WIDTHS:
            out = io.StringIO()
            LineBreakingConsole(file=out, width=width, color_system=None).print(RulesMarkdown(block))
            run = [line.strip() for line in out.getvalue().splitlines() if line.strip()]
            widest = max((cell_len(line) for line in run), default=0)
            for before, after in pairwise(run):
                reason = bad_break(before, after, marks=False)
                if reason is not None and not forced(before, after, widest):
                    found.setdefault(reason, (width, before, after))
    assert not found, found


def test_the_check_sees_each_kind_of_bad_break() -> None:
    assert bad_break("15: 0/2  30:", "0/2") == "a label is parted from its count"
    assert bad_break("玩家1（你）：6 張   玩家2：5", "張") == "a number is parted from what it counts"
    assert bad_break("1 boxcar, 1", "tank car") == "a number is parted from what it counts"
    assert bad_break("✓ found · ×", "bystander on your key") == "a mark is parted from what it marks"
    assert bad_break("[9] [9|3] [3|0] →", "0") == "a mark is parted from what it marks"
    assert bad_break("玩家1（你）", "、玩家3") == "a closing mark opens a line"
    assert bad_break("限速卡（", "City Limits）") == "an opening bracket ends a line"
    assert (
        bad_break("由發牌玩家左手邊的玩家（座位", "1）開始")
        == "a number is parted from the word it belongs to"
    )
    assert bad_break("P2, P4 ◀", "Team 3") is None
    assert bad_break("Round 1/10 · engine [9|9] ·", "boneyard 12") is None


# A record's path under a home folder is often wider than a terminal: about 80 columns.
RECORD = "/home/someone/.local/share/tabletrek/records/codenames-duet-20261207-015609-7.json"


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
@pytest.mark.parametrize("key", ["cli.play.saved", "cli.play.resume_hint"])
def test_a_path_wider_than_the_terminal_is_printed_whole(key: str, lang: str) -> None:
    # Before: folded into two lines, it could not be copied from the terminal. Now it has a
    # line of its own, left for the terminal to wrap, and the words around it keep to the width.
    out = io.StringIO()
    LineBreakingConsole(file=out, width=60, color_system=None).print(tr(key, lang, path=RECORD))
    lines = out.getvalue().splitlines()
    assert RECORD in lines, lines
    assert all(cell_len(line) <= 60 for line in lines if line != RECORD), lines
    # a table's cell still folds it: a line wider than the cell would push out the table's rules
    table = Table(show_header=False)
    table.add_row(wrapped(RECORD))
    out = io.StringIO()
    LineBreakingConsole(file=out, width=60, color_system=None).print(table)
    assert all(cell_len(line) <= 60 for line in out.getvalue().splitlines())

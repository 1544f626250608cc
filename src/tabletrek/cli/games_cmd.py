"""``tabletrek games``: what can be played, with players, options and bots."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.table import Table

from tabletrek.cli.common import LangOpt, console, pick_lang, tr
from tabletrek.core.linebreak import flow, widest_entry
from tabletrek.core.registry import game_class, games
from tabletrek.i18n import join_list, list_separator, translate


def player_counts(counts: Sequence[int], lang: str) -> str:
    """'2–8' for an unbroken run of counts, else the counts one by one."""
    ordered = sorted(counts)
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]}–{ordered[-1]}"
    return join_list(map(str, ordered), lang)


def as_typed(value: object) -> str:
    """An option's value as one types it after ``-o name=`` (core.options.parse_option_value
    reads it back): ``true``, ``none``, ``en``, not Python's ``True``, ``None``, ``'en'``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# The fewest cells a game's title keeps before the bots' ids beside it are parted.
TITLE_ROOM = 4


def bots_width(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    bots: Sequence[Sequence[str]],
    separator: str,
    width: int,
) -> int | None:
    """The bots column's width in a table ``width`` cells wide: rich narrows the widest column
    that may wrap first, the bots' list, down to parting an id (``codenames-gues`` over ``s``);
    here the list narrows only to its longest id and the titles take the rest. None where the
    table fits whole, or is too narrow for even that (rich's own sharing)."""
    name, title, players = (
        max(cell_len(h), *map(cell_len, column)) for h, *column in zip(headers[:3], *rows, strict=True)
    )
    listed = max(cell_len(separator.join(ids)) for ids in bots)
    longest = widest_entry(bots, separator)
    # a space each side of a cell, a rule between and around them
    room = width - (3 * len(headers) + 1) - name - players
    if title + listed <= room or room - max(longest, cell_len(headers[-1])) < TITLE_ROOM:
        return None
    return max(longest, cell_len(headers[-1]), min(listed, room - title))


def games_cmd(
    lang: LangOpt = None,
) -> None:
    language = pick_lang(lang)
    # The games in one short table, then each game's options in a table of their own: squeezed
    # into a fifth column, the option texts were cut short with '…' (in Chinese, after a few
    # characters) at any terminal width.
    headers = [tr(f"cli.games.col.{column}", language) for column in ("name", "title", "players", "bots")]
    rows, bots = [], []
    for name in games():
        cls = game_class(name)
        game = cls(None)
        rows.append((name, game.title(language), player_counts(cls.player_counts, language)))
        bots.append(game.bots())
    separator = list_separator(language)
    table = Table(title=tr("cli.games.title", language))
    # A game's id and its bots' ids are what one types: never parted inside an id.
    table.add_column(headers[0], no_wrap=True)
    table.add_column(headers[1], overflow="fold")
    table.add_column(headers[2], no_wrap=True)
    table.add_column(
        headers[3], overflow="fold", width=bots_width(headers, rows, bots, separator, console.width)
    )
    for row, ids in zip(rows, bots, strict=True):
        table.add_row(*row, flow(ids, separator))
    console.print(table)
    for name in games():
        cls = game_class(name)
        if not cls.option_specs:
            continue
        title = tr("cli.games.options_title", language, game=cls(None).title(language), name=name)
        options = Table(title=title)
        options.add_column(tr("cli.games.col.option", language), no_wrap=True)
        options.add_column(tr("cli.games.col.default", language), overflow="fold")
        options.add_column(tr("cli.games.col.meaning", language), overflow="fold", ratio=1)
        for spec in cls.option_specs:
            options.add_row(spec.name, as_typed(spec.default), translate(spec.help, language))
        console.print(options)

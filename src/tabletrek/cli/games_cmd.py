"""``tabletrek games``: what can be played, with players, options and bots."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

from tabletrek.cli.common import LangOpt, console, pick_lang, tr
from tabletrek.core.registry import game_class, games
from tabletrek.i18n import translate


def player_counts(counts: Sequence[int]) -> str:
    """'2–8' for an unbroken run of counts, else the counts one by one."""
    ordered = sorted(counts)
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]}–{ordered[-1]}"
    return ", ".join(map(str, ordered))


def as_typed(value: object) -> str:
    """An option's value as one types it after ``-o name=`` (core.options.parse_option_value
    reads it back): ``true``, ``none``, ``en``, not Python's ``True``, ``None``, ``'en'``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def games_cmd(
    lang: LangOpt = None,
) -> None:
    language = pick_lang(lang)
    # The games in one short table, then each game's options in a table of their own: squeezed
    # into a fifth column, the option texts were cut short with '…' (in Chinese, after a few
    # characters) at any terminal width.
    table = Table(title=tr("cli.games.title", language))
    for column in ("name", "title", "players", "bots"):
        table.add_column(tr(f"cli.games.col.{column}", language), overflow="fold")
    for name in games():
        cls = game_class(name)
        game = cls(None)
        table.add_row(name, game.title(language), player_counts(cls.player_counts), ", ".join(game.bots()))
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

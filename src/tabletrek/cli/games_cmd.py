"""``tabletrek games``: what can be played, with players, options and bots."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from tabletrek.cli.common import console, pick_lang, tr
from tabletrek.core.registry import game_class, games
from tabletrek.i18n import translate


def games_cmd(
    lang: Annotated[str | None, typer.Option("--lang", help=tr("cli.opt.lang"))] = None,
) -> None:
    language = pick_lang(lang)
    table = Table(title=tr("cli.games.title", language))
    for column in ("name", "title", "players", "bots", "options"):
        table.add_column(tr(f"cli.games.col.{column}", language))
    for name in games():
        cls = game_class(name)
        game = cls(None)
        options = "\n".join(
            f"{spec.name} = {spec.default!r}: {translate(spec.help, language)}" for spec in cls.option_specs
        )
        table.add_row(
            name,
            game.title(language),
            ", ".join(map(str, cls.player_counts)),
            ", ".join(game.bots()),
            options,
        )
    console.print(table)

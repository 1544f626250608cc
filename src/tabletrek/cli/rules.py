"""``tabletrek rules GAME``: the rules as implemented, in English or Chinese."""

from __future__ import annotations

from typing import Annotated

import typer

from tabletrek.cli.common import RulesMarkdown, console, load_game, pick_lang, tr


def rules_cmd(
    game: Annotated[str, typer.Argument(help=tr("cli.arg.game"))],
    lang: Annotated[str | None, typer.Option("--lang", help=tr("cli.opt.lang"))] = None,
    raw: Annotated[bool, typer.Option("--raw", help=tr("cli.rules.raw"))] = False,
) -> None:
    language = pick_lang(lang)
    text = load_game(game, None, {}, ui_lang=language).rules_markdown(language)
    if raw:
        typer.echo(text)
    else:
        console.print(RulesMarkdown(text))

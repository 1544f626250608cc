"""``tabletrek rules GAME``: the rules as implemented, in English or Chinese."""

from __future__ import annotations

from typing import Annotated

import typer

from tabletrek.cli.common import GameArg, LangOpt, RulesMarkdown, console, help_text, load_game, pick_lang


def rules_cmd(
    game: GameArg,
    lang: LangOpt = None,
    raw: Annotated[bool, typer.Option("--raw", help=help_text("cli.rules.raw"))] = False,
) -> None:
    language = pick_lang(lang)
    text = load_game(game, None, {}, ui_lang=language).rules_markdown(language)
    if raw:
        typer.echo(text)
    else:
        console.print(RulesMarkdown(text))

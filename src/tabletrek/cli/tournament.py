"""``tabletrek tournament GAME --bots a,b,c -n N``: bots against each other, rated, with intervals."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from tabletrek.cli.common import (
    GameArg,
    JobsOpt,
    JsonOpt,
    LangOpt,
    OptionOpt,
    ParamOpt,
    PlayersOpt,
    RayOpt,
    RecordSaver,
    RecordsOpt,
    SeedOpt,
    cannot_write,
    console,
    fail,
    game_title,
    help_text,
    load_game,
    parse_options,
    pct,
    pick_lang,
    progress_bar,
    ready_folder,
    say_stopped,
    split_list,
    stopped_exit,
    tr,
)
from tabletrek.cli.figures import Rows, figures_table, rate_in
from tabletrek.core.errors import message_in
from tabletrek.core.interrupts import sigterm_as_ctrl_c
from tabletrek.core.options import parse_option_value
from tabletrek.sim import GamesInterrupted
from tabletrek.sim.backend import Backend
from tabletrek.sim.tournament import TournamentResult, planned_games, tournament


def parse_bot_params(pairs: list[str] | None) -> dict[str, dict[str, Any]]:
    """``bot.key=value`` pairs, e.g. ``ismcts.iterations=50``, grouped by bot."""
    params: dict[str, dict[str, Any]] = {}
    for pair in pairs or ():
        target, sep, value = pair.partition("=")
        bot, dot, key = target.partition(".")
        if not sep or not dot or not bot.strip() or not key.strip():
            raise typer.BadParameter(tr("cli.tournament.param_form", pair=pair))
        params.setdefault(bot.strip(), {})[key.strip()] = parse_option_value(value)
    return params


def print_result(result: TournamentResult, lang: str) -> None:
    title = tr(
        "cli.tournament.title",
        lang,
        game=game_title(result.game, lang),
        count=result.games,
        format=tr(f"cli.tournament.formats.{result.format}", lang),
    )
    # Six columns, not nine: a count beside its total and a rate beside its interval read as one
    # figure each; narrower, a rate stands over its interval and a rating over its spread. The
    # headings are short and the note below says what the brackets hold.
    columns = ("rank", "bot", "wins", "win_rate", "rating", "ordinal")

    def rows(between: str) -> Rows:
        return [
            (
                str(rank),
                s.bot,
                f"{s.wins}/{s.games}",
                rate_in(s, between),
                f"{s.rating.mu:.2f}{between}± {s.rating.sigma:.2f}",
                f"{s.rating.ordinal:.2f}",
            )
            for rank, s in enumerate(result.standings, 1)
        ]

    headers = [tr(f"cli.tournament.col.{column}", lang) for column in columns]
    table = figures_table(title, headers, rows, console.width, name_column=1)
    console.print(table)
    # The note explains the table above, at any number of players (it came only after the
    # two-player grid); the grid's title is a line of its own, since a table's title wraps at the
    # table's width and a narrow grid broke it mid-word.
    console.print(tr("cli.figures.interval_note", lang))
    console.print(tr("cli.tournament.ratings_note", lang))
    if result.players == 2:
        console.print(tr("cli.tournament.h2h_title", lang))
        console.print(head_to_head_grid(result))


def head_to_head_grid(result: TournamentResult) -> Table:
    """The two-player games each bot won against each other, as a crosstable: rows in the
    standings' order, each headed by its rank and name, and columns headed by the rank alone, so
    that five bots with long names (``greedy:go=120``) still fit 80 columns."""
    ranked = [s.bot for s in result.standings]

    def cell(a: str, b: str, between: str) -> str:
        games, wins = result.head_to_head(a, b) if a != b else (0, 0)
        return f"{wins}/{games}{between}({pct(wins / games)})" if games else "—"

    def rows(between: str) -> Rows:
        return [(f"{rank} {a}", *(cell(a, b, between) for b in ranked)) for rank, a in enumerate(ranked, 1)]

    headers = ["", *(str(rank) for rank in range(1, len(ranked) + 1))]
    return figures_table(None, headers, rows, console.width, name_column=0)


def tournament_cmd(
    game: GameArg,
    bots: Annotated[str | None, typer.Option("--bots", "-b", help=help_text("cli.tournament.bots"))] = None,
    n: Annotated[int, typer.Option("-n", "--games", help=help_text("cli.tournament.games"))] = 100,
    fmt: Annotated[
        str, typer.Option("--format", "-f", help=help_text("cli.tournament.format"))
    ] = "round-robin",
    rounds: Annotated[int | None, typer.Option("--rounds", help=help_text("cli.tournament.rounds"))] = None,
    players: PlayersOpt = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 1,
    ray: RayOpt = None,
    option: OptionOpt = None,
    param: ParamOpt = None,
    records: RecordsOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    language = pick_lang(lang)
    options = parse_options(option)
    loaded = load_game(game, players, options, ui_lang=language)
    names = split_list(bots) or loaded.heuristic_bots()  # search is slow: name it
    bot_params = parse_bot_params(param)
    if n < 1 or jobs < 1:
        raise fail(tr("cli.error.positive", language))
    try:
        backend = Backend(jobs=jobs, ray_address=ray)
        total = planned_games(names, loaded.players, n, fmt, rounds)
    except ValueError as exc:
        raise fail(message_in(exc, language)) from None
    if records is not None:
        ready_folder(records, language)
    stopped = False
    save = RecordSaver(records, game, seed, language)
    with sigterm_as_ctrl_c() as terminated, progress_bar(as_json) as progress:
        task = progress.add_task(tr("cli.tournament.progress", language, game=game), total=total)
        try:
            result = tournament(
                game,
                names,
                n,
                players=loaded.players,
                fmt=fmt,
                rounds=rounds,
                seed=seed,
                options=options,
                bot_params=bot_params,
                backend=backend,
                keep_records=records is not None,
                progress=lambda done: progress.advance(task, done),
                keep_outcomes=False,
                on_outcome=save,
            )
        except ValueError as exc:
            raise fail(message_in(exc, language)) from None
        except GamesInterrupted as interrupted:
            if interrupted.result is None or not interrupted.result.games:
                raise stopped_exit(terminated) from None
            result, stopped = interrupted.result, True
    if stopped:  # Ctrl+C: the standings of the games that finished, as simulate gives its summary
        say_stopped(result.games, total, language, as_json, terminated)
    if records is not None:
        try:
            (records / "tournament.json").write_text(json.dumps(result.to_dict(), indent=1) + "\n", "utf-8")
        except OSError as exc:
            raise cannot_write(records, exc, language) from None
        if not as_json:
            console.print(tr("cli.sim.saved", language, count=save.saved, path=str(records)))
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=1))
    else:
        print_result(result, language)
    if stopped:
        raise stopped_exit(terminated)

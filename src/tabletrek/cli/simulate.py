"""``tabletrek simulate GAME``: many seeded bot games, with a progress bar and a summary."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from tabletrek.cli.common import (
    GameArg,
    JobsOpt,
    JsonOpt,
    LangOpt,
    OptionOpt,
    PlayersOpt,
    RayOpt,
    RecordSaver,
    RecordsOpt,
    SeedOpt,
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
    study_bots,
    tr,
)
from tabletrek.cli.figures import Rows, figures_table, rate_in
from tabletrek.core.errors import message_in
from tabletrek.core.interrupts import sigterm_as_ctrl_c
from tabletrek.sim import GamesInterrupted, Summary, simulate, summarize
from tabletrek.sim.stats import length_args


def print_summary(summary: Summary, lang: str) -> None:
    title = tr("cli.sim.bots_title", lang, count=summary.games, game=game_title(summary.game, lang))
    headers = [
        tr(f"cli.sim.col.{column}", lang) for column in ("bot", "seats", "wins", "win_rate", "draws", "score")
    ]

    def rows(between: str) -> Rows:
        return [
            (
                b.bot,
                str(b.seats_played),
                str(b.wins),
                rate_in(b, between),
                str(b.draws),
                f"{b.mean_score:.1f}",
            )
            for b in summary.bots
        ]

    bots = figures_table(title, headers, rows, console.width, name_column=0)
    console.print(bots)
    console.print(tr("cli.figures.interval_note", lang))
    if summary.cooperative:
        won = summary.seats[0].wins  # cooperative: every seat wins or loses together
        low, high = summary.seats[0].interval
        console.print(
            tr(
                "cli.sim.team_wins",
                lang,
                wins=won,
                count=summary.games,
                rate=pct(won / summary.games),
                low=pct(low),
                high=pct(high),
            )
        )
    else:
        print_seats(summary, lang)
    print_lengths(summary, lang)


def print_seats(summary: Summary, lang: str) -> None:
    headers = [tr(f"cli.sim.col.{column}", lang) for column in ("seat", "wins", "win_rate")]

    def rows(between: str) -> Rows:
        return [(str(s.seat + 1), str(s.wins), rate_in(s, between)) for s in summary.seats]

    seats = figures_table(tr("cli.sim.seats_title", lang), headers, rows, console.width)
    console.print(seats)
    console.print(tr("cli.sim.fair_share", lang, share=pct(1 / summary.players)))


def print_lengths(summary: Summary, lang: str) -> None:
    console.print(tr("cli.sim.length", lang, **length_args(summary.actions)))
    if summary.rounds:
        console.print(tr("cli.sim.rounds", lang, **length_args(summary.rounds)))
    for reason, count in sorted(summary.reasons.items(), key=lambda item: -item[1]):
        console.print(tr("cli.sim.reason", lang, reason=tr(reason, lang), count=count))


def simulate_cmd(
    game: GameArg,
    n: Annotated[int, typer.Option("-n", "--games", help=help_text("cli.opt.games"))] = 1000,
    bots: Annotated[str | None, typer.Option("--bots", "-b", help=help_text("cli.opt.sim_bots"))] = None,
    players: PlayersOpt = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 1,
    ray: RayOpt = None,
    option: OptionOpt = None,
    records: RecordsOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    language = pick_lang(lang)
    options = parse_options(option)
    loaded = load_game(game, players, options, ui_lang=language)
    names = split_list(bots) or study_bots(loaded)
    if n < 1 or jobs < 1:
        raise fail(tr("cli.error.positive", language))
    if records is not None:
        ready_folder(records, language)
    stopped = False
    save = RecordSaver(records, game, seed, language)
    with sigterm_as_ctrl_c() as terminated, progress_bar(as_json) as progress:
        task = progress.add_task(tr("cli.sim.progress", language, game=game), total=n)
        try:
            result = simulate(
                game,
                n,
                names,
                players=loaded.players,
                seed=seed,
                jobs=jobs,
                options=options,
                keep_records=records is not None,
                progress=lambda done: progress.advance(task, done),
                ray=ray,
                keep_outcomes=False,
                on_outcome=save,
            )
        except ValueError as exc:
            raise fail(message_in(exc, language)) from None
        except GamesInterrupted as interrupted:
            if interrupted.result is None or not interrupted.result.games:
                raise stopped_exit(terminated) from None
            result, stopped = interrupted.result, True
    if stopped:  # Ctrl+C: what had finished is still worth its summary and records
        say_stopped(result.games, n, language, as_json, terminated)
    summary = summarize(result)
    if records is not None and not as_json:
        console.print(tr("cli.sim.saved", language, count=save.saved, path=str(records)))
    if as_json:
        typer.echo(json.dumps(summary.to_dict(), indent=1))
    else:
        print_summary(summary, language)
    if stopped:
        raise stopped_exit(terminated)

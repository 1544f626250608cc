"""``tabletrek analyze GAME -n N --out report.html``: simulate, replay, and write an HTML report."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer

from tabletrek.cli.common import (
    GameArg,
    JobsOpt,
    LangOpt,
    OptionOpt,
    ParamOpt,
    PlayersOpt,
    RayOpt,
    SeedOpt,
    cannot_write,
    console,
    fail,
    help_text,
    load_game,
    parse_options,
    pick_lang,
    progress_bar,
    replaceable_file,
    say_stopped,
    split_list,
    stopped_exit,
    study_bots,
    tr,
)
from tabletrek.cli.tournament import parse_bot_params
from tabletrek.core.errors import message_in
from tabletrek.core.interrupts import sigterm_as_ctrl_c
from tabletrek.sim import GamesInterrupted
from tabletrek.sim.analyze import REPORT_GENERATOR, analyze, render_html
from tabletrek.sim.backend import Backend


def analyze_cmd(
    game: GameArg,
    n: Annotated[int, typer.Option("-n", "--games", help=help_text("cli.opt.games"))] = 200,
    bots: Annotated[str | None, typer.Option("--bots", "-b", help=help_text("cli.analyze.bots"))] = None,
    out: Annotated[Path, typer.Option("--out", help=help_text("cli.analyze.out"))] = Path("report.html"),
    players: PlayersOpt = None,
    seed: SeedOpt = 0,
    jobs: JobsOpt = 1,
    ray: RayOpt = None,
    option: OptionOpt = None,
    param: ParamOpt = None,
    lang: LangOpt = None,
) -> None:
    language = pick_lang(lang)
    options = parse_options(option)
    loaded = load_game(game, players, options, ui_lang=language)
    names = split_list(bots) or study_bots(loaded)
    if n < 1 or jobs < 1:
        raise fail(tr("cli.error.positive", language))
    try:
        backend = Backend(jobs=jobs, ray_address=ray)
    except ValueError as exc:
        raise fail(message_in(exc, language)) from None
    report_file(out, language)
    stopped = False
    with sigterm_as_ctrl_c() as terminated, progress_bar() as progress:
        playing = progress.add_task(tr("cli.sim.progress", language, game=game), total=n)
        replaying = progress.add_task(tr("cli.analyze.replaying", language), total=n)
        try:
            analysis = analyze(
                game,
                n,
                names,
                players=loaded.players,
                seed=seed,
                options=options,
                bot_params=parse_bot_params(param),
                backend=backend,
                progress=lambda done: progress.advance(playing, done),
                replayed=lambda done: progress.advance(replaying, done),
            )
        except ValueError as exc:
            raise fail(message_in(exc, language)) from None
        except GamesInterrupted as interrupted:
            if interrupted.result is None:
                raise stopped_exit(terminated) from None
            analysis, stopped = interrupted.result, True
    if stopped:  # Ctrl+C: the report of the games that finished, as simulate gives its summary
        say_stopped(analysis.summary.games, n, language, as_json=False, terminated=terminated)
    command = "tabletrek " + " ".join(shlex.quote(arg) for arg in sys.argv[1:])
    try:
        out.write_text(render_html(analysis, language, command, bool(terminated)), encoding="utf-8")
    except OSError as exc:
        raise cannot_write(out, exc, language) from None
    console.print(tr("cli.analyze.written", language, path=str(out), count=analysis.summary.games))
    if stopped:
        raise stopped_exit(terminated)


def report_file(path: Path, lang: str) -> Path:
    """``path`` ready for ``analyze``'s report, refused if it already holds anything but an
    empty file or a report (``REPORT_GENERATOR`` near its start): the default, report.html in
    the working folder, may be someone's own page."""

    def is_report(existing: Path) -> bool:
        with existing.open("rb") as file:
            return REPORT_GENERATOR.encode() in file.read(4096)

    return replaceable_file(path, lang, is_report, "cli.error.not_a_report")

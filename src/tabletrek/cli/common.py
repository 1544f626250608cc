"""Shared pieces of the CLI: the console, language choice, game loading from options."""

from __future__ import annotations

import errno
import os
import select
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, ClassVar, TypeAlias

import typer
from rich.console import Console, ConsoleOptions, RenderResult
from rich.markdown import Markdown, MarkdownElement, Paragraph
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

from tabletrek.core.characters import MAX_NAME, folded, refused_character
from tabletrek.core.data import os_reason
from tabletrek.core.errors import UsageError, message_in, said
from tabletrek.core.game import Game
from tabletrek.core.interrupts import Presses, exit_status
from tabletrek.core.linebreak import LineBreakingConsole, Wrapped
from tabletrek.core.markdown import rules_parser
from tabletrek.core.options import parse_option_value
from tabletrek.core.records import GameRecord
from tabletrek.core.registry import game_class, load_with
from tabletrek.i18n import LANGS, env_lang, is_supported, join_list, normalize_lang, seat_name, translate
from tabletrek.sim.backend import stopped_key
from tabletrek.sim.runner import GameOutcome, save_record

# No markup, no emoji codes: what the CLI prints holds names, moves, paths and messages people
# type, and rich would read "[/]" or "[bold]" in them as tags (an error, or text gone) and ":x:" as
# an emoji; styles are given as styles (``console.input`` reads a str prompt as markup whatever the
# console says: prompts are ``Text``).
console = LineBreakingConsole(highlight=False, markup=False, emoji=False)


class WrappedParagraph(Paragraph):
    """A paragraph whose lines break as ``Wrapped`` text does: rich's own broke a Chinese
    paragraph only at the spaces around its Latin words and numbers, leaving lines half empty
    and a number over its word (``1、3、15、30`` over ``哩。``)."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        self.text.justify = self.justify
        yield Wrapped.of(self.text)


class RulesMarkdown(Markdown):
    """A rules page for the terminal, parsed as the browser parses it (tabletrek.core.markdown):
    rich's own parser would put a space at every wrapped line of a Chinese paragraph."""

    elements: ClassVar[dict[str, type[MarkdownElement]]] = {
        **Markdown.elements,
        "paragraph_open": WrappedParagraph,
    }

    def __init__(self, markup: str) -> None:
        super().__init__(markup)
        self.parsed = rules_parser().parse(markup)


def tr(key: str, lang: str | None = None, **args: Any) -> str:
    return translate(key, lang or env_lang(), **args)


def help_text(key: str) -> str:
    """A catalog text as a command's or option's help: typer reads help as rich markup, where a
    literal "[scale]" is a style tag and vanishes, so brackets are escaped."""
    return escape(tr(key))


# ----- the arguments several commands share (the same name, flags and help in each) -----------------
GameArg: TypeAlias = Annotated[str, typer.Argument(help=help_text("cli.arg.game"))]
PlayersOpt: TypeAlias = Annotated[
    int | None, typer.Option("--players", "-p", help=help_text("cli.opt.players"))
]
SeedOpt: TypeAlias = Annotated[int, typer.Option("--seed", help=help_text("cli.opt.seed"))]
JobsOpt: TypeAlias = Annotated[int, typer.Option("--jobs", "-j", help=help_text("cli.opt.jobs"))]
RayOpt: TypeAlias = Annotated[str | None, typer.Option("--ray", help=help_text("cli.tournament.ray"))]
OptionOpt: TypeAlias = Annotated[
    list[str] | None, typer.Option("--option", "-o", help=help_text("cli.opt.option"))
]
ParamOpt: TypeAlias = Annotated[
    list[str] | None, typer.Option("--param", help=help_text("cli.tournament.param"))
]
RecordsOpt: TypeAlias = Annotated[Path | None, typer.Option("--records", help=help_text("cli.opt.records"))]
JsonOpt: TypeAlias = Annotated[bool, typer.Option("--json", help=help_text("cli.opt.json"))]
LangOpt: TypeAlias = Annotated[str | None, typer.Option("--lang", help=help_text("cli.opt.lang"))]
# a game played in the terminal (``play``, the campaign's ``play``)
PlayBotsOpt: TypeAlias = Annotated[str | None, typer.Option("--bots", "-b", help=help_text("cli.opt.bots"))]
SeatOpt: TypeAlias = Annotated[list[int] | None, typer.Option("--seat", "-s", help=help_text("cli.opt.seat"))]
PlaySeedOpt: TypeAlias = Annotated[int | None, typer.Option("--seed", help=help_text("cli.opt.seed"))]
NamesOpt: TypeAlias = Annotated[str | None, typer.Option("--names", help=help_text("cli.opt.names"))]


def pct(value: float) -> str:
    """A share as a percentage with one decimal (win rates and their intervals)."""
    return f"{100 * value:.1f}%"


def game_title(name: str, lang: str) -> str:
    """A game's title in ``lang`` ("公路旅行"), for headings; its name is for typing."""
    return game_class(name)(None).title(lang)


def pick_lang(lang: str | None) -> str:
    if lang is None:
        return env_lang()
    if not is_supported(lang):
        raise typer.BadParameter(tr("cli.error.lang", name=lang, langs=join_list(LANGS, env_lang())))
    return normalize_lang(lang)


def parse_options(pairs: Sequence[str] | None) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(tr("cli.error.option_form", pair=pair))
        options[key.strip().replace("-", "_")] = parse_option_value(value)
    return options


def load_game(
    name: str,
    players: int | None,
    options: dict[str, Any],
    lang: str | None = None,
    *,
    ui_lang: str | None = None,
) -> Game:
    """The game, with language-following option defaults (a Chinese word pack for zh-Hant) when
    ``lang`` is given; a refusal is said in ``ui_lang`` (else ``lang``, else TABLETREK_LANG)."""
    try:
        if lang is not None:
            options = {**game_class(name).options_for_lang(lang), **options}
        return load_with(name, players, options)
    except ValueError as exc:
        raise typer.BadParameter(message_in(exc, ui_lang or lang or env_lang())) from None


def split_list(text: str | None) -> list[str]:
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def typed_names(text: str | None, lang: str, players: int) -> list[str]:
    """``--names`` as a list, each name checked as the web checks a nickname: no control, format,
    private-use or invisible character (``core.characters``), at most ``MAX_NAME`` characters;
    and no more names than the table's ``players`` seats."""
    names = split_list(text)
    if len(names) > players:
        raise fail(tr("cli.error.too_many_names", lang, given=len(names), players=players))
    for name in names:
        code = refused_character(name)
        if code is not None:
            raise fail(tr("cli.error.name_character", lang, name=name, code=code))
        if len(name) > MAX_NAME:
            raise fail(tr("cli.error.name_too_long", lang, name=name[:MAX_NAME] + "…", most=MAX_NAME))
    return names


def default_names(players: int, lang: str, given: Sequence[str] = ()) -> list[str]:
    return [given[seat] if seat < len(given) else seat_name(seat, lang) for seat in range(players)]


SIGNAL_CHECK = 0.25
"""Seconds between a waiting prompt's looks at the stop signals that came (``await_line``)."""


def await_line() -> None:
    """Wait until the terminal holds a line (or has ended), looking at the signals that came every
    ``SIGNAL_CHECK`` seconds. Python runs a signal's handler between two steps of its own code: a
    SIGTERM that lands after the last such step and before ``input`` blocks in ``read`` (the prompt
    has just been shown) would wait there for the player's Enter, the game neither saved nor ended
    (seen once in 2,436 tests, as a test's SIGTERM followed the prompt it had just read). Only at
    a terminal: a pipe's lines may already sit in Python's buffer, where ``select`` cannot see
    them; and not on Windows, whose ``select`` takes sockets only."""
    stdin = sys.stdin
    if stdin is None or os.name == "nt" or not stdin.isatty():
        return
    fd = stdin.fileno()
    while not select.select([fd], [], [], SIGNAL_CHECK)[0]:
        pass  # back in Python: a handler whose signal came meanwhile runs here


def ask(prompt: str) -> str | None:
    """A line typed at ``prompt``, in the typed form (``folded``) and trimmed; None when the input
    ends there. The prompt's line is ended first, so that what is printed next (or the shell's
    own prompt) does not run on from it."""
    try:
        console.print(Text(prompt), end="")  # rich writes and flushes it here
        await_line()
        return folded(console.input()).strip()
    except EOFError:
        console.print()
        return None


def fail(message: str) -> typer.Exit:
    console.print(message, style="bold red", soft_wrap=True)
    return typer.Exit(code=2)


def cannot_write(path: Path, exc: OSError, lang: str) -> typer.Exit:
    return fail(tr("cli.error.cannot_write", lang, path=str(path), reason=said(os_reason(exc), lang)))


def ready_folder(folder: Path, lang: str) -> Path:
    """``folder``, made now and writable: a run that saves into it fails before it plays, with the
    reason, not after every game is played."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(folder))
    except FileExistsError:  # mkdir's word for a file standing where a folder of the path would be
        in_the_way = NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
        raise cannot_write(folder, in_the_way, lang) from None
    except OSError as exc:
        raise cannot_write(folder, exc, lang) from None
    return folder


def ready_file(path: Path, lang: str) -> Path:
    """``path`` can be written: its folder is ready (``ready_folder``) and it is not a folder itself."""
    ready_folder(path.parent, lang)
    if path.is_dir():
        raise cannot_write(path, IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR)), lang)
    return path


def record_file(path: Path, lang: str) -> Path:
    """``path`` ready for a game record (``ready_file``), refused if it already holds something
    else: a mistyped ``--save`` must not replace someone's notes with a record. A record (of any
    game) and an empty file are written over, as saving a resumed game does."""

    def is_record(existing: Path) -> bool:
        try:
            GameRecord.load(existing)
        except UsageError:
            return False
        return True

    return replaceable_file(path, lang, is_record, "cli.error.not_a_record")


def replaceable_file(path: Path, lang: str, ours: Callable[[Path], bool], refusal: str) -> Path:
    """``path`` ready to write (``ready_file``); a file already there that is not empty must be
    ``ours`` (one this command wrote), or the command ends with ``refusal`` before it runs."""
    ready_file(path, lang)
    try:
        if path.is_file() and path.stat().st_size > 0 and not ours(path):
            raise fail(tr(refusal, lang, path=str(path)))
    except OSError as exc:  # there but unreadable: writing would replace what nobody could check
        raise cannot_write(path, exc, lang) from None
    return path


def progress_bar(hidden: bool = False) -> Progress:
    """The progress bar of simulate, tournament and analyze (hidden when printing JSON, and out of
    a terminal, where it draws nothing but rich's closing empty line)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=hidden or not console.is_interactive,
    )


def say_stopped(finished: int, total: int, lang: str, as_json: bool, terminated: Presses) -> None:
    """The line before the figures of a run Ctrl+C or SIGTERM stopped (``terminated``: what
    ``sigterm_as_ctrl_c`` counted; on stderr under JSON, which is data)."""
    typer.echo(tr(stopped_key(bool(terminated)), lang, count=finished, total=total), err=as_json)


def stopped_exit(terminated: Presses) -> typer.Exit:
    """A stopped command's status: that of the last signal ``sigterm_as_ctrl_c`` counted, else
    Ctrl-C's."""
    return typer.Exit(exit_status(terminated.last))


def study_bots(game: Game) -> list[str]:
    """The bots ``simulate`` and ``analyze`` compare when none are named: a cooperative game's
    strongest in every seat (the Codenames AI with itself, not a random partner that can only
    lose with it); else the game's own cheap bots, the strongest of them when they outnumber the
    seats (Mexican Train at two: greedy and planner). Search is slow: it runs only when named."""
    if game.cooperative:
        return [game.default_bot] * game.players
    return game.heuristic_bots()[-game.players :]


class RecordSaver:
    """``on_outcome`` for ``simulate`` and ``tournament``: each game's record saved into
    ``folder`` (if one is given) as the game ends, so a run holds its totals, not its games; a
    failed write ends the run there, with its reason."""

    def __init__(self, folder: Path | None, game: str, seed: int, lang: str) -> None:
        self.folder, self.game, self.seed, self.lang = folder, game, seed, lang
        self.saved = 0

    def __call__(self, outcome: GameOutcome) -> None:
        if self.folder is None:
            return
        try:
            self.saved += save_record(outcome, self.game, self.seed, self.folder)
        except OSError as exc:
            raise cannot_write(self.folder, exc, self.lang) from None

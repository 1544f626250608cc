"""``tabletrek play GAME``: an interactive terminal game against bots or friends (hot seat)."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.cells import cell_len
from rich.console import RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from tabletrek.cli.common import (
    LangOpt,
    NamesOpt,
    OptionOpt,
    PlayBotsOpt,
    PlayersOpt,
    PlaySeedOpt,
    RulesMarkdown,
    SeatOpt,
    ask,
    cannot_write,
    console,
    default_names,
    fail,
    help_text,
    load_game,
    parse_options,
    pick_lang,
    ready_file,
    record_file,
    split_list,
    stopped_exit,
    tr,
    typed_names,
)
from tabletrek.cli.seat_names import in_language, recorded_bots, seat_names
from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.bots import Bot, make_bot, parse_bot_spec
from tabletrek.core.characters import refused_character
from tabletrek.core.errors import message_in
from tabletrek.core.events import OMNISCIENT, Event
from tabletrek.core.game import Game
from tabletrek.core.interrupts import sigint_held, sigterm_as_ctrl_c
from tabletrek.core.numeric import ascii_digits, ascii_whole
from tabletrek.core.records import GameRecord, replay
from tabletrek.core.state import State
from tabletrek.core.terminal import MenuOffer
from tabletrek.i18n import bot_label, join_list
from tabletrek.paths import records_dir

LOG_LINES = 8
COMPACT_LOG_LINES = 2
"""Log lines under a compact turn (the whole log is the ``log`` command)."""
COMPACT_MENU = 6
"""Moves listed one a line in a compact turn; a longer menu goes in two columns."""
RULE_ENDS = 4
"""Cells a centred rule keeps beside its title: a stroke and a space at each side."""
DETAIL_WORDS = ("board", "market")
"""Words that show a part of the table a compact turn leaves out, each with its line in help
(``cli.play.help_<word>``)."""


class TerminalTable:
    """One game at the terminal: humans at some seats, bots at the others."""

    def __init__(
        self, game: Game, state: State, humans: list[int], bots: dict[int, Bot], names: list[str], lang: str
    ):
        self.game = game
        self.state = state
        self.humans = humans
        self.bots = bots
        self.names = names
        self.lang = lang
        self.ui = game.terminal()
        self.log: list[Event] = []
        self.last_human: int | None = None
        self._offer: tuple[tuple[int, int], MenuOffer | None] | None = None
        self.bot_specs: dict[int, str] = {}
        """Each bot's spec as given ("ismcts:iterations=50"), saved so a resumed game has the same bots."""

    # ----- showing ------------------------------------------------------------------------------

    def log_lines(self, viewer: int | None, count: int | None = LOG_LINES) -> list[str]:
        events = self.log if count is None else self.log[-count:]
        return [event.render(viewer, self.lang, self.names) for event in events]

    @property
    def compact_turn(self) -> Callable[[dict[str, Any], str, Sequence[str]], RenderableType] | None:
        """The game's compact turn that fits an 80×24 terminal (details on demand), if it draws one:
        optional, so not part of the ``TextUI`` protocol."""
        draw = getattr(self.ui, "compact", None)
        return draw if callable(draw) else None

    @property
    def compact(self) -> bool:
        return self.compact_turn is not None

    def show(self, seat: int) -> None:
        view = self.state.view(seat)
        if (draw := self.compact_turn) is not None:
            title = tr("cli.play.turn_of_compact", self.lang, player=self.names[seat])
            if cell_len(title) > console.width - RULE_ENDS:  # rich would cut it with "…" mid-word;
                title = tr("cli.play.turn_of", self.lang, player=self.names[seat])  # help says the rest
            console.print(Rule(title))
            console.print(draw(view, self.lang, self.names))
            # a big table's extra player lines come out of the log (the whole log is one command away)
            count = COMPACT_LOG_LINES if self.game.players <= 4 else 1
            for line in self.log_lines(seat, count):
                console.print(f"· {line}", style="dim")
            return
        console.print(Rule(tr("cli.play.turn_of", self.lang, player=self.names[seat])))
        console.print(self.ui.render(view, self.lang, self.names))
        lines = self.log_lines(seat)
        if lines:
            console.print(Panel("\n".join(lines), title=Text(tr("cli.play.log", self.lang)), expand=False))

    def details(self, seat: int) -> dict[str, RenderableType]:
        """The parts of the table a compact turn leaves out, by the word that shows each (``board``,
        ``market``); none for a game that shows everything on its turn."""
        details = getattr(self.ui, "details", None)
        if not callable(details):
            return {}
        return {
            topic: part
            for topic, part in details(self.state.view(seat), self.lang, self.names).items()
            if topic in DETAIL_WORDS
        }

    def detail(self, seat: int, topic: str) -> bool:
        """``board`` / ``market``: a part of the table the compact turn leaves out. False if unknown."""
        parts = self.details(seat)
        if topic not in parts:
            return False
        console.print(parts[topic])
        return True

    def help_text(self, seat: int) -> str:
        """The commands of this game only: ``board`` and ``market`` where its turn leaves them out."""
        intro = tr("cli.play.help_intro_compact" if self.compact else "cli.play.help_intro", self.lang)
        topics = [tr(f"cli.play.help_{topic}", self.lang) for topic in self.details(seat)]
        return "\n".join([intro, tr("cli.play.help_commands", self.lang), *topics])

    def offered(self, seat: int) -> MenuOffer | None:
        """What the game offers in place of the legal list here, if anything (``MenuOffer``):
        asked once a position and seat, since an offer may take an AI's thought."""
        key = (len(self.state.history), seat)
        if self._offer is None or self._offer[0] != key:
            offer = getattr(self.ui, "offer", None)
            self._offer = (key, offer(self.state, seat, self.lang) if callable(offer) else None)
        return self._offer[1]

    def choices(self, seat: int) -> Sequence[Action]:
        """The moves a number at the prompt picks from: the offer's, else the legal list."""
        offer = self.offered(seat)
        return self.state.legal_actions() if offer is None else offer.moves

    def menu(self, seat: int, legal: Sequence[Action], everything: bool = False) -> None:
        view = self.state.view(seat)
        offer = self.offered(seat)
        if offer is not None:
            console.print(offer.heading, style="italic")
            legal = offer.moves
            texts = list(offer.texts)
        else:
            texts = [self.ui.describe(action, view, self.lang, self.names) for action in legal]
        if self.compact and not everything and len(legal) > COMPACT_MENU:
            # two columns of numbered moves, so the turn still fits an 80x24 screen; a very long
            # menu (any space on the board) shows its start and how to see or type the rest
            shown = min(len(legal), 2 * COMPACT_MENU)
            if shown < len(legal):
                shown -= 2
            rows = (shown + 1) // 2
            width = max(10, (console.width - 2) // 2 - 5)
            for row in range(rows):
                line = Text(" ")
                for number in (row + 1, row + 1 + rows):
                    if number <= shown:
                        cell = Text(texts[number - 1])
                        cell.truncate(width, pad=True)  # by terminal cells: CJK letters are two wide
                        line.append(f"{number:>3} ", style="bold cyan").append_text(cell).append(" ")
                console.print(line, no_wrap=True, overflow="crop")
            if shown < len(legal):
                more = tr("cli.play.more_moves", self.lang, count=len(legal), example=legal[-1].text)
                console.print(more, style="dim")
            return
        short = self.compact and not everything  # one line a move (the `moves` command wraps them whole)
        for number, (action, text) in enumerate(zip(legal, texts, strict=True), 1):
            # a compact turn leaves the typed text out to fit the screen; `moves` shows it
            entry = Text.assemble((f"  {number:>2}", "bold cyan"), f"  {text}")
            if not short:
                entry.append(f"  ({action.text})", style="dim")
            if short:
                console.print(entry, no_wrap=True, overflow="ellipsis")
            else:
                console.print(entry)

    # ----- turns --------------------------------------------------------------------------------

    def hand_over(self, seat: int) -> bool:
        """Hot seat: hide the last player's screen before the next player looks. False when the
        input ends there instead of the Enter it waits for (the game is then saved, as at a
        move's prompt)."""
        if len(self.humans) > 1 and self.last_human is not None and self.last_human != seat:
            console.clear()
            if ask(tr("cli.play.pass_device", self.lang, player=self.names[seat])) is None:
                return False
            console.clear()
        self.last_human = seat
        return True

    def human_turn(self, seat: int) -> bool:
        """Ask until a legal move is made. False when the player quits."""
        if not self.hand_over(seat):
            return False
        self.show(seat)
        while True:
            legal = self.choices(seat)
            self.menu(seat, legal)
            answer = ask(tr("cli.play.prompt", self.lang))
            if answer is None:
                return False
            if (code := refused_character(answer)) is not None:
                # the refusal would echo it: an ESC starts a command to the terminal itself
                console.print(tr("cli.play.move_character", self.lang, code=code), style="red")
                continue
            word = answer.lower()
            if word in ("q", "quit", "exit"):
                return False
            if word in ("h", "help", "?"):
                console.print(Panel(self.help_text(seat), expand=False))
                continue
            if word == "rules":
                console.print(RulesMarkdown(self.game.rules_markdown(self.lang)))
                continue
            if word == "log":
                console.print("\n".join(self.log_lines(seat, None)))
                continue
            if word == "hint":
                self.hint(seat)
                continue
            if word in ("", "show"):
                self.show(seat)
                continue
            if word in DETAIL_WORDS and self.detail(seat, word):
                continue
            if word == "moves":
                self.menu(seat, legal, everything=True)
                continue
            choice: Action | str = answer
            if ascii_digits(answer) and legal:  # with nothing listed, a number is typed text
                number = ascii_whole(answer)
                if number is None or not 1 <= number <= len(legal):
                    console.print(tr("cli.play.bad_number", self.lang, count=len(legal)), style="red")
                    continue
                choice = legal[number - 1]
            try:
                self.log.extend(self.state.apply(choice))
            except IllegalAction as exc:
                console.print(exc.message(self.lang), style="red")
                continue
            return True

    def hint(self, seat: int) -> None:
        name = self.game.default_bot
        adviser = self.game.bot(name, seat=seat, seed=len(self.state.history))
        action = adviser.act(self.state)
        text = self.ui.describe(action, self.state.view(seat), self.lang, self.names)
        # A bot may say why (the Codenames AI names the words its clue is meant for).
        explain = getattr(adviser, "explain", None)
        reason = explain(self.lang) if callable(explain) else None
        if reason:
            text = tr("cli.play.hint_reason", self.lang, move=text, reason=reason)
        # The Codenames AI is one player under two names; it says which role it just played.
        shown = bot_label(self.game.name, getattr(adviser, "acted_as", name), self.lang)
        console.print(tr("cli.play.hint", self.lang, bot=shown, move=text))

    def run(self) -> bool:
        """Play until the game ends (True) or a human quits (False)."""
        while not self.state.is_over:
            seat = self.state.current_player
            assert seat is not None
            if seat in self.bots:
                self.log.extend(self.state.apply(self.bots[seat].act(self.state)))
                if not self.humans:
                    console.print(self.log_lines(None, 1)[0] if self.log else "")
            elif not self.human_turn(seat):
                return False
        return True

    def finish(self) -> None:
        result = self.state.result
        assert result is not None
        console.print(Rule(tr("cli.play.game_over", self.lang)))
        console.print(self.ui.render(self.state.public_view(), self.lang, self.names))
        console.print("\n".join(self.log_lines(OMNISCIENT, LOG_LINES)))
        reason = tr(result.reason, self.lang)
        if result.winners:
            winners = join_list((self.names[s] for s in result.winners), self.lang)
            console.print(
                tr("cli.play.winners", self.lang, winners=winners, reason=reason), style="bold green"
            )
        else:
            console.print(tr("cli.play.no_winner", self.lang, reason=reason), style="bold yellow")


def play(
    game: Annotated[str | None, typer.Argument(help=help_text("cli.arg.game"))] = None,
    players: PlayersOpt = None,
    bots: PlayBotsOpt = None,
    seat: SeatOpt = None,
    lang: LangOpt = None,
    seed: PlaySeedOpt = None,
    option: OptionOpt = None,
    names: NamesOpt = None,
    save: Annotated[Path | None, typer.Option("--save", help=help_text("cli.opt.save"))] = None,
    resume: Annotated[Path | None, typer.Option("--resume", help=help_text("cli.opt.resume"))] = None,
) -> None:
    language = pick_lang(lang)
    if resume is not None:
        table = resumed_table(resume, language)  # first: its own reasons, if it is no record
        # refused now, not when the game is over; the resumed file was just read as a record
        path = ready_file(resume, language) if save is None else record_file(save, language)
        run_and_save(table, path, language)
        return
    if game is None:
        raise fail(tr("cli.error.game_needed", language))
    loaded = load_game(game, players, parse_options(option), language)
    bot_names = split_list(bots)
    human_seats = sorted({s - 1 for s in (seat or [])})
    if not human_seats and len(bot_names) < loaded.players:
        human_seats = [0]
    for s in human_seats:
        if not 0 <= s < loaded.players:
            raise fail(tr("cli.error.seat", language, seat=s + 1, players=loaded.players))
    others = [s for s in range(loaded.players) if s not in human_seats]
    if not bot_names:
        bot_names = [loaded.default_bot]
    offered = loaded.bots()
    state = loaded.new_game(seed)
    try:
        for spec in bot_names:  # a spec's settings may be malformed too ("greedy:x")
            if parse_bot_spec(spec)[0] not in offered:
                raise fail(
                    tr("cli.error.bot", language, bot=spec, game=game, bots=join_list(offered, language))
                )
        seat_bots = {
            s: make_bot(loaded, bot_names[i % len(bot_names)], seat=s, seed=state.seed + s)
            for i, s in enumerate(others)
        }
    except ValueError as exc:
        raise fail(message_in(exc, language)) from None
    specs = {s: bot_names[i % len(bot_names)] for i, s in enumerate(others)}
    typed = typed_names(names, language, loaded.players)
    table_names = seat_names(loaded.name, loaded.players, human_seats, specs, language, typed)
    table = TerminalTable(loaded, state, human_seats, seat_bots, table_names, language)
    table.bot_specs = specs
    try:
        path = save or records_dir() / f"{loaded.name}-{time.strftime('%Y%m%d-%H%M%S')}-{state.seed}.json"
    except ValueError as exc:  # no data folder to save into
        raise fail(message_in(exc, language)) from None
    record_file(path, language)  # refused now, not when the game is over
    console.print(Panel(tr("cli.play.welcome", language, game=loaded.title(language)), expand=False))
    run_and_save(table, path, language)


CLOSING = tuple(getattr(signal, name) for name in ("SIGHUP",) if hasattr(signal, name))
"""Besides Ctrl-C and SIGTERM, what ends a game that is then saved: the terminal closed (SIGHUP;
Windows has none)."""


def run_and_save(table: TerminalTable, path: Path, language: str) -> None:
    """Play on, then save the record. A Ctrl-C at any moment, also while the record is being saved,
    leaves a whole record behind and exits with status 130; so do SIGTERM (143) and a closed
    terminal (SIGHUP, 129, saving without a word: nobody is there to read one)."""
    interrupted = False
    with sigterm_as_ctrl_c(*CLOSING) as ended:
        try:
            if table.run():
                table.finish()
        except KeyboardInterrupt:
            interrupted = True
        while True:
            hung_up = ended.last in CLOSING
            try:
                with sigint_held() as presses:
                    if interrupted and not hung_up:
                        console.print()  # end the prompt line the Ctrl-C left open
                    save_table(table, path, language, said=not hung_up)
                break
            except KeyboardInterrupt:
                # it came in the moment before the hold took effect (or after it ended): save
                # (again); the record is replaced whole, so saving twice is harmless
                interrupted = True
    if ended:
        raise stopped_exit(ended)
    if interrupted or presses:
        raise typer.Exit(code=130)


def save_table(table: TerminalTable, path: Path, language: str, said: bool = True) -> None:
    record = table.state.record().with_meta(
        names=table.names,
        bots={str(s): table.bot_specs.get(s, b.name) for s, b in table.bots.items()},
        humans=table.humans,
        saved=time.time(),
    )
    try:
        record.save(path)
    except OSError as exc:
        raise cannot_write(path, exc, language) from None
    if not said:
        return
    console.print(tr("cli.play.saved", language, path=str(path)))
    if not table.state.is_over:
        console.print(tr("cli.play.resume_hint", language, path=str(path)))


def resumed_table(path: Path, language: str) -> TerminalTable:
    """A saved game, rebuilt by replaying its record, with the same people and bots at the same seats."""
    try:
        record = GameRecord.load(path)
        state = replay(record)
    except (OSError, ValueError, IllegalAction) as exc:
        raise fail(
            tr("cli.error.resume", language, path=str(path), reason=message_in(exc, language))
        ) from None
    game = load_game(record.game, record.players, dict(record.options), ui_lang=language)
    meta = record.meta
    given_bots = meta.get("bots")
    bot_specs: dict[str, Any] = given_bots if isinstance(given_bots, dict) else {}
    given_names = meta.get("names")
    names: list[str] = default_names(game.players, language)
    if isinstance(given_names, list) and len(given_names) == game.players:
        names = in_language([str(n) for n in given_names], game.name, recorded_bots(meta), language)
    try:
        bots = {
            int(s): make_bot(game, str(spec), seat=int(s), seed=state.seed + int(s))
            for s, spec in bot_specs.items()
        }
    except ValueError as exc:
        raise fail(
            tr("cli.error.resume", language, path=str(path), reason=message_in(exc, language))
        ) from None
    humans = [s for s in range(game.players) if s not in bots]
    console.print(tr("cli.play.resumed", language, count=len(record.actions), path=str(path)))
    table = TerminalTable(game, state, humans, bots, list(names), language)
    table.bot_specs = {int(s): str(spec) for s, spec in bot_specs.items()}
    return table

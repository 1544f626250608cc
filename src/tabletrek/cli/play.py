"""``tabletrek play GAME``: an interactive terminal game against bots or friends (hot seat)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.markdown import Markdown
from rich.panel import Panel
from rich.rule import Rule

from tabletrek.cli.common import (
    console,
    default_names,
    fail,
    load_game,
    parse_options,
    pick_lang,
    split_list,
    tr,
)
from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.bots import Bot, make_bot, parse_bot_spec
from tabletrek.core.events import OMNISCIENT, Event
from tabletrek.core.game import Game
from tabletrek.core.state import State
from tabletrek.paths import records_dir

LOG_LINES = 8


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

    # ----- showing ------------------------------------------------------------------------------

    def log_lines(self, viewer: int | None, count: int | None = LOG_LINES) -> list[str]:
        events = self.log if count is None else self.log[-count:]
        return [event.render(viewer, self.lang, self.names) for event in events]

    def show(self, seat: int) -> None:
        view = self.state.view(seat)
        console.print(Rule(tr("cli.play.turn_of", self.lang, player=self.names[seat])))
        console.print(self.ui.render(view, self.lang, self.names))
        lines = self.log_lines(seat)
        if lines:
            console.print(Panel("\n".join(lines), title=tr("cli.play.log", self.lang), expand=False))

    def menu(self, seat: int, legal: list[Action]) -> None:
        view = self.state.view(seat)
        for number, action in enumerate(legal, 1):
            text = self.ui.describe(action, view, self.lang, self.names)
            console.print(f"  [bold cyan]{number:>2}[/]  {text}  [dim]({action.text})[/]")

    # ----- turns --------------------------------------------------------------------------------

    def hand_over(self, seat: int) -> None:
        """Hot seat: hide the last player's screen before the next player looks."""
        if len(self.humans) > 1 and self.last_human is not None and self.last_human != seat:
            console.clear()
            console.input(tr("cli.play.pass_device", self.lang, player=self.names[seat]))
            console.clear()
        self.last_human = seat

    def human_turn(self, seat: int) -> bool:
        """Ask until a legal move is made. False when the player quits."""
        self.hand_over(seat)
        self.show(seat)
        while True:
            legal = self.state.legal_actions()
            self.menu(seat, legal)
            try:
                answer = console.input(tr("cli.play.prompt", self.lang)).strip()
            except (EOFError, KeyboardInterrupt):
                return False
            word = answer.lower()
            if word in ("q", "quit", "exit"):
                return False
            if word in ("h", "help", "?"):
                console.print(Panel(tr("cli.play.help_text", self.lang), expand=False))
                continue
            if word == "rules":
                console.print(Markdown(self.game.rules_markdown(self.lang)))
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
            choice: Action | str = answer
            if answer.isdigit():
                number = int(answer)
                if not 1 <= number <= len(legal):
                    console.print(f"[red]{tr('cli.play.bad_number', self.lang, count=len(legal))}[/]")
                    continue
                choice = legal[number - 1]
            try:
                self.log.extend(self.state.apply(choice))
            except IllegalAction as exc:
                console.print(f"[red]{exc.message(self.lang)}[/]")
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
        console.print(tr("cli.play.hint", self.lang, bot=name, move=text))

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
            winners = ", ".join(self.names[s] for s in result.winners)
            console.print(
                f"[bold green]{tr('cli.play.winners', self.lang, winners=winners, reason=reason)}[/]"
            )
        else:
            console.print(f"[bold yellow]{tr('cli.play.no_winner', self.lang, reason=reason)}[/]")


def play(
    game: Annotated[str, typer.Argument(help=tr("cli.arg.game"))],
    players: Annotated[int | None, typer.Option("--players", "-p", help=tr("cli.opt.players"))] = None,
    bots: Annotated[str | None, typer.Option("--bots", "-b", help=tr("cli.opt.bots"))] = None,
    seat: Annotated[list[int] | None, typer.Option("--seat", "-s", help=tr("cli.opt.seat"))] = None,
    lang: Annotated[str | None, typer.Option("--lang", help=tr("cli.opt.lang"))] = None,
    seed: Annotated[int | None, typer.Option("--seed", help=tr("cli.opt.seed"))] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=tr("cli.opt.option"))] = None,
    names: Annotated[str | None, typer.Option("--names", help=tr("cli.opt.names"))] = None,
    save: Annotated[Path | None, typer.Option("--save", help=tr("cli.opt.save"))] = None,
) -> None:
    language = pick_lang(lang)
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
    for spec in bot_names:
        if parse_bot_spec(spec)[0] not in offered:
            raise fail(tr("cli.error.bot", language, bot=spec, game=game, bots=", ".join(offered)))
    state = loaded.new_game(seed)
    try:
        seat_bots = {
            s: make_bot(loaded, bot_names[i % len(bot_names)], seat=s, seed=state.seed + s)
            for i, s in enumerate(others)
        }
    except ValueError as exc:
        raise fail(str(exc)) from None
    table_names = default_names(loaded.players, language, split_list(names))
    for s in human_seats:
        if not names:
            table_names[s] += tr("cli.play.you", language) if len(human_seats) == 1 else ""
    for s, bot in seat_bots.items():
        table_names[s] += f" ({bot.name})"
    table = TerminalTable(loaded, state, human_seats, seat_bots, table_names, language)
    console.print(Panel(tr("cli.play.welcome", language, game=loaded.title(language)), expand=False))
    finished = table.run()
    if finished:
        table.finish()
    record = state.record().with_meta(
        names=table_names, bots={str(s): b.name for s, b in seat_bots.items()}, saved=time.time()
    )
    path = save or records_dir() / f"{loaded.name}-{time.strftime('%Y%m%d-%H%M%S')}-{state.seed}.json"
    record.save(path)
    console.print(tr("cli.play.saved", language, path=str(path)))

"""``tabletrek replay FILE``: step through a saved game, from one seat's view or all of it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from tabletrek.cli.common import LangOpt, ask, console, default_names, fail, help_text, pick_lang, tr
from tabletrek.cli.seat_names import in_language, recorded_bots
from tabletrek.core.errors import message_in
from tabletrek.core.events import OMNISCIENT, Event
from tabletrek.core.numeric import ascii_digits, ascii_whole
from tabletrek.core.records import GameRecord, iter_replay
from tabletrek.core.state import State


def replay_cmd(
    file: Annotated[Path, typer.Argument(help=help_text("cli.arg.record"))],
    seat: Annotated[int | None, typer.Option("--seat", "-s", help=help_text("cli.opt.replay_seat"))] = None,
    show_all: Annotated[bool, typer.Option("--all", help=help_text("cli.opt.replay_all"))] = False,
    step: Annotated[bool, typer.Option("--step/--no-step", help=help_text("cli.opt.step"))] = True,
    lang: LangOpt = None,
) -> None:
    language = pick_lang(lang)
    try:
        record = GameRecord.load(file)
        frames: list[tuple[State, str | None, list[Event]]] = [
            (state.clone(), text, events) for state, text, events in iter_replay(record)
        ]
    except ValueError as exc:
        raise fail(message_in(exc, language)) from None
    game = frames[0][0].game
    viewer: int | None = None
    if seat is not None:
        if not 1 <= seat <= game.players:
            raise fail(tr("cli.error.seat", language, seat=seat, players=game.players))
        viewer = seat - 1
    if show_all:
        viewer = OMNISCIENT
    given = record.meta.get("names", [])
    names = default_names(game.players, language, [str(n) for n in given] if isinstance(given, list) else [])
    names = in_language(names, game.name, recorded_bots(record.meta), language)
    ui = game.terminal()
    index = 0

    def titled(i: int, text: str) -> str:
        """The move in the reader's words with its text, as the play menu shows it: a bare 'roll'
        headed a Chinese replay's step. The public view of the state before it describes it; a
        move no list holds (a typed clue) or a game that cannot describe it keeps its text."""
        before = frames[i - 1][0]
        action = next((a for a in before.legal_actions() if a.text == text), None)
        if action is None:
            return text
        try:
            return f"{ui.describe(action, before.public_view(), language, names)} ({text})"
        except Exception:  # a game's describe is presentation only; the record's text still stands
            return text

    def show(i: int) -> None:
        state, text, events = frames[i]
        console.print(Rule(tr("cli.replay.step", language, step=i, total=len(frames) - 1)))
        if viewer is None or viewer == OMNISCIENT:
            console.print(ui.render(state.public_view(), language, names))
            if viewer == OMNISCIENT:
                for s in range(game.players):
                    console.print(Rule(names[s], style="dim"))
                    console.print(ui.render(state.view(s), language, names))
        else:
            console.print(ui.render(state.view(viewer), language, names))
        if text is not None:
            lines = [event.render(viewer, language, names) for event in events]
            console.print(Panel("\n".join(lines), title=Text(titled(i, text)), expand=False))

    if not step:
        for _state, _text, events in frames:
            for event in events:
                console.print(event.render(viewer, language, names))
        show(len(frames) - 1)
        return
    show(index)
    while True:
        try:
            typed = ask(tr("cli.replay.prompt", language))
        except KeyboardInterrupt:
            console.print()  # as ``ask`` ends the line at the end of input
            return
        if typed is None:
            return
        answer = typed.lower()
        if answer in ("q", "quit"):
            return
        if answer in ("b", "back"):
            index = max(0, index - 1)
        elif ascii_digits(answer):
            number = ascii_whole(answer)
            index = len(frames) - 1 if number is None else min(len(frames) - 1, number)
        elif answer in ("e", "end"):
            index = len(frames) - 1
        else:
            if index == len(frames) - 1:
                return
            index += 1
        show(index)

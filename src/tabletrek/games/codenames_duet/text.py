"""Codenames Duet in the terminal: the 5x5 table as one seat sees it (its own key side only).

A seat's view carries only its own key side, so this renderer cannot show the partner's; a public
view (spectators, the end of a hot-seat game) carries no key at all and shows only what is covered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from tabletrek.core.actions import Action
from tabletrek.core.linebreak import Wrapped, flow, wrapped
from tabletrek.core.terminal import MenuOffer
from tabletrek.i18n import aside, seat_name, translate

if TYPE_CHECKING:
    from tabletrek.core.state import State
    from tabletrek.games.codenames_duet.game import Duet

COLUMNS = 5
KEY_STYLE = {"green": "bold green", "bystander": "", "assassin": "bold white on red"}
KEY_MARK = {"green": "●", "bystander": "", "assassin": "✖"}
"""A marker beside each word of one's own key, so the key reads without colour (NO_COLOR=1)."""
HISTORY = 8
CELL = 10
"""The narrowest a column of the board is set where the terminal has room: a word and its mark."""
SUGGESTIONS = 3
"""Clues the partner AI suggests in one's clue phase."""
BOT_NAME = "codenames-clue"  # the AI in its clue-giving role: the player the terminal's `hint` asks too


class WordGrid:
    """The board, its columns ``CELL`` wide where the terminal has room and sharing what it has
    where it has less: rich widens a column to its ``min_width`` past the console's edge, and at
    60 columns the fifth column of words was cut off (``boxe``, ``biscu``)."""

    def __init__(self, ui: DuetTextUI, view: dict[str, Any]) -> None:
        self.ui, self.view = ui, view

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        # a rule at each side and between columns, a space each side of a word
        room = (options.max_width - (COLUMNS + 1)) // COLUMNS - 2
        yield self.ui.board(self.view, max(1, min(CELL, room)))


def _ui(lang: str) -> Callable[..., str]:
    def t(key: str, **args: Any) -> str:
        return translate(f"codenames_duet.ui.{key}", lang, **args)

    return t


class DuetTextUI:
    def __init__(self, game: Duet) -> None:
        self.game = game

    def _name(self, seat: int, names: Sequence[str], lang: str) -> str:
        return names[seat] if 0 <= seat < len(names) else seat_name(seat, lang)

    def cell(self, view: dict[str, Any], c: int) -> Text:
        """One word: covered agents in green reverse; own key colours; bystander tokens marked."""
        word = view["words"][c]
        side = view["side"]
        marks = ""
        for s in (0, 1):
            if c in view["bystanders"][s]:
                # A token faces the player who guessed wrong: "×" on my key, "·" on my partner's.
                marks += "×" if side is None or s == side else "·"
        if view["agents"][c] is not None:
            return Text(f"✓ {word}", style="black on green")
        if view["assassin"] == c:
            return Text(f"☠ {word}", style="bold white on red")
        style = ""
        mark = ""
        if view["key"] is not None:
            style = KEY_STYLE[view["key"][c]]
            mark = KEY_MARK[view["key"][c]]
        if not view["visible"][c]:
            style = "dim strike"
        return Text(f"{mark} {word} {marks}".strip(), style=style)

    def board(self, view: dict[str, Any], cell: int = CELL) -> Table:
        """The words in rows of five, each column at least ``cell`` wide."""
        grid = Table(show_header=False, show_lines=True, expand=False)
        for _ in range(COLUMNS):
            grid.add_column(justify="center", min_width=cell, overflow="fold")  # never "…"
        for row in range(len(view["words"]) // COLUMNS):
            grid.add_row(*(self.cell(view, row * COLUMNS + col) for col in range(COLUMNS)))
        return grid

    def status(self, view: dict[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
        t = _ui(lang)
        counts = [
            Text(t("agents", found=view["agents_found"], total=view["agents_total"]), style="bold green"),
            Text(t("tokens", tokens=view["tokens"], start=view["tokens_start"]), style="bold"),
        ]
        if view["mistakes_allowed"] < view["tokens_start"]:
            counts.append(Text(t("mistakes", used=view["mistakes"], allowed=view["mistakes_allowed"])))
        return Group(flow(counts, "   "), wrapped(self.phase(view, lang, names)))

    def phase(self, view: dict[str, Any], lang: str, names: Sequence[str]) -> Text:
        """Whose turn it is and what they do, or that the game is over."""
        t = _ui(lang)
        line = Text()
        if view["over"]:
            line.append(t("over"), style="bold")
            return line
        to_act = self._name(view["to_act"], names, lang)
        clue = view["clue"]
        if view["phase"] == "clue":
            line.append(t("phase_clue", player=to_act))
        elif view["phase"] == "sudden":
            line.append(t("phase_sudden", player=to_act), style="bold red")
        elif clue is not None:
            line.append(t("phase_guess", player=to_act, word=clue["word"], number=clue["number"]))
        return line

    def history(self, view: dict[str, Any], lang: str, names: Sequence[str]) -> Table | None:
        clues = view["clues"][-HISTORY:]
        if not clues:
            return None
        t = _ui(lang)
        table = Table(title=t("history"), show_header=True, expand=False)
        table.add_column(t("col_player"))
        table.add_column(t("col_clue"))
        table.add_column(t("col_guesses"))
        for clue in clues:
            guesses = Text()
            for g in clue["guesses"]:
                style = KEY_STYLE[g["kind"]] or "yellow"
                guesses.append(f"{g['word']} ", style=style)
            if clue["penalty"]:
                guesses.append(t("void"), style="red")
            table.add_row(self._name(clue["seat"], names, lang), f"{clue['word']} {clue['number']}", guesses)
        return table

    def legend(self, view: dict[str, Any], lang: str) -> Wrapped:
        """What the marks on the board mean, one entry per mark, so that a narrow terminal never
        parts a mark from its meaning."""
        t = _ui(lang)
        separator = t("legend.separator")
        if view["key"] is None:
            entries = [t("legend.found_agent"), t("legend.assassin"), t("legend.bystander_token")]
            return flow(entries, separator, tail=aside(t("legend.no_key"), lang), style="dim")
        side = translate(f"codenames_duet.side.{view['side']}", lang)
        lead = t("legend.key", side=side) + translate("core.text.colon", lang)
        entries = [
            t("legend.agents"),
            t("legend.assassins"),
            t("legend.found"),
            t("legend.bystander_mine"),
            t("legend.bystander_partner"),
        ]
        return flow(entries, separator, lead=lead, style="dim")

    def render(self, view: dict[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
        parts: list[RenderableType] = [self.status(view, lang, names), WordGrid(self, view)]
        parts.append(self.legend(view, lang))
        table = self.history(view, lang, names)
        if table is not None:
            parts.append(table)
        return Group(*parts)

    def describe(self, action: Action, view: dict[str, Any], lang: str, names: Sequence[str]) -> str:
        t = _ui(lang)
        words = action.text.split()
        if words[0] == "clue":
            return t("do_clue", word=" ".join(words[1:-1]), number=words[-1])
        if words[0] == "guess":
            return t("do_guess", word=words[1])
        return t("do_stop")

    def offer(self, state: State, seat: int, lang: str) -> MenuOffer | None:
        """In one's own clue phase: the partner AI's best clues, each with the words it is meant
        for, instead of the rules' sample of valid clues (random words, there only so that a
        random bot has moves). Without the AI (a pack its tables do not cover) nothing is listed
        and the heading says how to type a clue."""
        view = state.view(seat)
        if view["phase"] != "clue" or view["to_act"] != seat:
            return None
        t = _ui(lang)
        try:
            # seeded as ``hint`` seeds it, so the first suggestion is the clue ``hint`` names
            adviser = self.game.bot(BOT_NAME, seat=seat, seed=len(state.history))
        except ValueError:  # no AI for this pack's language, or its extra is not installed
            return MenuOffer(t("clue_how"), (), ())
        suggest = getattr(adviser, "suggest", None)
        if not callable(suggest):
            return MenuOffer(t("clue_how"), (), ())
        clues: list[tuple[Action, tuple[str, ...]]] = suggest(state, SUGGESTIONS)
        texts = []
        for action, targets in clues:
            meant = t("hint_targets", words=t("word_separator").join(targets))
            move = self.describe(action, view, lang, ())
            # worded as the terminal's `hint` words a clue and its targets
            texts.append(translate("cli.play.hint_reason", lang, move=move, reason=meant))
        return MenuOffer(t("clue_suggested"), tuple(action for action, _ in clues), tuple(texts))

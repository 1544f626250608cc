"""A Codenames Duet game in progress: the 25 cells, both key sides, the covers and tokens on the
table, the clues so far; its JSON (``snapshot``), copies and determinizations. The transitions are
in ``rules.py``, the views in ``views.py``."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.events import Event
from tabletrek.core.rng import copy_rng, make_rng
from tabletrek.core.state import Result, State
from tabletrek.games.codenames_duet import rules, snapshot, views
from tabletrek.games.codenames_duet.key import ASSASSIN, BYSTANDER, GREEN, sample_partner_side
from tabletrek.games.codenames_duet.snapshot import copy_clue
from tabletrek.games.codenames_duet.words import BOARD_SIZE

if TYPE_CHECKING:
    from tabletrek.games.codenames_duet.game import Duet


class DuetState(State):
    game: Duet
    cells: list[int]  # pack index of the word in each of the 25 cells
    key: list[list[int]]  # key[side][cell]
    agent: list[int | None]  # side whose key showed the agent when the cell was covered
    bystander: list[list[bool]]  # bystander[side][cell]: a token shows it is a bystander on side's key
    assassin: int | None
    tokens: int
    mistakes: int
    turns: int
    gives: list[int]  # clues given per side (rotates the spokesperson)
    guesses: list[int]  # guessing turns per side (rotates the spokesperson)
    phase: str
    giver: int  # the side whose key guesses are read on (the clue-giver; in sudden death, the partner)
    clue: dict[str, Any] | None
    clues: list[dict[str, Any]]
    ending: str | None

    # ----- queries ------------------------------------------------------------------------------

    @property
    def words(self) -> list[str]:
        pack = self.game.pack.words
        return [pack[i] for i in self.cells]

    @property
    def guesser(self) -> int:
        return 1 - self.giver

    @property
    def current_player(self) -> int | None:
        if self.phase == "over":
            return None
        members = self.game.sides
        if self.phase == "clue":
            side = self.giver
            return members[side][self.gives[side] % len(members[side])]
        side = self.guesser
        return members[side][self.guesses[side] % len(members[side])]

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        seats = tuple(range(self.game.players))
        scores = (float(self.agents_found()),) * len(seats)
        if self.ending == "won":
            return Result(seats, scores, (1.0,) * len(seats), "codenames_duet.end.won")
        return Result((), scores, (-1.0,) * len(seats), f"codenames_duet.end.{self.ending}")

    def greens_left(self, side: int) -> int:
        key = self.key[side]
        return sum(1 for c in range(BOARD_SIZE) if key[c] == GREEN and self.agent[c] is None)

    def agents_left(self) -> int:
        a, b = self.key
        return sum(1 for c in range(BOARD_SIZE) if GREEN in (a[c], b[c]) and self.agent[c] is None)

    def agents_found(self) -> int:
        return sum(1 for c in range(BOARD_SIZE) if self.agent[c] is not None)

    def is_visible(self, cell: int) -> bool:
        """Words under an agent card, or under tokens from both directions, are covered."""
        return self.agent[cell] is None and not (self.bystander[0][cell] and self.bystander[1][cell])

    def visible_words(self) -> list[str]:
        words = self.words
        return [words[c] for c in range(BOARD_SIZE) if self.is_visible(c)]

    def next_giver(self) -> int:
        """Who gives the next clue: the clue order, unless one side's greens are all covered."""
        for side in (0, 1):
            if self.greens_left(side) == 0:
                return 1 - side
        first = int(self.game.options["first_clue"])
        if self.game.options["clue_order"] == "two_one":
            return first if self.turns % 3 < 2 else 1 - first
        return first if self.turns % 2 == 0 else 1 - first

    def guessable(self) -> list[int]:
        """Cells the guesser may touch now."""
        return rules.guessable(self)

    def number_range(self) -> tuple[int, int]:
        """The numbers a clue may carry (see ``rules.number_range``)."""
        return rules.number_range(self)

    def clue_problem(self, word: str, number: int | None = None) -> tuple[str, dict[str, Any]] | None:
        """Why ``clue <word> <number>`` is not allowed now (i18n key, params), or None.

        Bots use this to filter candidates; ``number=None`` checks the word alone.
        """
        return rules.word_problem(self, word, number)

    # ----- the moves: rules.py ------------------------------------------------------------------

    def _legal_actions(self) -> list[Action]:
        return rules.legal_actions(self)

    def apply(self, action: Action | str) -> list[Event]:
        # A clue's word is free text: a clue (text or Action) is validated from its text, without
        # listing the legal actions, whose clues are only suggestions.
        if isinstance(action, Action) and action.index >= self.game.clue_base:
            action = action.text
        if isinstance(action, str) and not self.is_over:
            words = action.split()
            if words and words[0].lower() == "clue":
                clue = rules.parse_clue(self, words[1:], action)
                self._legal = None
                self._history.append(clue.text)
                return self._apply(clue)
        return super().apply(action)

    def parse(self, text: str) -> Action:
        if isinstance(text, str):
            words = text.split()
            if words and words[0].lower() == "clue":
                return rules.parse_clue(self, words[1:], text)
        return super().parse(text)

    def _apply(self, action: Action) -> list[Event]:
        return rules.apply_action(self, action)

    def explain(self, text: str) -> IllegalAction:
        return rules.explain(self, text)

    # ----- views --------------------------------------------------------------------------------

    def public_view(self) -> dict[str, Any]:
        return views.public_view(self)

    def view(self, seat: int) -> dict[str, Any]:
        return views.seat_view(self, seat)

    # ----- copies, search, serialization --------------------------------------------------------

    def clone(self) -> DuetState:
        other = DuetState.__new__(DuetState)
        self._copy_base_into(other, copy_rng(self.rng))
        other.cells = list(self.cells)
        other.key = [list(k) for k in self.key]
        other.agent = list(self.agent)
        other.bystander = [list(b) for b in self.bystander]
        other.assassin = self.assassin
        other.tokens = self.tokens
        other.mistakes = self.mistakes
        other.turns = self.turns
        other.gives = list(self.gives)
        other.guesses = list(self.guesses)
        other.phase = self.phase
        other.giver = self.giver
        other.clues = [copy_clue(c) for c in self.clues]
        other.clue = other.clues[-1] if self.clue is not None else None
        other.ending = self.ending
        return other

    def determinize(self, seat: int, rng: random.Random) -> DuetState:
        """The partner's key side resampled from the table, keeping every revealed cell."""
        other = self.clone()
        other.rng = make_rng(rng.getrandbits(63))
        side = self.game.side_of[seat]
        partner = 1 - side
        fixed: dict[int, int] = {}
        for c in range(BOARD_SIZE):
            if self.agent[c] == partner:
                fixed[c] = GREEN
            elif self.bystander[partner][c]:
                fixed[c] = BYSTANDER
            elif self.assassin == c and self.giver == partner:
                fixed[c] = ASSASSIN
        other.key[partner] = sample_partner_side(self.key[side], side, fixed, rng)
        return other

    def _dump(self) -> dict[str, Any]:
        return snapshot.dump(self)

    def _load(self, data: Mapping[str, Any]) -> None:
        snapshot.load(self, data)

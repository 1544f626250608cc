"""Codenames Duet, the game: player counts, options, the action space, bots, the terminal UI.

Two sides sit opposite each other (with more than two players, seats alternate sides: seat s is on
side ``s % 2``, and one spokesperson per side acts, the role rotating among its members). Action
indices: guesses use the pack index of their word, then ``stop``, then one index per clue number; a
clue's word is free text carried in the action's text (see ``Duet.clue_action``). The rules are in
``rules.py`` (docs/rules/codenames-duet.md), the state in ``state.py``.
"""

from __future__ import annotations

from typing import Any

from tabletrek.core.actions import Action
from tabletrek.core.game import BotFactory, Game
from tabletrek.core.options import OptionSpec
from tabletrek.core.rng import make_rng
from tabletrek.core.terminal import TextUI
from tabletrek.games.codenames_duet.bots import bot_factories
from tabletrek.games.codenames_duet.clues import COMPOUND_CHECKS
from tabletrek.games.codenames_duet.key import draw_key
from tabletrek.games.codenames_duet.rules import MAX_NUMBER, MAX_TOKENS
from tabletrek.games.codenames_duet.state import DuetState
from tabletrek.games.codenames_duet.text import DuetTextUI
from tabletrek.games.codenames_duet.words import BOARD_SIZE, SHIPPED_PACKS, WordPack, load_pack


class Duet(Game[DuetState]):
    name = "codenames-duet"
    package = "tabletrek.games.codenames_duet"
    player_counts = (2, 3, 4, 5, 6, 7, 8)
    default_players = 2
    cooperative = True
    option_specs = (
        OptionSpec("word_pack", "en", "codenames_duet.option.word_pack", kind=str, named=SHIPPED_PACKS),
        OptionSpec("tokens", 9, "codenames_duet.option.tokens", kind=int, minimum=1, maximum=MAX_TOKENS),
        OptionSpec(
            "mistakes",
            None,
            "codenames_duet.option.mistakes",
            kind=int,
            minimum=0,
            maximum=MAX_TOKENS,
            nullable=True,
        ),
        OptionSpec("zero_clues", False, "codenames_duet.option.zero_clues"),
        OptionSpec(
            "clue_order",
            "alternate",
            "codenames_duet.option.clue_order",
            kind=str,
            choices=("alternate", "two_one"),
        ),
        OptionSpec("first_clue", 0, "codenames_duet.option.first_clue", kind=int, choices=(0, 1)),
        OptionSpec("relaxed_clues", False, "codenames_duet.option.relaxed_clues"),
        OptionSpec("strict_penalty", False, "codenames_duet.option.strict_penalty"),
        # Records made before the compound dictionary (turn 2) were checked by any split.
        OptionSpec(
            "compound_check",
            "dictionary",
            "codenames_duet.option.compound_check",
            kind=str,
            choices=COMPOUND_CHECKS,
            legacy="any_split",
        ),
    )

    @classmethod
    def options_for_lang(cls, lang: str) -> dict[str, Any]:
        return {"word_pack": "zh-Hant"} if lang == "zh-Hant" else {}

    def _setup(self) -> None:
        self.pack: WordPack = load_pack(self.options["word_pack"])
        self.tokens: int = self.options["tokens"]
        mistakes = self.options["mistakes"]
        # Without a mission's limit every token may be spent on a mistake (the standard game).
        self.mistakes: int = self.tokens if mistakes is None else mistakes
        self.sides: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(range(0, self.players, 2)),
            tuple(range(1, self.players, 2)),
        )
        self.side_of: tuple[int, ...] = tuple(s % 2 for s in range(self.players))
        words = self.pack.words
        self._guesses = [Action(i, f"guess {w}") for i, w in enumerate(words)]
        self.stop_index = len(words)
        self.clue_base = len(words) + 1
        self._stop = Action(self.stop_index, "stop")
        self._word_index = {w: i for i, w in enumerate(words)}

    def data_digests(self) -> dict[str, str]:
        """A pack read from a file is named by its path in records: its words' digest lets a
        replay tell that the file has changed since (docs/rules/codenames-duet.md, Options)."""
        if self.options["word_pack"] in SHIPPED_PACKS:
            return {}
        return {"word_pack": self.pack.digest}

    @property
    def num_actions(self) -> int:
        return self.clue_base + MAX_NUMBER + 1

    def action(self, index: int) -> Action:
        if 0 <= index < self.stop_index:
            return self._guesses[index]
        if index == self.stop_index:
            return self._stop
        if self.clue_base <= index < self.num_actions:
            raise ValueError(
                f"action {index} is a clue of number {index - self.clue_base}; its word is free text, "
                "so build it with game.clue_action(word, number)"
            )
        raise ValueError(f"codenames-duet has no action {index}")

    def clue_action(self, word: str, number: int) -> Action:
        """The action ``clue <word> <number>`` (checked when applied)."""
        if not 0 <= number <= MAX_NUMBER:
            raise ValueError(f"a clue number lies in 0..{MAX_NUMBER}, not {number}")
        return Action(self.clue_base + number, f"clue {' '.join(word.split())} {number}")

    def guess_action(self, word: str) -> Action:
        return self._guesses[self._word_index[word]]

    def stop_action(self) -> Action:
        return self._stop

    def _blank_state(self) -> DuetState:
        return DuetState.__new__(DuetState)

    def _start(self, seed: int) -> DuetState:
        state = self._blank_state()
        rng = make_rng(seed)
        state._init_base(self, seed, rng)
        state.cells = rng.sample(range(len(self.pack.words)), BOARD_SIZE)
        state.key = draw_key(rng)
        state.agent = [None] * BOARD_SIZE
        state.bystander = [[False] * BOARD_SIZE, [False] * BOARD_SIZE]
        state.assassin = None
        state.tokens = self.tokens
        state.mistakes = 0
        state.turns = 0
        state.gives = [0, 0]
        state.guesses = [0, 0]
        state.phase = "clue"
        state.giver = 0
        state.clue = None
        state.clues = []
        state.ending = None
        state.giver = state.next_giver()
        return state

    def _bot_factories(self) -> dict[str, BotFactory[DuetState]]:
        return bot_factories(self.pack)

    def terminal(self) -> TextUI:
        return DuetTextUI(self)

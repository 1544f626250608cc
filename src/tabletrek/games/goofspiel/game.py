"""The Goofspiel game: players, options, the action space (``bid 1`` .. ``bid 13``)."""

from __future__ import annotations

from typing import ClassVar

from tabletrek.core.actions import Action
from tabletrek.core.game import BotFactory, Game
from tabletrek.core.options import OptionSpec
from tabletrek.core.rng import make_rng
from tabletrek.core.terminal import TextUI
from tabletrek.games.goofspiel.bots import MatcherBot
from tabletrek.games.goofspiel.rules import MAX_CARDS, TIES
from tabletrek.games.goofspiel.state import GoofspielState
from tabletrek.games.goofspiel.text import GoofspielText


class Goofspiel(Game[GoofspielState]):
    name = "goofspiel"
    package = "tabletrek.games.goofspiel"
    player_counts = (2, 3, 4)
    default_players = 2
    searchable = True
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("cards", MAX_CARDS, "goofspiel.option.cards", kind=int, minimum=3, maximum=MAX_CARDS),
        OptionSpec("ties", "discard", "goofspiel.option.ties", kind=str, choices=TIES),
    )

    def _setup(self) -> None:
        self.cards: int = int(self.options["cards"])
        self.carry: bool = self.options["ties"] == "carry"
        self._actions = [Action(i, f"bid {i + 1}") for i in range(self.cards)]

    @property
    def num_actions(self) -> int:
        return MAX_CARDS

    def action(self, index: int) -> Action:
        """``bid k`` has index ``k - 1``; indices past the hand's size name no move in this game."""
        if not isinstance(index, int) or not 0 <= index < self.cards:
            raise ValueError(f"{self.name} with {self.cards} cards has no action {index!r}")
        return self._actions[index]

    def _start(self, seed: int) -> GoofspielState:
        state = GoofspielState(self)
        state._init_base(self, seed, make_rng(seed))
        state.deal()
        return state

    def _blank_state(self) -> GoofspielState:
        return GoofspielState(self)

    def _bot_factories(self) -> dict[str, BotFactory[GoofspielState]]:
        return {"matcher": MatcherBot}

    def terminal(self) -> TextUI:
        return GoofspielText()

"""The random bot: a uniformly random legal action, for every game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletrek.core.bots import check_turn
from tabletrek.core.errors import UsageError
from tabletrek.core.rng import make_rng

if TYPE_CHECKING:
    from tabletrek.core.actions import Action
    from tabletrek.core.game import Game
    from tabletrek.core.state import State


class RandomBot:
    name = "random"

    def __init__(self, game: Game, *, seat: int, seed: int, **params: Any) -> None:
        if params:
            raise UsageError("core.error.bot_no_params", bot="random", names=sorted(params))
        self.seat = seat
        self.rng = make_rng(seed)

    def act(self, state: State) -> Action:
        check_turn(self, state)
        return self.rng.choice(state.legal_actions())

"""Goofspiel's heuristic bot: bid the card nearest the prize's worth."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import Action
from tabletrek.core.bots import check_turn
from tabletrek.core.errors import UsageError
from tabletrek.core.rng import make_rng

if TYPE_CHECKING:
    from tabletrek.core.game import Game
    from tabletrek.core.state import State


class MatcherBot:
    """Bids the card equal to the prize on the table (with any carried pot), or the nearest card it
    holds, ties broken at random: the classic first strategy, hard to exploit by a random bidder."""

    name = "matcher"

    def __init__(self, game: Game, *, seat: int, seed: int, **params: Any) -> None:
        if params:
            raise UsageError("core.error.bot_no_params", bot="matcher", names=sorted(params))
        self.seat = seat
        self.rng = make_rng(seed)

    def act(self, state: State) -> Action:
        check_turn(self, state)
        view = state.view(self.seat)
        worth = int(view["prize"]) + sum(view["pot"])
        legal = state.legal_actions()
        best = min(abs(action.index + 1 - worth) for action in legal)
        return self.rng.choice([a for a in legal if abs(a.index + 1 - worth) == best])

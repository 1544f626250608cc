"""Mexican Train bots: ``greedy`` (doubles, then heavy tiles) and ``planner`` (plans its own train).

Both decide from what their seat may know: the legal actions (which depend only on the acting
seat's hand and the table) and, for the planner, ``state.view(seat)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tabletrek.core.bots import check_turn
from tabletrek.core.errors import UsageError
from tabletrek.core.rng import make_rng
from tabletrek.games.mexican_train.chain import DEFAULT_LIMIT, best_chain
from tabletrek.games.mexican_train.tiles import PACKAGE

if TYPE_CHECKING:
    from tabletrek.core.actions import Action
    from tabletrek.games.mexican_train.game import MexicanTrain
    from tabletrek.games.mexican_train.state import MexicanTrainState


def _plays(game: MexicanTrain, legal: Sequence[Action]) -> list[tuple[Action, int, int]]:
    """(action, tile, train) for every tile play among ``legal``."""
    limit = game.draw_action.index
    return [(a, *divmod(a.index, game.slots)) for a in legal if a.index < limit]


class _Base:
    name = "base"

    def __init__(self, game: MexicanTrain, *, seat: int, seed: int, **params: Any) -> None:
        if game.package != PACKAGE:
            raise ValueError(f"the {self.name} bot plays mexican-train, not {game.name}")
        if params:
            raise UsageError("core.error.bot_no_params", bot=self.name, names=sorted(params))
        self.game = game
        self.seat = seat
        self.rng = make_rng(seed)

    def act(self, state: MexicanTrainState) -> Action:
        check_turn(self, state)
        legal = state.legal_actions()
        plays = _plays(self.game, legal)
        if not plays:
            return legal[0]  # draw, or pass: nothing else is offered
        return self.choose(state, plays)

    def choose(self, state: MexicanTrainState, plays: list[tuple[Action, int, int]]) -> Action:
        """Pick one of the tile plays (the subclasses' heuristics)."""
        return plays[0][0]


class GreedyBot(_Base):
    """Doubles first (they earn another play), then the heaviest tile; its own train breaks ties."""

    name = "greedy"

    def choose(self, state: MexicanTrainState, plays: list[tuple[Action, int, int]]) -> Action:
        ts = self.game.tileset
        seat = self.seat
        best = max(plays, key=lambda p: (ts.is_double[p[1]], ts.pips[p[1]], p[2] == seat))
        return best[0]


class PlannerBot(_Base):
    """Plans its own train as the longest, then heaviest, chain through its hand.

    Planned tiles are kept for its own train (private, so nobody can block it); other tiles go to
    the Mexican and public trains first. A double is played only with a tile to satisfy it, and the
    last tile that could satisfy a held double is kept back.
    """

    name = "planner"

    def choose(self, state: MexicanTrainState, plays: list[tuple[Action, int, int]]) -> Action:
        ts = self.game.tileset
        seat = self.seat
        view = state.view(seat)  # all it reads of the state: its own hand and the public table
        own = view["trains"][seat]
        hand = [ts.tile_id(a, b) for a, b in view["hand"]]
        plan = best_chain(ts, hand, own["end"], DEFAULT_LIMIT)
        if view["phase"] == "first":
            # The first turn is a run on one's own train: lay the whole plan.
            for action, tile, _train in plays:
                if plan and tile == plan[0]:
                    return action
            return max(plays, key=lambda p: ts.pips[p[1]])[0]
        planned = set(plan)
        counts = [0] * (ts.high + 1)
        for tile in hand:
            a, b = ts.tiles[tile]
            counts[a] += 1
            if b != a:
                counts[b] += 1
        held_doubles = {ts.tiles[t][0] for t in hand if ts.is_double[t]}
        marked = own["marker"]

        def score(play: tuple[Action, int, int]) -> float:
            _action, tile, train = play
            a, b = ts.tiles[tile]
            value = float(ts.pips[tile])
            if train == seat:
                if plan and tile == plan[0]:
                    value += 25.0 if marked else 4.0
                else:
                    value -= 12.0
            elif tile in planned:
                value -= 15.0 + 2.0 * (len(plan) - plan.index(tile))
            if a == b:
                # Another tile of this value satisfies the double at once (counts[a] includes the double).
                value += 14.0 if counts[a] >= 2 else -25.0
            else:
                for v in (a, b):
                    if v in held_doubles and counts[v] == 2:
                        value -= 9.0  # the last satisfier of a double still in hand
            return value

        return max(plays, key=score)[0]

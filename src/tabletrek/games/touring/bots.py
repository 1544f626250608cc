"""Touring's heuristic bot.

``greedy`` scores every legal move from what its seat can see (``view``) and plays the best one:
finish the trip when it can, get moving again, hit the opponent who is moving (harder the closer
they are to finishing), add the largest mileage it still needs, and when it must discard, throw
away the card it needs least. The scores themselves are in ``scoring.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from tabletrek.core.bots import check_turn, number_setting
from tabletrek.core.errors import UsageError
from tabletrek.core.rng import make_rng
from tabletrek.games.touring.scoring import Seen, scores

if TYPE_CHECKING:
    from tabletrek.core.actions import Action
    from tabletrek.core.state import State
    from tabletrek.games.touring.game import Touring


@dataclass(frozen=True)
class Weights:
    """The greedy bot's scores, tuned by simulation (``python -m benchmarks.touring_tune``)."""

    mileage: float = 180.0
    mileage_per_copy: float = 10.0
    mileage_per_mile: float = 0.25
    go: float = 105.0
    remedy: float = 145.0
    country_with_30: float = 170.0
    country_without_30: float = 60.0
    puncture: float = 200.0
    out_of_gasoline: float = 230.0
    collision: float = 164.5
    city_limits: float = 150.0
    urgency: float = 42.0
    keep_mileage: float = 31.5
    keep_mileage_per_need: float = 2.0
    keep_mileage_copy_penalty: float = 21.0
    keep_30_waiting: float = 25.0
    keep_go_stopped: float = 100.0
    keep_go_moving: float = 56.0
    keep_go_copy_penalty: float = 40.0
    keep_remedy_needed: float = 120.0
    keep_remedy: float = 75.0
    keep_remedy_copy_penalty: float = 40.0
    keep_hazard: float = 154.0
    keep_hazard_copy_penalty: float = 20.0
    keep_country: float = 80.0
    keep_denial: float = -20.0


class GreedyBot:
    name = "greedy"

    def __init__(self, game: Touring, *, seat: int, seed: int, **params: Any) -> None:
        known = {f.name for f in fields(Weights)}
        unknown = sorted(set(params) - known)
        if unknown:
            known_names = sorted(known)
            raise UsageError(
                "core.error.bot_unknown_params",
                bot="greedy",
                names=unknown,
                known=known_names,
                count=len(unknown),
            )
        self.game = game
        self.seat = seat
        self.rng = make_rng(seed)
        self.w = Weights(**{k: number_setting(k, v) for k, v in params.items()})

    def act(self, state: State) -> Action:
        check_turn(self, state)
        legal = state.legal_actions()
        seen = Seen.from_view(state.view(self.seat))
        values = scores(seen, legal, self.w)
        scored = [(score, self.rng.random(), action) for score, action in zip(values, legal, strict=True)]
        return max(scored, key=lambda item: (item[0], item[1]))[2]

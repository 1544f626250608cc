"""Touring's heuristic bot.

``greedy`` scores every legal move from what its seat can see (``view``) and plays the best one:
finish the trip when it can, get moving again, hit the opponent who is moving (harder the closer
they are to finishing), add the largest mileage it still needs, and when it must discard, throw
away the card it needs least.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from tabletrek.core.bots import check_turn
from tabletrek.core.rng import make_rng
from tabletrek.games.touring.cards import (
    CITY,
    CODE,
    COLLISION,
    COUNTRY,
    GASOLINE,
    GO,
    HAULED,
    M30,
    MILES,
    OOG,
    PUNCTURE,
    is_mileage,
    mileage_slot,
)
from tabletrek.games.touring.rules import DISCARD_BASE, PASS, TAKE_15S, TARGET_BASE, decode_target

if TYPE_CHECKING:
    from tabletrek.core.actions import Action
    from tabletrek.core.state import State
    from tabletrek.games.touring.rules import Touring

MILE_KEYS = ("1", "3", "15", "30")


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
            raise ValueError(
                f"the greedy bot has no parameter {', '.join(unknown)}; it has: {', '.join(sorted(known))}"
            )
        self.game = game
        self.seat = seat
        self.rng = make_rng(seed)
        self.w = Weights(**{k: float(v) for k, v in params.items()})

    def act(self, state: State) -> Action:
        check_turn(self, state)
        view = state.view(self.seat)
        legal = state.legal_actions()
        scored = [(self.score(action, view), self.rng.random(), action) for action in legal]
        return max(scored, key=lambda item: (item[0], item[1]))[2]

    # ----- scoring ----------------------------------------------------------------------------------

    def score(self, action: Action, view: dict[str, Any]) -> float:
        index = action.index
        me = view["tables"][view["team"]]
        if index == PASS:
            return 0.0
        if index >= DISCARD_BASE:
            return -self.keep_value(index - DISCARD_BASE, view)
        if index >= TARGET_BASE:
            card, victim, variant = decode_target(index)
            return self.attack_value(card, view["tables"][victim], variant, view)
        card = index
        w = self.w
        needs = self.needs(me, view)
        if is_mileage(card):
            if card == M30 and me["limited"]:
                return -40.0  # speeding throws the card away
            left_after = sum(needs) - 1
            if left_after == 0:
                return 1000.0
            # Play the card held in most copies: it frees the hand for the cards still to come.
            copies = sum(1 for name in view["hand"] if CODE[name] == card)
            return w.mileage + w.mileage_per_copy * copies + w.mileage_per_mile * MILES[mileage_slot(card)]
        if card == GO:
            return w.go
        if card in (GASOLINE, HAULED):
            return w.remedy
        if card == COUNTRY:
            # Country exposes our 15s and 30s to Puncture and Collision: go there when a 30 is in hand.
            if not needs[3]:
                return -5.0
            return w.country_with_30 if "30" in view["hand"] else w.country_without_30
        return 0.0

    @staticmethod
    def needs(table: dict[str, Any], view: dict[str, Any]) -> list[int]:
        """How many more cards of each mileage value this table still needs (requirements are public)."""
        return [view["required"][k] - table["miles"][k] for k in MILE_KEYS]

    def attack_value(self, card: int, victim: dict[str, Any], variant: int, view: dict[str, Any]) -> float:
        progress = float(victim["total"]) / max(1, int(view["goal"]))
        victim_needs = self.needs(victim, view)
        urgency = self.w.urgency * progress
        if card == CITY:
            return (self.w.city_limits if victim_needs[3] else 20.0) + urgency
        country = not victim["limited"]
        lost = 0
        miles = victim["miles"]
        if card == PUNCTURE and country and miles["15"]:
            lost = 15
        if card == COLLISION:
            if not country:
                lost = 15 if miles["15"] else 0
            elif variant == TAKE_15S:
                lost = 15 * min(2, miles["15"])
            else:
                lost = 30 if miles["30"] else 15 * min(2, miles["15"])
        base = {PUNCTURE: self.w.puncture, OOG: self.w.out_of_gasoline, COLLISION: self.w.collision}[card]
        return base + urgency + lost

    def opponents_need(self, card: int, view: dict[str, Any]) -> bool:
        return any(
            self.needs(table, view)[mileage_slot(card)] > 0
            for table in view["tables"]
            if table["team"] != view["team"]
        )

    def keep_value(self, card: int, view: dict[str, Any]) -> float:
        """How much the player wants to keep one copy of ``card`` (the copy it would discard).

        A hand clogged with copies of one card is worth less than a varied one: only one card is
        played per turn, so each further copy is valued less, even of a card still needed.
        """
        w = self.w
        me = view["tables"][view["team"]]
        needs = self.needs(me, view)
        copies = sum(1 for name in view["hand"] if CODE[name] == card)
        extra = copies - 1
        go_top = me["go"][-1] if me["go"] else None
        if is_mileage(card):
            need = needs[mileage_slot(card)]
            if need == 0:
                return w.keep_denial if self.opponents_need(card, view) else -100.0
            if copies > need:
                return -50.0
            value = w.keep_mileage + w.keep_mileage_per_need * need - w.keep_mileage_copy_penalty * extra
            if card == M30 and me["limited"] and "country" not in view["hand"]:
                value -= w.keep_30_waiting  # a 30 waits for a Country card that may be long in coming
            return value
        if card == GO:
            return (
                w.keep_go_stopped if go_top != "go" else w.keep_go_moving
            ) - w.keep_go_copy_penalty * extra
        if card in (GASOLINE, HAULED):
            wanted = "out-of-gasoline" if card == GASOLINE else "collision"
            return (
                w.keep_remedy_needed if go_top == wanted else w.keep_remedy
            ) - w.keep_remedy_copy_penalty * extra
        if card in (PUNCTURE, OOG, COLLISION):
            return w.keep_hazard - w.keep_hazard_copy_penalty * extra
        if card == COUNTRY:
            return (w.keep_country if needs[3] and me["limited"] else 5.0) - 30.0 * extra
        return 10.0  # City Limits

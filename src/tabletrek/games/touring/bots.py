"""Touring's heuristic bot.

``greedy`` scores every legal move from what its seat can see (``view``) and plays the best one:
finish the trip when it can, get moving again, hit the opponent who is moving (harder the closer
they are to finishing), add the largest mileage it still needs, and when it must discard, throw
away the card it needs least.
"""

from __future__ import annotations

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


class GreedyBot:
    name = "greedy"

    def __init__(self, game: Touring, *, seat: int, seed: int, **params: Any) -> None:
        if params:
            raise ValueError(f"the greedy bot takes no parameters, got {', '.join(sorted(params))}")
        self.game = game
        self.seat = seat
        self.rng = make_rng(seed)

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
        needs = self.needs(me, view)
        if is_mileage(card):
            if card == M30 and me["limited"]:
                return -40.0  # speeding throws the card away
            left_after = sum(needs) - 1
            if left_after == 0:
                return 1000.0
            return 120.0 + MILES[mileage_slot(card)]
        if card == GO:
            return 300.0
        if card in (GASOLINE, HAULED):
            return 290.0
        if card == COUNTRY:
            return 170.0 if needs[3] else -5.0
        return 0.0

    @staticmethod
    def needs(table: dict[str, Any], view: dict[str, Any]) -> list[int]:
        """How many more cards of each mileage value this table still needs (requirements are public)."""
        return [view["required"][k] - table["miles"][k] for k in MILE_KEYS]

    def attack_value(self, card: int, victim: dict[str, Any], variant: int, view: dict[str, Any]) -> float:
        progress = float(victim["total"]) / max(1, int(view["goal"]))
        victim_needs = self.needs(victim, view)
        urgency = 60.0 * progress
        if card == CITY:
            return (150.0 if victim_needs[3] else 20.0) + urgency
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
        base = {PUNCTURE: 200.0, OOG: 230.0, COLLISION: 235.0}[card]
        return base + urgency + lost

    def keep_value(self, card: int, view: dict[str, Any]) -> float:
        me = view["tables"][view["team"]]
        needs = self.needs(me, view)
        hand = view["hand"]
        copies = sum(1 for name in hand if CODE[name] == card)
        extra = copies - 1
        go_top = me["go"][-1] if me["go"] else None
        if is_mileage(card):
            need = needs[mileage_slot(card)]
            if need == 0:
                return -100.0
            # The scarce small cards are needed most often (eight 1s), so they are kept hardest.
            return 60.0 + 12.0 * need - 20.0 * max(0, copies - need)
        if card == GO:
            return (100.0 if go_top != "go" else 45.0) - 30.0 * extra
        if card in (GASOLINE, HAULED):
            wanted = "out-of-gasoline" if card == GASOLINE else "collision"
            return (120.0 if go_top == wanted else 30.0) - 20.0 * extra
        if card in (PUNCTURE, OOG, COLLISION):
            return 40.0 - 5.0 * extra
        if card == COUNTRY:
            return (80.0 if needs[3] and me["limited"] else 5.0) - 30.0 * extra
        return 10.0  # City Limits

"""The greedy heuristic's scores, written once for the greedy bot and the search's playouts.

The scores read only what the player to act may know: its own hand and the public piles. ``Seen``
holds exactly that, built either from ``view(seat)`` (the greedy bot, which must decide from its
view) or straight from a state (search playouts, which run inside the searcher's own
determinization and cannot afford a view dict per move).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tabletrek.games.touring.cards import (
    CITY,
    CODE,
    COLLISION,
    COUNTRY,
    GASOLINE,
    GO,
    HAULED,
    M1,
    M30,
    MILES,
    OOG,
    PUNCTURE,
)
from tabletrek.games.touring.rules import DISCARD_BASE, PASS, TAKE_15S, TARGET_BASE, decode_target

if TYPE_CHECKING:
    from tabletrek.core.actions import Action
    from tabletrek.games.touring.bots import Weights
    from tabletrek.games.touring.state import TouringState

MILE_KEYS = ("1", "3", "15", "30")


@dataclass(slots=True)
class Seen:
    """What the player to act knows, per team where it is public."""

    hand: list[int]
    team: int
    go_tops: list[int | None]
    limited: list[bool]
    miles: list[list[int]]
    required: tuple[int, ...]
    goal: int

    @classmethod
    def from_state(cls, state: TouringState) -> Seen:
        game = state.game
        return cls(
            hand=state.hands[state.to_act],
            team=game.team_of[state.to_act],
            go_tops=[state.go_top(t) for t in range(game.teams)],
            limited=[state.is_limited(t) for t in range(game.teams)],
            miles=state.miles,
            required=game.required,
            goal=game.goal_miles,
        )

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Seen:
        tables = view["tables"]
        return cls(
            hand=[CODE[name] for name in view["hand"]],
            team=view["team"],
            go_tops=[CODE[t["go"][-1]] if t["go"] else None for t in tables],
            limited=[t["limited"] for t in tables],
            miles=[[t["miles"][k] for k in MILE_KEYS] for t in tables],
            required=tuple(view["required"][k] for k in MILE_KEYS),
            goal=view["goal"],
        )

    def needs(self, team: int) -> list[int]:
        """How many more cards of each mileage value a team still needs."""
        return [self.required[i] - self.miles[team][i] for i in range(4)]


def scores(seen: Seen, legal: Sequence[Action], w: Weights) -> list[float]:
    """The greedy score of each legal move, in order."""
    hand = seen.hand
    needs = seen.needs(seen.team)
    limited = seen.limited[seen.team]
    out: list[float] = []
    for action in legal:
        index = action.index
        if index == PASS:
            score = 0.0
        elif index >= DISCARD_BASE:
            score = -keep_value(seen, index - DISCARD_BASE, needs, w)
        elif index >= TARGET_BASE:
            score = attack_value(seen, *decode_target(index), w)
        elif M1 <= index <= M30:
            if index == M30 and limited:
                score = -40.0  # speeding throws the card away
            elif sum(needs) == 1:
                score = 1000.0  # the last card of the trip
            else:
                # Play the card held in most copies: it frees the hand for the cards to come.
                score = (
                    w.mileage
                    + w.mileage_per_copy * hand.count(index)
                    + w.mileage_per_mile * MILES[index - M1]
                )
        elif index == GO:
            score = w.go
        elif index in (GASOLINE, HAULED):
            score = w.remedy
        elif index == COUNTRY:
            # Country exposes our 15s and 30s to Puncture and Collision: go there with a 30 in hand.
            score = -5.0 if not needs[3] else w.country_with_30 if M30 in hand else w.country_without_30
        else:
            score = 0.0
        out.append(score)
    return out


def attack_value(seen: Seen, card: int, victim: int, variant: int, w: Weights) -> float:
    miles = seen.miles[victim]
    total = sum(n * m for n, m in zip(miles, MILES, strict=True))
    urgency = w.urgency * float(total) / max(1, seen.goal)
    if card == CITY:
        return (w.city_limits if seen.required[3] - miles[3] else 20.0) + urgency
    country = not seen.limited[victim]
    lost = 0
    if card == PUNCTURE and country and miles[2]:
        lost = 15
    if card == COLLISION:
        if not country:
            lost = 15 if miles[2] else 0
        elif variant == TAKE_15S:
            lost = 15 * min(2, miles[2])
        else:
            lost = 30 if miles[3] else 15 * min(2, miles[2])
    base = {PUNCTURE: w.puncture, OOG: w.out_of_gasoline, COLLISION: w.collision}[card]
    return base + urgency + lost


def keep_value(seen: Seen, card: int, needs: list[int], w: Weights) -> float:
    """How much the player wants to keep one copy of ``card`` (the copy it would discard).

    A hand clogged with copies of one card is worth less than a varied one: only one card is
    played per turn, so each further copy is valued less, even of a card still needed.
    """
    hand = seen.hand
    copies = hand.count(card)
    extra = copies - 1
    go_top = seen.go_tops[seen.team]
    limited = seen.limited[seen.team]
    if M1 <= card <= M30:
        slot = card - M1
        need = needs[slot]
        if need == 0:
            wanted = any(seen.needs(t)[slot] > 0 for t in range(len(seen.miles)) if t != seen.team)
            return w.keep_denial if wanted else -100.0
        if copies > need:
            return -50.0
        value = w.keep_mileage + w.keep_mileage_per_need * need - w.keep_mileage_copy_penalty * extra
        if card == M30 and limited and COUNTRY not in hand:
            value -= w.keep_30_waiting  # a 30 waits for a Country card that may be long in coming
        return value
    if card == GO:
        return (w.keep_go_stopped if go_top != GO else w.keep_go_moving) - w.keep_go_copy_penalty * extra
    if card in (GASOLINE, HAULED):
        wanted_top = OOG if card == GASOLINE else COLLISION
        needed = w.keep_remedy_needed if go_top == wanted_top else w.keep_remedy
        return needed - w.keep_remedy_copy_penalty * extra
    if card in (PUNCTURE, OOG, COLLISION):
        return w.keep_hazard - w.keep_hazard_copy_penalty * extra
    if card == COUNTRY:
        return (w.keep_country if needs[3] and limited else 5.0) - 30.0 * extra
    return 10.0  # City Limits

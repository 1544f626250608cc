"""Touring's fast playout policy: the greedy bot's scores, read straight off the state.

``GreedyBot`` builds the whole ``view`` dict (every table, the discard pile, slugs) for every
decision, which is most of a playout's cost. Search playouts run inside a determinization, where
the state is the searcher's own guess, so the policy may read the state directly; it reads only
what the player to act could see anyway (its own hand and the public tables). The scores are the
greedy bot's, term for term (``Weights``), so playouts play as greedy does (checked by
``tests/study/test_rollout_policy.py``).

``evaluate`` scores an unfinished position for cut playouts: a logistic model of the chance to
win, fitted on greedy-vs-greedy games by ``python -m benchmarks.touring_evaluation``.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from tabletrek.games.touring.bots import Weights
from tabletrek.games.touring.cards import (
    CITY,
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
    from tabletrek.core.state import State
    from tabletrek.games.touring.rules import TouringState

W = Weights()
# Fitted by ``python -m benchmarks.touring_evaluation --games 3000`` (logistic regression on the
# features below, in their order).
EVAL_WEIGHTS: tuple[float, ...] = (
    -0.369,
    -2.028,
    2.124,
    -0.021,
    0.075,
    0.096,
    -0.079,
    0.574,
    -0.337,
    0.062,
    0.002,
    -0.364,
    0.005,
    0.596,
    0.125,
)
HAZARD_BASE = {PUNCTURE: W.puncture, OOG: W.out_of_gasoline, COLLISION: W.collision}


def greedy_policy(state: State, rng: random.Random) -> Action:
    """The move the greedy bot would make (ties broken by ``rng``, as greedy breaks them)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    best = legal[0]
    best_key = (-1e18, 0.0)
    for score, action in scores(state, legal):  # type: ignore[arg-type]
        key = (score, rng.random())
        if key > best_key:
            best, best_key = action, key
    return best


def scores(state: TouringState, legal: list[Action]) -> list[tuple[float, Action]]:
    """Greedy's score of every legal move for the player to act."""
    game = state.game
    seat = state.to_act
    team = game.team_of[seat]
    hand = state.hands[seat]
    required = game.required
    miles = state.miles[team]
    needs = [required[i] - miles[i] for i in range(4)]
    speed = state.speed[team]
    limited = not speed or speed[-1] != COUNTRY
    out: list[tuple[float, Action]] = []
    for action in legal:
        index = action.index
        if index == PASS:
            score = 0.0
        elif index >= DISCARD_BASE:
            score = -keep_value(state, index - DISCARD_BASE, team, hand, needs, limited)
        elif index >= TARGET_BASE:
            score = attack_value(state, *decode_target(index))
        elif M1 <= index <= M30:
            if index == M30 and limited:
                score = -40.0
            elif sum(needs) == 1:
                score = 1000.0
            else:
                score = (
                    W.mileage
                    + W.mileage_per_copy * hand.count(index)
                    + W.mileage_per_mile * MILES[index - M1]
                )
        elif index == GO:
            score = W.go
        elif index in (GASOLINE, HAULED):
            score = W.remedy
        elif index == COUNTRY:
            # Country exposes 15s and 30s to hazards: worth it when a 30 is in hand.
            score = -5.0 if not needs[3] else W.country_with_30 if M30 in hand else W.country_without_30
        else:
            score = 0.0
        out.append((score, action))
    return out


def attack_value(state: TouringState, card: int, victim: int, variant: int) -> float:
    game = state.game
    miles = state.miles[victim]
    progress = float(state.team_miles(victim)) / max(1, game.goal_miles)
    urgency = W.urgency * progress
    if card == CITY:
        return (W.city_limits if game.required[3] - miles[3] else 20.0) + urgency
    country = not state.is_limited(victim)
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
    return HAZARD_BASE[card] + urgency + lost


def keep_value(
    state: TouringState, card: int, team: int, hand: list[int], needs: list[int], limited: bool
) -> float:
    """How much the player wants to keep one copy of ``card`` (see ``GreedyBot.keep_value``)."""
    copies = hand.count(card)
    extra = copies - 1
    go = state.go[team]
    go_top = go[-1] if go else None
    if M1 <= card <= M30:
        slot = card - M1
        need = needs[slot]
        if need == 0:
            game = state.game
            wanted = any(
                game.required[slot] - state.miles[t][slot] > 0 for t in range(game.teams) if t != team
            )
            return W.keep_denial if wanted else -100.0
        if copies > need:
            return -50.0
        value = W.keep_mileage + W.keep_mileage_per_need * need - W.keep_mileage_copy_penalty * extra
        if card == M30 and limited and COUNTRY not in hand:
            value -= W.keep_30_waiting
        return value
    if card == GO:
        return (W.keep_go_stopped if go_top != GO else W.keep_go_moving) - W.keep_go_copy_penalty * extra
    if card in (GASOLINE, HAULED):
        wanted_top = OOG if card == GASOLINE else COLLISION
        return (
            W.keep_remedy_needed if go_top == wanted_top else W.keep_remedy
        ) - W.keep_remedy_copy_penalty * extra
    if card in (PUNCTURE, OOG, COLLISION):
        return W.keep_hazard - W.keep_hazard_copy_penalty * extra
    if card == COUNTRY:
        return (W.keep_country if needs[3] and limited else 5.0) - 30.0 * extra
    return 10.0  # City Limits


def features(state: State, seat: int) -> list[float]:
    """What the evaluation reads: mileage still needed by the seat's team and by the strongest
    other team (in all, in 30s, in 15s), who is moving or limited, the seat's hand (mileage it
    can use, a Go, hazards) and whose turn it is. In a determinization the hand is known."""
    st: TouringState = state  # type: ignore[assignment]
    game = st.game
    team = game.team_of[seat]
    required = game.required
    mine = [required[i] - st.miles[team][i] for i in range(4)]
    other = min(
        (t for t in range(game.teams) if t != team),
        key=lambda t: sum(required[i] - st.miles[t][i] for i in range(4)),
    )
    theirs = [required[i] - st.miles[other][i] for i in range(4)]
    hand = st.hands[seat]
    useful = sum(min(hand.count(M1 + i), mine[i]) for i in range(4))
    total = sum(required)
    return [
        1.0,
        sum(mine) / total,
        sum(theirs) / total,
        mine[3] / max(1, required[3]),
        theirs[3] / max(1, required[3]),
        mine[2] / max(1, required[2]),
        theirs[2] / max(1, required[2]),
        1.0 if st.go_top(team) == GO else 0.0,
        1.0 if st.go_top(other) == GO else 0.0,
        float(st.is_limited(team)),
        float(st.is_limited(other)),
        useful / 5,
        float(GO in hand),
        sum(hand.count(c) for c in (PUNCTURE, OOG, COLLISION)) / 3,
        float(st.to_act == seat),
    ]


def evaluate(state: State, seat: int) -> float:
    """The seat's chance to win as the fitted model sees it, mapped to [-1, 1]."""
    x = sum(w * f for w, f in zip(EVAL_WEIGHTS, features(state, seat), strict=True))
    return 2.0 / (1.0 + math.exp(-x)) - 1.0

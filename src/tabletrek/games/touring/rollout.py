"""Touring's fast playout policy: the greedy bot's scores, read straight off the state.

``GreedyBot`` builds the whole ``view`` dict (every table, the discard pile, slugs) for every
decision, which is most of a playout's cost. Search playouts run inside a determinization, where
the state is the searcher's own guess, so the policy reads the state directly, but only what the
player to act could see anyway (``scoring.Seen``); the scores are greedy's own (``scoring.py``).

``evaluate`` scores an unfinished position for cut playouts: with two players the value network
of ``evaluation.py``, else a logistic model of the chance to win, fitted on greedy-vs-greedy games
by ``python -m benchmarks.fit_evaluation touring``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tabletrek.core.search import logistic_value
from tabletrek.games.touring.bots import Weights
from tabletrek.games.touring.cards import (
    COLLISION,
    GO,
    M1,
    OOG,
    PUNCTURE,
)
from tabletrek.games.touring.scoring import Seen
from tabletrek.games.touring.scoring import scores as shared_scores

if TYPE_CHECKING:
    from tabletrek.core.actions import Action
    from tabletrek.games.touring.state import TouringState

W = Weights()
# Fitted by ``python -m benchmarks.fit_evaluation touring --games 3000`` (logistic regression on the
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


def greedy_policy(state: TouringState, rng: random.Random) -> Action:
    """The move the greedy bot would make (ties broken by ``rng``, as greedy breaks them)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    best = legal[0]
    best_key = (-1e18, 0.0)
    for score, action in scores(state, legal):
        key = (score, rng.random())
        if key > best_key:
            best, best_key = action, key
    return best


def scores(state: TouringState, legal: Sequence[Action]) -> list[tuple[float, Action]]:
    """Greedy's score of every legal move for the player to act."""
    return list(zip(shared_scores(Seen.from_state(state), legal, W), legal, strict=True))


def features(st: TouringState, seat: int) -> list[float]:
    """What the evaluation reads: mileage still needed by the seat's team and by the strongest
    other team (in all, in 30s, in 15s), who is moving or limited, the seat's hand (mileage it
    can use, a Go, hazards) and whose turn it is. In a determinization the hand is known."""
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


def evaluate(state: TouringState, seat: int) -> float:
    """The seat's chance to win, mapped to [-1, 1]: with two players by the value network that
    also scores compiled cut playouts (``evaluation.py``), else by the fitted logistic model."""
    scorer = network_scorer()
    chance = None if scorer is None else scorer(state, seat)
    if chance is not None:
        return 2 * chance - 1
    return logistic_value(EVAL_WEIGHTS, features(state, seat))


@functools.cache
def network_scorer() -> Callable[[TouringState, int], float | None] | None:
    """The value network's chance for a seat (None where it does not apply: not two players), or
    None if it cannot run: numpy, an optional extra, is not installed. Looked up once, since a
    failed import is retried, and so paid for, on every call."""
    try:
        from tabletrek.games.touring import evaluation, kernel  # noqa: PLC0415 - extra [search] (numpy, numba)
    except ImportError:
        return None

    def scorer(state: TouringState, seat: int) -> float | None:
        return evaluation.network_value(kernel.pack(state), kernel.config(state), seat)

    return scorer

"""Double Crossing's position evaluation for the search bot's cut playouts.

A whole trader-vs-trader game is about 340 actions, so a search that plays every game out affords
only a handful of playouts per move. ``evaluate`` scores an unfinished position instead: a logistic
model of the seat's chance to win from what decides the race (contracts held against the strongest
rival, the way home once six are held, money, cars and crew cards), fitted on trader-vs-trader games
by ``python -m benchmarks.fit_evaluation double-crossing``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletrek.core.search import logistic_value

if TYPE_CHECKING:
    from tabletrek.games.double_crossing.state import DoubleCrossingState

# Fitted by ``python -m benchmarks.fit_evaluation double-crossing --games 2000`` (log loss 0.561
# against 0.693 for a coin, 69.6% of positions called right; the features below, in their order).
EVAL_WEIGHTS: tuple[float, ...] = (
    -0.013,
    3.593,
    -3.578,
    -2.317,
    2.383,
    3.109,
    -3.204,
    0.532,
    -0.516,
    1.657,
    -1.597,
    -0.010,
    -0.010,
    -0.001,
)
MONEY_SCALE = 1_000_000  # a million dollars: the order of a contract's price plus its cars


def _home(state: DoubleCrossingState, seat: int) -> float:
    """Steps still to go to Central Station, as a fraction of the loop (1 before entering it)."""
    size = state.content.size
    pos = state.pos[seat]
    if pos < 0:
        return 1.0
    return ((size - pos) % size) / size


def features(st: DoubleCrossingState, seat: int) -> list[float]:
    """The seat against its strongest rival (most contracts, then cars, then cash)."""
    players = st.game.players
    need = st.content.contracts_to_win
    held = [st.owner.count(s) for s in range(players)]
    rival = max(
        (s for s in range(players) if s != seat),
        key=lambda s: (held[s], sum(st.cars[s]), st.cash[s]),
    )

    def side(s: int) -> list[float]:
        ready = held[s] >= need
        return [
            min(held[s], need) / need,
            _home(st, s) if ready else 0.0,
            float(ready),
            st.cash[s] / MONEY_SCALE,
            sum(st.cars[s]) / st.content.rack_limit,
            len(st.hands[s]) / 5,
        ]

    mine, theirs = side(seat), side(rival)
    # Interleaved (mine, rival's) so each pair of weights reads as "for me / for them".
    pairs = [v for m, t in zip(mine, theirs, strict=True) for v in (m, t)]
    return [1.0, *pairs, float(st.current_player == seat)]


def evaluate(state: DoubleCrossingState, seat: int) -> float:
    """The seat's chance to win as the fitted model sees it, mapped to [-1, 1]."""
    return logistic_value(EVAL_WEIGHTS, features(state, seat))

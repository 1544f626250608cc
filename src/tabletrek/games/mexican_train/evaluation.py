"""Mexican Train's position evaluation and playout horizon for the search bot.

A match is up to 13 rounds; a search that plays every playout to the end of the match spends
seconds a move on rounds that its move barely touches. So playouts stop when the round being
played is over (``horizon``: the round number) and ``evaluate`` scores the match as it then
stands: each seat's total so far, plus the pips still in hand while a round is under way (what it
would score if the round ended now), compared with the best rival's and scaled by the rounds
still to play (each round's score spreads the totals by roughly ``ROUND_SPREAD`` pips).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tabletrek.games.mexican_train.state import MexicanTrainState

ROUND_SPREAD = 30.0


def horizon(st: MexicanTrainState) -> int:
    """The round under way: playouts stop once it changes."""
    return st.round_index


def projected(st: MexicanTrainState) -> list[float]:
    """Each seat's match total if the round under way ended now (the totals alone before anyone
    has played in it: a fresh deal says little about who will be caught holding what)."""
    fresh = all(st.first_pending)
    return [float(st.totals[s] + (0 if fresh else st.hand_points(s))) for s in range(st.game.players)]


def evaluate(st: MexicanTrainState, seat: int) -> float:
    """In [-1, 1]: positive when the seat's projected total is below the best rival's (lower wins)."""
    points = projected(st)
    rival = min(p for s, p in enumerate(points) if s != seat)
    left = max(0, st.game.num_rounds - st.round_index - 1)
    return math.tanh((rival - points[seat]) / (ROUND_SPREAD * math.sqrt(left + 1)))

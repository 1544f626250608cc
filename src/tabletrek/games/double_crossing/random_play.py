"""All-random Double Crossing games played by the compiled batch engine, for ``simulate``.

Each seat's bot is Python's generator seeded as ``make_bot`` seeds it, compiled
(``core/mt19937.py``), and picks ``choice(legal_actions())`` over the legal moves in the order
the Python rules list them, so the outcome is the one the Python path gives (``sim/compiled.py``
calls ``play`` through the game's spec, ``GameSpec.random_games``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tabletrek.core import mt19937 as mt
from tabletrek.core.mt19937 import njit
from tabletrek.core.state import State
from tabletrek.games.double_crossing import batch as D
from tabletrek.games.double_crossing import batch_layout as L


def play(game: Any, bots: np.ndarray, seed: int, limit: int) -> tuple[State, int, int | None]:
    """(the final state, the number of moves, the rounds played)."""
    gen = np.zeros(mt.SIZE, dtype=np.uint32)
    s = np.zeros(L.SIZE, dtype=np.int32)
    count = _double_crossing(s, gen, bots, D.config(game), seed, limit)
    return D.to_python_state(game, s, gen, seed), count, int(s[L.ROUNDS])


@njit
def _double_crossing(
    s: np.ndarray, g: np.ndarray, bots: np.ndarray, cfg: np.ndarray, seed: int, limit: int
) -> int:
    D.deal(s, g, cfg, seed)
    buf = np.zeros(L.NA_MAX, dtype=np.int64)
    count = 0
    while s[L.ENDED] == 0 and count < limit:
        n = D.options(s, cfg, buf)  # in the order the Python steps list them (steps.py)
        seat = D.to_act(s)
        D.apply(s, g, cfg, buf[mt.below(bots[seat], n)], buf)
        count += 1
    return count

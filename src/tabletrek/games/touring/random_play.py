"""All-random Touring games played by the compiled batch engine, for ``simulate``.

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
from tabletrek.games.touring import batch as T
from tabletrek.games.touring.rules import DISCARD_BASE, MAX_TEAMS, PASS, TARGET_BASE, VARIANTS


def play(game: Any, bots: np.ndarray, seed: int, limit: int) -> tuple[State, int, int | None]:
    """(the final state, the number of moves, the rounds played or None)."""
    gen = np.zeros(mt.SIZE, dtype=np.uint32)
    s = np.zeros(T.SIZE, dtype=T.STATE_DTYPE)
    count = _touring(s, gen, bots, T.config(game), seed, limit)
    return T.to_python_state(game, s, gen, seed), count, None


@njit
def _touring(s: np.ndarray, g: np.ndarray, bots: np.ndarray, cfg: np.ndarray, seed: int, limit: int) -> int:
    T.deal(s, g, cfg, seed)
    mask = np.zeros(PASS + 1, dtype=np.bool_)
    legal = np.zeros(PASS + 1, dtype=np.int64)
    block = MAX_TEAMS * VARIANTS
    count = 0
    while s[T.ENDED] == 0 and count < limit:
        T.legal_mask(s, cfg, mask)
        n = 0
        for card in range(T.C):  # rules.py lists plays card by card, then discards, then pass
            if card in (6, 7, 8, 9):
                start = TARGET_BASE + (card - 6) * block
                for a in range(start, start + block):
                    if mask[a]:
                        legal[n] = a
                        n += 1
            elif mask[card]:
                legal[n] = card
                n += 1
        for a in range(DISCARD_BASE, PASS + 1):
            if mask[a]:
                legal[n] = a
                n += 1
        T.apply(s, g, cfg, legal[mt.below(bots[s[T.TO_ACT]], n)])
        count += 1
    return count

"""All-random Mexican Train games played by the compiled batch engine, for ``simulate``.

Each seat's bot is Python's generator seeded as ``make_bot`` seeds it, compiled
(``core/mt19937.py``), and picks ``choice(legal_actions())`` over the legal moves in the order
the Python rules list them: train by train, each in the hand's order, which the engine keeps for
this (``sim/compiled.py`` calls ``play`` through the game's spec, ``GameSpec.random_games``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tabletrek.core import mt19937 as mt
from tabletrek.core.mt19937 import njit
from tabletrek.core.state import State
from tabletrek.games.mexican_train import batch as M


def play(game: Any, bots: np.ndarray, seed: int, limit: int) -> tuple[State, int, int | None]:
    """(the final state, the number of moves, None: the Python path reports no rounds either)."""
    gen = np.zeros(mt.SIZE, dtype=np.uint32)
    cfg = M.config(game)
    s = np.zeros(cfg[M.K_SIZE], dtype=M.STATE_DTYPE)
    count = _mexican_train(s, gen, bots, cfg, seed, limit, game.num_actions)
    return M.to_python_state(game, s, gen, seed), count, None


@njit
def _mexican_train(
    s: np.ndarray, g: np.ndarray, bots: np.ndarray, cfg: np.ndarray, seed: int, limit: int, actions: int
) -> int:
    M.deal(s, g, cfg, seed)
    mask = np.zeros(actions, dtype=np.bool_)
    legal = np.zeros(actions, dtype=np.int64)
    players = cfg[M.K_P]
    slots = cfg[M.K_SLOTS]
    draw = cfg[M.K_DRAW_ACTION]
    count = 0
    while s[cfg[M.K_ENDED]] == 0 and count < limit:
        M.legal_mask(s, cfg, mask)
        seat = s[cfg[M.K_TO_ACT]]
        hand = cfg[M.K_HAND] + seat * cfg[M.K_NT]
        held = s[cfg[M.K_HAND_N] + seat]
        phase = s[cfg[M.K_PHASE]]
        n = 0
        # rules.py lists plays train by train (own, Mexican, then marked trains by seat), each
        # in the hand's order (after a draw: the drawn tile only), then draw, pass or end.
        for j in range(players + 1):
            if phase == M.FIRST:
                if j > 0:
                    break
                r = seat
            elif j == 0:
                r = seat
            elif j == 1:
                r = players
            else:
                r = j - 2 if j - 2 < seat else j - 1
                if r >= players:
                    break
            if phase == M.DRAWN:
                a = s[cfg[M.K_DRAWN]] * slots + r
                if mask[a]:
                    legal[n] = a
                    n += 1
                continue
            for k in range(held):
                a = s[hand + k] * slots + r
                if mask[a]:
                    legal[n] = a
                    n += 1
        for a in range(draw, draw + 3):
            if mask[a]:
                legal[n] = a
                n += 1
        M.apply(s, g, cfg, legal[mt.below(bots[seat], n)])
        count += 1
    return count

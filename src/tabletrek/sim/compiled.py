"""Random-bot games played by the compiled batch engines, for ``simulate`` (same outcomes).

When every seat of a game is the ``random`` bot, ``play_game`` asks ``play_random`` first. Each
seat's bot is Python's generator seeded as ``make_bot`` seeds it (``derive_seed(seed, "bot",
seat)``), compiled (``core/mt19937.py``), and picks ``choice(legal_actions())`` over the legal
moves in the order the Python rules list them; the engines play the Python rules move for move
(``tests/batch``), so the outcome is the one the Python path gives, ten times faster or more.
Games whose legal moves the engine cannot list in the Python order (Mexican Train: it follows the
hand's order, which the engine does not keep) and runs without numba return None: the Python path
plays them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tabletrek.core import mt19937 as mt
from tabletrek.core.mt19937 import HAVE_NUMBA, njit
from tabletrek.core.rng import derive_seed
from tabletrek.games.double_crossing import batch as D
from tabletrek.games.double_crossing import batch_layout as L
from tabletrek.games.touring import batch as T
from tabletrek.games.touring.rules import DISCARD_BASE, MAX_TEAMS, PASS, TARGET_BASE, VARIANTS

if TYPE_CHECKING:
    from tabletrek.core.game import Game
    from tabletrek.core.state import State
    from tabletrek.sim.runner import GameOutcome

GAMES = ("touring", "double-crossing")


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


def play_random(game: Game, lineup: tuple[str, ...], seed: int, index: int) -> GameOutcome | None:
    """The outcome of an all-random game, or None when the compiled path does not apply."""
    if not HAVE_NUMBA or game.name not in GAMES or any(bot != "random" for bot in lineup):
        return None
    from tabletrek.sim.runner import GameOutcome

    bots = np.zeros((game.players, mt.SIZE), dtype=np.uint32)
    for seat in range(game.players):
        mt.seed(bots[seat], derive_seed(seed, "bot", seat))
    gen = np.zeros(mt.SIZE, dtype=np.uint32)
    rules: Any = game  # the engines take their own game classes; the name says which this is
    state: State
    if game.name == "touring":
        s = np.zeros(T.SIZE, dtype=np.int32)
        count = _touring(s, gen, bots, T.config(rules), seed, 1_000_000)
        state = T.to_python_state(rules, s, gen, seed)
        rounds = None
    else:
        s = np.zeros(L.SIZE, dtype=np.int32)
        count = _double_crossing(s, gen, bots, D.config(rules), seed, 1_000_000)
        state = D.to_python_state(rules, s, gen, seed)
        rounds = int(s[L.ROUNDS])
    result = state.result
    if result is None:
        raise RuntimeError(f"{game.name} game {index} (seed {seed}) did not end in 1,000,000 actions")
    return GameOutcome(
        index=index,
        seed=seed,
        bots=lineup,
        winners=result.winners,
        scores=result.scores,
        returns=result.returns,
        actions=count,
        rounds=rounds,
        reason=result.reason,
    )


@njit
def _double_crossing(
    s: np.ndarray, g: np.ndarray, bots: np.ndarray, cfg: np.ndarray, seed: int, limit: int
) -> int:
    D.deal(s, g, cfg, seed)
    buf = np.zeros(L.NA_MAX, dtype=np.int64)
    count = 0
    while s[L.ENDED] == 0 and count < limit:
        n = D.options(s, cfg, buf)  # in the order decisions.py lists them
        seat = D.to_act(s)
        D.apply(s, g, cfg, buf[mt.below(bots[seat], n)], buf)
        count += 1
    return count

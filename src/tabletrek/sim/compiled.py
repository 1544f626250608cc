"""Random-bot games played by the compiled batch engines, for ``simulate`` (same outcomes).

When every seat of a game is the ``random`` bot, ``play_game`` asks ``play_random`` first. Each
seat's bot is Python's generator seeded as ``make_bot`` seeds it (``derive_seed(seed, "bot",
seat)``), compiled (``core/mt19937.py``), and picks ``choice(legal_actions())`` over the legal
moves in the order the Python rules list them; the engines play the Python rules move for move
(``tests/batch``), so the outcome is the one the Python path gives, ten times faster or more.
Mexican Train lists plays train by train in the hand's order, which its engine keeps for this.
Runs without numba return None: the Python path plays them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tabletrek.core import mt19937 as mt
from tabletrek.core.mt19937 import HAVE_NUMBA, njit
from tabletrek.core.rng import derive_seed
from tabletrek.games.double_crossing import batch as D
from tabletrek.games.double_crossing import batch_layout as L
from tabletrek.games.mexican_train import batch as M
from tabletrek.games.touring import batch as T
from tabletrek.games.touring.rules import DISCARD_BASE, MAX_TEAMS, PASS, TARGET_BASE, VARIANTS

if TYPE_CHECKING:
    from tabletrek.core.game import Game
    from tabletrek.core.state import State
    from tabletrek.sim.runner import GameOutcome

GAMES = ("touring", "double-crossing", "mexican-train")


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
    elif game.name == "mexican-train":
        cfg = M.config(rules)
        s = np.zeros(M.state_size(rules), dtype=np.int32)
        count = _mexican_train(s, gen, bots, cfg, seed, 1_000_000, rules.num_actions)
        state = M.to_python_state(rules, s, gen, seed)
        rounds = None  # as the Python path reports it: the state has no ``rounds`` attribute
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
        # state.py lists plays train by train (own, Mexican, then marked trains by seat), each
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

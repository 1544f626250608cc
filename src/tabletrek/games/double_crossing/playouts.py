"""Double Crossing's compiled paired playouts for the search bot (``SearchSupport.paired``).

The search's default plays out with the ``trader`` bot for ``rollout_depth`` moves and scores the
position there with ``evaluation.evaluate`` (won 1, lost 0, a draw 1/players where the game ends
first). This module plays exactly those playouts on the batch engine's arrays (``batch.py``): the
real position is loaded from the state's JSON form (``_dump``), each world is dealt from its seed as
``state.determinize(seat, random.Random(seed))`` deals it (Python's generator compiled,
``core/mt19937.py``; the world's dice come from its own generator, so every candidate move in one
world meets the same dice), and the trader (``batch_trader.py``) and the evaluation are compiled, with the
same tie-breaks and the same floating-point sums, so a world's playout is the Python playout move
for move (``tests/batch/test_search_playouts.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from tabletrek.core import mt19937 as mt
from tabletrek.core.mt19937 import njit
from tabletrek.games.double_crossing.batch import apply, config, to_act
from tabletrek.games.double_crossing.batch_layout import (
    C_P,
    C_RACK,
    C_SIZE,
    C_TO_WIN,
    CASH,
    DRAW,
    DRAW_N,
    ENDED,
    HANDS,
    NA_MAX,
    POS,
    WINNER,
    from_python,
)
from tabletrek.games.double_crossing.batch_trader import trader_move
from tabletrek.games.double_crossing.batch_turn import count_owned, hand_total, total_cars
from tabletrek.games.double_crossing.content import CARD_TYPES
from tabletrek.games.double_crossing.evaluation import EVAL_WEIGHTS, MONEY_SCALE

if TYPE_CHECKING:
    from tabletrek.core.search import Belief, PlayoutRunner
    from tabletrek.games.double_crossing.game import DoubleCrossing
    from tabletrek.games.double_crossing.state import DoubleCrossingState

WEIGHTS = np.array(EVAL_WEIGHTS, dtype=np.float64)


def pack(state: DoubleCrossingState) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.uint32]]:
    """The state's row and generator in the batch layout, read from its JSON form (``_dump``)."""
    return from_python(state.game, state._dump()), mt.from_random(state.rng)


@njit
def determinize(
    world: np.ndarray, wg: np.ndarray, base: np.ndarray, cfg: np.ndarray, seat: int, g: np.ndarray
) -> None:
    """``DoubleCrossingState.determinize(seat, rng)`` with ``g`` as ``rng``: the other hands and
    the draw pile dealt again from the cards ``seat`` cannot see; ``wg``, the world's own
    generator (its dice), seeded from ``g`` first, as Python does."""
    world[:] = base
    mt.seed(wg, mt.getrandbits63(g))
    players = cfg[C_P]
    pool = np.empty(base[DRAW_N] + 4 * 64, dtype=np.int32)
    n = 0
    for i in range(base[DRAW_N]):
        pool[n] = base[DRAW + i]
        n += 1
    for p in range(players):
        if p != seat:
            for card in range(4):
                for _ in range(base[HANDS + p * 4 + card]):
                    pool[n] = card
                    n += 1
    mt.shuffle(g, pool, 0, n)
    for p in range(players):
        if p != seat:
            held = hand_total(base, p)
            for card in range(4):
                world[HANDS + p * 4 + card] = 0
            for _ in range(held):
                n -= 1
                world[HANDS + p * 4 + pool[n]] += 1
    for i in range(n):
        world[DRAW + i] = pool[i]
    world[DRAW_N] = n


# ----- the trader (``bots.TraderBot``) ----------------------------------------------------------


@njit
def home(s: np.ndarray, cfg: np.ndarray, seat: int) -> float:
    size = cfg[C_SIZE]
    pos = s[POS + seat]
    if pos < 0:
        return 1.0
    return float(((size - pos) % size) / size)


@njit
def evaluate(s: np.ndarray, cfg: np.ndarray, w: np.ndarray, seat: int) -> float:
    """``evaluation.evaluate``: the fitted logistic model's chance for the seat in [-1, 1], its
    features summed in the same order."""
    players = cfg[C_P]
    need = cfg[C_TO_WIN]
    rival = -1
    for o in range(players):
        if o == seat:
            continue
        if rival < 0:
            rival = o
            continue
        a0, b0 = count_owned(s, cfg, o), count_owned(s, cfg, rival)
        a1, b1 = total_cars(s, o), total_cars(s, rival)
        if a0 > b0 or (a0 == b0 and (a1 > b1 or (a1 == b1 and s[CASH + o] > s[CASH + rival]))):
            rival = o
    f = np.empty(14, dtype=np.float64)
    f[0] = 1.0
    for j in range(2):
        p = seat if j == 0 else rival
        held = count_owned(s, cfg, p)
        ready = held >= need
        f[1 + j] = min(held, need) / need
        f[3 + j] = home(s, cfg, p) if ready else 0.0
        f[5 + j] = 1.0 if ready else 0.0
        f[7 + j] = s[CASH + p] / MONEY_SCALE
        f[9 + j] = total_cars(s, p) / cfg[C_RACK]
        # ``len(hands[s]) / 5``: a hand is a list of counts by card type, so its length is the
        # number of card types; kept as the fitted weights read it.
        f[11 + j] = CARD_TYPES / 5
    f[13] = 1.0 if to_act(s) == seat else 0.0
    x = 0.0
    for i in range(14):
        x += w[i] * f[i]
    x = max(-30.0, min(30.0, x))
    return 2.0 / (1.0 + math.exp(-x)) - 1.0


# ----- the playouts -------------------------------------------------------------------------------


@njit
def finish(
    s: np.ndarray,
    g: np.ndarray,
    cfg: np.ndarray,
    w: np.ndarray,
    seat: int,
    depth: int,
    buf: np.ndarray,
    reserve: int,
) -> float:
    """``SearchBot._rollout`` for the seat with the trader playing every seat: to the end (won 1,
    lost 0, 1/players at the round limit), or for ``depth`` moves (-1: no cut), where the
    evaluation scores it (mapped to [0, 1])."""
    steps = 0
    while s[ENDED] == 0:
        if depth >= 0 and steps >= depth:
            return (1.0 + evaluate(s, cfg, w, seat)) / 2
        apply(s, g, cfg, trader_move(s, cfg, buf, reserve), buf)
        steps += 1
    if s[WINNER] < 0:
        return float(1.0 / cfg[C_P])
    return 1.0 if s[WINNER] == seat else 0.0


@njit
def paired_rewards(
    base: np.ndarray,
    cfg: np.ndarray,
    w: np.ndarray,
    seat: int,
    moves: np.ndarray,
    seeds: np.ndarray,
    depth: int,
    reserve: int,
    out: np.ndarray,
) -> None:
    """``out[m, k]``: the seat's reward when it plays ``moves[m]`` in the world dealt from
    ``seeds[k]`` and the trader plays on; every move in one world meets the same dice."""
    world = np.empty_like(base)
    trial = np.empty_like(base)
    g = np.empty(mt.SIZE, dtype=np.uint32)
    wg = np.empty(mt.SIZE, dtype=np.uint32)
    tg = np.empty(mt.SIZE, dtype=np.uint32)
    buf = np.zeros(NA_MAX, dtype=np.int64)
    for k in range(seeds.shape[0]):
        mt.seed(g, seeds[k])
        determinize(world, wg, base, cfg, seat, g)
        for m in range(moves.shape[0]):
            trial[:] = world
            tg[:] = wg
            apply(trial, tg, cfg, moves[m], buf)
            out[m, k] = finish(trial, tg, cfg, w, seat, depth, buf, reserve)


def reserve_of(game: DoubleCrossing) -> int:
    """``TraderBot.reserve``: the cash the trader keeps for the dearest tax."""
    return max([s.amount for s in game.content.spaces] + [0])


def prepare(
    state: DoubleCrossingState,
    seat: int,
    belief: Belief[DoubleCrossingState] | None = None,
    depth: int | None = None,
) -> PlayoutRunner:
    """``SearchSupport.paired`` for Double Crossing: the position packed once, then a runner for
    batches of worlds (``belief`` is unused: worlds are dealt uniformly, as ``determinize``
    does). The runner only reads what it holds, so threads may share it."""
    base, _ = pack(state)
    cfg = config(state.game)
    cut = -1 if depth is None else int(depth)
    reserve = reserve_of(state.game)

    def run(moves: Sequence[int], seeds: Sequence[int]) -> npt.NDArray[np.float64]:
        out = np.zeros((len(moves), len(seeds)), dtype=np.float64)
        paired_rewards(
            base,
            cfg,
            WEIGHTS,
            seat,
            np.asarray(moves, dtype=np.int64),
            np.asarray(seeds, dtype=np.int64),
            cut,
            reserve,
            out,
        )
        return out

    return run

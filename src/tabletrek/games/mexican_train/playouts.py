"""Mexican Train's compiled paired playouts for the search bot (``SearchSupport.paired``).

The search's default plays out with the ``greedy`` bot to the end of the round under way (the
horizon) and scores the match there with ``evaluation.evaluate``, or at the match's end with half
the reward from the margin (``margin=True``). This module plays exactly those playouts on the
batch engine's arrays (``batch.py``): the real position is loaded from the state's JSON form
(``_dump``), each world is dealt from its seed as ``state.determinize(seat, random.Random(seed))``
deals it (Python's generator compiled, ``core/mt19937.py``), and greedy, its horizon, evaluation
and margin are compiled beside it, so a world's playout is the Python playout move for move
(``tests/batch/test_search_playouts.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from tabletrek.core import mt19937 as mt
from tabletrek.core.mt19937 import njit
from tabletrek.games.mexican_train.batch import (
    DRAWN,
    FIRST,
    K_BLANK_POINTS,
    K_BONE,
    K_BONE_N,
    K_BONUS,
    K_DOUBLE_OF,
    K_DRAW_ACTION,
    K_DRAWN,
    K_END,
    K_ENDED,
    K_FIRST,
    K_HAND,
    K_HAND_N,
    K_ISD,
    K_MARK,
    K_NT,
    K_OPEN,
    K_P,
    K_PASSES,
    K_PHASE,
    K_PIPS,
    K_PLACER,
    K_ROUND,
    K_ROUNDS,
    K_RSCORES,
    K_RUN,
    K_SIZE,
    K_SLOTS,
    K_TO_ACT,
    K_TOTALS,
    K_TRAIN,
    K_TRAIN_N,
    STATE_DTYPE,
    apply,
    config,
    legal_mask,
)
from tabletrek.games.mexican_train.evaluation import ROUND_SPREAD

if TYPE_CHECKING:
    from tabletrek.core.search import Belief, PlayoutRunner
    from tabletrek.games.mexican_train.state import MexicanTrainState


def pack(state: MexicanTrainState) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.uint32]]:
    """The state's row and generator in the batch layout, read from its JSON form (``_dump``)."""
    game = state.game
    cfg = config(game)
    data = state._dump()
    s = np.zeros(cfg[K_SIZE], dtype=STATE_DTYPE)
    players, nt = game.players, game.tileset.size

    def put(key: int, values: Sequence[int], start: int = 0) -> None:
        at = int(cfg[key]) + start
        s[at : at + len(values)] = values

    for p, hand in enumerate(data["hands"]):
        put(K_HAND, hand, p * nt)
        s[cfg[K_HAND_N] + p] = len(hand)
    put(K_BONE, data["boneyard"])
    s[cfg[K_BONE_N]] = len(data["boneyard"])
    ts = game.tileset
    engine = game.engine_for_round(int(data["round"]))
    for r, line in enumerate(data["trains"]):
        put(K_TRAIN, line, r * nt)
        s[cfg[K_TRAIN_N] + r] = len(line)
        end = engine
        for tile in line:
            end = ts.other[tile][end]
        s[cfg[K_END] + r] = end
        s[cfg[K_OPEN] + r] = int(bool(line) and ts.is_double[line[-1]])
    put(K_MARK, [int(m) for m in data["markers"]])
    put(K_FIRST, [int(f) for f in data["first_pending"]])
    put(K_TOTALS, data["totals"])
    for r, scores in enumerate(data["round_scores"]):
        put(K_RSCORES, scores, r * players)
    placer = data["engine_placer"]
    for key, value in (
        (K_ROUND, data["round"]),
        (K_PLACER, -1 if placer is None else placer),
        (K_TO_ACT, data["to_act"]),
        (K_PHASE, data["phase"]),
        (K_BONUS, int(data["bonus"])),
        (K_DRAWN, data["drawn"]),
        (K_RUN, data["run"]),
        (K_PASSES, data["passes"]),
        (K_ENDED, int(data["ended"])),
    ):
        s[cfg[key]] = int(value)
    return s, mt.from_random(state.rng)


@njit
def determinize(
    world: np.ndarray, wg: np.ndarray, base: np.ndarray, cfg: np.ndarray, seat: int, g: np.ndarray
) -> None:
    """``MexicanTrainState.determinize(seat, rng)`` with ``g`` as ``rng``: the other hands and the
    boneyard dealt again from the tiles ``seat`` cannot see; ``wg`` is the world's own generator."""
    world[:] = base
    mt.seed(wg, mt.getrandbits63(g))
    players = cfg[K_P]
    nt = cfg[K_NT]
    pool = np.empty(nt, dtype=np.int32)
    n = 0
    for k in range(base[cfg[K_BONE_N]]):
        pool[n] = base[cfg[K_BONE] + k]
        n += 1
    for p in range(players):
        if p != seat:
            for k in range(base[cfg[K_HAND_N] + p]):
                pool[n] = base[cfg[K_HAND] + p * nt + k]
                n += 1
    pool[:n].sort()
    mt.shuffle(g, pool, 0, n)
    for p in range(players):
        if p != seat:
            for k in range(base[cfg[K_HAND_N] + p]):
                n -= 1
                world[cfg[K_HAND] + p * nt + k] = pool[n]
    for k in range(n):
        world[cfg[K_BONE] + k] = pool[k]
    actor = base[cfg[K_TO_ACT]]
    if base[cfg[K_DRAWN]] != -1 and actor != seat:
        world[cfg[K_DRAWN]] = world[cfg[K_HAND] + actor * nt + world[cfg[K_HAND_N] + actor] - 1]


@njit
def greedy_move(s: np.ndarray, cfg: np.ndarray, mask: np.ndarray) -> int:
    """``bots.GreedyBot``'s move: doubles first, then the heaviest tile, its own train breaking
    ties, the first such play in the order the rules list them (own train, the Mexican train, public
    trains by seat; hand order within a train); with no play, the one other legal action."""
    legal_mask(s, cfg, mask)
    seat = s[cfg[K_TO_ACT]]
    players = cfg[K_P]
    slots = cfg[K_SLOTS]
    phase = s[cfg[K_PHASE]]
    hand = cfg[K_HAND] + seat * cfg[K_NT]
    n_tiles = 1 if phase == DRAWN else s[cfg[K_HAND_N] + seat]
    best = -1
    best_double = -1
    best_pips = -1
    best_own = -1
    trains = 1 if phase == FIRST else players + 2
    for i in range(trains):
        # i = 0: own train; 1: the Mexican train; then public trains in seat order.
        r = seat if i == 0 else players if i == 1 else i - 2
        if i >= 2 and (r == seat or s[cfg[K_MARK] + r] == 0):
            continue
        for k in range(n_tiles):
            t = s[cfg[K_DRAWN]] if phase == DRAWN else s[hand + k]
            a = t * slots + r
            if not mask[a]:
                continue
            double = cfg[cfg[K_ISD] + t]
            pips = cfg[cfg[K_PIPS] + t]
            own = 1 if r == seat else 0
            better = double > best_double or (
                double == best_double and (pips > best_pips or (pips == best_pips and own > best_own))
            )
            if better:
                best, best_double, best_pips, best_own = a, double, pips, own
    if best >= 0:
        return best
    draw_action = cfg[K_DRAW_ACTION]
    for a in range(draw_action, draw_action + 3):
        if mask[a]:
            return a
    return -1


@njit
def hand_points(s: np.ndarray, cfg: np.ndarray, seat: int) -> int:
    blank = cfg[cfg[K_DOUBLE_OF]]
    points = 0
    for k in range(s[cfg[K_HAND_N] + seat]):
        t = s[cfg[K_HAND] + seat * cfg[K_NT] + k]
        points += cfg[K_BLANK_POINTS] if t == blank else cfg[cfg[K_PIPS] + t]
    return points


@njit
def evaluate(s: np.ndarray, cfg: np.ndarray, seat: int) -> float:
    """``evaluation.evaluate``: the projected totals against the best rival's, in [-1, 1]."""
    players = cfg[K_P]
    fresh = True
    for p in range(players):
        fresh = fresh and s[cfg[K_FIRST] + p] == 1
    rival = 1e18
    mine = 0.0
    for p in range(players):
        points = float(s[cfg[K_TOTALS] + p] + (0 if fresh else hand_points(s, cfg, p)))
        if p == seat:
            mine = points
        else:
            rival = min(rival, points)
    left = max(0, cfg[K_ROUNDS] - s[cfg[K_ROUND]] - 1)
    return math.tanh((rival - mine) / (ROUND_SPREAD * math.sqrt(left + 1)))


@njit
def final_reward(s: np.ndarray, cfg: np.ndarray, seat: int, margin: bool) -> float:
    """``SearchBot._final_rewards`` for the seat: won 1, lost 0 (lowest total wins); with
    ``margin`` half of it from the totals' spread."""
    players = cfg[K_P]
    low = s[cfg[K_TOTALS]]
    high = low
    for p in range(players):
        low = min(low, s[cfg[K_TOTALS] + p])
        high = max(high, s[cfg[K_TOTALS] + p])
    winners = 0
    for p in range(players):
        winners += 1 if s[cfg[K_TOTALS] + p] == low else 0
    mine = s[cfg[K_TOTALS] + seat]
    won = 1.0 if mine == low else 0.0
    if not margin or high == low or winners == players:
        return won
    return 0.5 * won + 0.5 * float(high - mine) / float(high - low)


@njit
def finish(
    s: np.ndarray, g: np.ndarray, cfg: np.ndarray, seat: int, depth: int, margin: bool, mask: np.ndarray
) -> float:
    """``SearchBot._rollout`` for the seat with greedy playing every seat: to the match's end, or
    until the round changes (the horizon) or ``depth`` moves (-1: no cut) are played, where the
    evaluation scores it (mapped to [0, 1])."""
    start = s[cfg[K_ROUND]]
    steps = 0
    while s[cfg[K_ENDED]] == 0:
        if (depth >= 0 and steps >= depth) or s[cfg[K_ROUND]] != start:
            return (1.0 + evaluate(s, cfg, seat)) / 2
        apply(s, g, cfg, greedy_move(s, cfg, mask))
        steps += 1
    return final_reward(s, cfg, seat, margin)


@njit
def paired_rewards(
    base: np.ndarray,
    cfg: np.ndarray,
    seat: int,
    moves: np.ndarray,
    seeds: np.ndarray,
    depth: int,
    margin: bool,
    out: np.ndarray,
) -> None:
    """``out[m, k]``: the seat's reward when it plays ``moves[m]`` in the world dealt from
    ``seeds[k]`` and greedy plays on; every move in one world on the same generator."""
    world = np.empty_like(base)
    trial = np.empty_like(base)
    g = np.empty(mt.SIZE, dtype=np.uint32)
    wg = np.empty(mt.SIZE, dtype=np.uint32)
    tg = np.empty(mt.SIZE, dtype=np.uint32)
    mask = np.zeros(cfg[K_DRAW_ACTION] + 3, dtype=np.bool_)
    for k in range(seeds.shape[0]):
        mt.seed(g, seeds[k])
        determinize(world, wg, base, cfg, seat, g)
        for m in range(moves.shape[0]):
            trial[:] = world
            tg[:] = wg
            apply(trial, tg, cfg, moves[m])
            out[m, k] = finish(trial, tg, cfg, seat, depth, margin, mask)


def prepare(
    state: MexicanTrainState,
    seat: int,
    belief: Belief[MexicanTrainState] | None = None,
    depth: int | None = None,
    *,
    margin: bool = True,
) -> PlayoutRunner:
    """``SearchSupport.paired`` for Mexican Train: the position packed once, then a runner for
    batches of worlds (``belief`` is unused: worlds are dealt uniformly, as ``determinize``
    does). The runner only reads what it holds, so threads may share it."""
    base, _ = pack(state)
    cfg = config(state.game)
    cut = -1 if depth is None else int(depth)

    def run(moves: Sequence[int], seeds: Sequence[int]) -> npt.NDArray[np.float64]:
        out = np.zeros((len(moves), len(seeds)), dtype=np.float64)
        paired_rewards(
            base,
            cfg,
            seat,
            np.asarray(moves, dtype=np.int64),
            np.asarray(seeds, dtype=np.int64),
            cut,
            margin,
            out,
        )
        return out

    return run

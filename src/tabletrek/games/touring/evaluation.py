"""Compiled Touring's evaluations for cut playouts: the chance to win of an unfinished position.

Why: a cut playout is scored by an evaluation, and the search compares moves by those scores, so
the evaluation's errors become the search's. ``logistic`` is ``rollout.evaluate`` compiled: 15
features of the seat's own side, fitted to single game results. ``value`` is a small network for
two players, and what the search uses there: in a search world every hand and the draw pile are
dealt, and the mileage cards still to come decide the race (each player needs 8 of the deck's 19
ones and 4 of its 10 threes), so it reads both hands, the mileage still needed against the mileage
left in the draw pile, both Go piles and whose turn it is, through one hidden layer. It is fitted
(``python -m benchmarks.touring_value_net``) to ``label_positions``: the mean result of 16
greedy-vs-greedy continuations of a position, its draw pile reshuffled for each, so it learns the
chance to win itself rather than single results. On held-out positions its squared error to that
chance is about a fifth of the logistic model's (``docs/research.md``).
"""

from __future__ import annotations

import math
import os
from importlib import resources
from typing import IO

import numpy as np

from tabletrek.core.data import DataError
from tabletrek.core.mt19937 import njit
from tabletrek.games.touring.cards import (
    CITY,
    COLLISION,
    COUNTRY,
    GASOLINE,
    GO,
    HAULED,
    M1,
    OOG,
    PUNCTURE,
)
from tabletrek.games.touring.kernel import (
    CFG_MAX_TURNS,
    CFG_P,
    CFG_REQ,
    CFG_T,
    DRAW,
    DRAW_N,
    ENDED,
    GO_TOP,
    HANDS,
    MAX_LEGAL,
    TO_ACT,
    TURNS,
    C,
    apply,
    greedy_move,
    is_limited,
    needs_of,
    reward,
    seed,
    shuffle,
)
from tabletrek.games.touring.rollout import EVAL_WEIGHTS

FEATURES = 61
# Go pile tops told apart (-1: empty), and the hand's cards other than mileage.
TOPS = np.array([GO, -1, PUNCTURE, OOG, COLLISION, GASOLINE, HAULED], dtype=np.int64)
OTHER_CARDS = np.array([GO, COUNTRY, CITY, PUNCTURE, OOG, COLLISION, GASOLINE, HAULED], dtype=np.int64)
SCRATCH = FEATURES + 3 * C
# The value network's weights (``value``): features x hidden, hidden, hidden, [bias].
Net = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
# No network: cut playouts are scored by the logistic model.
NO_NET: Net = (np.zeros((FEATURES, 0)), np.zeros(0), np.zeros(0), np.zeros(1))


@njit
def leading_rival(s: np.ndarray, cfg: np.ndarray, team: int) -> tuple[int, int]:
    """The other team that needs the fewest mileage cards, and how many it needs."""
    other = -1
    least = 1 << 30
    for t in range(cfg[CFG_T]):
        if t != team:
            need = 0
            for i in range(4):
                need += needs_of(s, cfg, t, i)
            if need < least:
                other, least = t, need
    return other, least


@njit
def features(s: np.ndarray, cfg: np.ndarray, seat: int, scratch: np.ndarray) -> None:
    """``scratch[:FEATURES]`` := what the network reads, from ``seat``'s side; the rest of
    ``scratch`` holds card counts on the way (the seat's hand, the leading other team's hands,
    the draw pile)."""
    teams = cfg[CFG_T]
    team = seat % teams
    other, _ = leading_rival(s, cfg, team)
    f = scratch
    mine = FEATURES
    theirs = FEATURES + C
    drawn = FEATURES + 2 * C
    for c in range(C):
        f[mine + c] = s[HANDS + seat * C + c]
        f[theirs + c] = 0.0
        f[drawn + c] = 0.0
    for p in range(cfg[CFG_P]):
        if p % teams == other:
            for c in range(C):
                f[theirs + c] += s[HANDS + p * C + c]
    for i in range(s[DRAW_N]):
        f[drawn + s[DRAW + i]] += 1.0
    f[0] = 1.0
    for i in range(4):
        r = max(1, cfg[CFG_REQ + i])
        need_mine = needs_of(s, cfg, team, i)
        need_theirs = needs_of(s, cfg, other, i)
        held_mine = min(f[mine + M1 + i], need_mine)
        held_theirs = min(f[theirs + M1 + i], need_theirs)
        f[1 + i] = need_mine / r
        f[5 + i] = need_theirs / r
        f[9 + i] = held_mine / r
        f[13 + i] = held_theirs / r
        f[17 + i] = f[drawn + M1 + i] / 10.0
        # The draw pile's cards of this value beyond what both sides still lack.
        f[21 + i] = (f[drawn + M1 + i] - (need_mine - held_mine) - (need_theirs - held_theirs)) / r
    for j in range(7):
        f[25 + j] = 1.0 if s[GO_TOP + team] == TOPS[j] else 0.0
        f[32 + j] = 1.0 if s[GO_TOP + other] == TOPS[j] else 0.0
    f[39] = 1.0 if is_limited(s, team) else 0.0
    f[40] = 1.0 if is_limited(s, other) else 0.0
    for j in range(8):
        f[41 + j] = f[mine + OTHER_CARDS[j]] / 2.0
        f[49 + j] = f[theirs + OTHER_CARDS[j]] / 2.0
    f[57] = 1.0 if s[TO_ACT] % teams == team else 0.0
    f[58] = s[DRAW_N] / 100.0
    f[59] = s[TURNS] / max(1, cfg[CFG_MAX_TURNS])
    f[60] = f[drawn + GO] / 10.0


@njit
def value(
    s: np.ndarray,
    cfg: np.ndarray,
    seat: int,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: float,
    scratch: np.ndarray,
) -> float:
    """The seat's chance to win in [0, 1] by the network (``w1``: features x hidden units)."""
    features(s, cfg, seat, scratch)
    z = b2
    for j in range(w1.shape[1]):
        a = b1[j]
        for i in range(FEATURES):
            a += scratch[i] * w1[i, j]
        z += w2[j] * np.tanh(a)
    z = max(-30.0, min(30.0, z))
    return 1.0 / (1.0 + np.exp(-z))


@njit
def cut_value(s: np.ndarray, cfg: np.ndarray, seat: int, net: Net, scratch: np.ndarray) -> float:
    """What a cut playout scores: the network's chance with two players (it was fitted there) when
    ``net`` has one, else the logistic model's."""
    w1, b1, w2, b2 = net
    if w1.shape[1] > 0 and cfg[CFG_P] == 2:
        return value(s, cfg, seat, w1, b1, w2, b2[0], scratch)
    return logistic(s, cfg, seat)


@njit
def label_positions(
    starts: np.ndarray,
    cfg: np.ndarray,
    w: np.ndarray,
    snapshots: int,
    last_turn: int,
    continuations: int,
    rng_seed: int,
    features_out: np.ndarray,
    labels_out: np.ndarray,
    logistic_out: np.ndarray,
) -> int:
    """What the network is fitted to. From each start (a packed full state) greedy plays both
    sides; at ``snapshots`` turns drawn below ``last_turn`` (those the game reaches), for every
    seat: its features, and the mean reward of ``continuations`` greedy playouts to the end, each
    after reshuffling the draw pile (the label is then the chance to win given everything but the
    draw pile's order, which is what a cut playout's evaluation stands in for), and the logistic
    model's value for comparison. Returns the rows written."""
    np.random.seed(rng_seed)
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    s = np.empty_like(starts[0])
    trial = np.empty_like(s)
    scratch = np.empty(SCRATCH, dtype=np.float64)
    row = 0
    for g in range(starts.shape[0]):
        s[:] = starts[g]
        seed(s, np.random.randint(0, 2**31 - 1))
        turns = np.sort(np.random.randint(0, last_turn, snapshots))
        for target in turns:
            while s[ENDED] == 0 and s[TURNS] < target:
                apply(s, cfg, greedy_move(s, cfg, w, legal))
            if s[ENDED] != 0:
                break
            for player in range(cfg[CFG_P]):
                total = 0.0
                for _ in range(continuations):
                    trial[:] = s
                    shuffle(trial, DRAW, trial[DRAW_N])
                    seed(trial, np.random.randint(0, 2**31 - 1))
                    while trial[ENDED] == 0:
                        apply(trial, cfg, greedy_move(trial, cfg, w, legal))
                    total += reward(trial, cfg, player)
                features(s, cfg, player, scratch)
                features_out[row, :] = scratch[:FEATURES]
                labels_out[row] = total / continuations
                logistic_out[row] = logistic(s, cfg, player)
                row += 1
    return row


EVAL = np.array(EVAL_WEIGHTS, dtype=np.float64)


@njit
def logistic(s: np.ndarray, cfg: np.ndarray, seat: int) -> float:
    """``rollout.evaluate`` compiled: the seat's chance to win by the fitted logistic model, in
    [0, 1] (the reward scale) rather than [-1, 1]."""
    team = seat % cfg[CFG_T]
    total = cfg[CFG_REQ] + cfg[CFG_REQ + 1] + cfg[CFG_REQ + 2] + cfg[CFG_REQ + 3]
    other, other_need = leading_rival(s, cfg, team)
    hand = HANDS + seat * C
    mine = 0
    useful = 0
    for i in range(4):
        need = needs_of(s, cfg, team, i)
        mine += need
        useful += min(s[hand + M1 + i], need)
    r3 = max(1, cfg[CFG_REQ + 3])
    r2 = max(1, cfg[CFG_REQ + 2])
    x = (
        EVAL[0]
        + EVAL[1] * mine / total
        + EVAL[2] * other_need / total
        + EVAL[3] * needs_of(s, cfg, team, 3) / r3
        + EVAL[4] * needs_of(s, cfg, other, 3) / r3
        + EVAL[5] * needs_of(s, cfg, team, 2) / r2
        + EVAL[6] * needs_of(s, cfg, other, 2) / r2
        + EVAL[7] * (s[GO_TOP + team] == GO)
        + EVAL[8] * (s[GO_TOP + other] == GO)
        + EVAL[9] * is_limited(s, team)
        + EVAL[10] * is_limited(s, other)
        + EVAL[11] * useful / 5
        + EVAL[12] * (s[hand + GO] > 0)
        + EVAL[13] * (s[hand + PUNCTURE] + s[hand + OOG] + s[hand + COLLISION]) / 3
        + EVAL[14] * (s[TO_ACT] == seat)
    )
    x = max(-30.0, min(30.0, x))
    return 1.0 / (1.0 + np.exp(-x))


_NET: list[Net] = []
SHIPPED = "data/value_net.npz"


def network() -> Net:
    """The shipped network, loaded once. ``TABLETREK_VALUE_NET`` names another weights file, or
    ``none`` for the logistic model (to compare evaluations head to head)."""
    if not _NET:
        path = os.environ.get("TABLETREK_VALUE_NET")
        _NET.append(NO_NET if path == "none" else load(path))
    return _NET[0]


def network_value(s: np.ndarray, cfg: np.ndarray, seat: int) -> float | None:
    """``value`` for a packed state outside compiled code (numpy for the layer), or None where
    the search scores by the logistic model (not two players, or no network)."""
    w1, b1, w2, b2 = network()
    if w1.shape[1] == 0 or cfg[CFG_P] != 2:
        return None
    scratch = np.empty(SCRATCH, dtype=np.float64)
    features(s, cfg, seat, scratch)
    z = float(np.tanh(scratch[:FEATURES] @ w1 + b1) @ w2 + b2[0])
    z = max(-30.0, min(30.0, z))
    return 1.0 / (1.0 + math.exp(-z))


def load(path: str | None = None) -> Net:
    """The fitted weights: the shipped ``data/value_net.npz``, or the file at ``path`` (as
    ``benchmarks/touring_value_net.py --out`` writes it). A malformed file raises ``DataError``
    naming the file and the key."""
    if path is None:
        source = f"tabletrek.games.touring/{SHIPPED}"
        with resources.files("tabletrek.games.touring").joinpath(SHIPPED).open("rb") as fh:
            return _unpack(source, fh)
    with open(path, "rb") as fh:
        return _unpack(path, fh)


def _unpack(source: str, fh: IO[bytes]) -> Net:
    try:
        data = dict(np.load(fh))
    except (OSError, ValueError) as error:
        raise DataError(source, "*", f"not a numpy .npz file ({error})") from None
    arrays = []
    for key in ("W1", "b1", "W2", "b2"):
        if key not in data:
            raise DataError(source, key, "missing")
        arrays.append(np.ascontiguousarray(data[key], dtype=np.float64))
    w1, b1, w2, b2 = arrays
    if w1.ndim != 2 or w1.shape[0] != FEATURES:
        raise DataError(source, "W1", f"must be {FEATURES} features x hidden units, not {w1.shape}")
    hidden = w1.shape[1]
    for key, array, size in (("b1", b1, hidden), ("W2", w2, hidden), ("b2", b2.reshape(-1), 1)):
        if array.shape != (size,):
            raise DataError(source, key, f"must hold {size} numbers, not shape {array.shape}")
    return w1, b1, w2, b2.reshape(1)

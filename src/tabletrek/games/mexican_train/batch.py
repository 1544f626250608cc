"""Mexican Train's rules compiled for batches of games (the vector environment, ``rl/vector.py``).

Env ``i`` seeded ``s`` plays exactly the match ``tabletrek.load("mexican-train", ...)
.new_game(seed=s)`` plays (``state.py`` is the reference): all randomness is Python's generator
compiled (``core/mt19937.py``), the boneyard and trains keep their order, and
``to_python_state`` hands an env back to the Python rules. Hands keep the Python order (dealt,
drawn to the end, removed as ``list.remove`` does): the rules list plays in that order, and the
compiled random games of ``simulate`` pick among them as the Python bot does.

The layout depends on the set and player count, so its offsets live in the config (int64): the
options (set's highest pip, tiles, hand size, first engine, rounds, ``rotate_start``,
``relaxed_doubles``, ``double_blank_points``), the state row's offsets, then the set's tables
(the other end of each tile at each value, pips, doubles, and each value's tiles as two words
of bits). State row (int16, ``STATE_DTYPE``: at
4096 envs the rows outgrow the caches, and bytes moved set the pace), what every step reads first:
seat to act, phase, ended, bonus, drawn tile (-1 none), run, passes, round, engine placer (-1
none), boneyard size; per seat its hand size; per train its length, open end, whether it ends in a
double; markers; first turns pending; totals (82 bytes at four players); then per seat its hand as
a list; each train's tiles; the boneyard (drawn from the end); each round's scores. Every field is
a tile id (below 91), a count, a seat, a flag, -1 or points; ``config`` refuses options whose
totals could pass int16 (``double_blank_points`` in the thousands).

Observation (float32, from the seat to act): own hand as one flag per tile; per train from its own
(own, the next seats', the Mexican train): open end one-hot (high + 1), tiles on it / tiles in the
set, ends in a double, marker (the Mexican train: 0); hand sizes by seat from the seat to act;
boneyard size / tiles; phase one-hot (first turn, play, drawn); bonus; the engine value one-hot;
round / rounds; totals by seat from the seat to act / 100.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from tabletrek.core import batch_driver as driver
from tabletrek.core import mt19937 as mt
from tabletrek.core.batch_primitives import lowest_set
from tabletrek.core.errors import BeyondEngine
from tabletrek.core.mt19937 import njit, njit_inline
from tabletrek.games.mexican_train.batch_observation import obs_layout

if TYPE_CHECKING:
    from tabletrek.games.mexican_train.game import MexicanTrain
    from tabletrek.games.mexican_train.state import MexicanTrainState

FIRST, PLAY, DRAWN = 0, 1, 2

# Config header.
(
    K_P,
    K_SLOTS,
    K_NT,
    K_HIGH,
    K_HAND_SIZE,
    K_FIRST_ENGINE,
    K_ROUNDS,
    K_ROTATE,
    K_RELAXED,
    K_BLANK_POINTS,
    K_HAND,
    K_HAND_N,
    K_BONE,
    K_BONE_N,
    K_TRAIN,
    K_TRAIN_N,
    K_END,
    K_OPEN,
    K_MARK,
    K_FIRST,
    K_TOTALS,
    K_RSCORES,
    K_ROUND,
    K_PLACER,
    K_TO_ACT,
    K_PHASE,
    K_BONUS,
    K_DRAWN,
    K_RUN,
    K_PASSES,
    K_ENDED,
    K_SIZE,
    K_OTHER,
    K_PIPS,
    K_ISD,
    K_DOUBLE_OF,
    K_DRAW_ACTION,
    K_MATCH,
    HEADER,
) = range(39)

STATE_DTYPE = np.int16
"""The rows' type (``rl/vector.py`` allocates them of it): every field is a tile (at most 90), a
count, a seat, a flag, -1, or points, and ``config`` refuses a game whose totals could pass
32,767; half of int32's bytes, which at thousands of envs is what sets the pace."""

OPTIONS = frozenset(
    {"set_size", "engine", "rounds", "rotate_start", "relaxed_doubles", "double_blank_points"}
)
"""The options of ``MexicanTrain`` this engine implements; any other raises rather than diverge."""


def config(game: MexicanTrain) -> npt.NDArray[np.int64]:
    unknown = set(game.options) - OPTIONS
    if unknown:
        raise BeyondEngine(f"the compiled Mexican Train has no option {sorted(unknown)[0]!r} yet")
    ts = game.tileset
    players, nt, slots, high = game.players, ts.size, game.slots, ts.high
    most = game.most_round_points
    if game.num_rounds * most > np.iinfo(STATE_DTYPE).max:
        raise BeyondEngine(
            f"the compiled Mexican Train keeps totals below {np.iinfo(STATE_DTYPE).max + 1:,}: "
            f"double_blank_points={game.double_blank_points} over {game.num_rounds} rounds could pass it"
        )
    layout: dict[int, int] = {}
    at = 0
    # What every step reads (mask, move, observation, seat) first, in a cache line or two; then
    # the lists, of which a step touches one hand and one train's end; the boneyard and the round
    # scores, touched by draws and round ends, last.
    for key, size in (
        (K_TO_ACT, 1),
        (K_PHASE, 1),
        (K_ENDED, 1),
        (K_BONUS, 1),
        (K_DRAWN, 1),
        (K_RUN, 1),
        (K_PASSES, 1),
        (K_ROUND, 1),
        (K_PLACER, 1),
        (K_BONE_N, 1),
        (K_HAND_N, players),
        (K_TRAIN_N, slots),
        (K_END, slots),
        (K_OPEN, slots),
        (K_MARK, players),
        (K_FIRST, players),
        (K_TOTALS, players),
        (K_HAND, players * nt),
        (K_TRAIN, slots * nt),
        (K_BONE, nt),
        (K_RSCORES, game.num_rounds * players),
    ):
        layout[key] = at
        at += size
    tables = HEADER
    other_at, pips_at = tables, tables + nt * (high + 1)
    isd_at = pips_at + nt
    double_at = isd_at + nt
    match_at = double_at + high + 1
    if nt > 2 * 64:
        raise BeyondEngine(f"the compiled Mexican Train holds hands of at most 128 tiles as bits, not {nt}")
    cfg = np.zeros(match_at + 2 * (high + 1), dtype=np.int64)
    cfg[K_P], cfg[K_SLOTS], cfg[K_NT], cfg[K_HIGH] = players, slots, nt, high
    cfg[K_HAND_SIZE], cfg[K_FIRST_ENGINE], cfg[K_ROUNDS] = game.hand_size, game.first_engine, game.num_rounds
    cfg[K_ROTATE] = int(game.rotate_start)
    cfg[K_RELAXED] = int(game.relaxed_doubles)
    cfg[K_BLANK_POINTS] = game.double_blank_points
    for key, offset in layout.items():
        cfg[key] = offset
    cfg[K_SIZE] = at
    cfg[K_OTHER], cfg[K_PIPS], cfg[K_ISD], cfg[K_DOUBLE_OF] = other_at, pips_at, isd_at, double_at
    cfg[K_DRAW_ACTION] = game.draw_action.index
    cfg[K_MATCH] = match_at
    other = np.array(ts.other, dtype=np.int64)  # tile x value
    cfg[other_at:pips_at] = other.reshape(-1)
    cfg[pips_at:isd_at] = ts.pips
    cfg[isd_at:double_at] = ts.is_double
    cfg[double_at:match_at] = ts.double_of
    # Two words of bits a value: the bits of the tiles showing it, summed (distinct bits: their OR).
    shown = (other >= 0).T * np.left_shift(np.uint64(1), (np.arange(nt) % 64).astype(np.uint64))
    words = [shown[:, 64 * w : 64 * (w + 1)].sum(axis=1, dtype=np.uint64) for w in range(2)]
    cfg[match_at:] = np.stack(words, axis=1).reshape(-1).view(np.int64)
    return cfg


def state_size(game: MexicanTrain) -> int:
    return int(config(game)[K_SIZE])


# ----- the rules ----------------------------------------------------------------------------------


@njit
def other_end(cfg: np.ndarray, tile: int, value: int) -> int:
    return cfg[cfg[K_OTHER] + tile * (cfg[K_HIGH] + 1) + value]


@njit_inline
def hand_has(s: np.ndarray, cfg: np.ndarray, seat: int, tile: int) -> int:
    """The position of ``tile`` in ``seat``'s hand list, or -1."""
    base = cfg[K_HAND] + seat * cfg[K_NT]
    for k in range(s[cfg[K_HAND_N] + seat]):
        if s[base + k] == tile:
            return k
    return -1


@njit_inline
def hand_add(s: np.ndarray, cfg: np.ndarray, seat: int, tile: int) -> None:
    n = s[cfg[K_HAND_N] + seat]
    s[cfg[K_HAND] + seat * cfg[K_NT] + n] = tile
    s[cfg[K_HAND_N] + seat] = n + 1


@njit_inline
def hand_remove(s: np.ndarray, cfg: np.ndarray, seat: int, tile: int) -> None:
    """``list.remove``: the tiles after it move up, so the hand keeps the Python order (the order
    the rules list plays in, which ``sim/compiled.py`` draws from)."""
    k = hand_has(s, cfg, seat, tile)
    base = cfg[K_HAND] + seat * cfg[K_NT]
    n = s[cfg[K_HAND_N] + seat] - 1
    for i in range(k, n):
        s[base + i] = s[base + i + 1]
    s[cfg[K_HAND_N] + seat] = n


@njit
def start_round(s: np.ndarray, g: np.ndarray, cfg: np.ndarray, round_index: int) -> None:
    """``rules.start_round``: shuffle, deal, and set the engine (or set it aside)."""
    players = cfg[K_P]
    nt = cfg[K_NT]
    engine = cfg[K_FIRST_ENGINE] - round_index
    engine_tile = cfg[cfg[K_DOUBLE_OF] + engine]
    s[cfg[K_ROUND]] = round_index
    pool = cfg[K_BONE]
    n = 0
    for t in range(nt):
        if cfg[K_ROTATE] == 1 and t == engine_tile:
            continue
        s[pool + n] = t
        n += 1
    mt.shuffle(g, s, pool, n)
    size = cfg[K_HAND_SIZE]
    for p in range(players):
        for k in range(size):
            s[cfg[K_HAND] + p * nt + k] = s[pool + p * size + k]
        s[cfg[K_HAND_N] + p] = size
    dealt = players * size
    for k in range(n - dealt):
        s[pool + k] = s[pool + dealt + k]
    s[cfg[K_BONE_N]] = n - dealt
    for r in range(cfg[K_SLOTS]):
        s[cfg[K_TRAIN_N] + r] = 0
        s[cfg[K_END] + r] = engine
        s[cfg[K_OPEN] + r] = 0
    for p in range(players):
        s[cfg[K_MARK] + p] = 0
        s[cfg[K_FIRST] + p] = 1
    s[cfg[K_PHASE]] = FIRST
    s[cfg[K_BONUS]] = 0
    s[cfg[K_DRAWN]] = -1
    s[cfg[K_RUN]] = 0
    s[cfg[K_PASSES]] = 0
    if cfg[K_ROTATE] == 1:
        s[cfg[K_PLACER]] = -1
        s[cfg[K_TO_ACT]] = round_index % players
        return
    holder = -1
    for p in range(players):
        if hand_has(s, cfg, p, engine_tile) >= 0:
            holder = p
            break
    seat = round_index % players
    while holder == -1:
        # Nobody holds the engine: draw one tile each in turn order until it appears.
        n = s[cfg[K_BONE_N]] - 1
        s[cfg[K_BONE_N]] = n
        tile = s[pool + n]
        hand_add(s, cfg, seat, tile)
        if tile == engine_tile:
            holder = seat
        seat = (seat + 1) % players
    hand_remove(s, cfg, holder, engine_tile)
    s[cfg[K_PLACER]] = holder
    s[cfg[K_TO_ACT]] = (holder + 1) % players


@njit
def deal(s: np.ndarray, g: np.ndarray, cfg: np.ndarray, seed: int) -> None:
    """``MexicanTrain._start(seed)``."""
    s[:] = 0
    mt.seed(g, seed)
    start_round(s, g, cfg, 0)


@njit
def end_round(s: np.ndarray, g: np.ndarray, cfg: np.ndarray) -> None:
    players = cfg[K_P]
    nt = cfg[K_NT]
    blank = cfg[cfg[K_DOUBLE_OF]]
    round_index = s[cfg[K_ROUND]]
    for p in range(players):
        points = 0
        for k in range(s[cfg[K_HAND_N] + p]):
            t = s[cfg[K_HAND] + p * nt + k]
            points += cfg[K_BLANK_POINTS] if t == blank else cfg[cfg[K_PIPS] + t]
        s[cfg[K_RSCORES] + round_index * players + p] = points
        s[cfg[K_TOTALS] + p] += points
    if round_index + 1 < cfg[K_ROUNDS]:
        start_round(s, g, cfg, round_index + 1)
    else:
        s[cfg[K_ENDED]] = 1


@njit_inline
def end_turn(s: np.ndarray, cfg: np.ndarray) -> None:
    seat = s[cfg[K_TO_ACT]]
    if s[cfg[K_PHASE]] == FIRST:
        s[cfg[K_FIRST] + seat] = 0
    nxt = 0 if seat + 1 == cfg[K_P] else seat + 1
    s[cfg[K_TO_ACT]] = nxt
    s[cfg[K_PHASE]] = FIRST if s[cfg[K_FIRST] + nxt] == 1 else PLAY
    s[cfg[K_BONUS]] = 0
    s[cfg[K_DRAWN]] = -1
    s[cfg[K_RUN]] = 0


@njit_inline
def any_open(s: np.ndarray, cfg: np.ndarray) -> bool:
    found = False
    for r in range(cfg[K_SLOTS]):
        found |= s[cfg[K_OPEN] + r] == 1
    return found


Tiles = tuple[np.uint64, np.uint64]


@njit_inline
def hand_bits(s: np.ndarray, cfg: np.ndarray, seat: int) -> Tiles:
    """``seat``'s hand as a set of tiles: tile ``t`` is bit ``t`` of the first word, or bit
    ``t - 64`` of the second."""
    low, high = np.uint64(0), np.uint64(0)
    base = cfg[K_HAND] + seat * cfg[K_NT]
    for k in range(s[cfg[K_HAND_N] + seat]):
        t = s[base + k]
        bit = np.uint64(1) << np.uint64(t & 63)
        if t < 64:
            low |= bit
        else:
            high |= bit
    return low, high


@njit_inline
def mark_train(s: np.ndarray, cfg: np.ndarray, mask: np.ndarray, hand: Tiles, r: int, tiles_from: int) -> int:
    """Sets the plays onto train ``r`` of the tiles of ``hand`` (``hand_bits``; ``tiles_from``
    -1) or of the drawn tile; returns how many."""
    # Offsets read once into locals: the compiler cannot tell that the mask's stores leave the
    # config and state alone, so it would read them again after each one.
    slots = cfg[K_SLOTS]
    end = s[cfg[K_END] + r]
    if tiles_from >= 0:
        if other_end(cfg, tiles_from, end) >= 0:
            mask[tiles_from * slots + r] = True
            return 1
        return 0
    # The hand's tiles that show the train's open end, found by one AND with the set's tiles that
    # show it (``config``) rather than asked tile by tile: a sixth fewer instructions in the mask
    # and about 5% of a step by the clock (docs/notes/vector-benchmarks.md, wave 54).
    shows = cfg[K_MATCH] + 2 * end
    found = 0
    for word in range(2):
        fits = hand[word] & np.uint64(cfg[shows + word])
        while fits:
            mask[(64 * word + lowest_set(fits)) * slots + r] = True
            fits &= fits - np.uint64(1)
            found += 1
    return found


@njit_inline
def legal_mask(s: np.ndarray, cfg: np.ndarray, mask: np.ndarray) -> None:
    """``mask[a]`` = whether action ``a`` is legal (``rules.legal_actions``)."""
    mask[:] = False
    seat = s[cfg[K_TO_ACT]]
    players = cfg[K_P]
    draw_action = cfg[K_DRAW_ACTION]
    phase = s[cfg[K_PHASE]]
    hand = hand_bits(s, cfg, seat)
    if phase == FIRST:
        found = mark_train(s, cfg, mask, hand, seat, -1)
        if s[cfg[K_RUN]] == 0:
            if found == 0:
                mask[draw_action + 1] = True
            return
        last = s[cfg[K_TRAIN] + seat * cfg[K_NT] + s[cfg[K_TRAIN_N] + seat] - 1]
        if cfg[cfg[K_ISD] + last] == 0:
            mask[draw_action + 2] = True
        return
    tiles_from = -1 if phase == PLAY else s[cfg[K_DRAWN]]
    restrict = any_open(s, cfg) and not (s[cfg[K_BONUS]] == 1 and cfg[K_RELAXED] == 1)
    markers, opened = cfg[K_MARK], cfg[K_OPEN]
    found = 0
    for r in range(players + 1):
        if r != seat and r != players and s[markers + r] == 0:  # noqa: PLR1714 - numba
            continue  # not accessible: another player's train without a marker
        if restrict and s[opened + r] == 0:
            continue
        found += mark_train(s, cfg, mask, hand, r, tiles_from)
    if phase == DRAWN:
        mask[draw_action + 1] = True
    elif found == 0:
        mask[draw_action if s[cfg[K_BONE_N]] > 0 else draw_action + 1] = True


@njit_inline
def play(s: np.ndarray, g: np.ndarray, cfg: np.ndarray, tile: int, train: int) -> None:
    seat = s[cfg[K_TO_ACT]]
    nt = cfg[K_NT]
    hand_remove(s, cfg, seat, tile)
    n = s[cfg[K_TRAIN_N] + train]
    s[cfg[K_TRAIN] + train * nt + n] = tile
    s[cfg[K_TRAIN_N] + train] = n + 1
    s[cfg[K_END] + train] = other_end(cfg, tile, s[cfg[K_END] + train])
    double = cfg[cfg[K_ISD] + tile] == 1
    s[cfg[K_OPEN] + train] = 1 if double else 0
    s[cfg[K_PASSES]] = 0
    if train == seat:
        s[cfg[K_MARK] + seat] = 0
    if s[cfg[K_HAND_N] + seat] == 0:
        end_round(s, g, cfg)
        return
    if s[cfg[K_PHASE]] == FIRST:
        s[cfg[K_RUN]] += 1
        end = s[cfg[K_END] + seat]
        base = cfg[K_HAND] + seat * nt
        for k in range(s[cfg[K_HAND_N] + seat]):
            if other_end(cfg, s[base + k], end) >= 0:
                return
        end_turn(s, cfg)
    elif double:
        s[cfg[K_BONUS]] = 1
        s[cfg[K_PHASE]] = PLAY
        s[cfg[K_DRAWN]] = -1
    else:
        end_turn(s, cfg)


@njit_inline
def apply(s: np.ndarray, g: np.ndarray, cfg: np.ndarray, index: int) -> None:
    """``rules.apply``."""
    draw_action = cfg[K_DRAW_ACTION]
    if index < draw_action:
        tile = index // cfg[K_SLOTS]
        play(s, g, cfg, tile, index - tile * cfg[K_SLOTS])
    elif index == draw_action:
        seat = s[cfg[K_TO_ACT]]
        n = s[cfg[K_BONE_N]] - 1
        s[cfg[K_BONE_N]] = n
        tile = s[cfg[K_BONE] + n]
        hand_add(s, cfg, seat, tile)
        s[cfg[K_DRAWN]] = tile
        s[cfg[K_PHASE]] = DRAWN
    elif index == draw_action + 1:
        seat = s[cfg[K_TO_ACT]]
        if s[cfg[K_PHASE]] != FIRST:
            s[cfg[K_MARK] + seat] = 1
        if s[cfg[K_BONE_N]] == 0:
            s[cfg[K_PASSES]] += 1
            if s[cfg[K_PASSES]] >= cfg[K_P]:
                end_round(s, g, cfg)
                return
        end_turn(s, cfg)
    else:
        end_turn(s, cfg)


@njit
def returns(s: np.ndarray, cfg: np.ndarray, out: np.ndarray) -> None:
    """``Result.returns``: +1 for every seat with the lowest total, -1 for the others."""
    players = cfg[K_P]
    best = s[cfg[K_TOTALS]]
    for p in range(players):
        best = min(best, s[cfg[K_TOTALS] + p])
    for p in range(players):
        out[p] = 1.0 if s[cfg[K_TOTALS] + p] == best else -1.0


@njit_inline
def observe(s: np.ndarray, cfg: np.ndarray, out: np.ndarray) -> None:
    """The observation of the seat to act (layout in the module docstring)."""
    # Offsets in locals, as in mark_train: each store to ``out`` would otherwise reload them.
    out[:] = 0.0
    players = cfg[K_P]
    nt = cfg[K_NT]
    high1 = cfg[K_HIGH] + 1
    ends, lengths, opened, markers = cfg[K_END], cfg[K_TRAIN_N], cfg[K_OPEN], cfg[K_MARK]
    hand_sizes, totals = cfg[K_HAND_N], cfg[K_TOTALS]
    seat = s[cfg[K_TO_ACT]]
    round_index = s[cfg[K_ROUND]]
    hand = cfg[K_HAND] + seat * nt
    for k in range(s[hand_sizes + seat]):
        out[s[hand + k]] = 1.0
    block = high1 + 3  # a train: its end one-hot, its length, its open double, its marker
    hand_sizes_at = nt + (players + 1) * block
    totals_at = hand_sizes_at + players + 5 + high1 + 1
    # The seats from the one to act in turn order, counted on rather than taken ``% players``:
    # each ``%`` compiles to a division with numba's sign and zero checks, twelve an
    # observation at four players (docs/notes/vector-benchmarks.md, 2026-12-07).
    r = seat
    for i in range(players):
        at = nt + i * block
        out[at + s[ends + r]] = 1.0
        out[at + high1] = s[lengths + r] / nt
        out[at + high1 + 1] = s[opened + r]
        out[at + high1 + 2] = s[markers + r]
        out[hand_sizes_at + i] = s[hand_sizes + r]
        out[totals_at + i] = s[totals + r] / 100.0
        r = 0 if r + 1 == players else r + 1
    at = nt + players * block  # the Mexican train, which has no marker
    out[at + s[ends + players]] = 1.0
    out[at + high1] = s[lengths + players] / nt
    out[at + high1 + 1] = s[opened + players]
    at = hand_sizes_at + players
    out[at] = s[cfg[K_BONE_N]] / nt
    out[at + 1 + s[cfg[K_PHASE]]] = 1.0
    out[at + 4] = s[cfg[K_BONUS]]
    at += 5
    out[at + cfg[K_FIRST_ENGINE] - round_index] = 1.0
    out[at + high1] = round_index / cfg[K_ROUNDS]


# ----- the driver's view of the rules (``core/batch_driver.py``) ---------------------------------
# (with ``deal``, ``observe`` and ``returns`` above, read under their own names)


@njit_inline
def _apply(s: np.ndarray, g: np.ndarray, cfg: np.ndarray, action: int, scratch: np.ndarray) -> None:
    apply(s, g, cfg, action)


@njit_inline
def _mask(s: np.ndarray, cfg: np.ndarray, mask: np.ndarray, scratch: np.ndarray) -> None:
    legal_mask(s, cfg, mask)


@njit_inline
def _seat(s: np.ndarray, cfg: np.ndarray) -> int:
    return -1 if s[cfg[K_ENDED]] == 1 else int(s[cfg[K_TO_ACT]])


step_batch, reset_batch = driver.bind(globals())


# ----- back to Python -----------------------------------------------------------------------------


def to_python_state(
    game: MexicanTrain, s: npt.NDArray[np.int16], g: npt.NDArray[np.uint32], seed: int
) -> MexicanTrainState:
    """The Python state of one env (hands sorted; no action history)."""
    cfg = config(game)
    players, nt = game.players, game.tileset.size

    def at(key: int) -> int:
        return int(cfg[key])

    def cells(key: int, n: int, start: int = 0) -> list[int]:
        return [int(x) for x in s[at(key) + start : at(key) + start + n]]

    state = game._blank_state()
    state._init_base(game, seed, mt.to_random(g))
    placer = int(s[at(K_PLACER)])
    state._load(
        {
            "round": int(s[at(K_ROUND)]),
            "engine_placer": None if placer == -1 else placer,
            "hands": [cells(K_HAND, int(s[at(K_HAND_N) + p]), p * nt) for p in range(players)],
            "boneyard": cells(K_BONE, int(s[at(K_BONE_N)])),
            "trains": [cells(K_TRAIN, int(s[at(K_TRAIN_N) + r]), r * nt) for r in range(game.slots)],
            "markers": [bool(x) for x in cells(K_MARK, players)],
            "first_pending": [bool(x) for x in cells(K_FIRST, players)],
            "to_act": int(s[at(K_TO_ACT)]),
            "phase": int(s[at(K_PHASE)]),
            "bonus": bool(s[at(K_BONUS)]),
            "drawn": int(s[at(K_DRAWN)]),
            "run": int(s[at(K_RUN)]),
            "passes": int(s[at(K_PASSES)]),
            "totals": cells(K_TOTALS, players),
            "round_scores": [cells(K_RSCORES, players, r * players) for r in range(int(s[at(K_ROUND)]))]
            + ([cells(K_RSCORES, players, int(s[at(K_ROUND)]) * players)] if s[at(K_ENDED)] else []),
            "ended": bool(s[at(K_ENDED)]),
        }
    )
    return state


def canonical(state: MexicanTrainState) -> dict[str, Any]:
    """What must agree between the engines: the state's dump, hands in order, and the generator."""
    dump = state._dump()
    dump["rng"] = state.rng.getstate()
    return dump


# The engine as rl/vector.py uses it (and ``canonical``, which the exactness checks compare).
__all__ = ["canonical", "config", "obs_layout", "reset_batch", "state_size", "step_batch", "to_python_state"]

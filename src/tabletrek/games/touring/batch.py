"""Touring's rules compiled for batches of games (the vector environment, ``rl/vector.py``).

Why a second compiled form beside ``kernel.py``: the search kernel keeps piles and the discard as
counts and reshuffles with its own fast generator, which is right for sampled worlds but plays a
different game than ``new_game(seed)`` after the first reshuffle. Here every pile keeps its order
and all randomness comes from ``core/mt19937.py`` (Python's own generator, compiled), so env ``i``
seeded ``s`` plays exactly the game ``tabletrek.load("touring", ...).new_game(seed=s)`` plays,
move for move, and ``to_python_state`` hands any env back to the Python rules (``rules.py``,
the reference). Hands are counts: their order is no part of the rules (views sort them), so a
state handed back has sorted hands.

State row (bytes, ``STATE_DTYPE``; room for ``P_MAX`` seats and ``T_MAX`` tables; 960 bytes): first
a few cold fields (winning table, -1 none; the piles' lengths), then from byte ``HOT`` what the
mask, the move, the observation and the seat read every step: seat to act, ended, draw-pile
length, turns played (four bytes), the discard pile's counts by card (what the observation shows),
and a block per seat: its hand counts and the table of the same number's Go-pile top, speed-pile
top (-1 for empty) and mileage counts; 55 bytes at two seats. Then the cold rest, touched by a
push, a discard, a draw or a reshuffle: each table's Go pile and speed pile as cards bottom to
top, the discard pile and the draw pile as cards in order (the next card drawn is the last).

Why bytes and this order: at thousands of envs the rows outgrow the caches and a step's time goes
to the cache lines it touches, not its instructions. The int32 row (3,448 bytes) spread one step's
reads over about a dozen lines (each pile's top lay in its own pile, the hands, miles and counts
apart); in the byte row the hot fields share one line (two where the array's start is placed
otherwise; see ``HOT``) (docs/notes/vector-benchmarks.md, 2026-12-02). Every value fits a byte:
cards, seats, tables, counts of at most ``DECK_MAX`` cards; the turn count, which the
``max_turns`` option lets grow past any byte, is kept as the int32 it was, in four bytes.

Config (int64): players, tables, turn limit, ``free_discard``, required mileage (4), goal miles,
``country_first`` (the option: Country may open an empty speed pile before the table holds a Go;
off by default, where Go is the first card of an area — docs/rules/touring.md), the action
layout's table count, the deck counts (12), the table of each seat, the deck's size. Everything
is read off the loaded Python ``Touring`` game, so player counts and decks the rules define are
followed without code here.

Observation (float32, from the seat to act; tables rotated so its own table comes first):
own hand counts (12); per table: Go-pile top one-hot (12 cards + empty), speed top one-hot
(empty, Country, City Limits), mileage counts (4), mileage still required (4); hand sizes by seat
from the seat to act (``P``); draw-pile size / deck size; discard counts (12); turns / turn limit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from tabletrek.core import batch_driver as driver
from tabletrek.core import mt19937 as mt
from tabletrek.core.errors import BeyondEngine
from tabletrek.core.mt19937 import njit, njit_inline
from tabletrek.games.touring.batch_observation import obs_layout
from tabletrek.games.touring.cards import (
    CARD_TYPES,
    CITY,
    COLLISION,
    COUNTRY,
    GASOLINE,
    GO,
    HAULED,
    M1,
    M30,
    OOG,
    PUNCTURE,
)
from tabletrek.games.touring.compiled_rules import (
    TARGETED_ARR,
    collision_choice,
    counts_miles,
    fits_own_table,
    hits,
    miles_lost,
)
from tabletrek.games.touring.rules import (
    DISCARD_BASE,
    MAX_TEAMS,
    PASS,
    TAKE_15S,
    TAKE_30,
    TARGET_BASE,
    VARIANTS,
    hand_kinds,
)

if TYPE_CHECKING:
    from tabletrek.games.touring.game import Touring
    from tabletrek.games.touring.state import TouringState

C = CARD_TYPES
P_MAX = 6
T_MAX = 6
HAND_SIZE = 5
GO_CAP = 64
SP_CAP = 16
DECK_MAX = 127  # the draw pile's length is a byte

STATE_DTYPE = np.int8
"""Every field is a card (0..11, -1 for none), a count of cards (at most the deck, ``DECK_MAX``), a
seat or a table, or a byte of the turn count (``TURNS``): rows of bytes, which ``rl/vector.py``
allocates and ``random_play.py`` follows."""

# Cold scalars, touched by a push, a discard, a game's end or a reshuffle: the winning table and the
# piles' lengths.
WINNER = 0
DISC_N = 1
GO_LEN = 2
SP_LEN = GO_LEN + T_MAX
# Then what the mask, the move, the observation and the seat read every step: at two seats the
# fields in use (up to the second seat's block) take 55 bytes. They start 48 bytes in and rows are
# a whole number of 64-byte lines: numpy's large arrays here start 16 bytes past a line (glibc's
# chunk header), so every row's hot fields then fill one line, not one or two (elsewhere they take
# one or two, as with any offset).
HOT = 48
TO_ACT = HOT
ENDED = HOT + 1
DRAW_N = HOT + 2
TURNS = HOT + 3  # four bytes, the turn count as a little-endian int32 (``turns``/``set_turns``)
DISC_COUNT = TURNS + 4  # the discard pile by card type, for the observation (kept, not recounted)
SEATS = DISC_COUNT + C
# Seat ``k``'s block: its hand counts, then table ``k``'s Go-pile top, speed-pile top (-1 for empty;
# the piles' copies of them lie below) and mileage counts. Tables are numbered below seats
# (``teams <= players``), so table ``k`` shares seat ``k``'s block.
HAND = 0
GO_TOP = C
SP_TOP = C + 1
MILES = C + 2
BLOCK = C + 6
# Cold again: the piles bottom to top (the next card drawn is the draw pile's last).
GO_PILE = SEATS + P_MAX * BLOCK
SP_PILE = GO_PILE + T_MAX * GO_CAP
DISC = SP_PILE + T_MAX * SP_CAP
DRAW = DISC + DECK_MAX
SIZE = -(-(DRAW + DECK_MAX) // 64) * 64


CFG_P, CFG_T, CFG_MAX_TURNS, CFG_FREE, CFG_REQ, CFG_GOAL, CFG_COUNTRY_FIRST, CFG_LAYOUT = (
    0,
    1,
    2,
    3,
    4,
    8,
    9,
    10,
)
CFG_DECK = 11
CFG_TEAM_OF = CFG_DECK + C
CFG_DECK_CARDS = CFG_TEAM_OF + P_MAX  # the deck's size, which the observation divides by
CFG_SIZE = CFG_DECK_CARDS + 1


OPTIONS = frozenset({"free_discard", "max_turns", "country_first"})
"""The options of ``Touring`` this engine implements; any other raises rather than diverge."""


def config(game: Touring) -> npt.NDArray[np.int64]:
    unknown = set(game.options) - OPTIONS
    if unknown:
        raise BeyondEngine(f"the compiled Touring has no option {sorted(unknown)[0]!r} yet")
    if game.players > P_MAX or game.teams > T_MAX:
        raise BeyondEngine(f"the compiled Touring holds at most {P_MAX} seats")
    go_cards = sum(game.deck_counts[c] for c in (GO, PUNCTURE, OOG, COLLISION, GASOLINE, HAULED))
    if go_cards > GO_CAP or game.deck_counts[COUNTRY] + game.deck_counts[CITY] > SP_CAP:
        raise BeyondEngine("the deck has more pile cards than the compiled Touring holds")
    if sum(game.deck_counts) > DECK_MAX:
        raise BeyondEngine(f"the compiled Touring holds decks of at most {DECK_MAX} cards")
    cfg = np.zeros(CFG_SIZE, dtype=np.int64)
    cfg[CFG_P] = game.players
    cfg[CFG_T] = game.teams
    cfg[CFG_MAX_TURNS] = game.max_turns
    cfg[CFG_FREE] = int(game.free_discard)
    cfg[CFG_REQ : CFG_REQ + 4] = game.required
    cfg[CFG_GOAL] = game.goal_miles
    cfg[CFG_COUNTRY_FIRST] = int(game.country_first)
    cfg[CFG_LAYOUT] = MAX_TEAMS
    cfg[CFG_DECK : CFG_DECK + C] = game.deck_counts
    cfg[CFG_TEAM_OF : CFG_TEAM_OF + game.players] = game.team_of
    cfg[CFG_DECK_CARDS] = sum(game.deck_counts)
    return cfg


def state_size(game: Touring) -> int:
    return SIZE


# ----- the rules ----------------------------------------------------------------------------------


@njit
def deal(s: np.ndarray, g: np.ndarray, cfg: np.ndarray, seed: int) -> None:
    """``Touring._start(seed)``: shuffle the deck, five cards each, the first seat draws."""
    s[:] = 0
    for t in range(T_MAX):
        s[SEATS + t * BLOCK + GO_TOP] = -1
        s[SEATS + t * BLOCK + SP_TOP] = -1
    mt.seed(g, seed)
    n = 0
    for card in range(C):
        for _ in range(cfg[CFG_DECK + card]):
            s[DRAW + n] = card
            n += 1
    mt.shuffle(g, s, DRAW, n)
    for p in range(cfg[CFG_P]):
        for _ in range(HAND_SIZE):
            n -= 1
            s[SEATS + p * BLOCK + HAND + s[DRAW + n]] += 1
    s[DRAW_N] = n
    s[WINNER] = -1
    begin_turn(s, g, cfg)


@njit_inline
def go_top(s: np.ndarray, t: int) -> int:
    return s[SEATS + t * BLOCK + GO_TOP]


@njit_inline
def sp_top(s: np.ndarray, t: int) -> int:
    return s[SEATS + t * BLOCK + SP_TOP]


@njit_inline
def turns(s: np.ndarray) -> int:
    return int(
        (np.int64(s[TURNS]) & 0xFF)
        | ((np.int64(s[TURNS + 1]) & 0xFF) << 8)
        | ((np.int64(s[TURNS + 2]) & 0xFF) << 16)
        | (np.int64(s[TURNS + 3]) << 24)
    )


@njit_inline
def set_turns(s: np.ndarray, n: int) -> None:
    # Stores into bytes keep the low eight bits.
    s[TURNS] = n & 0xFF
    s[TURNS + 1] = (n >> 8) & 0xFF
    s[TURNS + 2] = (n >> 16) & 0xFF
    s[TURNS + 3] = (n >> 24) & 0xFF


@njit_inline
def legal_mask(s: np.ndarray, cfg: np.ndarray, mask: np.ndarray) -> None:
    """``mask[a]`` = whether action ``a`` is legal for the seat to act (``TouringState._legal_actions``)."""
    mask[:] = False
    p = s[TO_ACT]
    teams = cfg[CFG_T]
    team = cfg[CFG_TEAM_OF + p]
    hand = SEATS + p * BLOCK + HAND
    held = 0
    for card in range(C):
        held += s[hand + card]
    if held == 0:
        mask[PASS] = True
        return
    gtop = go_top(s, team)
    stop = sp_top(s, team)
    country_first = cfg[CFG_COUNTRY_FIRST] == 1
    own_miles = SEATS + team * BLOCK + MILES
    layout = cfg[CFG_LAYOUT]
    plays = 0
    for card in range(C):
        if s[hand + card] == 0:
            continue
        if card < CITY or card > COLLISION:
            if fits_own_table(card, gtop, stop, country_first) and (
                not (M1 <= card <= M30) or s[own_miles + card - M1] < cfg[CFG_REQ + card - M1]
            ):
                mask[card] = True
                plays += 1
            continue
        slot = 0
        while TARGETED_ARR[slot] != card:
            slot += 1
        for other in range(teams):
            if other == team or not hits(card, go_top(s, other), sp_top(s, other)):
                continue
            base = TARGET_BASE + (slot * layout + other) * VARIANTS
            miles = SEATS + other * BLOCK + MILES
            if card == COLLISION and collision_choice(sp_top(s, other), s[miles + 2], s[miles + 3]):
                mask[base + TAKE_30] = True
                mask[base + TAKE_15S] = True
                plays += 2
            else:
                mask[base] = True
                plays += 1
    if plays > 0 and cfg[CFG_FREE] == 0:
        return
    for card in range(C):
        if s[hand + card] > 0:
            mask[DISCARD_BASE + card] = True


@njit
def reshuffle(s: np.ndarray, g: np.ndarray, cfg: np.ndarray) -> None:
    """The discard pile, then every Go pile's and every speed pile's cards under the top, in
    that order, shuffled into the draw pile (``TouringState._reshuffle``)."""
    n = 0
    for i in range(s[DISC_N]):
        s[DRAW + n] = s[DISC + i]
        n += 1
    s[DISC_N] = 0
    s[DISC_COUNT : DISC_COUNT + C] = 0
    for t in range(cfg[CFG_T]):
        length = s[GO_LEN + t]
        if length > 1:
            base = GO_PILE + t * GO_CAP
            for i in range(length - 1):
                s[DRAW + n] = s[base + i]
                n += 1
            s[base] = s[base + length - 1]
            s[GO_LEN + t] = 1
    for t in range(cfg[CFG_T]):
        length = s[SP_LEN + t]
        if length > 1:
            base = SP_PILE + t * SP_CAP
            for i in range(length - 1):
                s[DRAW + n] = s[base + i]
                n += 1
            s[base] = s[base + length - 1]
            s[SP_LEN + t] = 1
    mt.shuffle(g, s, DRAW, n)
    s[DRAW_N] = n


@njit_inline
def begin_turn(s: np.ndarray, g: np.ndarray, cfg: np.ndarray) -> None:
    if s[DRAW_N] == 0:
        reshuffle(s, g, cfg)
    if s[DRAW_N] == 0:
        return
    s[DRAW_N] -= 1
    s[SEATS + s[TO_ACT] * BLOCK + HAND + s[DRAW + s[DRAW_N]]] += 1


@njit_inline
def discard(s: np.ndarray, card: int) -> None:
    s[DISC + s[DISC_N]] = card
    s[DISC_N] += 1
    s[DISC_COUNT + card] += 1


@njit_inline
def push_go(s: np.ndarray, t: int, card: int) -> None:
    s[GO_PILE + t * GO_CAP + s[GO_LEN + t]] = card
    s[GO_LEN + t] += 1
    s[SEATS + t * BLOCK + GO_TOP] = card


@njit_inline
def push_speed(s: np.ndarray, t: int, card: int) -> None:
    s[SP_PILE + t * SP_CAP + s[SP_LEN + t]] = card
    s[SP_LEN + t] += 1
    s[SEATS + t * BLOCK + SP_TOP] = card


@njit_inline
def lose(s: np.ndarray, victim: int, slot: int) -> None:
    s[SEATS + victim * BLOCK + MILES + slot] -= 1
    discard(s, slot + 1)


@njit_inline
def attack(s: np.ndarray, card: int, victim: int, variant: int) -> None:
    if card == CITY:
        push_speed(s, victim, card)
        return
    push_go(s, victim, card)
    miles = SEATS + victim * BLOCK + MILES
    fifteens, thirties = miles_lost(card, sp_top(s, victim), s[miles + 2], s[miles + 3], variant)
    for _ in range(fifteens):
        lose(s, victim, 2)
    if thirties:
        lose(s, victim, 3)


@njit_inline
def apply(s: np.ndarray, g: np.ndarray, cfg: np.ndarray, index: int) -> None:
    """``TouringState._apply``: play ``index`` for the seat to act; the next seat draws."""
    p = s[TO_ACT]
    team = cfg[CFG_TEAM_OF + p]
    hand = SEATS + p * BLOCK + HAND
    layout = cfg[CFG_LAYOUT]
    if index == PASS:
        pass
    elif index >= DISCARD_BASE:
        card = index - DISCARD_BASE
        s[hand + card] -= 1
        discard(s, card)
    elif index >= TARGET_BASE:
        rest = index - TARGET_BASE
        slot = rest // (layout * VARIANTS)
        rest = rest % (layout * VARIANTS)
        card = TARGETED_ARR[slot]
        s[hand + card] -= 1
        attack(s, card, rest // VARIANTS, rest % VARIANTS)
    else:
        card = index
        s[hand + card] -= 1
        if M1 <= card <= M30:
            if not counts_miles(card, sp_top(s, team)):
                discard(s, card)
            else:
                miles = SEATS + team * BLOCK + MILES
                s[miles + card - M1] += 1
                done = True
                for i in range(4):
                    if s[miles + i] != cfg[CFG_REQ + i]:
                        done = False
                if done:
                    s[WINNER] = team
                    s[ENDED] = 1
        elif card == COUNTRY:
            push_speed(s, team, card)
        else:
            push_go(s, team, card)
    played = turns(s) + 1
    set_turns(s, played)
    if s[ENDED] == 1:
        return
    if played >= cfg[CFG_MAX_TURNS]:
        s[ENDED] = 1
        return
    s[TO_ACT] = (p + 1) % cfg[CFG_P]
    begin_turn(s, g, cfg)


@njit
def returns(s: np.ndarray, cfg: np.ndarray, out: np.ndarray) -> None:
    """``Result.returns``: +1 for the winning table's seats, -1 for the others, 0 each at the
    turn limit."""
    for p in range(cfg[CFG_P]):
        if s[WINNER] == -1:
            out[p] = 0.0
        else:
            out[p] = 1.0 if cfg[CFG_TEAM_OF + p] == s[WINNER] else -1.0


@njit_inline
def observe(s: np.ndarray, cfg: np.ndarray, out: np.ndarray) -> None:
    """The observation of the seat to act (layout in the module docstring)."""
    # The config's values read once into locals: the compiler cannot tell that the stores to
    # ``out`` leave the config alone, so it would read them again after each one.
    out[:] = 0.0
    p = s[TO_ACT]
    players = cfg[CFG_P]
    teams = cfg[CFG_T]
    team = cfg[CFG_TEAM_OF + p]
    r0, r1, r2, r3 = cfg[CFG_REQ], cfg[CFG_REQ + 1], cfg[CFG_REQ + 2], cfg[CFG_REQ + 3]
    deck = cfg[CFG_DECK_CARDS]
    turn_limit = cfg[CFG_MAX_TURNS]
    for card in range(C):
        out[card] = s[SEATS + p * BLOCK + HAND + card]
    at = C
    t = team
    for _ in range(teams):
        out[at + go_top(s, t) + 1] = 1.0
        at += C + 1
        top = sp_top(s, t)
        out[at + (0 if top == -1 else (1 if top == COUNTRY else 2))] = 1.0
        at += 3
        miles = SEATS + t * BLOCK + MILES
        m0, m1, m2, m3 = s[miles], s[miles + 1], s[miles + 2], s[miles + 3]
        out[at], out[at + 1], out[at + 2], out[at + 3] = m0, m1, m2, m3
        out[at + 4], out[at + 5], out[at + 6], out[at + 7] = r0 - m0, r1 - m1, r2 - m2, r3 - m3
        at += 8
        t = t + 1 if t + 1 < teams else 0
    q = p
    for r in range(players):
        held = 0
        for card in range(C):
            held += s[SEATS + q * BLOCK + HAND + card]
        out[at + r] = held
        q = q + 1 if q + 1 < players else 0
    at += players
    out[at] = s[DRAW_N] / deck
    at += 1
    for card in range(C):
        out[at + card] = s[DISC_COUNT + card]
    at += C
    out[at] = turns(s) / turn_limit


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
    return -1 if s[ENDED] == 1 else int(s[TO_ACT])


step_batch, reset_batch = driver.bind(globals())


# ----- back to Python -----------------------------------------------------------------------------


def _pile(row: npt.NDArray[np.int8], start: int, n: int) -> list[int]:
    return [int(c) for c in row[start : start + n]]


def to_python_state(
    game: Touring, s: npt.NDArray[np.int8], g: npt.NDArray[np.uint32], seed: int
) -> TouringState:
    """The Python state of one env (hands sorted; no action history)."""
    state = game._blank_state()
    state._init_base(game, seed, mt.to_random(g))
    state.hands = [
        [card for card in range(C) for _ in range(int(s[SEATS + p * BLOCK + HAND + card]))]
        for p in range(game.players)
    ]
    state.held = [hand_kinds(hand) for hand in state.hands]
    state.draw = _pile(s, DRAW, int(s[DRAW_N]))
    state.discard = _pile(s, DISC, int(s[DISC_N]))
    state.go = [_pile(s, GO_PILE + t * GO_CAP, int(s[GO_LEN + t])) for t in range(game.teams)]
    state.speed = [_pile(s, SP_PILE + t * SP_CAP, int(s[SP_LEN + t])) for t in range(game.teams)]
    miles = [SEATS + t * BLOCK + MILES for t in range(game.teams)]
    state.miles = [[int(x) for x in s[at : at + 4]] for at in miles]
    state.to_act = int(s[TO_ACT])
    state.turns = int.from_bytes(s[TURNS : TURNS + 4].astype(np.uint8).tobytes(), "little", signed=True)
    state.winner = None if s[WINNER] == -1 else int(s[WINNER])
    state.ended = bool(s[ENDED])
    return state


def canonical(state: TouringState) -> dict[str, Any]:
    """What must agree between the engines: the state's dump with hands sorted, and the generator."""
    dump = state._dump()
    dump["hands"] = [sorted(hand) for hand in dump["hands"]]
    dump["rng"] = state.rng.getstate()
    return dump


# The engine as rl/vector.py uses it (and ``canonical``, which the exactness checks compare).
__all__ = ["canonical", "config", "obs_layout", "reset_batch", "state_size", "step_batch", "to_python_state"]

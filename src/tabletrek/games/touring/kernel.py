"""Touring compiled for search: the rules and greedy's playout policy on flat arrays, with numba.

Why: a search only beats greedy when it can tell moves apart that differ by a few points of win
chance, which takes thousands of paired playouts per move (``docs/research.md``); in Python
about 150 fit in 100 ms. This module plays the same game (``rules.py``) with the same policy
(``scoring.py``'s scores, ``Weights()``) on one flat int32 array per state, compiled by numba;
``worlds.py`` deals the search's sampled worlds and runs a move's whole paired comparison in one
call.

It is an optional accelerator (extra ``[search]``): ``available()`` says whether numba is
installed, and the search falls back to its Python playouts when it is not. Tests check that a
state carried through here and through ``rules.py`` stays identical move for move, and that the
policy's scores equal ``scoring.scores``. One module of about 640 lines, on purpose: the state
layout below and every function that reads it (the rules and greedy's scores) change together and
are tested as one; split, the layout's offsets would be shared between two numba modules.

The functions a playout calls for each move and each candidate move (the legal moves, greedy's
scores, the move) are copied into their callers (``njit_inline``): called, each took and dropped a
reference count on every array it was handed, an atomic instruction each, and a playout ran a
third slower for it (``docs/notes/vector-benchmarks.md``, wave 54).

Layout of a state array (room for 6 players and 3 teams; ``P``/``T`` in the config say how many
are used): hands as counts per card type, each team's Go and speed piles as a top card (-1 for
empty) plus counts of the cards under it, mileage counts per team, the discard pile as counts, a
few scalars, the draw pile as cards (the next card drawn is the last), and last the state of the
random generator that reshuffles and breaks greedy's ties. The generator lives in the state so that
a copy of a state plays on with the same random numbers as the original: the search's paired
playouts get common random numbers by copying a world, without reseeding a generator per move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tabletrek.core.mt19937 import HAVE_NUMBA, njit, njit_inline
from tabletrek.games.touring.bots import Weights
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
)

if TYPE_CHECKING:
    from tabletrek.games.touring.state import TouringState

MAX_PLAYERS = 6
DECK_MAX = 128
C = CARD_TYPES
HANDS = 0
GO_TOP = HANDS + MAX_PLAYERS * C
GO_UNDER = GO_TOP + MAX_TEAMS
SP_TOP = GO_UNDER + MAX_TEAMS * C
SP_UNDER = SP_TOP + MAX_TEAMS
MILES_AT = SP_UNDER + MAX_TEAMS * C
DISC = MILES_AT + MAX_TEAMS * 4
TO_ACT = DISC + C
TURNS = TO_ACT + 1
WINNER = TURNS + 1
ENDED = WINNER + 1
DRAW_N = ENDED + 1
DRAW = DRAW_N + 1
RNG = DRAW + DECK_MAX
SIZE = RNG + 1
# Any odd 32-bit number will do (xorshift's state must not be 0); ``seed`` replaces it.
RNG_START = 0x2545F491

# Config array: players, teams, max turns, free discard, required mileage (4), goal miles, whether
# Country may come before Go (option country_first).
CFG_P, CFG_T, CFG_MAX_TURNS, CFG_FREE, CFG_REQ, CFG_GOAL, CFG_COUNTRY_FIRST = 0, 1, 2, 3, 4, 8, 9
CFG_SIZE = 10

MILE_VALUES = np.array([1, 3, 15, 30], dtype=np.int64)
MAX_LEGAL = 64

# Greedy's weights, by name so that the order cannot drift from ``Weights``.
W_NAMES = (
    "mileage",
    "mileage_per_copy",
    "mileage_per_mile",
    "go",
    "remedy",
    "country_with_30",
    "country_without_30",
    "puncture",
    "out_of_gasoline",
    "collision",
    "city_limits",
    "urgency",
    "keep_mileage",
    "keep_mileage_per_need",
    "keep_mileage_copy_penalty",
    "keep_30_waiting",
    "keep_go_stopped",
    "keep_go_moving",
    "keep_go_copy_penalty",
    "keep_remedy_needed",
    "keep_remedy",
    "keep_remedy_copy_penalty",
    "keep_hazard",
    "keep_hazard_copy_penalty",
    "keep_country",
    "keep_denial",
)
(
    W_MILEAGE,
    W_MILEAGE_PER_COPY,
    W_MILEAGE_PER_MILE,
    W_GO,
    W_REMEDY,
    W_COUNTRY_WITH_30,
    W_COUNTRY_WITHOUT_30,
    W_PUNCTURE,
    W_OOG,
    W_COLLISION,
    W_CITY_LIMITS,
    W_URGENCY,
    W_KEEP_MILEAGE,
    W_KEEP_MILEAGE_PER_NEED,
    W_KEEP_MILEAGE_COPY_PENALTY,
    W_KEEP_30_WAITING,
    W_KEEP_GO_STOPPED,
    W_KEEP_GO_MOVING,
    W_KEEP_GO_COPY_PENALTY,
    W_KEEP_REMEDY_NEEDED,
    W_KEEP_REMEDY,
    W_KEEP_REMEDY_COPY_PENALTY,
    W_KEEP_HAZARD,
    W_KEEP_HAZARD_COPY_PENALTY,
    W_KEEP_COUNTRY,
    W_KEEP_DENIAL,
) = range(len(W_NAMES))


def available() -> bool:
    return HAVE_NUMBA


def weights_array(weights: Weights | None = None) -> np.ndarray:
    w = Weights() if weights is None else weights
    return np.array([float(getattr(w, name)) for name in W_NAMES], dtype=np.float64)


# ----- conversion from the Python state ---------------------------------------------------------


def config(state: TouringState) -> np.ndarray:
    game = state.game
    cfg = np.zeros(CFG_SIZE, dtype=np.int64)
    cfg[CFG_P] = game.players
    cfg[CFG_T] = game.teams
    cfg[CFG_MAX_TURNS] = game.max_turns
    cfg[CFG_FREE] = int(game.free_discard)
    cfg[CFG_REQ : CFG_REQ + 4] = game.required
    cfg[CFG_GOAL] = game.goal_miles
    cfg[CFG_COUNTRY_FIRST] = int(game.country_first)
    return cfg


def pack(state: TouringState, seat: int | None = None) -> np.ndarray:
    """The state as an array. With ``seat``, only what that seat knows: the other hands and the
    draw pile are left empty (``unseen`` returns their cards for dealing)."""
    s = np.zeros(SIZE, dtype=np.int32)
    for p, hand in enumerate(state.hands):
        if seat is None or p == seat:
            for card in hand:
                s[HANDS + p * C + card] += 1
    for t in range(state.game.teams):
        for top, under, pile in ((GO_TOP, GO_UNDER, state.go[t]), (SP_TOP, SP_UNDER, state.speed[t])):
            s[top + t] = pile[-1] if pile else -1
            for card in pile[:-1]:
                s[under + t * C + card] += 1
        s[MILES_AT + t * 4 : MILES_AT + t * 4 + 4] = state.miles[t]
    for card in state.discard:
        s[DISC + card] += 1
    s[TO_ACT] = state.to_act
    s[TURNS] = state.turns
    s[WINNER] = -1 if state.winner is None else state.winner
    s[ENDED] = int(state.ended)
    if seat is None:
        s[DRAW_N] = len(state.draw)
        s[DRAW : DRAW + len(state.draw)] = state.draw
    s[RNG] = RNG_START
    return s


def unseen(state: TouringState, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """The cards ``seat`` cannot see (the draw pile and the other hands, sorted so that their order
    says nothing) and every hand's size."""
    cards = sorted(state.draw + [c for p, hand in enumerate(state.hands) if p != seat for c in hand])
    sizes = np.array([len(h) for h in state.hands], dtype=np.int64)
    return np.array(cards, dtype=np.int32), sizes


# ----- the rules ----------------------------------------------------------------------------------


@njit
def team_miles(s: np.ndarray, t: int) -> int:
    base = MILES_AT + t * 4
    return s[base] * 1 + s[base + 1] * 3 + s[base + 2] * 15 + s[base + 3] * 30


@njit
def is_limited(s: np.ndarray, t: int) -> bool:
    return s[SP_TOP + t] != COUNTRY


@njit_inline
def legal_actions(s: np.ndarray, cfg: np.ndarray, out: np.ndarray) -> int:
    """Fills ``out`` with the legal action indices (as ``rules.py`` orders them); returns how many."""
    p = s[TO_ACT]
    teams = cfg[CFG_T]
    team = p % teams
    hand = HANDS + p * C
    n = 0
    held = 0
    for card in range(C):
        held += s[hand + card]
    if held == 0:
        out[0] = PASS
        return 1
    go_top = s[GO_TOP + team]
    sp_top = s[SP_TOP + team]
    country_first = cfg[CFG_COUNTRY_FIRST] == 1
    own_miles = MILES_AT + team * 4
    for card in range(C):
        if s[hand + card] == 0:
            continue
        if card < CITY or card > COLLISION:
            if fits_own_table(card, go_top, sp_top, country_first) and (
                not (M1 <= card <= M30) or s[own_miles + card - M1] < cfg[CFG_REQ + card - M1]
            ):
                out[n] = card
                n += 1
            continue
        slot = 0
        while TARGETED_ARR[slot] != card:
            slot += 1
        for other in range(teams):
            if other == team or not hits(card, s[GO_TOP + other], s[SP_TOP + other]):
                continue
            base = TARGET_BASE + (slot * MAX_TEAMS + other) * VARIANTS
            miles = MILES_AT + other * 4
            if card == COLLISION and collision_choice(s[SP_TOP + other], s[miles + 2], s[miles + 3]):
                out[n] = base + TAKE_30
                out[n + 1] = base + TAKE_15S
                n += 2
            else:
                out[n] = base
                n += 1
    if n > 0 and cfg[CFG_FREE] == 0:
        return n
    for card in range(C):
        if s[hand + card] > 0:
            out[n] = DISCARD_BASE + card
            n += 1
    return n


@njit
def reshuffle(s: np.ndarray, cfg: np.ndarray) -> None:
    """The discard pile and every pile's cards under its top become the draw pile, shuffled."""
    n = 0
    for card in range(C):
        count = s[DISC + card]
        s[DISC + card] = 0
        for t in range(cfg[CFG_T]):
            count += s[GO_UNDER + t * C + card] + s[SP_UNDER + t * C + card]
            s[GO_UNDER + t * C + card] = 0
            s[SP_UNDER + t * C + card] = 0
        for _ in range(count):
            s[DRAW + n] = card
            n += 1
    for i in range(n - 1, 0, -1):
        j = draw_below(s, i + 1)
        s[DRAW + i], s[DRAW + j] = s[DRAW + j], s[DRAW + i]
    s[DRAW_N] = n


@njit
def shuffle(a: np.ndarray, start: int, n: int) -> None:
    """Fisher-Yates over ``a[start:start + n]`` with numba's generator (seeded by the caller)."""
    for i in range(n - 1, 0, -1):
        j = np.random.randint(0, i + 1)
        a[start + i], a[start + j] = a[start + j], a[start + i]


@njit
def seed(s: np.ndarray, value: int) -> None:
    """Starts the state's own generator from ``value`` (its low 31 bits), mixed (murmur3's
    finaliser) so that neighbouring values start unrelated streams. Products wrap in compiled code
    and are masked to 32 bits either way, so both give the same state."""
    x = ((value & 0x7FFFFFFF) * 0x9E3779B1 + RNG_START) & 0xFFFFFFFF
    x ^= x >> 16
    x = (x * 0x85EBCA6B) & 0xFFFFFFFF
    x ^= x >> 13
    x = (x * 0xC2B2AE35) & 0xFFFFFFFF
    x ^= x >> 16
    if x == 0:
        x = RNG_START
    s[RNG] = x - (1 << 32) if x >= (1 << 31) else x


@njit
def draw_below(s: np.ndarray, n: int) -> int:
    """A number in ``[0, n)`` from the state's own generator (xorshift32, its output multiplied
    by a large odd constant so that the high bits, which pick the number, are well mixed)."""
    x = np.int64(s[RNG]) & 0xFFFFFFFF
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    s[RNG] = x - (1 << 32) if x >= (1 << 31) else x
    return int((((x * 0x9E3779B1) & 0xFFFFFFFF) * n) >> 32)


@njit
def begin_turn(s: np.ndarray, cfg: np.ndarray) -> None:
    if s[DRAW_N] == 0:
        reshuffle(s, cfg)
    if s[DRAW_N] == 0:
        return
    s[DRAW_N] -= 1
    card = s[DRAW + s[DRAW_N]]
    s[HANDS + s[TO_ACT] * C + card] += 1


@njit
def push(s: np.ndarray, top: int, under: int, t: int, card: int) -> None:
    old = s[top + t]
    if old != -1:
        s[under + t * C + old] += 1
    s[top + t] = card


@njit
def lose(s: np.ndarray, victim: int, slot: int) -> None:
    s[MILES_AT + victim * 4 + slot] -= 1
    s[DISC + slot + 1] += 1


@njit_inline
def attack(s: np.ndarray, card: int, victim: int, variant: int) -> None:
    if card == CITY:
        push(s, SP_TOP, SP_UNDER, victim, card)
        return
    push(s, GO_TOP, GO_UNDER, victim, card)
    miles = MILES_AT + victim * 4
    fifteens, thirties = miles_lost(card, s[SP_TOP + victim], s[miles + 2], s[miles + 3], variant)
    for _ in range(fifteens):
        lose(s, victim, 2)
    if thirties:
        lose(s, victim, 3)


@njit_inline
def apply(s: np.ndarray, cfg: np.ndarray, index: int) -> None:
    """Plays action ``index`` for the player to act and starts the next turn (draws for it)."""
    p = s[TO_ACT]
    team = p % cfg[CFG_T]
    hand = HANDS + p * C
    if index == PASS:
        pass
    elif index >= DISCARD_BASE:
        card = index - DISCARD_BASE
        s[hand + card] -= 1
        s[DISC + card] += 1
    elif index >= TARGET_BASE:
        rest = index - TARGET_BASE
        slot = rest // (MAX_TEAMS * VARIANTS)
        rest = rest % (MAX_TEAMS * VARIANTS)
        card = TARGETED_ARR[slot]
        s[hand + card] -= 1
        attack(s, card, rest // VARIANTS, rest % VARIANTS)
    else:
        card = index
        s[hand + card] -= 1
        if M1 <= card <= M30:
            if not counts_miles(card, s[SP_TOP + team]):
                s[DISC + card] += 1
            else:
                s[MILES_AT + team * 4 + card - 1] += 1
                done = True
                for i in range(4):
                    if s[MILES_AT + team * 4 + i] != cfg[CFG_REQ + i]:
                        done = False
                if done:
                    s[WINNER] = team
                    s[ENDED] = 1
        elif card == COUNTRY:
            push(s, SP_TOP, SP_UNDER, team, card)
        else:
            push(s, GO_TOP, GO_UNDER, team, card)
    s[TURNS] += 1
    if s[ENDED] == 1:
        return
    if s[TURNS] >= cfg[CFG_MAX_TURNS]:
        s[ENDED] = 1
        return
    s[TO_ACT] = (p + 1) % cfg[CFG_P]
    begin_turn(s, cfg)


# ----- greedy's policy ----------------------------------------------------------------------------


@njit
def needs_of(s: np.ndarray, cfg: np.ndarray, t: int, slot: int) -> int:
    return cfg[CFG_REQ + slot] - s[MILES_AT + t * 4 + slot]


@njit_inline
def keep_value(s: np.ndarray, cfg: np.ndarray, w: np.ndarray, card: int) -> float:
    p = s[TO_ACT]
    team = p % cfg[CFG_T]
    hand = HANDS + p * C
    copies = s[hand + card]
    extra = copies - 1
    go_top = s[GO_TOP + team]
    limited = is_limited(s, team)
    if M1 <= card <= M30:
        slot = card - M1
        need = needs_of(s, cfg, team, slot)
        if need == 0:
            for t in range(cfg[CFG_T]):
                if t != team and needs_of(s, cfg, t, slot) > 0:
                    return w[W_KEEP_DENIAL]
            return -100.0
        if copies > need:
            return -50.0
        value = w[W_KEEP_MILEAGE] + w[W_KEEP_MILEAGE_PER_NEED] * need - w[W_KEEP_MILEAGE_COPY_PENALTY] * extra
        if card == M30 and limited and s[hand + COUNTRY] == 0:
            value -= w[W_KEEP_30_WAITING]
        return value
    if card == GO:
        base = w[W_KEEP_GO_STOPPED] if go_top != GO else w[W_KEEP_GO_MOVING]
        return base - w[W_KEEP_GO_COPY_PENALTY] * extra
    if card in (GASOLINE, HAULED):
        wanted_top = OOG if card == GASOLINE else COLLISION
        needed = w[W_KEEP_REMEDY_NEEDED] if go_top == wanted_top else w[W_KEEP_REMEDY]
        return needed - w[W_KEEP_REMEDY_COPY_PENALTY] * extra
    if card in (PUNCTURE, OOG, COLLISION):
        return w[W_KEEP_HAZARD] - w[W_KEEP_HAZARD_COPY_PENALTY] * extra
    if card == COUNTRY:
        keep = w[W_KEEP_COUNTRY] if needs_of(s, cfg, team, 3) > 0 and limited else 5.0
        return keep - 30.0 * extra
    return 10.0


@njit_inline
def attack_value(
    s: np.ndarray, cfg: np.ndarray, w: np.ndarray, card: int, victim: int, variant: int
) -> float:
    total = team_miles(s, victim)
    urgency = w[W_URGENCY] * float(total) / max(1, cfg[CFG_GOAL])
    m15 = s[MILES_AT + victim * 4 + 2]
    m30 = s[MILES_AT + victim * 4 + 3]
    if card == CITY:
        return (w[W_CITY_LIMITS] if cfg[CFG_REQ + 3] - m30 > 0 else 20.0) + urgency
    fifteens, thirties = miles_lost(card, s[SP_TOP + victim], m15, m30, variant)
    lost = 15 * fifteens + 30 * thirties
    if card == PUNCTURE:
        base = w[W_PUNCTURE]
    elif card == OOG:
        base = w[W_OOG]
    else:
        base = w[W_COLLISION]
    return base + urgency + lost


@njit_inline
def score(s: np.ndarray, cfg: np.ndarray, w: np.ndarray, index: int) -> float:
    """Greedy's score of one legal move (``scoring.scores``)."""
    team = s[TO_ACT] % cfg[CFG_T]
    return scored(
        s, cfg, w, index, HANDS + s[TO_ACT] * C, team, is_limited(s, team), total_need(s, cfg, team)
    )


@njit
def total_need(s: np.ndarray, cfg: np.ndarray, team: int) -> int:
    total = 0
    for i in range(4):
        total += needs_of(s, cfg, team, i)
    return total


@njit_inline
def scored(
    s: np.ndarray,
    cfg: np.ndarray,
    w: np.ndarray,
    index: int,
    hand: int,
    team: int,
    limited: bool,
    need: int,
) -> float:
    """``score`` with what every move of one turn shares worked out once: the hand's offset, the
    team, whether it is limited and how many mileage cards it still needs."""
    if index == PASS:
        return 0.0
    if index >= DISCARD_BASE:
        return -keep_value(s, cfg, w, index - DISCARD_BASE)
    if index >= TARGET_BASE:
        rest = index - TARGET_BASE
        slot = rest // (MAX_TEAMS * VARIANTS)
        rest = rest % (MAX_TEAMS * VARIANTS)
        return attack_value(s, cfg, w, TARGETED_ARR[slot], rest // VARIANTS, rest % VARIANTS)
    if M1 <= index <= M30:
        if index == M30 and limited:
            return -40.0
        if need == 1:
            return 1000.0
        return (
            w[W_MILEAGE]
            + w[W_MILEAGE_PER_COPY] * s[hand + index]
            + w[W_MILEAGE_PER_MILE] * MILE_VALUES[index - M1]
        )
    if index == GO:
        return w[W_GO]
    if index in (GASOLINE, HAULED):
        return w[W_REMEDY]
    if index == COUNTRY:
        if needs_of(s, cfg, team, 3) == 0:
            return -5.0
        return w[W_COUNTRY_WITH_30] if s[hand + M30] > 0 else w[W_COUNTRY_WITHOUT_30]
    return 0.0


@njit_inline
def greedy_move(s: np.ndarray, cfg: np.ndarray, w: np.ndarray, legal: np.ndarray) -> int:
    """Greedy's move, ties broken at random as the greedy bot breaks them."""
    n = legal_actions(s, cfg, legal)
    if n == 1:
        return legal[0]
    team = s[TO_ACT] % cfg[CFG_T]
    hand = HANDS + s[TO_ACT] * C
    limited = is_limited(s, team)
    need = total_need(s, cfg, team)
    best = legal[0]
    best_score = -1e18
    ties = 0
    for i in range(n):
        value = scored(s, cfg, w, legal[i], hand, team, limited, need)
        if value > best_score:
            best, best_score, ties = legal[i], value, 1
        elif value == best_score:
            # Reservoir sampling: each of the tied moves is kept with equal chance, and the
            # random generator is drawn only on a tie.
            ties += 1
            if draw_below(s, ties) == 0:
                best = legal[i]
    return best


@njit
def reward(s: np.ndarray, cfg: np.ndarray, seat: int) -> float:
    """1 for a win, 0 for a loss, 1/players each for a game stopped at the turn limit."""
    if s[WINNER] == -1:
        return 1.0 / cfg[CFG_P]
    return 1.0 if s[WINNER] == seat % cfg[CFG_T] else 0.0


WEIGHTS = weights_array()

"""Double Crossing's rules compiled for batches of games (the vector environment, ``rl/vector.py``).

Env ``i`` seeded ``s`` plays exactly the game ``tabletrek.load("double-crossing", ...)
.new_game(seed=s)`` plays (``flow.py``, ``decisions.py`` and ``spaces.py`` are the reference): the
same task stack, the same order of dice and shuffles from Python's generator compiled
(``core/mt19937.py``), and ``to_python_state`` hands an env back to the Python rules, stack and all.

State row (int32, room for ``P_MAX`` seats, ``SP_MAX`` spaces, ``K_MAX`` contracts): positions,
cash, cars and crew cards per seat; contract owners; the yard; cars lying on each space; the draw
and discard piles in order; bank, depot and the turn's flags; spaces landed on by kind; cards played
by type; the task stack, each task ``TASK`` ints (kind, seat, then its fields: window — target, the
next queued offset; buy_cards — max; drop — space; pay — amount, payee (-1 bank); trade — company,
left; yard — car; roundhouse — own; move — steps, back).

Config (int64): the options, then the content (board, contracts, economy) and the action table,
all read off the loaded game. Flags: ``exact_return``, ``max_rounds``, ``connections_needs_cars``,
``stops_per_turn`` (today's options), and three flags for rules under discussion, off in today's
rules: ``roundhouse_may_decline`` and ``tower_may_decline`` (a "decline" beside the moves) and
``tower_any_space`` (the Control Tower may send a token to any space, itself included).

Observation (float32, from the seat to act; seats rotated so it comes first): own crew cards (4);
per seat: position one-hot (start + spaces), cash / $1M, cars (4), contracts held, cards held;
each contract's owner one-hot (none, then seats from the seat to act); yard (4); depot and bank /
$1M; cars lying per space; the pending task's kind one-hot (16) and its first field / 10; flags
(roll again, turn ends, villain used, engineer used); round / max rounds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from tabletrek.core import mt19937 as mt
from tabletrek.core.mt19937 import njit
from tabletrek.games.double_crossing.content import (
    BOX,
    CAR_TYPES,
    CARD_SLUGS,
    CARD_TYPES,
    CREW,
    ENGINEER,
    KINDS,
    PASSENGER,
    STOP,
    VILLAIN,
)
from tabletrek.games.double_crossing.moves import (
    BUY_CAR,
    BUY_CARDS,
    BUY_N,
    CONNECT,
    DECLINE,
    DISCARD,
    DONE,
    DOUBLE_CROSS,
    DROP,
    END,
    GO,
    MOVE,
    PASS,
    REACT,
    RETURN,
    ROLL,
    SELL_CAR,
    SELL_CONTRACT,
    TRADE,
)
from tabletrek.games.double_crossing.moves import ENGINEER as USE_ENGINEER
from tabletrek.games.double_crossing.moves import VILLAIN as PLAY_VILLAIN

if TYPE_CHECKING:
    from tabletrek.games.double_crossing.rules import DoubleCrossing
    from tabletrek.games.double_crossing.state import DoubleCrossingState

P_MAX, SP_MAX, K_MAX, DECK_MAX, STACK_MAX, TASK = 6, 64, 64, 128, 48, 6
NA_MAX = 1024

TASK_NAMES = (
    "window",
    "preroll",
    "buy_cards",
    "discard",
    "drop",
    "rack",
    "pay",
    "trade",
    "yard",
    "connect",
    "double_cross",
    "roundhouse",
    "tower",
    "return",
    "end",
    "move",
)
(
    T_WINDOW,
    T_PREROLL,
    T_BUY_CARDS,
    T_DISCARD,
    T_DROP,
    T_RACK,
    T_PAY,
    T_TRADE,
    T_YARD,
    T_CONNECT,
    T_DOUBLE_CROSS,
    T_ROUNDHOUSE,
    T_TOWER,
    T_RETURN,
    T_END,
    T_MOVE,
) = range(16)
TASK_FIELDS: dict[int, tuple[str, ...]] = {
    T_BUY_CARDS: ("max",),
    T_DROP: ("space",),
    T_PAY: ("amount", "to"),
    T_TRADE: ("company", "left"),
    T_YARD: ("car",),
}
(
    S_CENTRAL,
    S_CORNER,
    S_TRADE,
    S_YARD,
    S_GOVT,
    S_SHOP,
    S_ROLL_AGAIN,
    S_STOP,
    S_TAXES,
    S_CREW,
    S_DERAIL,
    S_DOUBLE_CROSS,
    S_ROUNDHOUSE,
    S_TOWER,
    S_DEPOT,
    S_CUSTOMER,
    S_CONNECTIONS,
) = range(len(KINDS))
ROLL_CREW = np.array([0, 1, 1, 2], dtype=np.int64)


def _layout(*fields: tuple[str, int]) -> tuple[dict[str, int], int]:
    at, out = 0, {}
    for name, size in fields:
        out[name] = at
        at += size
    return out, at


_ROW, SIZE = _layout(
    ("pos", P_MAX),
    ("cash", P_MAX),
    ("cars", P_MAX * 4),
    ("hands", P_MAX * 4),
    ("owner", K_MAX),
    ("yard", 4),
    ("dropped", SP_MAX * 4),
    ("draw", DECK_MAX),
    ("draw_n", 1),
    ("disc", DECK_MAX),
    ("disc_n", 1),
    ("bank", 1),
    ("depot", 1),
    ("first", 1),
    ("turn_seat", 1),
    ("again", 1),
    ("hard_end", 1),
    ("engineer_ok", 1),
    ("used_villain", 1),
    ("used_engineer", 1),
    ("stops_left", 1),
    ("winner", 1),
    ("ended", 1),
    ("rounds", 1),
    ("turns", 1),
    ("landed", len(KINDS)),
    ("played", 4),
    ("stack_n", 1),
    ("stack", STACK_MAX * TASK),
)
POS, CASH, CARS, HANDS, OWNER, YARD, DROPPED = (
    _ROW[k] for k in ("pos", "cash", "cars", "hands", "owner", "yard", "dropped")
)
DRAW, DRAW_N, DISC, DISC_N, BANK, DEPOT, FIRST, TURN_SEAT = (
    _ROW[k] for k in ("draw", "draw_n", "disc", "disc_n", "bank", "depot", "first", "turn_seat")
)
AGAIN, HARD_END, ENGINEER_OK, USED_VILLAIN, USED_ENGINEER, STOPS_LEFT = (
    _ROW[k] for k in ("again", "hard_end", "engineer_ok", "used_villain", "used_engineer", "stops_left")
)
WINNER, ENDED, ROUNDS, TURNS, LANDED, PLAYED, STACK_N, STACK = (
    _ROW[k] for k in ("winner", "ended", "rounds", "turns", "landed", "played", "stack_n", "stack")
)

_CFG, CFG_SIZE = _layout(
    ("players", 1),
    ("size", 1),
    ("k", 1),
    ("exact", 1),
    ("max_rounds", 1),
    ("needs_cars", 1),
    ("stops", 1),
    ("rh_decline", 1),
    ("tower_decline", 1),
    ("tower_any", 1),
    ("bank_total", 1),
    ("start_money", 1),
    ("depot_refill", 1),
    ("card_price", 1),
    ("corner_fare", 1),
    ("rack", 1),
    ("to_win", 1),
    ("start_cards", 1),
    ("start_cars", 1),
    ("tower_at", 1),
    ("sp_kind", SP_MAX),
    ("sp_company", SP_MAX),
    ("sp_car", SP_MAX),
    ("sp_amount", SP_MAX),
    ("k_company", K_MAX),
    ("k_cars", K_MAX * 4),
    ("k_price", K_MAX),
    ("car_counts", 4),
    ("car_prices", 4),
    ("die_car", 6),
    ("crew", 4),
    ("a_pass", 1),
    ("a_react", 1),
    ("a_roll", 4),
    ("a_villain", P_MAX),
    ("a_buy_cards", 1),
    ("a_buy_n", 7),
    ("a_discard", 4),
    ("a_drop", 4),
    ("a_sell_car", 4),
    ("a_buy_car", 4),
    ("a_sell_k", K_MAX),
    ("a_trade", K_MAX),
    ("a_connect", K_MAX),
    ("a_dx", K_MAX),
    ("a_return", K_MAX),
    ("a_done", 1),
    ("a_decline", 1),
    ("a_go", SP_MAX),
    ("a_move", P_MAX * SP_MAX),
    ("a_engineer", 1),
    ("a_end", 1),
    ("d_kind", NA_MAX),
    ("d_a", NA_MAX),
    ("d_b", NA_MAX),
)
C_P, C_SIZE, C_K, C_EXACT, C_MAX_ROUNDS, C_NEEDS_CARS, C_STOPS = (
    _CFG[k] for k in ("players", "size", "k", "exact", "max_rounds", "needs_cars", "stops")
)
C_RH_DECLINE, C_TOWER_DECLINE, C_TOWER_ANY, C_BANK_TOTAL, C_START_MONEY, C_DEPOT_REFILL = (
    _CFG[k] for k in ("rh_decline", "tower_decline", "tower_any", "bank_total", "start_money", "depot_refill")
)
C_CARD_PRICE, C_CORNER_FARE, C_RACK, C_TO_WIN, C_START_CARDS, C_START_CARS, C_TOWER_AT = (
    _CFG[k] for k in ("card_price", "corner_fare", "rack", "to_win", "start_cards", "start_cars", "tower_at")
)
C_SP_KIND, C_SP_COMPANY, C_SP_CAR, C_SP_AMOUNT, C_K_COMPANY, C_K_CARS, C_K_PRICE = (
    _CFG[k] for k in ("sp_kind", "sp_company", "sp_car", "sp_amount", "k_company", "k_cars", "k_price")
)
C_CAR_COUNTS, C_CAR_PRICES, C_DIE_CAR, C_CREW = (
    _CFG[k] for k in ("car_counts", "car_prices", "die_car", "crew")
)
A_PASS, A_REACT, A_ROLL, A_VILLAIN, A_BUY_CARDS, A_BUY_N, A_DISCARD, A_DROP = (
    _CFG[k]
    for k in ("a_pass", "a_react", "a_roll", "a_villain", "a_buy_cards", "a_buy_n", "a_discard", "a_drop")
)
A_SELL_CAR, A_BUY_CAR, A_SELL_K, A_TRADE, A_CONNECT, A_DX, A_RETURN = (
    _CFG[k] for k in ("a_sell_car", "a_buy_car", "a_sell_k", "a_trade", "a_connect", "a_dx", "a_return")
)
A_DONE, A_DECLINE, A_GO, A_MOVE, A_ENGINEER, A_END, D_KIND, D_A, D_B = (
    _CFG[k] for k in ("a_done", "a_decline", "a_go", "a_move", "a_engineer", "a_end", "d_kind", "d_a", "d_b")
)

OPTIONS = frozenset({"exact_return", "max_rounds", "connections_needs_cars", "stops_per_turn"})
"""The options of ``DoubleCrossing`` this engine implements; any other raises rather than diverge."""


def config(game: DoubleCrossing) -> npt.NDArray[np.int64]:
    unknown = set(game.options) - OPTIONS
    if unknown:
        raise NotImplementedError(f"the compiled Double Crossing has no option {sorted(unknown)[0]!r} yet")
    c = game.content
    if c.size > SP_MAX or len(c.contracts) > K_MAX or sum(c.crew) > DECK_MAX or game.num_actions > NA_MAX:
        raise NotImplementedError("the board, contracts or deck are larger than the compiled game holds")
    cfg = np.zeros(CFG_SIZE, dtype=np.int64)
    cfg[C_P], cfg[C_SIZE], cfg[C_K] = game.players, c.size, len(c.contracts)
    cfg[C_EXACT], cfg[C_MAX_ROUNDS] = int(game.exact_return), game.max_rounds
    cfg[C_NEEDS_CARS], cfg[C_STOPS] = int(game.connections_needs_cars), game.stops_per_turn
    cfg[C_RH_DECLINE] = int(bool(getattr(game, "roundhouse_may_decline", False)))
    cfg[C_TOWER_DECLINE] = int(bool(getattr(game, "tower_may_decline", False)))
    cfg[C_TOWER_ANY] = int(bool(getattr(game, "tower_any_space", False)))
    cfg[C_BANK_TOTAL], cfg[C_START_MONEY], cfg[C_DEPOT_REFILL] = c.bank_total, c.start_money, c.depot_refill
    cfg[C_CARD_PRICE], cfg[C_CORNER_FARE], cfg[C_RACK] = c.card_price, c.corner_fare, c.rack_limit
    cfg[C_TO_WIN], cfg[C_START_CARDS], cfg[C_START_CARS] = c.contracts_to_win, c.start_cards, c.start_cars
    cfg[C_TOWER_AT] = next(i for i, s in enumerate(c.spaces) if s.kind == "control-tower")
    for i, sp in enumerate(c.spaces):
        cfg[C_SP_KIND + i] = KINDS.index(sp.kind)
        cfg[C_SP_COMPANY + i], cfg[C_SP_CAR + i], cfg[C_SP_AMOUNT + i] = sp.company, sp.car, sp.amount
    for contract in c.contracts:
        at = contract.index
        cfg[C_K_COMPANY + at], cfg[C_K_PRICE + at] = contract.company, contract.price
        cfg[C_K_CARS + at * 4 : C_K_CARS + at * 4 + 4] = contract.cars
    cfg[C_CAR_COUNTS : C_CAR_COUNTS + 4] = c.car_counts
    cfg[C_CAR_PRICES : C_CAR_PRICES + 4] = c.car_prices
    cfg[C_DIE_CAR : C_DIE_CAR + 6] = c.die_car
    cfg[C_CREW : C_CREW + 4] = c.crew
    table = {**{key: a.index for key, a in game.table.items()}}
    cfg[A_PASS], cfg[A_REACT] = table[PASS, 0, 0], table[REACT, 0, 0]
    cfg[A_BUY_CARDS], cfg[A_DONE], cfg[A_DECLINE] = (
        table[BUY_CARDS, 0, 0],
        table[DONE, 0, 0],
        table[DECLINE, 0, 0],
    )
    cfg[A_ENGINEER], cfg[A_END] = table[USE_ENGINEER, 0, 0], table[END, 0, 0]
    for v in range(4):
        cfg[A_ROLL + v] = table[ROLL, v, 0]
        cfg[A_DISCARD + v] = table[DISCARD, v, 0]
        cfg[A_DROP + v], cfg[A_SELL_CAR + v], cfg[A_BUY_CAR + v] = (
            table[DROP, v, 0],
            table[SELL_CAR, v, 0],
            table[BUY_CAR, v, 0],
        )
    for seat in range(game.players):
        cfg[A_VILLAIN + seat] = table[PLAY_VILLAIN, seat, 0]
        for space in range(c.size):
            cfg[A_MOVE + seat * SP_MAX + space] = table[MOVE, seat, space]
    for n in range(7):
        cfg[A_BUY_N + n] = table[BUY_N, n, 0]
    for k in range(len(c.contracts)):
        cfg[A_SELL_K + k], cfg[A_TRADE + k], cfg[A_CONNECT + k] = (
            table[SELL_CONTRACT, k, 0],
            table[TRADE, k, 0],
            table[CONNECT, k, 0],
        )
        cfg[A_DX + k], cfg[A_RETURN + k] = table[DOUBLE_CROSS, k, 0], table[RETURN, k, 0]
    for space in range(c.size):
        cfg[A_GO + space] = table[GO, space, 0]
    for index, (kind, a, b) in enumerate(game.decode):
        cfg[D_KIND + index], cfg[D_A + index], cfg[D_B + index] = kind, a, b
    return cfg


def state_size(game: DoubleCrossing) -> int:
    return SIZE


def obs_size(game: DoubleCrossing) -> int:
    c, p = game.content, game.players
    return 4 + p * (c.size + 1 + 1 + 4 + 2) + len(c.contracts) * (p + 1) + 4 + 2 + c.size + 16 + 1 + 4 + 1


# ----- small helpers ------------------------------------------------------------------------------


@njit
def die(g: np.ndarray) -> int:
    return mt.randint(g, 1, 6)


@njit
def push(s: np.ndarray, kind: int, seat: int, f1: int, f2: int) -> None:
    at = STACK + s[STACK_N] * TASK
    s[at] = kind
    s[at + 1] = seat
    s[at + 2] = f1
    s[at + 3] = f2
    s[STACK_N] += 1


@njit
def top(s: np.ndarray) -> int:
    return STACK + (s[STACK_N] - 1) * TASK


@njit
def pop(s: np.ndarray) -> None:
    s[STACK_N] -= 1


@njit
def count_owned(s: np.ndarray, cfg: np.ndarray, seat: int) -> int:
    n = 0
    for k in range(cfg[C_K]):
        if s[OWNER + k] == seat:
            n += 1
    return n


@njit
def total_cars(s: np.ndarray, seat: int) -> int:
    return s[CARS + seat * 4] + s[CARS + seat * 4 + 1] + s[CARS + seat * 4 + 2] + s[CARS + seat * 4 + 3]


@njit
def hand_total(s: np.ndarray, seat: int) -> int:
    return s[HANDS + seat * 4] + s[HANDS + seat * 4 + 1] + s[HANDS + seat * 4 + 2] + s[HANDS + seat * 4 + 3]


@njit
def from_bank(s: np.ndarray, seat: int, amount: int) -> None:
    paid = min(amount, s[BANK])  # an empty bank pays what it has
    s[BANK] -= paid
    s[CASH + seat] += paid


@njit
def to_bank(s: np.ndarray, seat: int, amount: int) -> None:
    s[CASH + seat] -= amount
    s[BANK] += amount


@njit
def duel(g: np.ndarray) -> bool:
    """One die each, ties re-rolled; True when the first wins."""
    while True:
        ra = die(g)
        rb = die(g)
        if ra != rb:
            return ra > rb


@njit
def draw_card(s: np.ndarray, g: np.ndarray, seat: int) -> None:
    if s[DRAW_N] == 0 and s[DISC_N] > 0:
        n = s[DISC_N]
        for i in range(n):
            s[DRAW + i] = s[DISC + i]
        s[DISC_N] = 0
        s[DRAW_N] = n
        mt.shuffle(g, s, DRAW, n)
    if s[DRAW_N] == 0:
        return
    s[DRAW_N] -= 1
    s[HANDS + seat * 4 + s[DRAW + s[DRAW_N]]] += 1


@njit
def play_card(s: np.ndarray, seat: int, card: int, count: int) -> None:
    s[HANDS + seat * 4 + card] -= count
    for _ in range(count):
        s[DISC + s[DISC_N]] = card
        s[DISC_N] += 1
    s[PLAYED + card] += count


@njit
def check_rack(s: np.ndarray, cfg: np.ndarray, seat: int) -> None:
    if total_cars(s, seat) <= cfg[C_RACK]:
        return
    for i in range(s[STACK_N]):
        if s[STACK + i * TASK] == T_RACK and s[STACK + i * TASK + 1] == seat:
            return
    push(s, T_RACK, seat, 0, 0)


@njit
def gain_car(s: np.ndarray, cfg: np.ndarray, seat: int, car: int) -> None:
    if s[YARD + car] == 0:
        return
    s[YARD + car] -= 1
    s[CARS + seat * 4 + car] += 1
    check_rack(s, cfg, seat)


@njit
def sell_car(s: np.ndarray, cfg: np.ndarray, seat: int, car: int) -> None:
    s[CARS + seat * 4 + car] -= 1
    s[YARD + car] += 1
    from_bank(s, seat, cfg[C_CAR_PRICES + car] // 2)


@njit
def end_game(s: np.ndarray, winner: int) -> None:
    s[ENDED] = 1
    s[WINNER] = winner
    s[STACK_N] = 0


@njit
def has_cars(s: np.ndarray, cfg: np.ndarray, seat: int, k: int) -> bool:
    for car in range(4):  # noqa: SIM110 - a loop numba compiles
        if s[CARS + seat * 4 + car] < cfg[C_K_CARS + k * 4 + car]:
            return False
    return True


# ----- the turn ----------------------------------------------------------------------------------


@njit
def begin_turn(s: np.ndarray, cfg: np.ndarray) -> None:
    seat = s[TURN_SEAT]
    s[AGAIN] = 0
    s[HARD_END] = 0
    s[ENGINEER_OK] = 0
    s[USED_VILLAIN] = 0
    s[USED_ENGINEER] = 0
    s[STOPS_LEFT] = cfg[C_STOPS]
    push(s, T_PREROLL, seat, 0, 0)
    n = cfg[C_P]
    if n > 1:
        push(s, T_WINDOW, (seat + 1) % n, seat, 2)


@njit
def next_turn(s: np.ndarray, cfg: np.ndarray) -> None:
    """The stack is empty: roll again, offer the Engineer, or pass the turn on."""
    seat = s[TURN_SEAT]
    if s[AGAIN] == 1 and s[HARD_END] == 0:
        s[AGAIN] = 0
        push(s, T_PREROLL, seat, 0, 0)
        return
    if s[ENGINEER_OK] == 1 and s[HARD_END] == 0 and s[USED_ENGINEER] == 0:
        s[ENGINEER_OK] = 0
        push(s, T_END, seat, 0, 0)
        return
    s[TURN_SEAT] = (seat + 1) % cfg[C_P]
    s[TURNS] += 1
    if s[TURN_SEAT] == s[FIRST]:
        s[ROUNDS] += 1
        if s[ROUNDS] > cfg[C_MAX_ROUNDS]:
            s[ROUNDS] = cfg[C_MAX_ROUNDS]
            end_game(s, -1)
            return
    begin_turn(s, cfg)


@njit
def roll(s: np.ndarray, g: np.ndarray, cfg: np.ndarray, seat: int, variant: int) -> None:
    crew = ROLL_CREW[variant]
    if crew > 0:
        play_card(s, seat, CREW, crew)
    slow = (variant & 1) == 1
    back = 1 if (variant & 2) == 2 else 0
    d1 = die(g)
    d2 = 0 if slow else die(g)
    push(s, T_MOVE, seat, d1 + d2, back)
    if not slow and d1 == d2:
        if d1 == 6:
            gain_car(s, cfg, seat, BOX)
        elif hand_total(s, seat) > 0:
            push(s, T_DISCARD, seat, 0, 0)


@njit
def three_rolls(g: np.ndarray) -> bool:
    for _ in range(3):
        a = die(g)
        b = die(g)
        if a == b:
            return True
    return False


@njit
def resolve(s: np.ndarray, g: np.ndarray, cfg: np.ndarray, seat: int, space: int, own: bool) -> None:
    """``spaces.resolve_space``: the tasks a space makes go under a rack task made here."""
    kind = cfg[C_SP_KIND + space]
    tasks = np.zeros((8, 4), dtype=np.int64)  # kind, seat, f1, f2 in the order they are to run
    nt = 0
    lying = 0
    for car in range(4):
        lying += s[DROPPED + space * 4 + car]
    if lying > 0:
        for car in range(4):
            s[CARS + seat * 4 + car] += s[DROPPED + space * 4 + car]
            s[DROPPED + space * 4 + car] = 0
        check_rack(s, cfg, seat)
    elif kind == S_DERAIL and total_cars(s, seat) > 0:
        tasks[nt, 0], tasks[nt, 1], tasks[nt, 2] = T_DROP, seat, space
        nt += 1
    if kind in (S_CENTRAL, S_CORNER):
        riders = s[CARS + seat * 4 + PASSENGER]
        if riders > 0:
            n = cfg[C_P]
            for i in range(1, n):
                tasks[nt, 0], tasks[nt, 1] = T_PAY, (seat + i) % n
                tasks[nt, 2], tasks[nt, 3] = cfg[C_CORNER_FARE] * riders, seat
                nt += 1
        tasks[nt, 0], tasks[nt, 1], tasks[nt, 2] = T_BUY_CARDS, seat, die(g)
        nt += 1
    elif kind == S_GOVT:
        tasks[nt, 0], tasks[nt, 1], tasks[nt, 2] = T_BUY_CARDS, seat, die(g)
        nt += 1
    elif kind == S_TRADE:
        tasks[nt, 0], tasks[nt, 1], tasks[nt, 2], tasks[nt, 3] = T_TRADE, seat, cfg[C_SP_COMPANY + space], 3
        nt += 1
    elif kind == S_YARD:
        tasks[nt, 0], tasks[nt, 1], tasks[nt, 2] = T_YARD, seat, cfg[C_SP_CAR + space]
        nt += 1
    elif kind == S_SHOP:
        face = die(g)
        gain_car(s, cfg, seat, cfg[C_DIE_CAR + face - 1])
    elif kind == S_ROLL_AGAIN:
        if own:
            s[AGAIN] = 1
    elif kind == S_STOP:
        if own:
            s[HARD_END] = 1
    elif kind == S_TAXES:
        tasks[nt, 0], tasks[nt, 1], tasks[nt, 2], tasks[nt, 3] = T_PAY, seat, cfg[C_SP_AMOUNT + space], -1
        nt += 1
    elif kind == S_CREW:
        draw_card(s, g, seat)
    elif kind == S_DOUBLE_CROSS:
        tasks[nt, 0], tasks[nt, 1] = T_DOUBLE_CROSS, seat
        nt += 1
    elif kind == S_ROUNDHOUSE:
        if three_rolls(g):
            tasks[nt, 0], tasks[nt, 1], tasks[nt, 2] = T_ROUNDHOUSE, seat, 1 if own else 0
            nt += 1
        elif own:
            s[HARD_END] = 1
    elif kind == S_TOWER:
        tasks[nt, 0], tasks[nt, 1] = T_TOWER, seat
        nt += 1
    elif kind == S_DEPOT:
        s[CASH + seat] += s[DEPOT]
        refill = min(cfg[C_DEPOT_REFILL], s[BANK])
        s[BANK] -= refill
        s[DEPOT] = refill
    elif kind == S_CUSTOMER:
        if count_owned(s, cfg, seat) == 0 or three_rolls(g):  # no contract, or the customer calms
            if own:
                s[HARD_END] = 1
        else:
            tasks[nt, 0], tasks[nt, 1] = T_RETURN, seat
            nt += 1
    elif kind == S_CONNECTIONS:
        tasks[nt, 0], tasks[nt, 1] = T_CONNECT, seat
        nt += 1
    rack = s[STACK_N] > 0 and s[top(s)] == T_RACK
    rack_seat = s[top(s) + 1] if rack else 0
    if rack:
        pop(s)
    for i in range(nt - 1, -1, -1):
        push(s, tasks[i, 0], tasks[i, 1], tasks[i, 2], tasks[i, 3])
    if rack:
        push(s, T_RACK, rack_seat, 0, 0)


@njit
def land(s: np.ndarray, g: np.ndarray, cfg: np.ndarray, seat: int, space: int, own: bool) -> None:
    kind = cfg[C_SP_KIND + space]
    s[LANDED + kind] += 1
    if own:
        for o in range(cfg[C_P]):
            if o != seat and s[POS + o] == space:
                s[AGAIN] = 1  # landing on an occupied space gives another turn
                break
        s[ENGINEER_OK] = 0 if kind in (S_STOP, S_DERAIL) else 1
    resolve(s, g, cfg, seat, space, own)


@njit
def move(s: np.ndarray, g: np.ndarray, cfg: np.ndarray, seat: int, steps: int, back: bool) -> None:
    size = cfg[C_SIZE]
    pos = s[POS + seat]
    win = count_owned(s, cfg, seat) >= cfg[C_TO_WIN]
    for i in range(steps):
        pos = 0 if pos < 0 else (pos + (-1 if back else 1)) % size
        if pos == 0 and win and (cfg[C_EXACT] == 0 or i == steps - 1):
            s[POS + seat] = 0
            end_game(s, seat)
            return
    s[POS + seat] = pos
    land(s, g, cfg, seat, pos, True)


@njit
def teleport(s: np.ndarray, g: np.ndarray, cfg: np.ndarray, seat: int, space: int, own: bool) -> None:
    s[POS + seat] = space
    if space == 0 and count_owned(s, cfg, seat) >= cfg[C_TO_WIN]:
        end_game(s, seat)
        return
    land(s, g, cfg, seat, space, own)


# ----- decisions ---------------------------------------------------------------------------------


@njit
def options(s: np.ndarray, cfg: np.ndarray, out: np.ndarray) -> int:
    """The legal actions of the task on top of the stack (``decisions.OPTIONS``); how many."""
    t = top(s)
    kind = s[t]
    seat = s[t + 1]
    n = 0
    if kind == T_WINDOW:
        out[0] = cfg[A_PASS]
        n = 1
        if s[HANDS + seat * 4 + STOP] > 0:
            out[1] = cfg[A_REACT]
            n = 2
    elif kind == T_PREROLL:
        out[0] = cfg[A_ROLL]
        n = 1
        crew = s[HANDS + seat * 4 + CREW]
        if crew > 0:
            out[1] = cfg[A_ROLL + 1]
            out[2] = cfg[A_ROLL + 2]
            n = 3
        if crew >= 2:
            out[n] = cfg[A_ROLL + 3]
            n += 1
        if s[HANDS + seat * 4 + VILLAIN] > 0 and s[USED_VILLAIN] == 0:
            for other in range(cfg[C_P]):
                if other != seat and s[POS + other] >= 0 and total_cars(s, other) > 0:
                    out[n] = cfg[A_VILLAIN + other]
                    n += 1
        if s[CASH + seat] >= cfg[C_CARD_PRICE] and s[DRAW_N] + s[DISC_N] > 0:
            out[n] = cfg[A_BUY_CARDS]
            n += 1
    elif kind == T_BUY_CARDS:
        most = min(s[t + 2], s[CASH + seat] // cfg[C_CARD_PRICE], s[DRAW_N] + s[DISC_N])
        for i in range(most + 1):
            out[n] = cfg[A_BUY_N + i]
            n += 1
    elif kind == T_DISCARD:
        for c in range(4):
            if s[HANDS + seat * 4 + c] > 0:
                out[n] = cfg[A_DISCARD + c]
                n += 1
    elif kind in (T_DROP, T_RACK, T_PAY):
        base = A_DROP if kind == T_DROP else A_SELL_CAR
        for car in range(4):
            if s[CARS + seat * 4 + car] > 0:
                out[n] = cfg[base + car]
                n += 1
        if kind == T_PAY:
            for k in range(cfg[C_K]):
                if s[OWNER + k] == seat:
                    out[n] = cfg[A_SELL_K + k]
                    n += 1
    elif kind == T_TRADE:
        for k in range(cfg[C_K]):
            if (
                cfg[C_K_COMPANY + k] == s[t + 2]
                and s[OWNER + k] < 0
                and s[CASH + seat] >= cfg[C_K_PRICE + k]
                and has_cars(s, cfg, seat, k)
            ):
                out[n] = cfg[A_TRADE + k]
                n += 1
        if n > 0:
            out[n] = cfg[A_DONE]
            n += 1
    elif kind == T_YARD:
        car = s[t + 2]
        if s[YARD + car] > 0 and s[CASH + seat] >= cfg[C_CAR_PRICES + car]:
            out[0] = cfg[A_BUY_CAR + car]
            out[1] = cfg[A_DECLINE]
            n = 2
    elif kind == T_CONNECT:
        for k in range(cfg[C_K]):
            if (
                s[OWNER + k] < 0
                and s[CASH + seat] >= cfg[C_K_PRICE + k] // 2
                and (cfg[C_NEEDS_CARS] == 0 or has_cars(s, cfg, seat, k))
            ):
                out[n] = cfg[A_CONNECT + k]
                n += 1
        if n > 0:
            out[n] = cfg[A_DECLINE]
            n += 1
    elif kind == T_DOUBLE_CROSS:
        for k in range(cfg[C_K]):
            if s[OWNER + k] >= 0 and s[OWNER + k] != seat:
                out[n] = cfg[A_DX + k]
                n += 1
        if n > 0:
            out[n] = cfg[A_DECLINE]
            n += 1
    elif kind == T_ROUNDHOUSE:
        for space in range(cfg[C_SIZE]):
            out[n] = cfg[A_GO + space]
            n += 1
        if cfg[C_RH_DECLINE] == 1:
            out[n] = cfg[A_DECLINE]
            n += 1
    elif kind == T_TOWER:
        for other in range(cfg[C_P]):
            if other == seat:
                continue
            for space in range(cfg[C_SIZE]):
                if space != cfg[C_TOWER_AT] or cfg[C_TOWER_ANY] == 1:
                    out[n] = cfg[A_MOVE + other * SP_MAX + space]
                    n += 1
        if cfg[C_TOWER_DECLINE] == 1:
            out[n] = cfg[A_DECLINE]
            n += 1
    elif kind == T_RETURN:
        for k in range(cfg[C_K]):
            if s[OWNER + k] == seat:
                out[n] = cfg[A_RETURN + k]
                n += 1
    elif kind == T_END:
        if s[HANDS + seat * 4 + ENGINEER] > 0:
            out[n] = cfg[A_ENGINEER]
            n += 1
        out[n] = cfg[A_END]
        n += 1
    return n


@njit
def take_contract(s: np.ndarray, cfg: np.ndarray, seat: int, k: int, price: int, with_cars: bool) -> None:
    to_bank(s, seat, price)
    if with_cars:
        for car in range(4):
            need = cfg[C_K_CARS + k * 4 + car]
            s[CARS + seat * 4 + car] -= need
            s[YARD + car] += need
    s[OWNER + k] = seat


@njit
def decide(s: np.ndarray, g: np.ndarray, cfg: np.ndarray, index: int) -> None:
    """``decisions.DECIDE`` of the task on top of the stack."""
    t = top(s)
    task = s[t]
    seat = s[t + 1]
    kind = cfg[D_KIND + index]
    a = cfg[D_A + index]
    b = cfg[D_B + index]
    if task == T_WINDOW:
        target = s[t + 2]
        if kind == REACT:
            play_card(s, seat, STOP, 1)
            if duel(g):
                s[STACK_N] = 0  # the window and the target's turn: the target loses this turn
                s[HARD_END] = 1
                return
            s[STOPS_LEFT] -= 1
        n = cfg[C_P]
        if s[STOPS_LEFT] > 0 and s[t + 3] < n:
            s[t + 1] = (target + s[t + 3]) % n
            s[t + 3] += 1
        else:
            pop(s)
    elif task == T_PREROLL:
        if kind == ROLL:
            pop(s)
            s[ENGINEER_OK] = 0
            roll(s, g, cfg, seat, a)
        elif kind == PLAY_VILLAIN:
            play_card(s, seat, VILLAIN, 1)
            s[USED_VILLAIN] = 1
            push(s, T_DROP, a, s[POS + a], 0)
        else:
            pop(s)
            s[ENGINEER_OK] = 0
            push(s, T_BUY_CARDS, seat, die(g), 0)
    elif task == T_BUY_CARDS:
        pop(s)
        to_bank(s, seat, a * cfg[C_CARD_PRICE])
        for _ in range(a):
            draw_card(s, g, seat)
    elif task == T_DISCARD:
        pop(s)
        s[HANDS + seat * 4 + a] -= 1
        s[DISC + s[DISC_N]] = a
        s[DISC_N] += 1
    elif task == T_DROP:
        space = s[t + 2]
        pop(s)
        s[CARS + seat * 4 + a] -= 1
        s[DROPPED + space * 4 + a] += 1
    elif task == T_RACK:
        sell_car(s, cfg, seat, a)
        if total_cars(s, seat) <= cfg[C_RACK]:
            pop(s)
    elif task == T_PAY:
        if kind == SELL_CAR:
            sell_car(s, cfg, seat, a)
        else:
            s[OWNER + a] = -1
            from_bank(s, seat, cfg[C_K_PRICE + a] // 2)
    elif task == T_TRADE:
        if kind == DONE:
            pop(s)
            return
        take_contract(s, cfg, seat, a, cfg[C_K_PRICE + a], True)
        s[t + 3] -= 1
        if s[t + 3] <= 0:
            pop(s)
    elif task == T_YARD:
        pop(s)
        if kind == BUY_CAR:
            to_bank(s, seat, cfg[C_CAR_PRICES + a])
            gain_car(s, cfg, seat, a)
    elif task == T_CONNECT:
        pop(s)
        if kind == CONNECT:
            take_contract(s, cfg, seat, a, cfg[C_K_PRICE + a] // 2, cfg[C_NEEDS_CARS] == 1)
    elif task == T_DOUBLE_CROSS:
        pop(s)
        if kind == DECLINE:
            return
        if duel(g):
            s[OWNER + a] = seat
    elif task == T_ROUNDHOUSE:
        own = s[t + 2] == 1
        pop(s)
        if kind != DECLINE:
            teleport(s, g, cfg, seat, a, own)
    elif task == T_TOWER:
        pop(s)
        if kind != DECLINE:
            teleport(s, g, cfg, a, b, False)
    elif task == T_RETURN:
        pop(s)
        s[OWNER + a] = -1
    elif task == T_END:
        pop(s)
        if kind == USE_ENGINEER:
            play_card(s, seat, ENGINEER, 1)
            s[USED_ENGINEER] = 1
            s[AGAIN] = 1


@njit
def auto_pay(s: np.ndarray, cfg: np.ndarray) -> bool:
    t = top(s)
    seat, amount, to = s[t + 1], s[t + 2], s[t + 3]
    if s[CASH + seat] < amount and (total_cars(s, seat) > 0 or count_owned(s, cfg, seat) > 0):
        return False  # short of cash: the payer must sell something (a decision)
    paid = min(amount, s[CASH + seat])
    s[CASH + seat] -= paid
    if to < 0:
        s[BANK] += paid
    else:
        s[CASH + to] += paid
    pop(s)
    return True


@njit
def run(s: np.ndarray, g: np.ndarray, cfg: np.ndarray, buf: np.ndarray) -> None:
    """``Flow._run``: advance until a seat must decide or the game is over."""
    while s[ENDED] == 0:
        if s[STACK_N] == 0:
            next_turn(s, cfg)
            continue
        t = top(s)
        task = s[t]
        if task == T_PAY:
            if auto_pay(s, cfg):
                continue
        elif task == T_MOVE:
            seat, steps, back = s[t + 1], s[t + 2], s[t + 3] == 1
            pop(s)
            move(s, g, cfg, seat, steps, back)
            continue
        n = options(s, cfg, buf)
        if n == 0:
            pop(s)
        elif n == 1 and task not in (T_WINDOW, T_PREROLL, T_END, T_DISCARD):
            decide(s, g, cfg, buf[0])
        else:
            return


@njit
def deal(s: np.ndarray, g: np.ndarray, cfg: np.ndarray, seed: int) -> None:
    """``DoubleCrossing._start(seed)``."""
    s[:] = 0
    mt.seed(g, seed)
    n = cfg[C_P]
    for p in range(n):
        s[POS + p] = -1
        s[CASH + p] = cfg[C_START_MONEY]
    s[DEPOT] = cfg[C_DEPOT_REFILL]
    s[BANK] = cfg[C_BANK_TOTAL] - cfg[C_START_MONEY] * n - cfg[C_DEPOT_REFILL]
    for car in range(4):
        s[YARD + car] = cfg[C_CAR_COUNTS + car]
    for k in range(K_MAX):
        s[OWNER + k] = -1
    m = 0
    for card in range(4):
        for _ in range(cfg[C_CREW + card]):
            s[DRAW + m] = card
            m += 1
    mt.shuffle(g, s, DRAW, m)
    s[DRAW_N] = m
    s[WINNER] = -1
    s[ROUNDS] = 1
    for p in range(n):
        for _ in range(cfg[C_START_CARDS]):
            draw_card(s, g, p)
    for p in range(n):
        faces = 0
        while faces < cfg[C_START_CARS] and s[YARD] + s[YARD + 1] + s[YARD + 2] + s[YARD + 3] > 0:
            car = cfg[C_DIE_CAR + die(g) - 1]
            if s[YARD + car] > 0:  # re-roll for a car whose yard is empty
                s[YARD + car] -= 1
                s[CARS + p * 4 + car] += 1
                faces += 1
    rolls = np.zeros(P_MAX, dtype=np.int64)
    contenders = np.ones(P_MAX, dtype=np.bool_)
    left = n
    while left > 1:
        best = 0
        for p in range(n):
            if contenders[p]:
                rolls[p] = die(g) + die(g)
                best = max(best, rolls[p])
        left = 0
        for p in range(n):
            if contenders[p]:
                contenders[p] = rolls[p] == best
                left += 1 if contenders[p] else 0
    first = 0
    while not contenders[first]:
        first += 1
    s[FIRST] = first
    s[TURN_SEAT] = first
    begin_turn(s, cfg)
    run(s, g, cfg, np.zeros(NA_MAX, dtype=np.int64))


@njit
def apply(s: np.ndarray, g: np.ndarray, cfg: np.ndarray, index: int, buf: np.ndarray) -> None:
    decide(s, g, cfg, index)
    run(s, g, cfg, buf)


@njit
def legal_mask(s: np.ndarray, cfg: np.ndarray, mask: np.ndarray, buf: np.ndarray) -> None:
    mask[:] = False
    if s[ENDED] == 1:
        return
    for i in range(options(s, cfg, buf)):
        mask[buf[i]] = True


@njit
def to_act(s: np.ndarray) -> int:
    return -1 if s[ENDED] == 1 or s[STACK_N] == 0 else s[top(s) + 1]


@njit
def returns(s: np.ndarray, cfg: np.ndarray, out: np.ndarray) -> None:
    for p in range(cfg[C_P]):
        if s[WINNER] == -1:
            out[p] = 0.0
        else:
            out[p] = 1.0 if p == s[WINNER] else -1.0


@njit
def observe(s: np.ndarray, cfg: np.ndarray, out: np.ndarray) -> None:
    """The observation of the seat to act (layout in the module docstring)."""
    out[:] = 0.0
    seat = to_act(s)
    n = cfg[C_P]
    size = cfg[C_SIZE]
    for c in range(4):
        out[c] = s[HANDS + seat * 4 + c]
    at = 4
    for r in range(n):
        p = (seat + r) % n
        out[at + s[POS + p] + 1] = 1.0
        at += size + 1
        out[at] = s[CASH + p] / 1e6
        for car in range(4):
            out[at + 1 + car] = s[CARS + p * 4 + car]
        out[at + 5] = count_owned(s, cfg, p)
        out[at + 6] = hand_total(s, p)
        at += 7
    for k in range(cfg[C_K]):
        o = s[OWNER + k]
        out[at + (0 if o < 0 else 1 + (o - seat) % n)] = 1.0
        at += n + 1
    for car in range(4):
        out[at + car] = s[YARD + car]
    at += 4
    out[at] = s[DEPOT] / 1e6
    out[at + 1] = s[BANK] / 1e6
    at += 2
    for space in range(size):
        out[at + space] = (
            s[DROPPED + space * 4]
            + s[DROPPED + space * 4 + 1]
            + s[DROPPED + space * 4 + 2]
            + s[DROPPED + space * 4 + 3]
        )
    at += size
    if s[STACK_N] > 0:
        t = top(s)
        out[at + s[t]] = 1.0
        out[at + 16] = s[t + 2] / 10.0 if s[t] != T_PAY else s[t + 2] / 1e6
    at += 17
    out[at] = s[AGAIN]
    out[at + 1] = s[HARD_END]
    out[at + 2] = s[USED_VILLAIN]
    out[at + 3] = s[USED_ENGINEER]
    out[at + 4] = s[ROUNDS] / cfg[C_MAX_ROUNDS]


@njit
def step_batch(
    states: np.ndarray,
    gens: np.ndarray,
    cfg: np.ndarray,
    actions: np.ndarray,
    seeds: np.ndarray,
    next_seeds: np.ndarray,
    stride: int,
    obs: np.ndarray,
    mask: np.ndarray,
    rewards: np.ndarray,
    done: np.ndarray,
    final: np.ndarray,
    seats: np.ndarray,
) -> int:
    """As ``touring.batch.step_batch``."""
    n = states.shape[0]
    for i in range(n):
        a = actions[i]
        if a < 0 or a >= mask.shape[1] or not mask[i, a]:
            return i
    buf = np.zeros(NA_MAX, dtype=np.int64)
    for i in range(n):
        s = states[i]
        actor = seats[i]
        apply(s, gens[i], cfg, actions[i], buf)
        if s[ENDED] == 1:
            returns(s, cfg, final[i])
            rewards[i] = final[i, actor]
            done[i] = True
            seeds[i] = next_seeds[i]
            next_seeds[i] += stride
            deal(s, gens[i], cfg, seeds[i])
        else:
            rewards[i] = 0.0
            done[i] = False
        legal_mask(s, cfg, mask[i], buf)
        observe(s, cfg, obs[i])
        seats[i] = to_act(s)
    return -1


@njit
def reset_batch(
    states: np.ndarray,
    gens: np.ndarray,
    cfg: np.ndarray,
    seeds: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    seats: np.ndarray,
) -> None:
    buf = np.zeros(NA_MAX, dtype=np.int64)
    for i in range(states.shape[0]):
        deal(states[i], gens[i], cfg, seeds[i])
        legal_mask(states[i], cfg, mask[i], buf)
        observe(states[i], cfg, obs[i])
        seats[i] = to_act(states[i])


# ----- back to Python -----------------------------------------------------------------------------


def _task(row: npt.NDArray[np.int32], at: int, players: int) -> dict[str, Any]:
    kind, seat = int(row[at]), int(row[at + 1])
    task: dict[str, Any] = {"k": TASK_NAMES[kind], "seat": seat}
    if kind == T_WINDOW:
        target, nxt = int(row[at + 2]), int(row[at + 3])
        task["target"] = target
        task["queue"] = [(target + j) % players for j in range(nxt, players)]
    elif kind == T_ROUNDHOUSE:
        task["own"] = bool(row[at + 2])
    elif kind == T_MOVE:
        task["steps"], task["back"] = int(row[at + 2]), bool(row[at + 3])
    else:
        for i, name in enumerate(TASK_FIELDS.get(kind, ())):
            task[name] = int(row[at + 2 + i])
    return task


def to_python_state(
    game: DoubleCrossing, s: npt.NDArray[np.int32], g: npt.NDArray[np.uint32], seed: int
) -> DoubleCrossingState:
    """The Python state of one env (no action history)."""
    n, c = game.players, game.content
    k = len(c.contracts)

    def cells(at: int, size: int) -> list[int]:
        return [int(x) for x in s[at : at + size]]

    dropped = {
        str(space): cells(DROPPED + space * 4, 4)
        for space in range(c.size)
        if any(s[DROPPED + space * 4 : DROPPED + space * 4 + 4])
    }
    winner = int(s[WINNER])
    state = game._blank_state()
    state._init_base(game, seed, mt.to_random(g))
    state._load(
        {
            "pos": cells(POS, n),
            "cash": cells(CASH, n),
            "cars": [cells(CARS + p * 4, 4) for p in range(n)],
            "hands": [cells(HANDS + p * 4, 4) for p in range(n)],
            "owner": cells(OWNER, k),
            "yard": cells(YARD, 4),
            "dropped": dropped,
            "draw": [CARD_SLUGS[x] for x in cells(DRAW, int(s[DRAW_N]))],
            "discard": [CARD_SLUGS[x] for x in cells(DISC, int(s[DISC_N]))],
            "bank": int(s[BANK]),
            "depot": int(s[DEPOT]),
            "stack": [_task(s, STACK + i * TASK, n) for i in range(int(s[STACK_N]))],
            "first": int(s[FIRST]),
            "turn_seat": int(s[TURN_SEAT]),
            "again": bool(s[AGAIN]),
            "hard_end": bool(s[HARD_END]),
            "engineer_ok": bool(s[ENGINEER_OK]),
            "used_villain": bool(s[USED_VILLAIN]),
            "used_engineer": bool(s[USED_ENGINEER]),
            "stops_left": int(s[STOPS_LEFT]),
            "winner": None if winner == -1 else winner,
            "ended": bool(s[ENDED]),
            "rounds": int(s[ROUNDS]),
            "turns": int(s[TURNS]),
            "landed": {KINDS[i]: int(s[LANDED + i]) for i in range(len(KINDS)) if s[LANDED + i]},
            "played": cells(PLAYED, CARD_TYPES),
        }
    )
    return state


def canonical(state: DoubleCrossingState) -> dict[str, Any]:
    """What must agree between the engines: the whole dump, and the generator."""
    dump = state._dump()
    dump["rng"] = state.rng.getstate()
    return dump


assert CAR_TYPES == 4 and CARD_TYPES == 4  # the row's per-seat blocks assume four of each

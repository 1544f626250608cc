"""Double Crossing's compiled batch engine, part 2: money, cards and cars, the turn, moving and
what each space does (``rules.py``, ``steps.py`` and ``spaces.py`` in Python; ``batch.py`` has the overview).
"""

from __future__ import annotations

import numpy as np

from tabletrek.core import mt19937 as mt
from tabletrek.core.mt19937 import njit
from tabletrek.games.double_crossing.batch_layout import (
    AGAIN,
    BANK,
    C_CAR_PRICES,
    C_CORNER_FARE,
    C_DEPOT_REFILL,
    C_DIE_CAR,
    C_EXACT,
    C_K,
    C_K_CARS,
    C_MAX_ROUNDS,
    C_P,
    C_RACK,
    C_SIZE,
    C_SP_AMOUNT,
    C_SP_CAR,
    C_SP_COMPANY,
    C_SP_KIND,
    C_STOPS,
    C_TO_WIN,
    CARS,
    CASH,
    CREW_USED,
    DEPOT,
    DISC,
    DISC_N,
    DRAW,
    DRAW_N,
    DROPPED,
    ENDED,
    ENGINEER_OK,
    FIRST,
    HANDS,
    HARD_END,
    LANDED,
    OWNER,
    PLAYED,
    POS,
    ROLL_CREW,
    ROUNDS,
    S_CENTRAL,
    S_CONNECTIONS,
    S_CORNER,
    S_CREW,
    S_CUSTOMER,
    S_DEPOT,
    S_DERAIL,
    S_DOUBLE_CROSS,
    S_GOVT,
    S_ROLL_AGAIN,
    S_ROUNDHOUSE,
    S_SHOP,
    S_STOP,
    S_TAXES,
    S_TOWER,
    S_TRADE,
    S_YARD,
    STACK,
    STACK_N,
    STOPS_LEFT,
    T_BUY_CARDS,
    T_CONNECT,
    T_DISCARD,
    T_DOUBLE_CROSS,
    T_DROP,
    T_END,
    T_MOVE,
    T_PAY,
    T_PREROLL,
    T_RACK,
    T_RETURN,
    T_ROUNDHOUSE,
    T_TOWER,
    T_TRADE,
    T_WINDOW,
    T_YARD,
    TASK,
    TURN_SEAT,
    TURNS,
    USED_ENGINEER,
    USED_VILLAIN,
    WINNER,
    YARD,
)
from tabletrek.games.double_crossing.content import (
    BOX,
    CREW,
    PASSENGER,
)

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
    s[CREW_USED] = 0
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
        s[CREW_USED] += crew
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

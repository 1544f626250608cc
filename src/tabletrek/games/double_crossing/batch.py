"""Double Crossing's rules compiled for batches of games (the vector environment, ``rl/vector.py``).

Env ``i`` seeded ``s`` plays exactly the game ``tabletrek.load("double-crossing", ...)
.new_game(seed=s)`` plays (``rules.py``, ``steps.py``, ``offers.py`` and ``spaces.py`` are the reference): the
same task stack, the same order of dice and shuffles from Python's generator compiled
(``core/mt19937.py``), and ``to_python_state`` hands an env back to the Python rules, stack and all.
In three parts: ``batch_layout.py`` (the layouts, the config, the way back to Python),
``batch_turn.py`` (money, cards, cars, the turn, moving, the spaces) and this module (decisions,
the run loop, setup, observations and the batch calls). This part is over 600 lines because the
decisions (``options`` lists them, ``decide`` applies one) must agree index for index with the
action table and with each other, and ``driver.bind(globals())`` needs the rule functions in this
module's namespace; a fourth file would split that pair or only re-export names.

State row (int32, room for ``P_MAX`` seats, ``SP_MAX`` spaces, ``K_MAX`` contracts): positions,
cash, cars and crew cards per seat; contract owners; the yard; cars lying on each space; the draw
and discard piles in order; bank, depot and the turn's flags; spaces landed on by kind; cards played
by type; the task stack, each task ``TASK`` ints (kind, seat, then its fields: window — target, the
next queued offset; buy_cards — max; drop — space; pay — amount, payee (-1 bank); trade — company,
left; yard — car; roundhouse — own; move — steps, back).

Config (int64): the options, then the content (board, contracts, economy) and the action table,
all read off the loaded game. Flags: ``exact_return``, ``max_rounds``, ``connections_needs_cars``,
``stops_per_turn``, and the rules review's (docs/rules/double-crossing.md): Roundhouse and Control
Tower moves may be declined (``C_RH_DECLINE``, ``C_TOWER_DECLINE``; off under ``forced_moves``), the
Tower sends a token to any space, itself included (``C_TOWER_ANY``; off under
``tower_to_tower=false``), Railroad Crew counts 1-2 cards per turn (the row's ``crew_used``;
per roll under ``crew_per_roll``, ``C_CREW_PER_ROLL``).

Observation (float32, from the seat to act; seats rotated so it comes first): own crew cards (4);
per seat: position one-hot (start + spaces), cash / $1M, cars (4), contracts held, cards held;
each contract's owner one-hot (none, then seats from the seat to act); yard (4); depot and bank /
$1M; cars lying per space; the pending task's kind one-hot (16) and its first field / 10; flags
(roll again, turn ends, villain used, engineer used); round / max rounds.
"""

from __future__ import annotations

import numpy as np

from tabletrek.core import batch_driver as driver
from tabletrek.core import mt19937 as mt
from tabletrek.core.mt19937 import njit
from tabletrek.games.double_crossing.batch_layout import (  # what rl/vector.py reads off an engine
    A_BUY_CAR,
    A_BUY_CARDS,
    A_BUY_N,
    A_CONNECT,
    A_DECLINE,
    A_DISCARD,
    A_DONE,
    A_DROP,
    A_DX,
    A_END,
    A_ENGINEER,
    A_GO,
    A_MOVE,
    A_PASS,
    A_REACT,
    A_RETURN,
    A_ROLL,
    A_SELL_CAR,
    A_SELL_K,
    A_TRADE,
    A_VILLAIN,
    AGAIN,
    BANK,
    C_BANK_TOTAL,
    C_CAR_COUNTS,
    C_CAR_PRICES,
    C_CARD_PRICE,
    C_CREW,
    C_CREW_PER_ROLL,
    C_DEPOT_REFILL,
    C_DIE_CAR,
    C_K,
    C_K_CARS,
    C_K_COMPANY,
    C_K_PRICE,
    C_MAX_ROUNDS,
    C_NEEDS_CARS,
    C_P,
    C_RACK,
    C_RH_DECLINE,
    C_SIZE,
    C_START_CARDS,
    C_START_CARS,
    C_START_MONEY,
    C_TOWER_ANY,
    C_TOWER_AT,
    C_TOWER_DECLINE,
    CARS,
    CASH,
    CREW_USED,
    D_A,
    D_B,
    D_KIND,
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
    K_MAX,
    NA_MAX,
    OWNER,
    P_MAX,
    POS,
    ROUNDS,
    SP_MAX,
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
    TURN_SEAT,
    USED_ENGINEER,
    USED_VILLAIN,
    WINNER,
    YARD,
    canonical,
    config,
    state_size,
    to_python_state,
)
from tabletrek.games.double_crossing.batch_observation import obs_layout
from tabletrek.games.double_crossing.batch_turn import (
    begin_turn,
    count_owned,
    die,
    draw_card,
    duel,
    from_bank,
    gain_car,
    hand_total,
    has_cars,
    move,
    next_turn,
    play_card,
    pop,
    push,
    roll,
    sell_car,
    teleport,
    to_bank,
    top,
    total_cars,
)
from tabletrek.games.double_crossing.content import (
    CREW,
    ENGINEER,
    STOP,
    VILLAIN,
)
from tabletrek.games.double_crossing.moves import (
    BUY_CAR,
    CONNECT,
    DECLINE,
    DONE,
    REACT,
    ROLL,
    SELL_CAR,
)
from tabletrek.games.double_crossing.moves import ENGINEER as USE_ENGINEER
from tabletrek.games.double_crossing.moves import VILLAIN as PLAY_VILLAIN

# ----- decisions ---------------------------------------------------------------------------------


@njit
def options(s: np.ndarray, cfg: np.ndarray, out: np.ndarray) -> int:
    """The legal actions of the task on top of the stack (the top step's ``options``); how many."""
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
        # 1-2 Crew cards a turn, Roll Again included, unless crew_per_roll (rules.Preroll.check_roll).
        crew = s[HANDS + seat * 4 + CREW]
        if cfg[C_CREW_PER_ROLL] == 0:
            crew = min(crew, 2 - s[CREW_USED])
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
        # Where declining is offered it is the way to stay, so the own space is no move.
        here = s[POS + seat] if cfg[C_RH_DECLINE] == 1 else -1
        for space in range(cfg[C_SIZE]):
            if space != here:
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
    """The top step's ``decide``: carry out a chosen option."""
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


# ----- the driver's view of the rules (``core/batch_driver.py``) ---------------------------------
# (with ``deal``, ``observe`` and ``returns`` above, read under their own names)


# This engine's own move and mask already take the driver's scratch row.
_apply = apply
_mask = legal_mask


@njit
def _seat(s: np.ndarray, cfg: np.ndarray) -> int:
    return int(to_act(s))


step_batch, reset_batch = driver.bind(globals())


# The engine as rl/vector.py uses it (and ``canonical``, which the exactness checks compare).
__all__ = ["canonical", "config", "obs_layout", "reset_batch", "state_size", "step_batch", "to_python_state"]

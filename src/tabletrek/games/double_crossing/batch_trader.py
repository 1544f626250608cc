"""Double Crossing's ``trader`` bot compiled for the search's playouts (``playouts.py``).

The same decisions as the Python ``trader`` (``bots.py``) on the batch engine's arrays: which
contract to chase (``demand``), which space, roll, car, card or double-cross serves it, with the
same tie-breaks, so a compiled playout is the Python playout move for move
(``tests/batch/test_search_playouts.py``).
"""

from __future__ import annotations

import numpy as np

from tabletrek.core.mt19937 import njit
from tabletrek.games.double_crossing.batch import options
from tabletrek.games.double_crossing.batch_layout import (
    A_BUY_CAR,
    A_BUY_N,
    A_CONNECT,
    A_DECLINE,
    A_DISCARD,
    A_DONE,
    A_DROP,
    A_DX,
    A_END,
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
    C_CAR_PRICES,
    C_CORNER_FARE,
    C_EXACT,
    C_K,
    C_K_CARS,
    C_K_COMPANY,
    C_K_PRICE,
    C_NEEDS_CARS,
    C_P,
    C_RACK,
    C_SIZE,
    C_SP_AMOUNT,
    C_SP_CAR,
    C_SP_COMPANY,
    C_SP_KIND,
    C_TO_WIN,
    CARS,
    CASH,
    D_A,
    D_B,
    D_KIND,
    DEPOT,
    DROPPED,
    HANDS,
    OWNER,
    POS,
    ROLL_CREW,
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
    T_BUY_CARDS,
    T_CONNECT,
    T_DISCARD,
    T_DOUBLE_CROSS,
    T_DROP,
    T_PAY,
    T_PREROLL,
    T_RACK,
    T_RETURN,
    T_ROUNDHOUSE,
    T_TOWER,
    T_TRADE,
    T_WINDOW,
    T_YARD,
    YARD,
)
from tabletrek.games.double_crossing.batch_turn import count_owned, hand_total, has_cars, top, total_cars
from tabletrek.games.double_crossing.content import CARD_TYPES, PASSENGER
from tabletrek.games.double_crossing.moves import BUY_N, DECLINE, DROP, GO, MOVE, REACT, ROLL, SELL_CAR
from tabletrek.games.double_crossing.moves import ENGINEER as USE_ENGINEER
from tabletrek.games.double_crossing.moves import VILLAIN as PLAY_VILLAIN

# The trader's (``bots.CARD_KEEP``) value of keeping each crew card, by card code.
CARD_KEEP = np.array([1.0, 2.0, 3.0, 2.5], dtype=np.float64)
RICH = 1_200_000  # the trader refills an empty hand only with this much cash (``bots._on_buy_cards``)


@njit
def demand(s: np.ndarray, cfg: np.ndarray, seat: int, want: np.ndarray) -> None:
    """``TraderBot.demand``: cars still missing for the (up to four) open contracts closest to
    completion (fewest cars missing, then cheapest, then first)."""
    want[:] = 0
    k_n = cfg[C_K]
    taken = np.zeros(k_n, dtype=np.bool_)
    for _ in range(4):
        best = -1
        best_missing = 0
        for k in range(k_n):
            if s[OWNER + k] >= 0 or taken[k]:
                continue
            missing = 0
            for car in range(4):
                missing += max(0, cfg[C_K_CARS + k * 4 + car] - s[CARS + seat * 4 + car])
            if (
                best < 0
                or missing < best_missing
                or (missing == best_missing and cfg[C_K_PRICE + k] < cfg[C_K_PRICE + best])
            ):
                best, best_missing = k, missing
        if best < 0:
            return
        taken[best] = True
        for car in range(4):
            want[car] = max(want[car], cfg[C_K_CARS + best * 4 + car] - s[CARS + seat * 4 + car])


@njit
def leader(s: np.ndarray, cfg: np.ndarray, among: np.ndarray, n: int) -> int:
    """``TraderBot.leader``: most contracts, then cars, then cash, then the lowest seat."""
    best = -1
    for i in range(n):
        o = among[i]
        if best < 0:
            best = o
            continue
        a0, b0 = count_owned(s, cfg, o), count_owned(s, cfg, best)
        if a0 != b0:
            if a0 > b0:
                best = o
            continue
        a1, b1 = total_cars(s, o), total_cars(s, best)
        if a1 != b1:
            if a1 > b1:
                best = o
            continue
        if s[CASH + o] != s[CASH + best]:
            if s[CASH + o] > s[CASH + best]:
                best = o
            continue
        best = min(best, o)
    return best


@njit
def can_win(s: np.ndarray, cfg: np.ndarray, seat: int) -> bool:
    return bool(count_owned(s, cfg, seat) >= cfg[C_TO_WIN])


@njit
def space_value(
    s: np.ndarray, cfg: np.ndarray, seat: int, space: int, want: np.ndarray, reserve: int
) -> float:
    """``TraderBot.space_value``: the same terms added in the same order."""
    kind = cfg[C_SP_KIND + space]
    value = 0.0
    lying = 0
    for car in range(4):
        lying += s[DROPPED + space * 4 + car]
    if lying > 0:
        value += lying
    for o in range(cfg[C_P]):
        if o != seat and s[POS + o] == space:
            value += 0.8
            break
    cash = s[CASH + seat]
    if kind == S_CENTRAL and can_win(s, cfg, seat):
        return 100.0
    if kind in (S_CENTRAL, S_CORNER):
        value += 0.3 + s[CARS + seat * 4 + PASSENGER] * (cfg[C_P] - 1) * cfg[C_CORNER_FARE] / 100_000
    elif kind == S_TRADE:
        ready = 0
        for k in range(cfg[C_K]):
            if (
                cfg[C_K_COMPANY + k] == cfg[C_SP_COMPANY + space]
                and s[OWNER + k] < 0
                and cash >= cfg[C_K_PRICE + k]
                and has_cars(s, cfg, seat, k)
            ):
                ready += 1
        value += 3.0 * min(ready, 3)
    elif kind == S_YARD:
        car = cfg[C_SP_CAR + space]
        if want[car] > 0 and s[YARD + car] > 0 and cash >= cfg[C_CAR_PRICES + car] + reserve:
            value += 1.2
    elif kind in (S_SHOP, S_ROLL_AGAIN):
        value += 0.8
    elif kind in (S_GOVT, S_CREW):
        value += 0.3
    elif kind == S_STOP:
        value -= 0.5
    elif kind == S_TAXES:
        value -= cfg[C_SP_AMOUNT + space] / 100_000
    elif kind == S_DERAIL:
        value += 0.0 if lying > 0 else -1.0 if total_cars(s, seat) > 0 else 0.0
    elif kind == S_DOUBLE_CROSS:
        rivals = False
        for k in range(cfg[C_K]):
            rivals = rivals or (s[OWNER + k] >= 0 and s[OWNER + k] != seat)
        value += 1.5 if rivals else 0.0
    elif kind in (S_ROUNDHOUSE, S_TOWER):
        value += 0.5
    elif kind == S_DEPOT:
        value += s[DEPOT] / 100_000
    elif kind == S_CUSTOMER:
        value -= 1.5 if count_owned(s, cfg, seat) > 0 else 0.0
    elif kind == S_CONNECTIONS:
        reachable = False
        for k in range(cfg[C_K]):
            reachable = reachable or (
                s[OWNER + k] < 0
                and cash >= cfg[C_K_PRICE + k] // 2
                and (cfg[C_NEEDS_CARS] == 0 or has_cars(s, cfg, seat, k))
            )
        value += 2.5 if reachable else 0.0
    return value


@njit
def roll_value(
    s: np.ndarray, cfg: np.ndarray, seat: int, variant: int, want: np.ndarray, reserve: int
) -> float:
    """``TraderBot.roll_value``: the mean value of the spaces a roll may reach."""
    size = cfg[C_SIZE]
    slow = (variant & 1) == 1
    step = -1 if (variant & 2) == 2 else 1
    win = can_win(s, cfg, seat) and cfg[C_EXACT] == 0
    start = s[POS + seat]
    total = 0.0
    outcomes = 6 if slow else 36
    for i in range(outcomes):
        steps = i + 1 if slow else i // 6 + 1 + i % 6 + 1
        pos = start
        passed = False
        for _ in range(steps):
            pos = 0 if pos < 0 else (pos + step) % size
            passed = passed or pos == 0
        total += 100.0 if win and passed else space_value(s, cfg, seat, pos, want, reserve)
    return float(total / outcomes - 0.8 * ROLL_CREW[variant])


@njit
def least_wanted(cfg: np.ndarray, want: np.ndarray, cars: np.ndarray, n: int) -> int:
    """``TraderBot._least_wanted``: unwanted first, then the least wanted, cheapest, first."""
    best = -1
    for i in range(n):
        t = cars[i]
        if best < 0:
            best = t
            continue
        key_t = (1 if want[t] > 0 else 0, want[t], cfg[C_CAR_PRICES + t], t)
        key_b = (1 if want[best] > 0 else 0, want[best], cfg[C_CAR_PRICES + best], best)
        if key_t < key_b:
            best = t
    return best


@njit
def harm(s: np.ndarray, cfg: np.ndarray, victim: int, space: int) -> float:
    """The first part of ``TraderBot._on_tower``'s ``harm`` (the second, ``-space``, breaks ties
    towards the lowest space)."""
    kind = cfg[C_SP_KIND + space]
    if kind == S_CUSTOMER and count_owned(s, cfg, victim) > 0:
        return 3.0
    if kind == S_TAXES:
        return float(cfg[C_SP_AMOUNT + space] / 100_000)
    if kind == S_STOP:
        return 0.5
    if kind == S_TOWER:
        return -2.0
    lying = 0
    for car in range(4):
        lying += s[DROPPED + space * 4 + car]
    return -1.0 if lying > 0 or kind in (S_CENTRAL, S_CORNER, S_TRADE) else 0.0


@njit
def preroll_move(s: np.ndarray, cfg: np.ndarray, seat: int, buf: np.ndarray, n: int, reserve: int) -> int:
    """``TraderBot._on_preroll``: the Villain on a leader close enough, else the best roll."""
    targets = np.empty(6, dtype=np.int64)
    m = 0
    for i in range(n):
        if cfg[D_KIND + buf[i]] == PLAY_VILLAIN:
            targets[m] = cfg[D_A + buf[i]]
            m += 1
    if m > 0:
        best = leader(s, cfg, targets, m)
        if count_owned(s, cfg, best) >= count_owned(s, cfg, seat) - 1:
            return int(cfg[A_VILLAIN + best])
    want = np.zeros(4, dtype=np.int64)
    demand(s, cfg, seat, want)
    choice = -1
    best_value = 0.0
    for i in range(n):
        if cfg[D_KIND + buf[i]] != ROLL:
            continue
        variant = cfg[D_A + buf[i]]
        value = roll_value(s, cfg, seat, variant, want, reserve)
        if choice < 0 or value > best_value or (value == best_value and variant < choice):
            choice, best_value = variant, value
    return int(cfg[A_ROLL + choice])


@njit
def tower_move(s: np.ndarray, cfg: np.ndarray, buf: np.ndarray, n: int) -> int:
    """``TraderBot._on_tower``: the leader to the space that harms it most, or decline where
    every space would help it."""
    seen = np.zeros(6, dtype=np.bool_)
    declinable = False
    for i in range(n):
        if cfg[D_KIND + buf[i]] == MOVE:
            seen[cfg[D_A + buf[i]]] = True
        elif cfg[D_KIND + buf[i]] == DECLINE:
            declinable = True
    others = np.empty(6, dtype=np.int64)
    m = 0
    for o in range(6):
        if seen[o]:
            others[m] = o
            m += 1
    victim = leader(s, cfg, others, m)
    target = -1
    worst = 0.0
    for i in range(n):
        if cfg[D_KIND + buf[i]] != MOVE or cfg[D_A + buf[i]] != victim:
            continue
        space = cfg[D_B + buf[i]]
        h = harm(s, cfg, victim, space)
        if target < 0 or h > worst or (h == worst and space < target):
            target, worst = space, h
    if declinable and worst < 0.0:
        return int(cfg[A_DECLINE])
    return int(cfg[A_MOVE + victim * 64 + target])


@njit
def roundhouse_move(s: np.ndarray, cfg: np.ndarray, seat: int, buf: np.ndarray, n: int, reserve: int) -> int:
    """``TraderBot._on_roundhouse``: the best space, or decline where none is worth the trip."""
    want = np.zeros(4, dtype=np.int64)
    demand(s, cfg, seat, want)
    best = -1
    best_value = 0.0
    declinable = False
    for i in range(n):
        kind = cfg[D_KIND + buf[i]]
        if kind == DECLINE:
            declinable = True
        elif kind == GO:
            space = cfg[D_A + buf[i]]
            value = space_value(s, cfg, seat, space, want, reserve)
            if best < 0 or value > best_value or (value == best_value and space < best):
                best, best_value = space, value
    if declinable and best_value <= 0.0:
        return int(cfg[A_DECLINE])
    return int(cfg[A_GO + best])


@njit
def contract_move(s: np.ndarray, cfg: np.ndarray, task: int, buf: np.ndarray, n: int) -> int:
    """The trader's contract among the options (``TraderBot._on_trade``, ``_on_connect``,
    ``_on_return``): trade the one needing fewest cars (then cheapest, first), connect the
    dearest (then first), return the cheapest (then first); with none offered, done or decline."""
    base = A_TRADE if task == T_TRADE else A_CONNECT if task == T_CONNECT else A_RETURN
    best = -1
    best_cars = 0
    for i in range(n):
        if buf[i] == cfg[A_DONE] or buf[i] == cfg[A_DECLINE]:
            continue
        k = cfg[D_A + buf[i]]
        cars = 0
        for car in range(4):
            cars += cfg[C_K_CARS + k * 4 + car]
        if best < 0:
            best, best_cars = k, cars
            continue
        price, best_price = cfg[C_K_PRICE + k], cfg[C_K_PRICE + best]
        if task == T_TRADE:
            better = cars < best_cars or (
                cars == best_cars and (price < best_price or (price == best_price and k < best))
            )
        elif task == T_CONNECT:
            better = price > best_price or (price == best_price and k < best)
        else:
            better = price < best_price or (price == best_price and k < best)
        if better:
            best, best_cars = k, cars
    if best < 0:
        return int(cfg[A_DONE] if task == T_TRADE else cfg[A_DECLINE])
    return int(cfg[base + best])


@njit
def double_cross_move(s: np.ndarray, cfg: np.ndarray, buf: np.ndarray, n: int) -> int:
    """``TraderBot._on_double_cross``: the leader among the owners, its first contract."""
    seen = np.zeros(6, dtype=np.bool_)
    for i in range(n):
        if buf[i] != cfg[A_DECLINE]:
            seen[s[OWNER + cfg[D_A + buf[i]]]] = True
    owners = np.empty(6, dtype=np.int64)
    m = 0
    for o in range(6):
        if seen[o]:
            owners[m] = o
            m += 1
    victim = leader(s, cfg, owners, m)
    for k in range(cfg[C_K]):
        if s[OWNER + k] == victim:
            for i in range(n):
                if buf[i] == cfg[A_DX + k]:
                    return int(buf[i])
    return -1


@njit
def car_move(s: np.ndarray, cfg: np.ndarray, seat: int, buf: np.ndarray, n: int) -> int:
    """The car to give up (``_on_drop``, ``_on_rack``, ``_on_pay``): the least wanted; paying
    without cars to sell, the dearest contract (the first of equals)."""
    want = np.zeros(4, dtype=np.int64)
    cars = np.empty(4, dtype=np.int64)
    m = 0
    kind = -1
    sell_k = -1
    for i in range(n):
        kind_i = cfg[D_KIND + buf[i]]
        if kind_i in (DROP, SELL_CAR):
            kind = kind_i
            cars[m] = cfg[D_A + buf[i]]
            m += 1
        elif sell_k < 0 or cfg[C_K_PRICE + cfg[D_A + buf[i]]] > cfg[C_K_PRICE + sell_k]:
            sell_k = cfg[D_A + buf[i]]
    if m == 0:
        return int(cfg[A_SELL_K + sell_k])
    demand(s, cfg, seat, want)
    car = least_wanted(cfg, want, cars, m)
    return int(cfg[(A_DROP if kind == DROP else A_SELL_CAR) + car])


@njit
def trader_move(s: np.ndarray, cfg: np.ndarray, buf: np.ndarray, reserve: int) -> int:
    """``TraderBot.act``: the trader's move for the seat to act (its only one when it has one)."""
    n = options(s, cfg, buf)
    if n == 1:
        return int(buf[0])
    t = top(s)
    task = s[t]
    seat = s[t + 1]
    if task == T_WINDOW:
        target = s[t + 2]
        for i in range(n):
            if cfg[D_KIND + buf[i]] == REACT and (
                count_owned(s, cfg, target) >= count_owned(s, cfg, seat) or can_win(s, cfg, target)
            ):
                return int(cfg[A_REACT])
        return int(cfg[A_PASS])
    if task == T_PREROLL:
        return preroll_move(s, cfg, seat, buf, n, reserve)
    if task == T_BUY_CARDS:
        most = 0
        for i in range(n):
            if cfg[D_KIND + buf[i]] == BUY_N:
                most = max(most, cfg[D_A + buf[i]])
        # Cards are a luxury: money buys contracts. Refill an empty hand only when rich.
        rich = hand_total(s, seat) == 0 and s[CASH + seat] >= RICH
        return int(cfg[A_BUY_N + (min(most, 1) if rich else 0)])
    if task == T_DISCARD:
        card = -1
        best = 0.0
        for c in range(CARD_TYPES):
            held = s[HANDS + seat * 4 + c]
            if held > 0:
                keep = CARD_KEEP[c] - 0.1 * held
                if card < 0 or keep < best:
                    card, best = c, keep
        return int(cfg[A_DISCARD + card])
    if task in (T_DROP, T_RACK, T_PAY):
        return car_move(s, cfg, seat, buf, n)
    if task in (T_TRADE, T_CONNECT, T_RETURN):
        return contract_move(s, cfg, task, buf, n)
    if task == T_YARD:
        car = s[t + 2]
        want = np.zeros(4, dtype=np.int64)
        demand(s, cfg, seat, want)
        room = total_cars(s, seat) < cfg[C_RACK]
        if want[car] > 0 and room and s[CASH + seat] >= cfg[C_CAR_PRICES + car] + reserve:
            return int(cfg[A_BUY_CAR + car])
        return int(cfg[A_DECLINE])
    if task == T_DOUBLE_CROSS:
        return double_cross_move(s, cfg, buf, n)
    if task == T_ROUNDHOUSE:
        return roundhouse_move(s, cfg, seat, buf, n, reserve)
    if task == T_TOWER:
        return tower_move(s, cfg, buf, n)
    # T_END: the Engineer for another turn whenever it is held.
    for i in range(n):
        if cfg[D_KIND + buf[i]] == USE_ENGINEER:
            return int(buf[i])
    return int(cfg[A_END])


# ----- the evaluation (``evaluation.py``) -------------------------------------------------------

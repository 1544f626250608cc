"""Double Crossing's compiled batch engine, part 1: the layouts of its state row and config, the
config read off a loaded game, and the way back to a Python state (``batch.py`` has the overview).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from tabletrek.core import mt19937 as mt
from tabletrek.core.errors import BeyondEngine
from tabletrek.games.double_crossing.content import (
    CAR_TYPES,
    CARD_SLUGS,
    CARD_TYPES,
    KINDS,
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
    from tabletrek.games.double_crossing.game import DoubleCrossing
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
    ("crew_used", 1),
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
AGAIN, HARD_END, ENGINEER_OK, USED_VILLAIN, USED_ENGINEER, CREW_USED, STOPS_LEFT = (
    _ROW[k]
    for k in ("again", "hard_end", "engineer_ok", "used_villain", "used_engineer", "crew_used", "stops_left")
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
    ("crew_per_roll", 1),
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
C_CAR_COUNTS, C_CAR_PRICES, C_DIE_CAR, C_CREW, C_CREW_PER_ROLL = (
    _CFG[k] for k in ("car_counts", "car_prices", "die_car", "crew", "crew_per_roll")
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

OPTIONS = frozenset(
    {
        "exact_return",
        "max_rounds",
        "connections_needs_cars",
        "stops_per_turn",
        "crew_per_roll",
        "forced_moves",
        "tower_to_tower",
    }
)
"""The options of ``DoubleCrossing`` this engine implements; any other raises rather than diverge."""


def config(game: DoubleCrossing) -> npt.NDArray[np.int64]:
    unknown = set(game.options) - OPTIONS
    if unknown:
        raise BeyondEngine(f"the compiled Double Crossing has no option {sorted(unknown)[0]!r} yet")
    c = game.content
    if c.size > SP_MAX or len(c.contracts) > K_MAX or sum(c.crew) > DECK_MAX or game.num_actions > NA_MAX:
        raise BeyondEngine("the board, contracts or deck are larger than the compiled game holds")
    cfg = np.zeros(CFG_SIZE, dtype=np.int64)
    cfg[C_P], cfg[C_SIZE], cfg[C_K] = game.players, c.size, len(c.contracts)
    cfg[C_EXACT], cfg[C_MAX_ROUNDS] = int(game.exact_return), game.max_rounds
    cfg[C_NEEDS_CARS], cfg[C_STOPS] = int(game.connections_needs_cars), game.stops_per_turn
    # docs/rules/double-crossing.md: Roundhouse and Control Tower moves may be declined unless
    # ``forced_moves``; the Tower reaches every space unless ``tower_to_tower`` is off; Railroad
    # Crew counts per turn unless ``crew_per_roll``.
    cfg[C_RH_DECLINE] = cfg[C_TOWER_DECLINE] = int(not game.forced_moves)
    cfg[C_TOWER_ANY] = int(game.tower_to_tower)
    cfg[C_CREW_PER_ROLL] = int(game.crew_per_roll)
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
            "crew_used": int(s[CREW_USED]),
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


def from_python(game: DoubleCrossing, data: Mapping[str, Any]) -> npt.NDArray[np.int32]:
    """A state's row from its JSON form (``DoubleCrossingState._dump``): ``to_python_state`` the
    other way, for the search's compiled playouts, which start from a real position."""
    n = game.players
    s = np.zeros(SIZE, dtype=np.int32)

    def put(at: int, values: Sequence[int]) -> None:
        s[at : at + len(values)] = values

    put(POS, data["pos"])
    put(CASH, data["cash"])
    for p in range(n):
        put(CARS + p * 4, data["cars"][p])
        put(HANDS + p * 4, data["hands"][p])
    s[OWNER : OWNER + K_MAX] = -1
    put(OWNER, data["owner"])
    put(YARD, data["yard"])
    for space, cars in data["dropped"].items():
        put(DROPPED + int(space) * 4, cars)
    codes = {slug: code for code, slug in enumerate(CARD_SLUGS)}
    for at, at_n, key in ((DRAW, DRAW_N, "draw"), (DISC, DISC_N, "discard")):
        put(at, [codes[c] for c in data[key]])
        s[at_n] = len(data[key])
    for at, key in (
        (BANK, "bank"),
        (DEPOT, "depot"),
        (FIRST, "first"),
        (TURN_SEAT, "turn_seat"),
        (AGAIN, "again"),
        (HARD_END, "hard_end"),
        (ENGINEER_OK, "engineer_ok"),
        (USED_VILLAIN, "used_villain"),
        (USED_ENGINEER, "used_engineer"),
        (CREW_USED, "crew_used"),
        (STOPS_LEFT, "stops_left"),
        (ENDED, "ended"),
        (ROUNDS, "rounds"),
        (TURNS, "turns"),
    ):
        s[at] = int(data[key])
    s[WINNER] = -1 if data["winner"] is None else int(data["winner"])
    for kind, count in data["landed"].items():
        s[LANDED + KINDS.index(kind)] = int(count)
    put(PLAYED, data["played"])
    s[STACK_N] = len(data["stack"])
    for i, task in enumerate(data["stack"]):
        s[STACK + i * TASK : STACK + (i + 1) * TASK] = _task_row(task, n)
    return s


def _task_row(task: Mapping[str, Any], players: int) -> list[int]:
    """``_task`` the other way: kind, seat, then the kind's fields, padded to ``TASK``."""
    kind = TASK_NAMES.index(task["k"])
    row = [kind, int(task["seat"])]
    if kind == T_WINDOW:
        row += [int(task["target"]), players - len(task["queue"])]
    elif kind == T_ROUNDHOUSE:
        row.append(int(task["own"]))
    elif kind == T_MOVE:
        row += [int(task["steps"]), int(task["back"])]
    else:
        row += [int(task[name]) for name in TASK_FIELDS.get(kind, ())]
    return row + [0] * (TASK - len(row))


def canonical(state: DoubleCrossingState) -> dict[str, Any]:
    """What must agree between the engines: the whole dump, and the generator."""
    dump = state._dump()
    dump["rng"] = state.rng.getstate()
    return dump


assert CAR_TYPES == 4 and CARD_TYPES == 4  # the row's per-seat blocks assume four of each

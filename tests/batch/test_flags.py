"""The compiled engines read every option under the name the Python rules give it, and each flag
does what its option says in positions built by hand (the exactness tests then play them out
against the Python rules over whole games)."""

from __future__ import annotations

import numpy as np
import pytest

from tabletrek.core import mt19937

pytestmark = pytest.mark.skipif(not mt19937.HAVE_NUMBA, reason="numba (extra [search]) is not installed")

pytest.importorskip("gymnasium")

from tabletrek.rl.vector import BatchEnv  # noqa: E402 - after the importorskip above


def test_touring_go_comes_first_unless_country_first() -> None:
    from tabletrek.games.touring import batch as T
    from tabletrek.games.touring.cards import COUNTRY, GO
    from tabletrek.games.touring.rules import DISCARD_BASE

    env = BatchEnv("touring", 1, players=2)
    env.reset(seed=0)
    assert env.cfg[T.CFG_COUNTRY_FIRST] == 0
    assert BatchEnv("touring", 1, players=2, country_first=True).cfg[T.CFG_COUNTRY_FIRST] == 1
    s = env.states[0].copy()
    hand = T.SEATS + T.HAND
    s[hand : hand + T.C] = 0
    s[hand + COUNTRY] = 1
    s[T.GO_LEN : T.GO_LEN + T.T_MAX] = 0
    s[T.SP_LEN : T.SP_LEN + T.T_MAX] = 0
    for t in range(T.T_MAX):  # every pile empty
        s[T.SEATS + t * T.BLOCK + T.GO_TOP] = -1
        s[T.SEATS + t * T.BLOCK + T.SP_TOP] = -1
    s[T.TO_ACT] = 0
    mask = np.zeros(env.rules.num_actions, dtype=np.bool_)
    cfg = env.cfg.copy()
    T.legal_mask(s, cfg, mask)
    assert not mask[COUNTRY] and mask[DISCARD_BASE + COUNTRY]  # no Go yet: Country may not open
    T.push_go(s, 0, GO)
    T.legal_mask(s, cfg, mask)
    assert mask[COUNTRY]
    s[T.GO_LEN] = 0
    s[T.SEATS + T.GO_TOP] = -1
    cfg[T.CFG_COUNTRY_FIRST] = 1
    T.legal_mask(s, cfg, mask)
    assert mask[COUNTRY]  # the old reading: Country on an empty speed pile at any time


def test_touring_five_players_play_individually() -> None:
    from tabletrek.games.touring import batch as T

    env = BatchEnv("touring", 1, players=5)
    env.reset(seed=0)
    assert env.cfg[T.CFG_P] == 5 and env.cfg[T.CFG_T] == 5
    assert env.cfg[T.CFG_DECK : T.CFG_DECK + T.C].sum() == 96


def test_double_crossing_tower_and_roundhouse_options() -> None:
    from tabletrek.games.double_crossing import batch as D
    from tabletrek.games.double_crossing import batch_layout as L
    from tabletrek.games.double_crossing import batch_turn as B

    env = BatchEnv("double-crossing", 1, players=3)
    env.reset(seed=0)
    cfg = env.cfg.copy()
    assert (cfg[L.C_RH_DECLINE], cfg[L.C_TOWER_DECLINE], cfg[L.C_TOWER_ANY], cfg[L.C_CREW_PER_ROLL]) == (
        1,
        1,
        1,
        0,
    )
    old = BatchEnv(
        "double-crossing", 1, players=3, forced_moves=True, tower_to_tower=False, crew_per_roll=True
    ).cfg
    assert (old[L.C_RH_DECLINE], old[L.C_TOWER_DECLINE], old[L.C_TOWER_ANY], old[L.C_CREW_PER_ROLL]) == (
        0,
        0,
        0,
        1,
    )
    tower = int(cfg[L.C_TOWER_AT])
    s = env.states[0].copy()
    B.push(s, L.T_TOWER, 0, 0, 0)
    out = np.zeros(L.NA_MAX, dtype=np.int64)
    seed_rules = set(out[: D.options(s, cfg, out)].tolist())
    to_tower = {int(cfg[L.A_MOVE + 1 * L.SP_MAX + tower]), int(cfg[L.A_MOVE + 2 * L.SP_MAX + tower])}
    assert to_tower | {int(cfg[L.A_DECLINE])} <= seed_rules
    compulsory = set(out[: D.options(s, old, out)].tolist())
    assert compulsory == seed_rules - to_tower - {int(cfg[L.A_DECLINE])}
    depth = int(s[L.STACK_N])
    D.decide(s, env.gens[0].copy(), cfg, int(cfg[L.A_DECLINE]))  # declined: the task goes, nobody moves
    assert int(s[L.STACK_N]) == depth - 1 and s[L.POS + 1] == env.states[0][L.POS + 1]
    B.push(s, L.T_ROUNDHOUSE, 0, 1, 0)
    s[L.POS + 0] = 5
    here = int(cfg[L.A_GO + 5])
    offered = set(out[: D.options(s, cfg, out)].tolist())
    assert int(cfg[L.A_DECLINE]) in offered and here not in offered  # staying is declining
    forced = set(out[: D.options(s, old, out)].tolist())
    assert int(cfg[L.A_DECLINE]) not in forced and here in forced


def test_double_crossing_crew_counts_per_turn_unless_crew_per_roll() -> None:
    from tabletrek.games.double_crossing import batch as D
    from tabletrek.games.double_crossing import batch_layout as L
    from tabletrek.games.double_crossing import batch_turn as B
    from tabletrek.games.double_crossing.content import CREW

    env = BatchEnv("double-crossing", 1, players=2)
    env.reset(seed=0)
    cfg = env.cfg.copy()
    s = env.states[0].copy()
    s[L.STACK_N] = 0
    B.push(s, L.T_PREROLL, 0, 0, 0)
    s[L.HANDS + CREW] = 3
    s[L.CREW_USED] = 2  # two played before a Roll Again
    out = np.zeros(L.NA_MAX, dtype=np.int64)
    rolls = {int(cfg[L.A_ROLL + v]) for v in range(4)}
    assert set(out[: D.options(s, cfg, out)].tolist()) & rolls == {int(cfg[L.A_ROLL])}
    cfg[L.C_CREW_PER_ROLL] = 1
    assert set(out[: D.options(s, cfg, out)].tolist()) & rolls == rolls

"""The compiled engines' flags for rules not yet in the Python rules (off by default) do what they
say; the Python rules cannot check them yet, so these tests build the positions by hand."""

from __future__ import annotations

import numpy as np
import pytest

from tabletrek.core import mt19937

pytestmark = pytest.mark.skipif(not mt19937.HAVE_NUMBA, reason="numba (extra [search]) is not installed")

pytest.importorskip("gymnasium")

from tabletrek.rl.vector import BatchEnv  # noqa: E402


def test_touring_country_needs_go_flag() -> None:
    from tabletrek.games.touring import batch as T
    from tabletrek.games.touring.cards import COUNTRY, GO

    env = BatchEnv("touring", 1, players=2)
    env.reset(seed=0)
    s = env.states[0].copy()
    s[T.HANDS : T.HANDS + T.C] = 0
    s[T.HANDS + COUNTRY] = 1
    s[T.GO_LEN : T.GO_LEN + T.T_MAX] = 0
    s[T.SP_LEN : T.SP_LEN + T.T_MAX] = 0
    s[T.TO_ACT] = 0
    mask = np.zeros(env.single_action_space.n, dtype=np.bool_)
    cfg = env.cfg.copy()
    T.legal_mask(s, cfg, mask)
    assert mask[COUNTRY]  # today's rule: Country on an empty speed pile at any time
    cfg[T.CFG_COUNTRY_NEEDS_GO] = 1
    T.legal_mask(s, cfg, mask)
    assert not mask[COUNTRY] and mask[T.DISCARD_BASE + COUNTRY]
    T.push_go(s, 0, GO)
    T.legal_mask(s, cfg, mask)
    assert mask[COUNTRY]


def test_double_crossing_tower_and_roundhouse_flags() -> None:
    from tabletrek.games.double_crossing import batch as D
    from tabletrek.games.double_crossing import batch_layout as L
    from tabletrek.games.double_crossing import batch_turn as B

    env = BatchEnv("double-crossing", 1, players=3)
    env.reset(seed=0)
    cfg = env.cfg.copy()
    tower = int(cfg[L.C_TOWER_AT])
    s = env.states[0].copy()
    B.push(s, L.T_TOWER, 0, 0, 0)
    out = np.zeros(L.NA_MAX, dtype=np.int64)
    today = set(out[: D.options(s, cfg, out)].tolist())
    assert int(cfg[L.A_MOVE + 1 * L.SP_MAX + tower]) not in today and int(cfg[L.A_DECLINE]) not in today
    cfg[L.C_TOWER_ANY] = cfg[L.C_TOWER_DECLINE] = 1
    flagged = set(out[: D.options(s, cfg, out)].tolist())
    assert flagged == today | {
        int(cfg[L.A_MOVE + 1 * L.SP_MAX + tower]),
        int(cfg[L.A_MOVE + 2 * L.SP_MAX + tower]),
    } | {int(cfg[L.A_DECLINE])}
    depth = int(s[L.STACK_N])
    D.decide(s, env.gens[0].copy(), cfg, int(cfg[L.A_DECLINE]))  # declined: the task goes, nobody moves
    assert int(s[L.STACK_N]) == depth - 1 and s[L.POS + 1] == env.states[0][L.POS + 1]
    B.push(s, L.T_ROUNDHOUSE, 0, 1, 0)
    assert int(cfg[L.A_DECLINE]) not in set(out[: D.options(s, cfg, out)].tolist())
    cfg[L.C_RH_DECLINE] = 1
    assert int(cfg[L.A_DECLINE]) in set(out[: D.options(s, cfg, out)].tolist())

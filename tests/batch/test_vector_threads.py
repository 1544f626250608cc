"""``vector_env(..., threads=N)``: the envs stepped in slices on several threads give exactly what
one thread gives, and an illegal action in any slice still leaves every env unplayed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from tabletrek.core import mt19937
from tabletrek.rl.vector import BatchEnv, sample_actions

pytestmark = pytest.mark.skipif(not mt19937.HAVE_NUMBA, reason="numba (extra [search]) is not installed")

# Short games, so that every slice deals new games (the autoreset) many times over.
SHORT: dict[str, dict[str, Any]] = {
    "touring": {"players": 2},
    "mexican-train": {"players": 4, "rounds": 1},
    "double-crossing": {"players": 3, "max_rounds": 2},
}


@pytest.mark.parametrize("copy", [True, False])
@pytest.mark.parametrize("game", sorted(SHORT))
def test_threads_play_every_env_as_one_thread_does(game: str, copy: bool) -> None:
    # 37 envs over 3 threads: slices of 12, 12 and 13, the last on the calling thread.
    one, three = (BatchEnv(game, 37, seed=9, copy=copy, threads=t, **SHORT[game]) for t in (1, 3))
    assert (one.threads, three.threads) == (1, 3)
    obs1, info1 = one.reset(seed=9)
    obs3, info3 = three.reset(seed=9)
    assert np.array_equal(obs1, obs3) and np.array_equal(info1["action_mask"], info3["action_mask"])
    rng = np.random.default_rng(9)
    ended = np.zeros(37, dtype=np.int64)
    for _ in range(900):
        actions = sample_actions(info1["action_mask"], rng)
        obs1, rewards1, done1, _, info1 = one.step(actions)
        obs3, rewards3, done3, _, info3 = three.step(actions)
        assert np.array_equal(obs1, obs3)
        assert np.array_equal(rewards1, rewards3) and np.array_equal(done1, done3)
        for key in ("action_mask", "seat", "seed", "returns"):
            assert np.array_equal(info1[key], info3[key]), key
        ended += done1
    assert np.array_equal(one.states, three.states) and np.array_equal(one.gens, three.gens)
    assert (ended > 0).all()  # every env, in every slice, finished a game and dealt the next
    one.close()
    three.close()


@pytest.mark.parametrize("illegal_env", [0, 5, 9])
def test_an_illegal_action_in_any_slice_changes_no_env(illegal_env: int) -> None:
    env = BatchEnv("touring", 10, players=2, seed=1, threads=2)  # slices 0-4 and 5-9
    _, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(3):
        _, _, _, _, info = env.step(sample_actions(info["action_mask"], rng))
    states, gens, seeds = env.states.copy(), env.gens.copy(), env.seeds.copy()
    actions = sample_actions(info["action_mask"], rng)
    actions[illegal_env] = int(np.flatnonzero(~info["action_mask"][illegal_env])[0])
    with pytest.raises(ValueError, match=f"in env {illegal_env};"):
        env.step(actions)
    assert np.array_equal(env.states, states) and np.array_equal(env.gens, gens)
    assert np.array_equal(env.seeds, seeds)
    env.close()


@pytest.mark.parametrize("threads", [0, -2])
def test_fewer_than_one_thread_is_refused(threads: int) -> None:
    with pytest.raises(ValueError, match=f"threads must be at least 1, not {threads}"):
        BatchEnv("touring", 4, threads=threads)


@pytest.mark.parametrize("threads", [1.5, "2", True, None])
def test_threads_that_are_not_a_whole_number_are_refused(threads: object) -> None:
    with pytest.raises(TypeError, match="threads is a whole number"):
        BatchEnv("touring", 4, threads=threads)  # type: ignore[arg-type]  # a careless caller


def test_no_more_threads_than_envs_and_close_stops_them() -> None:
    env = BatchEnv("touring", 3, players=2, seed=0, threads=np.int64(8))  # type: ignore[arg-type]  # numpy integers are taken too
    assert env.threads == 3 and [(p.start, p.stop) for p in env._parts] == [(0, 1), (1, 2), (2, 3)]
    _, info = env.reset(seed=0)
    env.step(sample_actions(info["action_mask"], np.random.default_rng(0)))
    pool = env._pool
    assert pool is not None and len(pool._threads) == 2
    env.close()
    assert env._pool is None and all(not thread.is_alive() for thread in pool._threads)

"""``vector_env(..., threads=N)``: the envs stepped in slices on several threads give exactly what
one thread gives, and an illegal action in any slice still leaves every env unplayed. Both ways
of running the slices are held to it: numba's own threads, and Python's where numba's may not run
(``core/batch_driver.py``, ``numba_threads_usable``)."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from tabletrek.core import batch_driver, mt19937
from tabletrek.rl.vector import BatchEnv, sample_actions

pytestmark = pytest.mark.skipif(not mt19937.HAVE_NUMBA, reason="numba (extra [search]) is not installed")

KINDS = ["numba", "python"]
NO_NUMBA_THREADS = "numba may not run its own threads here (one CPU, or NUMBA_NUM_THREADS=1)"


def _need_numba_threads() -> None:
    """Skip the calling test where numba may not run its own threads."""
    if not batch_driver.numba_threads_usable():
        pytest.skip(NO_NUMBA_THREADS)


@pytest.fixture(params=KINDS)
def kind(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Which threads run the slices: numba's (skipped where numba has one thread), or Python's."""
    if request.param == "python":
        monkeypatch.setattr(batch_driver, "numba_threads_usable", lambda: False)
    else:
        _need_numba_threads()
    kind: str = request.param
    return kind


# Short games, so that every slice deals new games (the autoreset) many times over.
SHORT: dict[str, dict[str, Any]] = {
    "touring": {"players": 2},
    "mexican-train": {"players": 4, "rounds": 1},
    "double-crossing": {"players": 3, "max_rounds": 2},
}


@pytest.mark.parametrize("copy", [True, False])
@pytest.mark.parametrize("game", sorted(SHORT))
def test_threads_play_every_env_as_one_thread_does(game: str, copy: bool, kind: str) -> None:
    # 37 envs over 3 threads: slices of 12, 12 and 13.
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
    assert three.threading.startswith("numba threads (" if kind == "numba" else "Python threads")
    assert np.array_equal(one.states, three.states) and np.array_equal(one.gens, three.gens)
    assert (ended > 0).all()  # every env, in every slice, finished a game and dealt the next
    one.close()
    three.close()


@pytest.mark.parametrize("illegal_env", [0, 5, 9])
def test_an_illegal_action_in_any_slice_changes_no_env(illegal_env: int, kind: str) -> None:
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


def test_no_more_threads_than_envs_and_close_stops_python_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch_driver, "numba_threads_usable", lambda: False)
    env = BatchEnv("touring", 3, players=2, seed=0, threads=np.int64(8))  # type: ignore[arg-type]  # numpy integers are taken too
    assert env.threads == 3 and [(p.start, p.stop) for p in env._parts] == [(0, 1), (1, 2), (2, 3)]
    _, info = env.reset(seed=0)
    env.step(sample_actions(info["action_mask"], np.random.default_rng(0)))
    pool = env._pool
    assert pool is not None and len(pool._threads) == 2
    env.close()
    assert env._pool is None and all(not thread.is_alive() for thread in pool._threads)


def _play(threads: int) -> bytes:
    """The states of 9 Touring envs after 60 random steps, on ``threads`` threads."""
    env = BatchEnv("touring", 9, players=2, seed=4, threads=threads)
    _, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(60):
        _, _, _, _, info = env.step(sample_actions(info["action_mask"], rng))
    env.close()
    return env.states.tobytes() + env.threading.encode()


def _play_in_child(queue: Any) -> None:
    queue.put(_play(2))


def _fork_and_play() -> tuple[int | None, bytes]:
    """A forked child's ``_play(2)``: its exit code and what it played."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_play_in_child, args=(queue,))
    child.start()
    child.join(120)
    played = queue.get(timeout=10) if child.exitcode == 0 else b""
    return child.exitcode, played


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is a POSIX call")
def test_a_process_forked_after_numba_threads_ran_steps_on_python_threads() -> None:
    _need_numba_threads()
    # GNU OpenMP ends a forked child that starts a parallel loop once its parent has started
    # numba's threads ("fork() called from a process already using GNU OpenMP"): the child must
    # use Python's threads. Asking ``numba_threads_usable`` above already started them.
    exit_code, played = _fork_and_play()
    assert exit_code == 0
    parent = _play(2)
    assert parent.endswith(b" layer)")  # numba's threads ran in this process
    exit_code, played_later = _fork_and_play()
    assert exit_code == 0 and played_later == played
    one = _play(1)
    states = len(one) - len(b"one thread")
    assert played[:states] == parent[:states] == one[:states]
    assert played[states:] == b"Python threads"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is a POSIX call")
def test_a_process_forked_once_numba_threads_started_steps_on_python_threads() -> None:
    # In a fresh process: asking whether numba's threads may run starts them, and that alone is
    # enough for GNU OpenMP to end a forked child that starts a parallel loop.
    script = (
        "import os\n"
        "import numpy as np\n"
        "from tabletrek.core import batch_driver\n"
        "from tabletrek.rl.vector import BatchEnv, sample_actions\n"
        "if not batch_driver.numba_threads_usable():\n"
        "    print('numba has one thread'); raise SystemExit\n"
        "child = os.fork()\n"
        "if child == 0:\n"
        "    env = BatchEnv('touring', 6, players=2, seed=0, threads=2)\n"
        "    _, info = env.reset(seed=0)\n"
        "    env.step(sample_actions(info['action_mask'], np.random.default_rng(0)))\n"
        "    print(env.threading, flush=True)\n"
        "    os._exit(0)\n"
        "print(os.waitpid(child, 0)[1])\n"
    )
    ran = _python(script, {})
    if ran.stdout.strip() == "numba has one thread":
        pytest.skip(NO_NUMBA_THREADS)
    assert ran.stdout.split("\n")[:2] == ["Python threads", "0"], ran.stdout + ran.stderr


def _python(script: str, environ: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``script`` run by a fresh interpreter that imports this checkout's tabletrek."""
    src = str(Path(batch_driver.__file__).parents[2])
    env = {**os.environ, **environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-c", script], check=False, env=env, capture_output=True, text=True, timeout=300
    )


def test_one_numba_thread_means_python_threads() -> None:
    _need_numba_threads()
    import numba

    numba.set_num_threads(1)
    try:
        env = BatchEnv("touring", 4, players=2, seed=0, threads=2)
        assert env.threading == "Python threads"
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


def test_the_workqueue_layer_is_refused_for_python_threads() -> None:
    # numba's workqueue layer wakes threads more slowly than Python does and ends the process if
    # two threads start parallel loops at once; after the first step the env leaves it.
    script = (
        "import numpy as np\n"
        "from tabletrek.rl.vector import BatchEnv, sample_actions\n"
        "env = BatchEnv('touring', 6, players=2, seed=0, threads=2)\n"
        "_, info = env.reset(seed=0)\n"
        "env.step(sample_actions(info['action_mask'], np.random.default_rng(0)))\n"
        "print(env.threading)\n"
    )
    ran = _python(script, {"NUMBA_THREADING_LAYER": "workqueue", "NUMBA_NUM_THREADS": "2"})
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "Python threads"


def test_a_one_thread_env_leaves_numba_threads_alone() -> None:
    # No split loops compiled, and no parallel loop run, for an env that steps on one thread.
    script = (
        "import numpy as np\n"
        "from tabletrek.core import batch_driver\n"
        "from tabletrek.rl.vector import BatchEnv, sample_actions\n"
        "for game in ('touring', 'mexican-train', 'double-crossing'):\n"
        "    env = BatchEnv(game, 6, seed=0)\n"
        "    _, info = env.reset(seed=0)\n"
        "    env.step(sample_actions(info['action_mask'], np.random.default_rng(0)))\n"
        "print(sorted(batch_driver._split), batch_driver.split_layer(), env.threading)\n"
    )
    ran = _python(script, {})
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "[] None one thread"

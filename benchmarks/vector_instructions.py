"""Machine instructions per env-step of the compiled batch engines, counted by valgrind: a figure
other jobs on a shared machine cannot move (``benchmarks.vector`` times the same loop by the clock).

    python -m benchmarks.vector_instructions [GAME ...] [--envs 4096] [--stages]

Each count runs ``benchmarks.vector``'s loop (``vector_env(GAME, envs)``, copying outputs as the
default API does, stepped with ``sample_actions`` on ``info["action_mask"]``) under valgrind
(``cachegrind --cache-sim=no``, ``PYTHONHASHSEED=0``) twice, for a few steps and for more
(``STEPS``), and divides the difference in instructions by the difference in env-steps, so
start-up, imports, numba's cache load and the first deal cancel out. Both runs play the same
seeded games. numba compiles for one fixed CPU here (``HASWELL``), inside valgrind and out, so
the counts are of that code, not of what numba makes for the host's own CPU (AVX-512 on ours).

``--stages`` splits a step: the same batch, after the shorter run's steps, has each stage run
alone (``mask``: legal masks; ``observe``: observations; ``apply``: the moves, each repeat after
restoring the batch; ``copy``: that restoring alone, to subtract; ``sample``: the random agent's
pick), counted the same way (``STAGE_REPEATS``); the driver and the env's Python side are what
``step`` leaves over. Every figure is printed with its noise (the shorter run counted twice): a
cheap stage's difference at the default repeats can be smaller than what two identical runs
differ by, and then it is no measurement. Needs the ``valgrind`` command; warms numba's cache
first; each count takes minutes (three valgrind runs of a few billion instructions).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from typing import Any

import numpy as np

from benchmarks import _valgrind as valgrind_count
from benchmarks._numba_threads import numba_threads

GAMES = ("touring", "mexican-train", "double-crossing")
STEPS = (30, 90)
"""Steps of the shorter and the longer run (after ``reset``): the counted steps are 31 to 90."""
STAGE_REPEATS = (2, 202)
"""Repeats of a stage in the shorter and the longer run: 200 apart, so that a stage of a few hundred
instructions an env-step stands well above the runs' noise (at 10 apart, Mexican Train's mask read
207 ± 824; at 200, 671 ± 17)."""
STAGES = ("step", "mask", "observe", "apply", "sample", "copy")
SEED = 0


def stepped(game: str, envs: int, steps: int) -> tuple[Any, dict[str, Any], np.random.Generator]:
    """The env after ``steps`` random masked steps from ``reset(seed=SEED)``."""
    from tabletrek.rl.vector import BatchEnv, sample_actions

    env = BatchEnv(game, envs, seed=SEED)
    rng = np.random.default_rng(SEED)
    _, info = env.reset(seed=SEED)
    for _ in range(steps):
        _, _, _, _, info = env.step(sample_actions(info["action_mask"], rng))
    return env, info, rng


def _masks(states: np.ndarray, cfg: np.ndarray, mask: np.ndarray, repeats: int) -> None:
    scratch = np.zeros(max(mask.shape[1], 1), dtype=np.int64)
    for _ in range(repeats):
        for i in range(states.shape[0]):
            _mask(row(states, i), cfg, row(mask, i), scratch)  # noqa: F821 - bound per engine


def _observes(states: np.ndarray, cfg: np.ndarray, obs: np.ndarray, repeats: int) -> None:
    for _ in range(repeats):
        for i in range(states.shape[0]):
            observe(row(states, i), cfg, row(obs, i))  # noqa: F821 - bound per engine


def _applies(
    states: np.ndarray,
    gens: np.ndarray,
    cfg: np.ndarray,
    actions: np.ndarray,
    work: np.ndarray,
    gwork: np.ndarray,
    repeats: int,
    width: int,
) -> None:
    # The moves only: each repeat restores the batch first (the "copy" stage counts that alone).
    scratch = np.zeros(max(width, 1), dtype=np.int64)
    for _ in range(repeats):
        work[:] = states
        gwork[:] = gens
        if width > 0:
            for i in range(states.shape[0]):
                _apply(row(work, i), row(gwork, i), cfg, actions[i], scratch)  # noqa: F821 - bound per engine


def _stage_loops(engine: Any) -> dict[str, Any]:
    """The loops above compiled against ``engine``'s rules, as ``core/batch_driver.py`` binds its
    loops (so the rules are inlined as in a step)."""
    from tabletrek.core.batch_driver import bind_loop

    return {t.__name__: bind_loop(t, vars(engine)) for t in (_masks, _observes, _applies)}


def run_stage(game: str, envs: int, stage: str, repeats: int) -> int:
    """Runs ``stage`` ``repeats`` times on the batch after ``STEPS[0]`` steps; the env-steps done."""
    from tabletrek.rl.vector import sample_actions

    env, info, rng = stepped(game, envs, STEPS[0])
    eng = env.engine
    if stage == "step":
        for _ in range(repeats):
            _, _, _, _, info = env.step(sample_actions(info["action_mask"], rng))
        return repeats * envs
    loops = _stage_loops(eng)
    if stage == "mask":
        loops["_masks"](env.states, env.cfg, env.mask.copy(), repeats)
    elif stage == "observe":
        loops["_observes"](env.states, env.cfg, env.obs.copy(), repeats)
    elif stage in ("apply", "copy"):
        actions = sample_actions(info["action_mask"], rng)
        width = env.mask.shape[1] if stage == "apply" else 0
        work, gwork = env.states.copy(), env.gens.copy()
        loops["_applies"](env.states, env.gens, env.cfg, actions, work, gwork, repeats, width)
    elif stage == "sample":
        for _ in range(repeats):
            sample_actions(info["action_mask"], rng)
    else:
        raise ValueError(stage)
    return repeats * envs


HASWELL = (
    "+64bit,+avx,+avx2,+bmi,+bmi2,+cmov,+cx16,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,+popcnt,"
    "+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+xsave"
)
"""The CPU numba compiles for in these runs, inside valgrind and out. valgrind's virtual CPU lacks
the AVX-512 of many hosts, so numba would miss its cache (keyed by CPU) and compile every engine
inside valgrind, ten times the instructions counted; fixed here, one warm cache serves both."""


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONHASHSEED": "0",
        "NUMBA_NUM_THREADS": "1",
        "NUMBA_CPU_NAME": "haswell",
        "NUMBA_CPU_FEATURES": HASWELL,
    }


def _run_command(game: str, envs: int, stage: str, amount: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "benchmarks.vector_instructions",
        "--run",
        game,
        stage,
        str(amount),
        "--envs",
        str(envs),
    ]


def warm(game: str, stage: str) -> None:
    """Fills numba's cache for this CPU setting outside valgrind."""
    subprocess.run(_run_command(game, 8, stage, 1), capture_output=True, check=True, env=_env())


def counted(game: str, envs: int, stage: str, amount: int) -> tuple[int, int]:
    """(env-steps, instructions) of one run under valgrind."""
    return valgrind_count.counted(_run_command(game, envs, stage, amount), _env())


def per_step(game: str, envs: int, stage: str) -> tuple[float, float]:
    """Instructions an env-step, and the noise of that figure: the shorter run is counted twice,
    and what two identical runs differ by (tens of millions of instructions here, from start-up)
    is divided as the difference is. A stage cheaper than that noise shows it, rather than a
    figure that looks exact (a mask stage once read -319 instructions an env-step)."""
    if stage == "step":
        few, many = STEPS[0], STEPS[1]
        few, many = 0, many - few  # steps after the common STEPS[0]
    else:
        few, many = STAGE_REPEATS
    few_steps, few_refs = counted(game, envs, stage, few)
    _, again_refs = counted(game, envs, stage, few)
    many_steps, many_refs = counted(game, envs, stage, many)
    steps = many_steps - few_steps
    return (many_refs - (few_refs + again_refs) / 2) / steps, abs(again_refs - few_refs) / steps


def main() -> None:
    numba_threads(1)  # one thread, as the figures assume
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--envs", type=int, default=4096)
    parser.add_argument("--stages", action="store_true", help="also count each stage of a step alone")
    parser.add_argument("--run", nargs=3, help=argparse.SUPPRESS)  # one valgrind run: GAME STAGE N
    args = parser.parse_args()
    if args.run:
        game, stage, amount = args.run
        print(run_stage(game, args.envs, stage, int(amount)))
        return
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)}; known: {', '.join(GAMES)}")
    valgrind_count.require_valgrind()
    stages = STAGES if args.stages else ("step",)
    for game in args.games:
        for stage in stages:
            warm(game, stage)
        for stage in stages:
            value, noise = per_step(game, args.envs, stage)
            print(
                f"{game:16s} {stage:8s} {value:10,.0f} instructions/env-step"
                f"  (± {noise:,.0f}: two identical runs differed by this much)",
                flush=True,
            )


if __name__ == "__main__":
    main()

"""Steps a second of the compiled batch engines, beside OpenSpiel and our public Python API.

    python -m benchmarks.vector GAME --envs 4096 --seconds 10 [--players N] [--check GAMES] [--threads N]

One process on one core: a single thread (NUMBA_NUM_THREADS=1, nothing runs in parallel);
``--pin`` also pins it to one CPU (on a shared machine that CPU may be the busy one, so it is off
by default). ``--threads N`` adds a line for ``vector_env(..., threads=N)`` measured in the same
run, its ratio to the one-thread line, and which threads ran the slices (numba's, given
NUMBA_NUM_THREADS=N, which ``--threads`` sets unless the environment does; with ``--pin``, the
process then gets N CPUs).

- ``vector``: ``tabletrek.rl.vector_env(GAME, envs)`` stepped with random legal actions drawn from
  ``info["action_mask"]`` (``sample_actions``); every step computes every env's observation and
  mask, as a learner would use them;
- ``python``: random playouts through the public API (``legal_actions`` + ``apply``);
- ``openspiel``: an OpenSpiel C++ game (``--openspiel``; by default crazy_eights for Touring,
  hearts for Mexican Train, backgammon for Double Crossing) played at random from Python, chance
  nodes sampled and not counted.

Each line gives steps per wall second and per CPU second (the machine may be shared: the CPU
figure is the fairer one), and the load average when it finished. ``--check GAMES`` also plays
that many games through ``rl/exactness.py`` (batch against the Python rules, move for move).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

import tabletrek
from benchmarks._numba_threads import numba_threads

OPENSPIEL = {"touring": "crazy_eights", "mexican-train": "hearts", "double-crossing": "backgammon"}


@dataclass(frozen=True)
class Rate:
    name: str
    steps: int
    wall: float
    cpu: float
    load: float

    def line(self) -> str:
        return (
            f"  {self.name:<34} {self.steps / self.wall:>13,.0f} steps/s wall "
            f"{self.steps / self.cpu:>13,.0f} per CPU-s   (load {self.load:.2f})"
        )


def measure(name: str, run: Any, seconds: float) -> Rate:
    start, cpu = time.perf_counter(), time.process_time()
    steps = run(start + seconds)
    return Rate(name, steps, time.perf_counter() - start, time.process_time() - cpu, os.getloadavg()[0])


def vector(env: Any, seed: int) -> Any:
    """Random masked steps of ``env`` (a ``BatchEnv``) until the deadline."""
    from tabletrek.rl.vector import sample_actions

    envs = env.num_envs
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    _, _, _, _, info = env.step(
        sample_actions(info["action_mask"], rng)
    )  # compiled (or loaded from the cache) here

    def run(deadline: float) -> int:
        nonlocal info
        steps = 0
        while time.perf_counter() < deadline:
            _, _, _, _, info = env.step(sample_actions(info["action_mask"], rng))
            steps += envs
        return steps

    return run


def python_api(game: str, players: int | None, seed: int, options: dict[str, Any]) -> Any:
    rules = tabletrek.load(game, players=players, **options)
    rng = random.Random(seed)

    def run(deadline: float) -> int:
        steps = games = 0
        while time.perf_counter() < deadline:
            state = rules.new_game(seed=seed + games)
            while not state.is_over and time.perf_counter() < deadline:
                state.apply(rng.choice(state.legal_actions()))
                steps += 1
            games += 1
        return steps

    return run


def openspiel(name: str, seed: int) -> Any:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    rng = random.Random(seed)

    def run(deadline: float) -> int:
        steps = 0
        while time.perf_counter() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, probs)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    steps += 1
        return steps

    return run


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game", choices=sorted(OPENSPIEL))
    parser.add_argument("--envs", type=int, default=4096)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--openspiel", default=None, help="the OpenSpiel game to compare with")
    parser.add_argument("--check", type=int, default=0, help="also check this many games for exactness")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE (JSON value), repeatable")
    parser.add_argument("--pin", action="store_true", help="pin the process to one CPU (to --threads CPUs)")
    parser.add_argument("--threads", type=int, default=1, help="also time vector_env(..., threads=N)")
    args = parser.parse_args()
    import json

    options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}
    # One thread, unless --threads asks numba's threads to step the slices (numba is first
    # imported below, with the batch env).
    numba_threads(max(args.threads, 1))
    from tabletrek.rl.vector import BatchEnv

    def batch(copy: bool = True, threads: int = 1) -> Any:
        return BatchEnv(
            args.game, args.envs, players=args.players, seed=args.seed, copy=copy, threads=threads, **options
        )

    if args.pin and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, set(sorted(os.sched_getaffinity(0))[: max(args.threads, 1)]))
    print(
        f"{args.game}, players={args.players or 'default'}, options={options}, {args.envs} envs, "
        f"{args.seconds:g} s each, Python {platform.python_version()}, "
        f"NUMBA_NUM_THREADS={os.environ.get('NUMBA_NUM_THREADS', 'unset')}"
    )
    rates = [
        measure(
            "vector (compiled batch)",
            vector(batch(), args.seed),
            args.seconds,
        )
    ]
    print(rates[-1].line(), flush=True)
    # The default hands out copies of the outputs, as Gymnasium's vector envs do; copy=False hands
    # out the env's own buffers (valid until the next step), which saves the copies' time.
    shared = measure(
        "vector, copy=False",
        vector(batch(copy=False), args.seed),
        args.seconds,
    )
    print(shared.line(), flush=True)
    if args.threads > 1:
        env = batch(threads=args.threads)
        split = measure(f"vector, {args.threads} threads", vector(env, args.seed), args.seconds)
        print(split.line(), flush=True)
        one = rates[0].steps / rates[0].wall
        ratio = split.steps / split.wall / one
        print(f"  {args.threads} threads / one thread: {ratio:.2f}x wall ({env.threading})")
        env.close()
    rates.append(
        measure("public Python API", python_api(args.game, args.players, args.seed, options), args.seconds)
    )
    print(rates[-1].line(), flush=True)
    name = args.openspiel or OPENSPIEL[args.game]
    run = openspiel(name, args.seed)
    if run is None:
        print("  openspiel: not installed (pip install 'tabletrek[openspiel]')")
    else:
        rates.append(measure(f"OpenSpiel {name} (C++ from Python)", run, args.seconds))
        print(rates[-1].line(), flush=True)
    batch = rates[0]
    for other in rates[1:]:
        print(
            f"  vector / {other.name}: {batch.steps / batch.wall / (other.steps / other.wall):.1f}x wall, "
            f"{batch.steps / batch.cpu / (other.steps / other.cpu):.1f}x per CPU-s"
        )
    if args.check:
        from tabletrek.rl.exactness import check

        done = check(args.game, args.check, players=args.players, seed=args.seed, **options)
        print(
            f"  exactness: {done.games:,} games, {done.moves:,} moves, {done.states:,} states "
            "equal the Python rules"
        )


if __name__ == "__main__":
    main()

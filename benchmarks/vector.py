"""Steps a second of the compiled batch engines, beside OpenSpiel and our public Python API.

    python -m benchmarks.vector GAME --envs 4096 --seconds 10 [--slices 10] [--players N]
        [--check GAMES] [--threads N]

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

The engines take turns: ``--seconds`` each, cut into ``--slices`` slices run round-robin (the
order rotating each round), so a burst of load from elsewhere on a shared machine lands on every
engine alike instead of on whichever ran during it, and the ratios compare like with like. Each
line gives steps per wall second and per CPU second over all of an engine's slices (the CPU
figure is the fairer one where the machine is shared), the range of its slices' rates (how much
the machine moved under it) and the load average when the run finished. ``--check GAMES`` also
plays that many games through ``rl/exactness.py`` (batch against the Python rules, move for move).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import tabletrek
from benchmarks._numba_threads import numba_threads

OPENSPIEL = {"touring": "crazy_eights", "mexican-train": "hearts", "double-crossing": "backgammon"}


@dataclass
class Rate:
    """One engine's slices, added up: steps, wall and CPU seconds, and each slice's steps per wall
    second."""

    name: str
    steps: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    slices: list[float] = field(default_factory=list)

    def add(self, steps: int, wall: float, cpu: float) -> None:
        self.steps += steps
        self.wall += wall
        self.cpu += cpu
        self.slices.append(steps / wall)

    def line(self, load: float) -> str:
        spread = f"slices {min(self.slices):,.0f}–{max(self.slices):,.0f}"
        return (
            f"  {self.name:<34} {self.steps / self.wall:>13,.0f} steps/s wall "
            f"{self.steps / self.cpu:>13,.0f} per CPU-s   ({spread}; load {load:.2f})"
        )


def cpu_model(cpuinfo: str = "/proc/cpuinfo") -> str:
    """The processor's name, for the header: figures from two hosts differ by a third (an AMD
    EPYC and an Intel Xeon read the same change as −9% and −30%), so each run says which it was."""
    try:
        with open(cpuinfo, encoding="utf-8", errors="replace") as lines:
            for line in lines:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and value.strip():
                    return value.strip()
    except OSError:  # not Linux
        pass
    return platform.processor() or platform.machine() or "an unknown processor"


def interleaved(runs: dict[str, Any], seconds: float, slices: int) -> list[Rate]:
    """Each of ``runs`` (name: ``run(deadline) -> steps``) for ``seconds`` in all, in ``slices``
    turns of ``seconds / slices``, round-robin, the order rotating each round so that no engine
    always follows the same one."""
    rates = [Rate(name) for name in runs]
    turn = seconds / slices
    for round_ in range(slices):
        shift = round_ % len(rates)
        for rate in rates[shift:] + rates[:shift]:
            start, cpu = time.perf_counter(), time.process_time()
            steps = runs[rate.name](start + turn)
            rate.add(steps, time.perf_counter() - start, time.process_time() - cpu)
    return rates


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
    parser.add_argument("--seconds", type=float, default=10.0, help="each engine's time in all")
    parser.add_argument("--slices", type=int, default=10, help="turns each engine's time is cut into")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--openspiel", default=None, help="the OpenSpiel game to compare with")
    parser.add_argument("--check", type=int, default=0, help="also check this many games for exactness")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE (JSON value), repeatable")
    parser.add_argument("--pin", action="store_true", help="pin the process to one CPU (to --threads CPUs)")
    parser.add_argument("--threads", type=int, default=1, help="also time vector_env(..., threads=N)")
    args = parser.parse_args()
    if args.seconds <= 0 or args.slices < 1:
        parser.error("--seconds must be above 0 and --slices at least 1")
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
        f"{args.seconds:g} s each in {args.slices} turns, Python {platform.python_version()}, "
        f"NUMBA_NUM_THREADS={os.environ.get('NUMBA_NUM_THREADS', 'unset')}, {cpu_model()}"
    )
    # The default hands out copies of the outputs, as Gymnasium's vector envs do; copy=False hands
    # out the env's own buffers (valid until the next step), which saves the copies' time.
    runs = {
        "vector (compiled batch)": vector(batch(), args.seed),
        "vector, copy=False": vector(batch(copy=False), args.seed),
    }
    threaded = batch(threads=args.threads) if args.threads > 1 else None
    if threaded is not None:
        runs[f"vector, {args.threads} threads"] = vector(threaded, args.seed)
    python = "public Python API"
    runs[python] = python_api(args.game, args.players, args.seed, options)
    name = args.openspiel or OPENSPIEL[args.game]
    anchor = openspiel(name, args.seed)
    anchor_name = f"OpenSpiel {name} (C++ from Python)"
    if anchor is not None:
        runs[anchor_name] = anchor
    rates = {rate.name: rate for rate in interleaved(runs, args.seconds, args.slices)}
    load = os.getloadavg()[0]
    for rate in rates.values():
        print(rate.line(load))
    if anchor is None:
        print("  openspiel: not installed (pip install 'tabletrek[openspiel]')")
    one = rates["vector (compiled batch)"]
    if threaded is not None:
        split = rates[f"vector, {args.threads} threads"]
        ratio = split.steps / split.wall / (one.steps / one.wall)
        print(f"  {args.threads} threads / one thread: {ratio:.2f}x wall ({threaded.threading})")
        threaded.close()
    for other in (rates[key] for key in (python, anchor_name) if key in rates):
        # Slices of one round ran within seconds of each other: the spread of their ratios says
        # how far the machine's noise could move the ratio.
        rounds = [mine / theirs for mine, theirs in zip(one.slices, other.slices, strict=True)]
        print(
            f"  vector / {other.name}: {one.steps / one.wall / (other.steps / other.wall):.1f}x wall, "
            f"{one.steps / one.cpu / (other.steps / other.cpu):.1f}x per CPU-s "
            f"(rounds {min(rounds):.1f}x–{max(rounds):.1f}x)"
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

"""Touring random-playout throughput through the public API (legal_actions + apply).

    taskset -c 0 python -m benchmarks.touring [--seconds 10] [--players 2]

Prints games/s and actions/s on one core, CPU time included so a noisy machine shows itself.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import tabletrek


def run(players: int, seconds: float, seed: int) -> tuple[int, int, float, float]:
    game = tabletrek.load("touring", players=players)
    rng = random.Random(seed)
    games = actions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_game(seed=seed + games)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        games += 1
    return games, actions, time.perf_counter() - start, time.process_time() - cpu_start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    games, actions, wall, cpu = run(args.players, args.seconds, args.seed)
    print(f"touring random playouts, {args.players} players, Python {platform.python_version()}")
    print(f"  games:     {games:,} in {wall:.1f} s wall ({cpu:.1f} s CPU)")
    print(f"  games/s:   {games / wall:,.0f} wall, {games / cpu:,.0f} per CPU-second")
    print(f"  actions/s: {actions / wall:,.0f} wall, {actions / cpu:,.0f} per CPU-second")
    print(f"  actions per game: {actions / games:.1f}")


if __name__ == "__main__":
    main()

"""Double Crossing playout throughput through the public API (legal_actions + apply).

    taskset -c 0 python -m benchmarks.double_crossing [--seconds 10] [--players 4] [--bots random]

Prints games/s and actions/s on one core, CPU time included so a noisy machine shows itself.
Random players almost never collect six contracts, so random games run to ``max_rounds`` (200
rounds by default); ``--bots trader`` measures games that end the ordinary way, bot time included.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import tabletrek


def run(players: int, bots: str, seconds: float, seed: int) -> tuple[int, int, int, float, float]:
    game = tabletrek.load("double-crossing", players=players)
    rng = random.Random(seed)
    games = actions = rounds = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_game(seed=seed + games)
        lineup = (
            [game.bot(bots, seat=s, seed=seed + games * 10 + s) for s in range(players)]
            if bots != "random"
            else None
        )
        while not state.is_over:
            if lineup is None:
                state.apply(rng.choice(state.legal_actions()))
            else:
                seat = state.current_player
                assert seat is not None
                state.apply(lineup[seat].act(state))
            actions += 1
        rounds += getattr(state, "rounds", 0)
        games += 1
    return games, actions, rounds, time.perf_counter() - start, time.process_time() - cpu_start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="random", choices=["random", "trader"])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    games, actions, rounds, wall, cpu = run(args.players, args.bots, args.seconds, args.seed)
    print(f"double-crossing {args.bots} playouts, {args.players} players, Python {platform.python_version()}")
    print(f"  games:     {games:,} in {wall:.1f} s wall ({cpu:.1f} s CPU)")
    print(f"  games/s:   {games / wall:,.1f} wall, {games / cpu:,.1f} per CPU-second")
    print(f"  actions/s: {actions / wall:,.0f} wall, {actions / cpu:,.0f} per CPU-second")
    print(f"  actions per game: {actions / games:.1f}; rounds per game: {rounds / games:.1f}")


if __name__ == "__main__":
    main()

"""Tune the Touring greedy bot's weights by coordinate search against the random bot.

    python -m benchmarks.touring_tune --games 400 --passes 2

Each candidate plays the same seeded games (seats alternating), so comparisons are paired. Prints
the best weights found; copy them into ``Weights`` in ``games/touring/bots.py``.
"""

from __future__ import annotations

import argparse
from dataclasses import asdict, fields

import tabletrek
from tabletrek.games.touring.bots import Weights


def win_rate(weights: dict[str, float], games: int, seed: int) -> float:
    game = tabletrek.load("touring", players=2)
    wins = 0
    for i in range(games):
        state = game.new_game(seed=seed + i)
        me = i % 2
        bots = {
            me: game.bot("greedy", seat=me, seed=i, **weights),
            1 - me: game.bot("random", seat=1 - me, seed=i),
        }
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].act(state))
        result = state.result
        assert result is not None
        wins += me in result.winners
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--passes", type=int, default=1)
    parser.add_argument("--seed", type=int, default=10_000)
    args = parser.parse_args()
    best = asdict(Weights())
    best_rate = win_rate(best, args.games, args.seed)
    print(f"start: {best_rate:.3f}", flush=True)
    for _ in range(args.passes):
        for field in fields(Weights):
            for factor in (0.7, 1.4):
                trial = dict(best)
                trial[field.name] = best[field.name] * factor if best[field.name] else factor - 1
                rate = win_rate(trial, args.games, args.seed)
                if rate > best_rate:
                    best, best_rate = trial, rate
                    print(f"{field.name} -> {trial[field.name]:.2f}: {rate:.3f}", flush=True)
    print("best:", best_rate)
    for name, value in best.items():
        print(f"    {name}: float = {value}")


if __name__ == "__main__":
    main()

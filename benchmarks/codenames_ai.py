"""Codenames Duet AI speed: table load, board set-up, clue time and guess time.

    taskset -c 1 python -m benchmarks.codenames_ai [--games 30] [--lang en|zh-Hant] [--models e5,minilm]

Plays seeded AI-pair games through the real rules and times every ``bot.act`` call, split into the
first clue on a board (it computes the board's ensemble z-scores: one 25 x dims by dims x vocabulary
product per model, then cached), later clues, and guesses. The very first board of a process also
computes the vocabulary's moments once (the "max" of the first line). Targets (issue 4): clue
<= 10 ms, guess <= 1 ms. Times are wall clock on a shared machine: note the load next to the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from tabletrek.core.registry import load
from tabletrek.games.codenames_duet.ai import tables


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def line(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (
        f"{name:26} n={len(ms):5d}  median {statistics.median(ms):8.3f} ms  p95 {pct(ms, 0.95):8.3f} ms  "
        f"max {max(ms):8.3f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--lang", default="en", choices=tables.LANGUAGES)
    parser.add_argument("--models", default="", help="default: every shipped table of the language")
    args = parser.parse_args()

    start = time.perf_counter()
    loaded = tables.load_tables(args.lang)
    load_s = time.perf_counter() - start
    models = args.models or ",".join(loaded.shipped)
    game = load("codenames-duet", word_pack=args.lang)
    setup: list[float] = []
    clue: list[float] = []
    guess: list[float] = []
    for seed in range(args.games):
        state = game.new_game(seed=10_000 + seed)
        bots = [game.bot("codenames-clue", seat=s, seed=s, models=models) for s in (0, 1)]
        first = True
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            phase = state.public_view()["phase"]
            t0 = time.perf_counter()
            action = bots[seat].act(state)
            elapsed = time.perf_counter() - t0
            if phase == "clue":
                (setup if first else clue).append(elapsed)
                first = False
            else:
                guess.append(elapsed)
            state.apply(action)
    print(
        f"codenames-duet AI ({args.lang}), models {models}, {args.games} games, "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    print(f"tables load (once per process): {load_s * 1000:.0f} ms")
    print(line("first clue on a board", setup))
    print(line("clue (board cached)", clue))
    print(line("guess", guess))


if __name__ == "__main__":
    main()

"""Codenames Duet rules throughput and clue-check latency (the AI's own timings are measured apart).

    taskset -c 0 python -m benchmarks.codenames_duet_rules [--seconds 2]

1. Random playouts through the public API (``legal_actions`` + ``apply``): games/s and actions/s.
   Random play ends early (an assassin is touched within a few turns), so the per-action figure is
   the meaningful one.
2. ``clue`` validation: the latency of applying a typed clue (parse, stem/lemma checks against the
   visible words, apply) on fresh positions, median and p95, and of ``DuetState.clue_problem`` alone,
   which a clue-giving bot calls for each candidate word.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time

import tabletrek
from tabletrek.games.codenames_duet.state import DuetState
from tabletrek.games.codenames_duet.words import load_pack


def playouts(seconds: float) -> tuple[int, int, float]:
    game = tabletrek.load("codenames-duet")
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_game(seed=games)
        rng = random.Random(games)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        games += 1
    return games, actions, time.perf_counter() - start


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def clue_latency(samples: int) -> tuple[list[float], list[float]]:
    game = tabletrek.load("codenames-duet")
    words = load_pack("en").words
    rng = random.Random(1)
    applies: list[float] = []
    checks: list[float] = []
    for i in range(samples):
        state = game.new_game(seed=i)
        assert isinstance(state, DuetState)
        word = rng.choice(words)
        start = time.perf_counter()
        state.clue_problem(word)
        checks.append(time.perf_counter() - start)
        start = time.perf_counter()
        with contextlib.suppress(tabletrek.IllegalAction):
            state.apply(f"clue {word} 1")
        applies.append(time.perf_counter() - start)
    return applies, checks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args()
    playouts(0.2)  # warm up: the lemmatizer loads its English dictionary once (~0.5 s)
    games, actions, elapsed = playouts(args.seconds)
    print(
        f"random playouts: {games / elapsed:,.0f} games/s, {actions / elapsed:,.0f} actions/s "
        f"({games} games, {actions / games:.1f} actions per game)"
    )
    applies, checks = clue_latency(args.samples)
    for name, values in (("apply('clue w 1')", applies), ("clue_problem(w)", checks)):
        print(
            f"{name:18s} median {statistics.median(values) * 1e6:7.1f} us, "
            f"p95 {percentile(values, 0.95) * 1e6:7.1f} us ({len(values)} samples)"
        )


if __name__ == "__main__":
    main()

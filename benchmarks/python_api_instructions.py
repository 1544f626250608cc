"""Machine instructions per public-API action, counted by valgrind: a figure other jobs cannot move.

    python -m benchmarks.python_api_instructions [ENGINE ...]

``benchmarks.python_api`` times random playouts by the clock, which a busy machine distorts. This
runs the same loops (its ``tight_loop``, ``public_api`` and PyPI ``dominoes``) under valgrind
(``cachegrind --cache-sim=no``, ``PYTHONHASHSEED=0``) twice, for a few games and for more (``RUNS``), and
divides the difference in instructions by the difference in actions, so start-up and imports
cancel out. Needs the ``valgrind`` command; about a minute per engine.
"""

from __future__ import annotations

import argparse
import os
import random
import sys

from benchmarks import _valgrind as valgrind_count
from benchmarks.mexican_train import pypi_dominoes
from benchmarks.python_api import GAMES, Play, game_engine, tight_loop

TIGHT, DOMINOES = "tight-loop", "dominoes"
RUNS = {
    TIGHT: (5, 25),
    "touring": (2, 12),
    "mexican-train": (10, 50),
    DOMINOES: (10, 50),
    "double-crossing": (1, 4),
}
"""Games in the shorter and the longer run of each engine: a few thousand actions between them."""


def engine(name: str, rng: random.Random) -> Play:
    if name == TIGHT:
        return tight_loop(rng)
    if name == DOMINOES:
        play = pypi_dominoes(rng)
        if play is None:
            raise SystemExit("PyPI dominoes is not installed (the bench extra)")
        return play
    return game_engine(name, rng)


def play_games(name: str, games: int) -> int:
    """The actions of ``games`` seeded playouts (what one valgrind run executes)."""
    play = engine(name, random.Random(20261201))
    return sum(play(seed) for seed in range(games))


def counted(name: str, games: int) -> tuple[int, int]:
    """(actions, instructions) of one run under valgrind."""
    command = [sys.executable, "-m", "benchmarks.python_api_instructions", "--play", name, str(games)]
    return valgrind_count.counted(command, {**os.environ, "PYTHONHASHSEED": "0"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engines", nargs="*", default=[TIGHT, *GAMES, DOMINOES])
    parser.add_argument("--play", nargs=2, help=argparse.SUPPRESS)  # one valgrind run: ENGINE GAMES
    args = parser.parse_args()
    if args.play:
        print(play_games(args.play[0], int(args.play[1])))
        return
    unknown = [name for name in args.engines if name not in RUNS]
    if unknown:
        parser.error(f"unknown engine {', '.join(unknown)}; known: {', '.join(RUNS)}")
    valgrind_count.require_valgrind()
    per_action: dict[str, float] = {}
    for name in args.engines:
        few, many = RUNS[name]
        few_actions, few_refs = counted(name, few)
        many_actions, many_refs = counted(name, many)
        per_action[name] = (many_refs - few_refs) / (many_actions - few_actions)
        print(
            f"{name:16s} {per_action[name]:10,.0f} instructions/action ({many_actions - few_actions} actions)"
        )
    if TIGHT in per_action:
        for name, count in per_action.items():
            print(f"{name:16s} {per_action[TIGHT] / count:5.3f} of the tight loop (by instructions)")
    if DOMINOES in per_action and "mexican-train" in per_action:
        print(f"mexican-train    {per_action[DOMINOES] / per_action['mexican-train']:5.2f}x PyPI dominoes")


if __name__ == "__main__":
    main()

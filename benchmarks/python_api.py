"""Public-API random playouts of every competitive game beside a tight pure-Python loop.

    taskset -c 0 python -m benchmarks.python_api [--seconds 0.2] [--repeats 10] [--processes 5] [GAME ...]

Each game is played uniformly at random through the public API (``state.legal_actions()`` and
``state.apply(action)``); beside it runs the smallest engine-shaped game one can write in pure
Python (``tight_loop`` below: a ``__slots__`` state, a legal-move list built per action, one
``random.choice`` and one ``apply`` per action), so the ratio "game / tight loop" says how much of
the interpreter's per-action budget the rules spend, on whatever machine and load. Mexican Train is
also timed against PyPI ``dominoes`` (the ``bench`` extra), a 4-player double-six block game; we
have no double-six option, so our 4-player single round on the double-nine set (the default below
six players) runs beside it: engine speed per action, not like with like. Slices of all engines
alternate and each engine's best slice counts, so a burst of load from elsewhere does not land on
one engine only; each engine's best over several fresh processes counts, because the tight
loop's speed depends on where its few objects land in memory (``in_fresh_processes``); the load
average is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable

import tabletrek
from benchmarks.mexican_train import pypi_dominoes

Play = Callable[[int], int]


class _TightState:
    """A 99-card draw-and-play game: draw one card, then play one card that beats the pile top if any can."""

    __slots__ = ("deck", "drawn", "hands", "pile", "score", "turn")

    def __init__(self, rng: random.Random) -> None:
        self.deck = list(range(1, 100))
        rng.shuffle(self.deck)
        self.hands = [[self.deck.pop() for _ in range(5)] for _ in range(2)]
        self.pile = 0
        self.turn = 0
        self.drawn = False
        self.score = [0, 0]

    @property
    def is_over(self) -> bool:
        return not self.deck and not self.drawn

    def legal_actions(self) -> list[int]:
        if not self.drawn:
            return [0]
        hand = self.hands[self.turn]
        beat = [c for c in hand if c > self.pile]
        return beat or list(hand)

    def apply(self, action: int) -> None:
        if not self.drawn:
            self.hands[self.turn].append(self.deck.pop())
            self.drawn = True
            return
        self.hands[self.turn].remove(action)
        self.pile = action
        self.score[self.turn] += action
        self.drawn = False
        self.turn ^= 1


def tight_loop(rng: random.Random) -> Play:
    def play(seed: int) -> int:
        state = _TightState(rng)
        choice = rng.choice
        n = 0
        while not state.is_over:
            state.apply(choice(state.legal_actions()))
            n += 1
        return n

    return play


def public_api(name: str, rng: random.Random, **options: int) -> Play:
    game = tabletrek.load(name, **options)

    def play(seed: int) -> int:
        state = game.new_game(seed=seed)
        choice = rng.choice
        n = 0
        while not state.is_over:
            state.apply(choice(state.legal_actions()))
            n += 1
        return n

    return play


def best_rate(play: Play, seconds: float, first_seed: int) -> float:
    actions = games = 0
    start = time.perf_counter()
    while True:
        actions += play(first_seed + games)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return actions / elapsed


GAMES = ("touring", "mexican-train", "double-crossing")
TIGHT = "tight loop (pure Python)"
MT = "mexican-train 4p round, double-9"
DOMINOES = "PyPI dominoes (4p double-6 block)"


def game_engine(name: str, rng: random.Random) -> Play:
    """The table each game is timed at: Mexican Train a 4-player round on double-nine (beside
    ``dominoes``), the others 2 players. ``python_api_instructions`` counts the same tables."""
    if name == "mexican-train":
        return public_api(name, rng, players=4, rounds=1, set_size=9)
    return public_api(name, rng, players=2)


def engines_for(games: list[str], rng: random.Random) -> dict[str, Play]:
    engines: dict[str, Play] = {TIGHT: tight_loop(rng)}
    for name in games:
        engines[MT if name == "mexican-train" else f"{name} 2p"] = game_engine(name, rng)
    dominoes_play = pypi_dominoes(rng) if "mexican-train" in games else None
    if dominoes_play is not None:
        engines[DOMINOES] = dominoes_play
    return engines


def best_rates(games: list[str], seconds: float, repeats: int) -> dict[str, float]:
    """Each engine's best slice in this process, the slices of all engines interleaved."""
    engines = engines_for(games, random.Random(20261201))
    best = dict.fromkeys(engines, 0.0)
    for repeat in range(repeats):
        for name, play in engines.items():
            best[name] = max(best[name], best_rate(play, seconds, repeat * 100_000))
    return best


def in_fresh_processes(args: argparse.Namespace) -> dict[str, float]:
    """Each engine's best over ``args.processes`` fresh interpreters (same CPU affinity as this one).

    One process is not enough: where the interpreter's objects land in memory differs from process
    to process, and the tight loop's few hot objects are sensitive to it (between 0.81 M and 1.30 M
    actions/s in successive processes at load 0.8 on the same core, wave 16), so a single process
    can flatter or wrong every ratio by a fifth."""
    command = [sys.executable, "-m", "benchmarks.python_api", "--worker", *args.games]
    command += ["--seconds", str(args.seconds), "--repeats", str(args.repeats)]
    best: dict[str, float] = {}
    for _ in range(args.processes):
        reply = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        for name, rate in json.loads(reply).items():
            best[name] = max(best.get(name, 0.0), rate)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description="public-API random playouts beside a tight loop")
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--seconds", type=float, default=0.2, help="length of one timed slice")
    parser.add_argument("--repeats", type=int, default=10, help="slices per engine and process, interleaved")
    parser.add_argument(
        "--processes", type=int, default=5, help="fresh interpreters; each engine's best counts"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(best_rates(args.games, args.seconds, args.repeats)))
        return
    best = in_fresh_processes(args)
    load = os.getloadavg()
    print(
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; each engine's best of "
        f"{args.processes} processes x {args.repeats} interleaved {args.seconds:g}-second slices"
    )
    tight = best[TIGHT]
    for name, rate in best.items():
        print(f"{name:38s} {rate:12,.0f} actions/s   {rate / tight:5.2f} of the tight loop")
    if DOMINOES in best:
        print(f"{MT:38s} {best[MT] / best[DOMINOES]:5.2f}x PyPI dominoes actions/s")
    elif "mexican-train" in args.games:
        print("PyPI dominoes skipped: not installed (pip install dominoes, the bench extra)")


if __name__ == "__main__":
    main()

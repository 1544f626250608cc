"""Mexican Train throughput: random single-round playouts, compared with two other domino engines.

    taskset -c 0 python -m benchmarks.mexican_train [--seconds 1] [--repeats 5] [--players 4]

Times uniformly random play through the public API (``legal_actions`` + ``apply``) of 4-player
single rounds (``rounds=1``), and in the same run random play of the PyPI ``dominoes`` package
(a 4-player double-six block game) and OpenSpiel's ``python_block_dominoes`` (2 players, chance
nodes for the deal). Those two come from the ``bench`` extra (``pip install -e .[bench]``); a
missing one is skipped with a message. The games differ (our round has ~110 actions with a
boneyard and 5 trains; theirs are shorter block games), so the ratios compare engine speed per
action and per game, not like with like.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import tabletrek


@dataclass
class Rate:
    name: str
    games: int
    actions: int
    seconds: float
    unit: str = "games"  # what one playout is: our playouts are single rounds

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    def line(self) -> str:
        return (
            f"{self.name:34s} {self.games_per_s:10,.0f} {self.unit}/s {self.actions_per_s:12,.0f} actions/s "
            f"({self.games} {self.unit}, {self.actions} actions, {self.actions / self.games:.1f} per playout)"
        )


def timed(name: str, play_one: Callable[[int], int], seconds: float, unit: str = "games") -> Rate:
    """Run ``play_one(seed) -> actions`` repeatedly for about ``seconds``."""
    games = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        actions += play_one(games)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return Rate(name, games, actions, now - start, unit)


def ours(players: int, rng: random.Random) -> Callable[[int], int]:
    game = tabletrek.load("mexican-train", players=players, rounds=1)

    def play(seed: int) -> int:
        state = game.new_game(seed=seed)
        choice = rng.choice
        n = 0
        while not state.is_over:
            state.apply(choice(state.legal_actions()))
            n += 1
        return n

    return play


def pypi_dominoes(rng: random.Random) -> Callable[[int], int] | None:
    try:
        import dominoes
    except ImportError:
        return None

    def play(seed: int) -> int:
        game = dominoes.Game.new()
        n = 0
        while game.result is None:
            domino, left = rng.choice(game.valid_moves)
            game.make_move(domino, left)
            n += 1
        return n

    return play


def openspiel_block_dominoes(rng: random.Random) -> Callable[[int], int] | None:
    try:
        import pyspiel
        from open_spiel.python.games import block_dominoes  # noqa: F401 - registers the game
    except ImportError:
        return None
    game = pyspiel.load_game("python_block_dominoes")

    def play(seed: int) -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                n += 1  # player actions only; the deal's chance actions are not counted
        return n

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description="Mexican Train random-playout throughput")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one timed slice")
    parser.add_argument("--repeats", type=int, default=5, help="slices per engine, interleaved")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    rng = random.Random(20261129)
    engines: list[tuple[str, Callable[[int], int] | None, str]] = [
        (f"tabletrek mexican-train ({args.players}p round)", ours(args.players, rng), ""),
        ("PyPI dominoes (4p block game)", pypi_dominoes(rng), "pip install dominoes (the bench extra)"),
        (
            "OpenSpiel python_block_dominoes",
            openspiel_block_dominoes(rng),
            "pip install open-spiel (the bench extra)",
        ),
    ]
    # The machine is shared: slices of the engines alternate, and each engine's best slice counts,
    # so a burst of load from elsewhere does not land on one engine only.
    slices: dict[str, list[Rate]] = {name: [] for name, play, _ in engines if play is not None}
    for _ in range(args.repeats):
        for name, play, _hint in engines:
            if play is not None:
                unit = "rounds" if name == engines[0][0] else "games"
                slices[name].append(timed(name, play, args.seconds, unit))
    print(
        f"best of {args.repeats} interleaved {args.seconds:g}-second slices per engine (median in brackets)"
    )
    base_name = engines[0][0]
    best = {name: max(rates, key=lambda r: r.actions_per_s) for name, rates in slices.items()}
    base = best[base_name]
    for name, play, hint in engines:
        if play is None:
            print(f"{name:34s} skipped: not installed ({hint})")
            continue
        rate = best[name]
        median = statistics.median(r.actions_per_s for r in slices[name])
        print(f"{rate.line()} [{median:,.0f}]")
        if name != base_name:
            print(
                f"{'':34s} ratio tabletrek/{name.split(' (')[0]}: "
                f"{base.actions_per_s / rate.actions_per_s:.2f}x actions/s, "
                f"{base.games_per_s / rate.games_per_s:.2f}x playouts/s (our round vs their game)"
            )


if __name__ == "__main__":
    main()

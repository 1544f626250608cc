"""How much a one-step search could gain over Touring's greedy bot, decision by decision.

    python -m benchmarks.touring_headroom [--games 20] [--worlds 200] [--sample 0.1] [--seed 99]

Plays greedy-vs-greedy games. At a sampled share of seat 1's decisions (more than one legal move)
it plays every legal move out in ``--worlds`` sampled worlds (the seat's information set, the same
future draws and policy seeds for every move, greedy playouts to the end), picks the best move on
half of the worlds and measures that pick's advantage over greedy's own move on the other half.
The mean of those held-out advantages is what a search of that many worlds per move gains (or
loses) per decision against greedy's choice; printed with its standard error and by kind of move.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import defaultdict

import tabletrek
from tabletrek.core.actions import Action
from tabletrek.core.rng import derive_seed, make_rng
from tabletrek.core.state import State
from tabletrek.games.touring.rollout import greedy_policy


def kind(action: Action) -> str:
    words = action.text.split()
    return words[0] if words[0] in ("discard", "pass") else f"{words[0]} {words[1]}"


def win_after(world: State, action: Action, seat: int, seed: int) -> float:
    trial = world.clone()
    trial.apply(action)
    rng = make_rng(seed)
    while not trial.is_over:
        trial.apply(greedy_policy(trial, rng))
    result = trial.result
    assert result is not None
    return 1.0 if seat in result.winners else 0.0


def held_out_gain(
    state: State, seat: int, default: Action, worlds: int, rng: random.Random
) -> tuple[float, Action]:
    legal = state.legal_actions()
    wins: dict[int, list[float]] = {a.index: [] for a in legal}
    for _ in range(worlds):
        world = state.determinize(seat, rng)
        seed = rng.getrandbits(63)
        for action in legal:
            wins[action.index].append(win_after(world, action, seat, seed))

    def mean(values: list[float], parity: int) -> float:
        return statistics.fmean(values[parity::2])

    base = wins[default.index]
    best = max(legal, key=lambda a: mean(wins[a.index], 1) - mean(base, 1))
    return mean(wins[best.index], 0) - mean(base, 0), best


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--sample", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=99)
    args = parser.parse_args()
    game = tabletrek.load("touring", players=2)
    rng = random.Random(args.seed)
    decisions = 0
    gains: list[float] = []
    by_kind: dict[str, list[float]] = defaultdict(list)
    for g in range(args.games):
        seed = derive_seed(args.seed, "game", g)
        state = game.new_game(seed=seed)
        bots = [game.bot("greedy", seat=s, seed=derive_seed(seed, "bot", s)) for s in range(2)]
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            action = bots[seat].act(state)
            if seat == 0 and len(state.legal_actions()) > 1:
                decisions += 1
                if rng.random() < args.sample:
                    gain, pick = held_out_gain(state, seat, action, args.worlds, rng)
                    gains.append(gain)
                    label = "greedy's move" if pick == action else f"{kind(action)} -> {kind(pick)}"
                    by_kind[label].append(gain)
            state.apply(action)
        print(f"game {g + 1}/{args.games}: {len(gains)} decisions measured", flush=True)
    mean = statistics.fmean(gains)
    se = statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else float("nan")
    print(f"held-out gain per decision {mean:+.4f} ± {se:.4f} (standard error) over {len(gains)} decisions")
    print(f"{decisions / args.games:.0f} decisions with a choice a game for one seat")
    for label, values in sorted(by_kind.items(), key=lambda kv: sum(kv[1])):
        print(f"  {label:36s} {len(values):4d} decisions, mean {statistics.fmean(values):+.4f}")


if __name__ == "__main__":
    main()

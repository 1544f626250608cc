"""The generic search bot against each game's best heuristic, head to head, seats alternating.

    python -m benchmarks.ismcts GAME [-n 40] [--opponent greedy] [--param iterations=6 ...]
        [--option rounds=1 ...] [--seed 0] [--first 0]

Prints the search bot's wins with a 95% Wilson interval, and the CPU time it took per move
(``time.process_time``: median and 90th percentile, moves with a single legal action excluded),
so other processes on a shared machine do not inflate it (the load average is printed too), and
the wall time, which is what a player waits (less than the CPU time with ``threads`` > 1).
``--first`` starts at that game index, so a long run can be split over processes
(``--first 0 -n 100`` and ``--first 100 -n 100`` are together the games of ``-n 200``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import tabletrek
from tabletrek.core.options import parse_option_value
from tabletrek.core.rng import derive_seed
from tabletrek.sim.stats import describe_lengths, wilson_interval


def pairs(items: list[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for item in items:
        key, _, value = item.partition("=")
        out[key.strip()] = parse_option_value(value)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game")
    parser.add_argument("-n", type=int, default=40)
    parser.add_argument("--opponent", default=None, help="default: the game's last (best) bot")
    parser.add_argument("--param", action="append", default=[], help="ismcts parameter key=value")
    parser.add_argument("--option", action="append", default=[], help="rule option key=value")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    args = parser.parse_args()
    game = tabletrek.load(args.game, players=2, **pairs(args.option))
    opponent = args.opponent or game.bots()[-1]
    params = pairs(args.param)
    wins = 0
    times: list[float] = []
    walls: list[float] = []
    iterations: list[int] = []
    overrides = 0
    for i in range(args.first, args.first + args.n):
        seed = derive_seed(args.seed, "game", i)
        me = i % 2
        bots = [
            game.bot("ismcts", seat=s, seed=derive_seed(seed, "bot", s), **params)
            if s == me
            else game.bot(opponent, seat=s, seed=derive_seed(seed, "bot", s))
            for s in range(2)
        ]
        state = game.new_game(seed=seed)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            choices = len(state.legal_actions())
            start = time.process_time()
            wall = time.perf_counter()
            action = bots[seat].act(state)
            if seat == me and choices > 1:
                times.append(time.process_time() - start)
                walls.append(time.perf_counter() - wall)
                iterations.append(getattr(bots[seat], "last_iterations", 0))
                overrides += bool(getattr(bots[seat], "last_override", False))
            state.apply(action)
        result = state.result
        assert result is not None
        wins += me in result.winners
        outcome = "won" if me in result.winners else "lost"
        print(f"game {i + 1}/{args.first + args.n}: {outcome} (seat {me + 1})", flush=True)
    low, high = wilson_interval(wins, args.n)
    cpu, wall = describe_lengths(times), describe_lengths(walls)
    print(f"{args.game}: ismcts {params} vs {opponent}, options {pairs(args.option)}")
    rate = f"{100 * wins / args.n:.1f}%"
    print(f"  wins {wins}/{args.n} = {rate} (95% interval {100 * low:.1f}–{100 * high:.1f}%)")
    print(
        f"  ms per move: median {1000 * cpu['median']:.1f}, p90 {1000 * cpu['p90']:.1f} CPU; "
        f"median {1000 * wall['median']:.1f}, p90 {1000 * wall['p90']:.1f} wall; "
        f"mean iterations {statistics.fmean(iterations):.1f}; "
        f"overrides of the policy's move {overrides} in {len(times)} decisions"
    )
    print(f"  load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (shared)")


if __name__ == "__main__":
    main()

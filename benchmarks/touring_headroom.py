"""How much a one-step search could gain over Touring's greedy bot, and how much of it hidden cards cost.

    python -m benchmarks.touring_headroom [--games 10] [--worlds 10000] [--sample 0.15]
        [--pick known|belief|uniform] [--seed 7]

Plays greedy-vs-greedy games (2 players). At a sampled share of both seats' decisions with a
choice, every legal move is played out with greedy playouts to the end (compiled: ``worlds.py``)
on ``--worlds`` worlds to *pick* the best, and the pick's advantage over greedy's own move is
*measured* on ``--worlds`` other worlds in the real position: every hand as it really is, only the
draw pile's order drawn again. What the pick sees is ``--pick``:

- ``known``: the real position too (a player who sees the opponent's hand: an upper bound);
- ``belief``: worlds dealt from a belief fed every opponent move so far (``HandBelief``);
- ``uniform``: worlds dealt uniformly from the unseen cards (the seat's bare information set).

Prints the held-out gain per decision (win-chance points, with its standard error), by kind of
switch, and per seat and game (the gains of one seat's decisions in a game, added up: roughly how
much a seat playing the picks would raise its win chance against greedy). Needs numba.
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections import defaultdict

import numpy as np

import tabletrek
from tabletrek.core.rng import derive_seed, make_rng
from tabletrek.games.touring import kernel
from tabletrek.games.touring.rollout import scores
from tabletrek.games.touring.worlds import HandBelief, known_playouts, paired_playouts


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--worlds", type=int, default=10000)
    parser.add_argument("--sample", type=float, default=0.15)
    parser.add_argument("--pick", choices=("known", "belief", "uniform"), default="known")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if not kernel.available():
        raise SystemExit("this benchmark needs numba: pip install -e '.[search]'")
    game = tabletrek.load("touring", players=2)
    rng = make_rng(args.seed)
    gains: list[float] = []
    by_kind: dict[str, list[float]] = defaultdict(list)
    for g in range(args.games):
        seed = derive_seed(args.seed, "game", g)
        state = game.new_game(seed=seed)
        bots = [game.bot("greedy", seat=s, seed=derive_seed(seed, "bot", s)) for s in range(2)]
        beliefs = [HandBelief(s, derive_seed(seed, "belief", s)) for s in range(2)]
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            action = bots[seat].act(state)
            scored = scores(state, legal)
            best = max(value for value, _ in scored)
            favourites = [a.index for value, a in scored if value == best]
            others = [a.index for value, a in scored if value != best]
            if others and rng.random() < args.sample:
                moves = favourites + others
                pick_seeds = [rng.getrandbits(62) for _ in range(args.worlds)]
                if args.pick == "known":
                    picked = known_playouts(state, seat, moves, pick_seeds)
                else:
                    belief = beliefs[seat] if args.pick == "belief" else None
                    picked = paired_playouts(state, seat, moves, pick_seeds, belief)
                advantage = picked.mean(axis=1) - picked[: len(favourites)].mean()
                choice = int(np.argmax(advantage))
                gain = 0.0
                if choice >= len(favourites):
                    truth = known_playouts(
                        state, seat, moves, [rng.getrandbits(62) for _ in range(args.worlds)]
                    )
                    gain = float((truth[choice] - truth[: len(favourites)].mean(axis=0)).mean())
                    words = game.action(moves[choice]).text.split()
                    by_kind[words[0] if words[0] == "discard" else f"{words[0]} {words[1]}"].append(gain)
                gains.append(gain)
            beliefs[1 - seat].observe(state, action)
            state.apply(action)
        per_game = sum(gains) / (g + 1) / args.sample / 2
        done = f"game {g + 1}/{args.games}: {len(gains)} decisions measured"
        print(f"{done}; {100 * per_game:+.1f} points a seat-game", flush=True)
    mean = statistics.fmean(gains)
    se = statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else float("nan")
    switched = sum(len(v) for v in by_kind.values())
    print(
        f"pick on {args.pick} worlds ({args.worlds} a move), measured on {args.worlds} real-position worlds:"
    )
    print(
        f"  held-out gain per decision {100 * mean:+.3f} ± {100 * se:.3f} points "
        f"over {len(gains)} decisions "
        f"({switched} switched away from greedy's move)"
    )
    total = sum(gains) / args.games / args.sample / 2
    spread = se * len(gains) / args.games / args.sample / 2
    print(f"  per seat and game: {100 * total:+.1f} points (± {100 * spread:.1f})")
    for label, values in sorted(by_kind.items(), key=lambda kv: -sum(kv[1])):
        print(f"  {label:24s} {len(values):4d} switches, mean {100 * statistics.fmean(values):+.3f} points")


if __name__ == "__main__":
    main()

"""What the search bot's overrides of greedy are worth in Touring, measured in the real position.

    python -m benchmarks.touring_search_value [--games 20] [--sample 0.5] [--worlds 20000]
        [--seed 5] [--param iterations=2000 --param z=1.5 --param infer=true ...]

Head-to-head games need hundreds of games to resolve a few points. This measures the same thing
decision by decision: it plays greedy-vs-greedy games (2 players) and at a sampled share of both
seats' decisions with a choice asks the search bot (``ismcts`` with ``--param``s; one bot per
seat, so it sees the game as a player would) for its move. Where it overrides greedy, the
override is played out against greedy's own move(s) on ``--worlds`` worlds of the *real*
position (every hand as it is, the draw pile's order drawn again; compiled, ``worlds.py``).
Prints the overrides, their mean value, and their sum per seat and game: roughly how many points
of win chance the search adds to a seat against greedy. Needs numba.
"""

from __future__ import annotations

import argparse
import statistics
import time

import tabletrek
from benchmarks.ismcts import pairs
from tabletrek.core.rng import derive_seed, make_rng
from tabletrek.games.touring import kernel
from tabletrek.games.touring.rollout import scores
from tabletrek.games.touring.worlds import known_playouts


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--sample", type=float, default=0.5)
    parser.add_argument("--worlds", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--param", action="append", default=[], help="ismcts parameter key=value")
    args = parser.parse_args()
    if not kernel.available():
        raise SystemExit("this benchmark needs numba: pip install -e '.[search]'")
    params = pairs(args.param)
    game = tabletrek.load("touring", players=2)
    rng = make_rng(args.seed)
    decisions = 0
    values: list[float] = []
    times: list[float] = []
    for g in range(args.games):
        seed = derive_seed(args.seed, "game", g)
        state = game.new_game(seed=seed)
        greedy = [game.bot("greedy", seat=s, seed=derive_seed(seed, "bot", s)) for s in range(2)]
        search = [game.bot("ismcts", seat=s, seed=derive_seed(seed, "search", s), **params) for s in range(2)]
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < args.sample:
                decisions += 1
                bot = search[seat]
                start = time.process_time()
                pick = bot.act(state)
                times.append(time.process_time() - start)
                if getattr(bot, "last_override", False):
                    scored = scores(state, legal)
                    best = max(value for value, _ in scored)
                    favourites = [a.index for value, a in scored if value == best]
                    seeds = [rng.getrandbits(62) for _ in range(args.worlds)]
                    truth = known_playouts(state, seat, [pick.index, *favourites], seeds)
                    values.append(float((truth[0] - truth[1:].mean(axis=0)).mean()))
            state.apply(greedy[seat].act(state))
        per_game = sum(values) / (g + 1) / args.sample / 2
        print(
            f"game {g + 1}/{args.games}: {len(values)} overrides in {decisions} decisions; "
            f"{100 * per_game:+.2f} points a seat-game",
            flush=True,
        )
    print(f"ismcts {params} against greedy's moves, {decisions} decisions:")
    print(f"  CPU ms per decision: median {1000 * statistics.median(times):.0f}")
    if values:
        mean = statistics.fmean(values)
        positive = sum(v > 0 for v in values)
        print(f"  {len(values)} overrides, mean value {100 * mean:+.2f} points, {positive} positive")
    total = sum(values) / args.games / args.sample / 2
    print(f"  per seat and game: {100 * total:+.2f} points of win chance")


if __name__ == "__main__":
    main()

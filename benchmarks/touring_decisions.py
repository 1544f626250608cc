"""Search settings ranked on one fixed set of Touring decisions, valued once: fast and paired.

    python -m benchmarks.touring_decisions make --out decisions.json [--games 15] [--seed 21]
        [--sample 0.25] [--worlds 2000]
    python -m benchmarks.touring_decisions score decisions.json [--param key=value ...]
        [--picks picks.json] [--every 1]
    python -m benchmarks.touring_decisions compare decisions.json a.json b.json [--worlds 6000]
    python -m benchmarks.touring_decisions ceiling decisions.json [--worlds 8000] [--every 4]

``make`` plays greedy-vs-greedy games (2 players) and, at a sampled share of both seats'
decisions with a choice, values *every* legal move in the real position: every hand as it is,
only the draw pile's order drawn again, greedy playing on to the end (compiled, ``worlds.py``),
on the same ``--worlds`` worlds for every move. ``score`` replays those games and asks a search
bot setting (``--param``, as ``game.bot("ismcts", ...)`` takes them) for its move at each of
those decisions, the bots having seen every move before it; the value of its pick minus the value
of greedy's move, added up over a seat's decisions in a game, is roughly how many points of win
chance the setting adds against greedy (sampled decisions are scaled up by ``--sample``).
``compare`` takes two settings' picks and values again, on fresh worlds, only the decisions where
they differ: a paired difference, far more precise than two scores side by side. ``ceiling``
measures what a one-step search could reach at best: each decision's move picked on ``--worlds``
worlds of the real position (the opponent's hand seen, full playouts) and valued on as many
others, so the pick's luck does not count in its value.

Head-to-head games resolve a few points only over hundreds of games; this ranks settings in
minutes, but it values one move at a time in greedy's games, so it is a guide to head-to-head
strength, not a substitute (``benchmarks.ismcts``). Needs numba.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import tabletrek
from benchmarks.ismcts import pairs
from tabletrek.core.actions import Action
from tabletrek.core.rng import derive_seed, make_rng
from tabletrek.core.state import State
from tabletrek.games.touring import kernel
from tabletrek.games.touring.worlds import known_playouts

KEYS = ("games", "seed", "sample", "worlds", "rows")
ROW_KEYS = ("game", "ply", "seat", "moves", "values", "played")


def decisions(
    games: int, seed: int, sample: float
) -> Iterator[tuple[int, int, int, int, State, Action, bool]]:
    """Every position of the greedy-vs-greedy games: (game, game seed, ply, seat to act, state,
    greedy's move, sampled?). The same arguments give the same games and the same sample."""
    game = tabletrek.load("touring", players=2)
    rng = make_rng(seed)
    for g in range(games):
        game_seed = derive_seed(seed, "game", g)
        state = game.new_game(seed=game_seed)
        bots = [game.bot("greedy", seat=s, seed=derive_seed(game_seed, "bot", s)) for s in range(2)]
        ply = 0
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            choices = len(state.legal_actions())
            action = bots[seat].act(state)
            yield g, game_seed, ply, seat, state, action, choices > 1 and rng.random() < sample
            state.apply(action)
            ply += 1


def load(path: str) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as error:
        raise SystemExit(f"{path}: cannot read a decisions file ({error})") from None
    for key in KEYS:
        if key not in data:
            raise SystemExit(f"{path}: missing key {key!r} (write it with `make`)")
    for i, row in enumerate(data["rows"]):
        for key in ROW_KEYS:
            if key not in row:
                raise SystemExit(f"{path}: rows[{i}] is missing key {key!r}")
    return dict(data)


def load_picks(path: str) -> tuple[int, dict[tuple[int, int], int]]:
    """(every, {(game, ply): move}) from a file ``score --picks`` wrote."""
    try:
        data = json.loads(Path(path).read_text())
        return int(data["every"]), {(g, ply): move for g, ply, move in data["picks"]}
    except (OSError, ValueError, TypeError, KeyError) as error:
        raise SystemExit(f"{path}: not a picks file written by `score --picks` ({error!r})") from None


def seat_games(data: dict[str, Any], every: int = 1) -> float:
    """How many seat-games the rows stand for: per-seat-game sums divide by this."""
    return float(data["games"] * 2 * data["sample"] / every)


def rows_every(data: dict[str, Any], every: int) -> dict[tuple[int, int], dict[str, Any]]:
    """Every ``every``-th row, by (game, ply)."""
    return {(r["game"], r["ply"]): r for i, r in enumerate(data["rows"]) if i % every == 0}


def points(gains: list[float], scale: float) -> str:
    """The gains added up per seat-game, with their spread, as ``score``, ``compare`` and
    ``ceiling`` print them."""
    spread = statistics.pstdev(gains) * math.sqrt(len(gains)) / scale if len(gains) > 1 else 0.0
    return f"  {100 * sum(gains) / scale:+.2f} ± {100 * spread:.2f} points a seat-game"


def make(args: argparse.Namespace) -> None:
    rng = make_rng(derive_seed(args.seed, "worlds"))
    rows = []
    start = time.perf_counter()
    for g, _, ply, seat, state, action, sampled in decisions(args.games, args.seed, args.sample):
        if not sampled:
            continue
        moves = [a.index for a in state.legal_actions()]
        values = known_playouts(state, seat, moves, [rng.getrandbits(62) for _ in range(args.worlds)])
        rows.append(
            {
                "game": g,
                "ply": ply,
                "seat": seat,
                "moves": moves,
                "values": values.mean(axis=1).tolist(),
                "played": action.index,
            }
        )
    meta = {"games": args.games, "seed": args.seed, "sample": args.sample, "worlds": args.worlds}
    Path(args.out).write_text(json.dumps({**meta, "rows": rows}))
    print(f"{len(rows)} decisions valued in {time.perf_counter() - start:.0f} s: {args.out}")


def score(args: argparse.Namespace) -> None:
    data = load(args.file)
    params = pairs(args.param)
    wanted = rows_every(data, args.every)
    game = tabletrek.load("touring", players=2)
    gains: list[float] = []
    picks: list[list[int]] = []
    walls: list[float] = []
    searchers: list[Any] = []
    for g, game_seed, ply, _, state, _, _ in decisions(data["games"], data["seed"], data["sample"]):
        if ply == 0:
            searchers = [
                game.bot("ismcts", seat=s, seed=derive_seed(game_seed, "search", s), **params)
                for s in range(2)
            ]
        row = wanted.get((g, ply))
        if row is None:
            continue
        start = time.perf_counter()
        pick = searchers[row["seat"]].act(state)
        walls.append(time.perf_counter() - start)
        values = dict(zip(row["moves"], row["values"], strict=True))
        gains.append(values[pick.index] - values[row["played"]])
        picks.append([g, ply, pick.index])
    if args.picks:
        Path(args.picks).write_text(json.dumps({"every": args.every, "picks": picks}))
    if not gains:
        raise SystemExit(f"{args.file}: no decisions to score")
    overrides = sum(1 for (g, ply, move) in picks if move != wanted[(g, ply)]["played"])
    print(f"ismcts {params}: {len(gains)} decisions, {overrides} overrides of greedy's move")
    print(points(gains, seat_games(data, args.every)))
    print(f"  wall ms a decision: median {1000 * statistics.median(walls):.0f}")


def compare(args: argparse.Namespace) -> None:
    data = load(args.file)
    (every, first), (every_b, second) = load_picks(args.a), load_picks(args.b)
    if every != every_b:
        raise SystemExit(f"{args.a} scored every {every}th decision, {args.b} every {every_b}th")
    differ = {key for key, move in first.items() if key in second and second[key] != move}
    rng = make_rng(derive_seed(data["seed"], "compare"))
    gains = []
    for g, _, ply, seat, state, _, _ in decisions(data["games"], data["seed"], data["sample"]):
        if (g, ply) not in differ:
            continue
        moves = [first[(g, ply)], second[(g, ply)]]
        seeds = [rng.getrandbits(62) for _ in range(args.worlds)]
        out = known_playouts(state, seat, moves, seeds)
        gains.append(float(out[0].mean() - out[1].mean()))
    shared = len(set(first) & set(second))
    print(f"{args.a} minus {args.b}: {shared} decisions, {len(gains)} differ")
    print(points(gains, seat_games(data, every)))


def ceiling(args: argparse.Namespace) -> None:
    data = load(args.file)
    wanted = rows_every(data, args.every)
    rng = make_rng(derive_seed(data["seed"], "ceiling"))
    gains = []
    for g, _, ply, seat, state, _, _ in decisions(data["games"], data["seed"], data["sample"]):
        row = wanted.get((g, ply))
        if row is None:
            continue
        moves = row["moves"]
        pick, value = (
            known_playouts(state, seat, moves, [rng.getrandbits(62) for _ in range(args.worlds)]).mean(axis=1)
            for _ in range(2)
        )
        gains.append(float(value[int(pick.argmax())] - value[moves.index(row["played"])]))
    print(f"one-step ceiling on {len(gains)} decisions ({args.worlds} worlds to pick, as many to value):")
    print(points(gains, seat_games(data, args.every)))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    made = sub.add_parser("make", help="value every move of sampled greedy decisions")
    made.add_argument("--out", required=True)
    made.add_argument("--games", type=int, default=15)
    made.add_argument("--seed", type=int, default=21)
    made.add_argument("--sample", type=float, default=0.25)
    made.add_argument("--worlds", type=int, default=2000)
    scored = sub.add_parser("score", help="a search setting's picks, valued")
    scored.add_argument("file")
    scored.add_argument("--param", action="append", default=[], help="ismcts parameter key=value")
    scored.add_argument("--picks", help="write the picks here, for compare")
    scored.add_argument("--every", type=int, default=1, help="score every k-th decision only")
    compared = sub.add_parser("compare", help="two settings' picks, where they differ")
    compared.add_argument("file")
    compared.add_argument("a")
    compared.add_argument("b")
    compared.add_argument("--worlds", type=int, default=6000)
    top = sub.add_parser("ceiling", help="the best one-step pick, seeing every hand")
    top.add_argument("file")
    top.add_argument("--worlds", type=int, default=8000)
    top.add_argument("--every", type=int, default=4, help="every k-th decision only")
    args = parser.parse_args()
    if not kernel.available():
        raise SystemExit("this benchmark needs numba: pip install -e '.[search]'")
    {"make": make, "score": score, "compare": compare, "ceiling": ceiling}[args.command](args)


if __name__ == "__main__":
    main()

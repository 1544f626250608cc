"""Bot strength for Mexican Train: average match score over many 4-player 13-round matches.

Two experiments, each with two bots in alternating seats (A B A B, then B A B A on the next match, so
neither bot always sits first): planner vs greedy, and greedy vs random. Lower match score is better.

    python -m benchmarks.mexican_train_bots --matches 500
"""

from __future__ import annotations

import argparse
import statistics
import time

import tabletrek
from tabletrek.core.rng import derive_seed


def play_match(game: tabletrek.Game, lineup: list[str], seed: int) -> tuple[float, ...]:
    state = game.new_game(seed=seed)
    bots = [game.bot(name, seat=s, seed=derive_seed(seed, s)) for s, name in enumerate(lineup)]
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(state))
    result = state.result
    assert result is not None
    return result.scores


def compare(
    first: str, second: str, matches: int, players: int, options: dict[str, object]
) -> dict[str, object]:
    game = tabletrek.load("mexican-train", players=players, **options)
    scores: dict[str, list[float]] = {first: [], second: []}
    wins: dict[str, float] = {first: 0.0, second: 0.0}
    start = time.perf_counter()
    for m in range(matches):
        pair = (first, second) if m % 2 == 0 else (second, first)
        lineup = [pair[s % 2] for s in range(players)]
        result = play_match(game, lineup, derive_seed("mexican-train-bots", first, second, m))
        best = min(result)
        winners = [s for s, v in enumerate(result) if v == best]
        for s, value in enumerate(result):
            scores[lineup[s]].append(value)
            if s in winners:
                wins[lineup[s]] += 1.0 / len(winners)
    elapsed = time.perf_counter() - start
    return {"scores": scores, "wins": wins, "seconds": elapsed, "matches": matches}


def report(first: str, second: str, outcome: dict[str, object]) -> None:
    scores = outcome["scores"]
    wins = outcome["wins"]
    assert isinstance(scores, dict) and isinstance(wins, dict)
    print(f"{first} vs {second}: {outcome['matches']} matches in {outcome['seconds']:.1f} s")
    for name in (first, second):
        values = scores[name]
        mean = statistics.fmean(values)
        err = statistics.stdev(values) / len(values) ** 0.5
        print(f"  {name:8s} mean match score {mean:7.1f} ± {err:4.1f} (s.e.), match wins {wins[name]:6.1f}")
    diff = [a - b for a, b in zip(scores[first], scores[second], strict=True)]
    print(f"  {first} - {second} per seat pair: {statistics.fmean(diff):+.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=None, help="rounds per match (default: the full 13)")
    parser.add_argument("--only", choices=("planner-greedy", "greedy-random"), default=None)
    args = parser.parse_args()
    options: dict[str, object] = {} if args.rounds is None else {"rounds": args.rounds}
    pairs = [("planner", "greedy"), ("greedy", "random")]
    for first, second in pairs:
        if args.only and args.only != f"{first}-{second}":
            continue
        report(first, second, compare(first, second, args.matches, args.players, options))


if __name__ == "__main__":
    main()

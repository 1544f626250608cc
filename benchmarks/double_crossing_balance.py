"""Double Crossing balance tables: trader bots (or any line-up) over many seeded games.

    python -m benchmarks.double_crossing_balance --games 400 --players 4 --bots trader

prints the game length in rounds (median, p10, p90), how often ``max_rounds`` ended a game, wins
per seat against the fair share, how often each space type was landed on and each crew card
played. These are the tables quoted in docs/rules/double-crossing.md.
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from typing import Any

from tabletrek.core.registry import load
from tabletrek.core.rng import derive_seed
from tabletrek.games.double_crossing import content
from tabletrek.games.double_crossing.content import CARD_SLUGS, KINDS
from tabletrek.games.double_crossing.state import DoubleCrossingState


def play(players: int, bots: list[str], seed: int, options: dict[str, Any]) -> DoubleCrossingState:
    game = load("double-crossing", players=players, **options)
    state = game.new_game(seed=seed)
    assert isinstance(state, DoubleCrossingState)
    lineup = [game.bot(bots[s % len(bots)], seat=s, seed=derive_seed(seed, "bot", s)) for s in range(players)]
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.apply(lineup[seat].act(state))
    return state


def quantile(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(q * len(ordered)))])


def run(games: int, players: int, bots: list[str], seed: int, options: dict[str, Any]) -> dict[str, Any]:
    rounds: list[int] = []
    wins: Counter[int] = Counter()
    bot_wins: Counter[str] = Counter()
    landed: Counter[str] = Counter()
    played: Counter[str] = Counter()
    capped = 0
    actions = 0
    for i in range(games):
        state = play(players, bots, derive_seed(seed, "game", i), options)
        rounds.append(state.rounds)
        actions += len(state.history)
        if state.winner is None:
            capped += 1
        else:
            wins[state.winner] += 1
            bot_wins[bots[state.winner % len(bots)]] += 1
        landed.update(state.landed)
        for card, n in enumerate(state.played):
            played[CARD_SLUGS[card]] += n
    return {
        "games": games,
        "players": players,
        "bots": bots,
        "rounds": rounds,
        "median": statistics.median(rounds),
        "p10": quantile(rounds, 0.1),
        "p90": quantile(rounds, 0.9),
        "capped": capped,
        "wins": wins,
        "bot_wins": bot_wins,
        "landed": landed,
        "played": played,
        "actions": actions,
    }


def report(r: dict[str, Any]) -> str:
    games, players = r["games"], r["players"]
    decided = games - r["capped"]
    lines = [
        f"### {players} players, bots {', '.join(r['bots'])}: {games} games",
        "",
        "| measure | value |",
        "|---|---|",
        f"| median length (rounds) | {r['median']:.0f} |",
        f"| 10th / 90th percentile | {r['p10']:.0f} / {r['p90']:.0f} |",
        f"| ended by max_rounds | {r['capped']} ({100 * r['capped'] / games:.1f}%) |",
        f"| actions per game | {r['actions'] / games:.0f} |",
        "",
        "| seat | wins | share of decided games | × fair share |",
        "|---|---|---|---|",
    ]
    for seat in range(players):
        w = r["wins"][seat]
        share = w / decided if decided else 0.0
        lines.append(f"| p{seat + 1} | {w} | {100 * share:.1f}% | {share * players:.2f} |")
    if len(set(r["bots"])) > 1:
        lines += ["", "| bot | wins |", "|---|---|"]
        lines += [f"| {bot} | {r['bot_wins'][bot]} |" for bot in sorted(set(r["bots"]))]
    lines += ["", "| space type | landings per game |", "|---|---|"]
    lines += [f"| {kind} | {r['landed'][kind] / games:.2f} |" for kind in KINDS]
    lines += ["", "| crew card | plays per game |", "|---|---|"]
    lines += [f"| {card} | {r['played'][card] / games:.2f} |" for card in CARD_SLUGS]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="trader", help="comma-separated, cycled over the seats")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--exact-return", action="store_true")
    parser.add_argument("--data", help="a folder with edited board/contracts/economy.toml to balance")
    args = parser.parse_args()
    if args.data:
        # Balancing edited data: make it the content every game loads in this process.
        content._DEFAULT = content.load_content(args.data)
    options = {"exact_return": True} if args.exact_return else {}
    result = run(args.games, args.players, args.bots.split(","), args.seed, options)
    print(report(result))


if __name__ == "__main__":
    main()

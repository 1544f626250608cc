"""Coordinate search of the Codenames Duet AI's knobs for one language against a development
partner, by the protocol fixed in docs/notes/codenames-zh-knobs-2026-12-02.md (round 9).

    python -m benchmarks.codenames_knob_search --role giver   [--seed 1000] [--games 300] [--passes 2]
    python -m benchmarks.codenames_knob_search --role guesser [--seed 1000] [--games 300] [--passes 2]

The giver's knobs are searched on zh-a-m3e (the AI gives, m3e guesses), the guesser's on zh-b-m3e
(m3e gives, the AI guesses); the partner plays the evaluation's pinned PARTNER_KNOBS. For each knob
in turn every listed value is played with the other knobs at the current best; a value replaces the
current one only if it wins at least ``--lead`` more games (ties and small leads keep it). Each
played setting prints one line: knob values, wins, load average.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from benchmarks import codenames_eval as ce
from tabletrek.games.codenames_duet.ai.selfplay import run

GRID: dict[str, dict[str, list[Any]]] = {
    "giver": {
        "max_number": [2, 3, 4],
        "delta": [0.25, 0.5, 0.75, 1.0, 1.5],
        "delta_assassin": [0.5, 1.0, 1.5, 2.0, 3.0],
        "tau": [1.0, 1.5, 2.0, 2.5],
        "sigma": [0.5, 0.7, 1.0, 1.4],
        "assassin_cost": [1.5, 3.0, 6.0, 10.0],
        "big_number_p": [0.3, 0.5, 0.7, 0.9],
        "consensus": [0.0, 0.5, 1.0, 2.0, 3.0],
    },
    "guesser": {
        "temperature": [0.1, 0.2, 0.4, 0.8],
        "loss_cost": [2.0, 4.0, 8.0, 16.0],
        "endgame_cost": [1.0, 2.0, 4.0],
        "spill": [0.0, 0.15, 0.3, 0.6],
        "old_weight": [0.0, 0.35, 0.7, 1.0],
        "last_token_green": [0.7, 0.9, 0.97, 1.01],
        "bonus_green": [0.0, 0.5, 0.8, 0.95],
    },
}
ROWS = {"giver": "zh-a-m3e", "guesser": "zh-b-m3e"}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--role", choices=sorted(GRID), required=True)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--lead", type=int, default=3, help="games a new value must win beyond the current")
    args = parser.parse_args()
    name = ROWS[args.role]
    config = dict(ce.CONFIGS[name])
    lang = config.pop("lang")
    ce.load_heldout(lang, heldout=False)
    seeds = range(args.seed, args.seed + args.games)
    grid = GRID[args.role]
    # the language's current defaults are the start (the pinned partner keeps PARTNER_KNOBS)
    best: dict[str, Any] = {k: ce.PARTNER_KNOBS[args.role][k] for k in grid}
    played: dict[tuple[tuple[str, Any], ...], int] = {}

    def wins(setting: dict[str, Any]) -> int:
        key = tuple(sorted(setting.items()))
        if key not in played:
            params = {**config, **setting}
            summary = run(
                seeds, params, {"word_pack": lang}, ce.pinned_partner(params, ce.ai_roles(name), lang)
            )
            played[key] = summary.count("won")
            print(
                f"{name} seeds {seeds.start}..{seeds.stop - 1}: {setting} -> {played[key]}/{args.games} "
                f"({played[key] / args.games:.1%}); load {os.getloadavg()[0]:.2f}",
                flush=True,
            )
        return played[key]

    for n in range(args.passes):
        print(f"pass {n + 1}", flush=True)
        for knob, values in grid.items():
            current = wins(best)
            choice = best[knob]
            for value in values:
                won = wins({**best, knob: value})
                if won >= current + args.lead and won > wins({**best, knob: choice}):
                    choice = value
            if choice != best[knob]:
                print(f"  {knob}: {best[knob]} -> {choice}", flush=True)
                best[knob] = choice
    print(f"result: {best} -> {wins(best)}/{args.games}")
    changed = {k: v for k, v in best.items() if v != ce.PARTNER_KNOBS[args.role][k]}
    print(f"candidate {args.role} defaults (differences from today's): {changed}")


if __name__ == "__main__":
    main()

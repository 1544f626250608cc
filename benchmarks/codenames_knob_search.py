"""Coordinate search of the Codenames Duet AI's knobs for one language against a development
partner, by the protocol fixed in docs/notes/codenames-zh-knobs-2026-12-02.md (round 9).

    python -m benchmarks.codenames_knob_search --role giver   [--seed 1000] [--games 300] [--passes 2]
    python -m benchmarks.codenames_knob_search --role guesser [--seed 1000] [--games 300] [--passes 2]

The giver's knobs are searched on zh-a-m3e (the AI gives, m3e guesses), the guesser's on zh-b-m3e
(m3e gives, the AI guesses); the partner plays the evaluation's pinned PARTNER_KNOBS. For each knob
in turn every listed value is played with the other knobs at the current best; a value replaces the
current one only if it wins at least ``--lead`` more games (ties and small leads keep it). Each
played setting prints one line: knob values, wins, load average.

    python -m benchmarks.codenames_knob_search --confirm [--seed 1300] [--games 600] --param k=v ...

plays the candidate knobs (on the AI's role) against today's defaults on fresh seeds, rows zh-a-m3e,
zh-b-m3e, zh-a-loo-mpnet, zh-b-loo-mpnet, and applies the ship rule fixed beforehand: the m3e rows'
mean rises >= 2 points, McNemar's z over their paired (row, seed) games >= 1.96, and the mpnet rows'
mean falls by no more than 2 points.

    python -m benchmarks.codenames_knob_search --screen [--seed 2000] [--games 1000]

plays each one-knob change in ``SCREEN`` against today's defaults on the same seeds (giver knobs on
zh-a-m3e, guesser knobs on zh-b-m3e) and prints McNemar's z of the paired wins; a change passes at
z >= 2.5 (round 9b in the notes).
"""

from __future__ import annotations

import argparse
import math
import os
from typing import Any

from benchmarks import codenames_eval as ce
from tabletrek.games.codenames_duet.ai.selfplay import Summary

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
SCREEN: dict[str, list[tuple[str, Any]]] = {
    "giver": [
        ("max_number", 2),
        ("max_number", 3),
        ("assassin_cost", 1.5),
        ("assassin_cost", 6.0),
        ("delta_assassin", 1.5),
        ("consensus", 0.5),
    ],
    "guesser": [
        ("temperature", 0.4),
        ("endgame_cost", 4.0),
        ("loss_cost", 2.0),
        ("last_token_green", 1.01),
        ("old_weight", 1.0),
    ],
}
SCREEN_PASS = 2.5
CONFIRM_ROWS = ("zh-a-m3e", "zh-b-m3e", "zh-a-loo-mpnet", "zh-b-loo-mpnet")


def play_row(name: str, seeds: range, knobs: dict[str, Any]) -> Summary:
    """One evaluation row with ``knobs`` on the AI's role and the pinned partner."""
    return ce.play_row(name, seeds, knobs)[1]


def mcnemar(new: list[bool], old: list[bool]) -> tuple[int, int, float]:
    """Games only ``new`` won, games only ``old`` won, and McNemar's z of the difference."""
    b = sum(n and not o for n, o in zip(new, old, strict=True))
    c = sum(o and not n for n, o in zip(new, old, strict=True))
    return b, c, (b - c) / math.sqrt(b + c) if b + c else 0.0


def screen(seeds: range) -> None:
    print(f"screen, seeds {seeds.start}..{seeds.stop - 1}: one knob at a time against today's defaults")
    for role, changes in SCREEN.items():
        name = ROWS[role]
        base = [o.ending == "won" for o in play_row(name, seeds, {}).outcomes]
        rate = sum(base) / len(base)
        print(f"{name} defaults: {sum(base)}/{len(base)} ({rate:.1%}); load {os.getloadavg()[0]:.2f}")
        for knob, value in changes:
            won = [o.ending == "won" for o in play_row(name, seeds, {knob: value}).outcomes]
            b, c, z = mcnemar(won, base)
            verdict = "PASS" if z >= SCREEN_PASS else "-"
            print(
                f"{name} {knob}={value}: {sum(won)}/{len(won)} ({sum(won) / len(won):.1%}); only it {b}, "
                f"only defaults {c}, z {z:+.2f} {verdict}; load {os.getloadavg()[0]:.2f}",
                flush=True,
            )


def confirm(seeds: range, knobs: dict[str, Any]) -> None:
    print(f"confirmation, seeds {seeds.start}..{seeds.stop - 1}, candidate {knobs} against today's defaults")
    won: dict[tuple[str, str], list[bool]] = {}
    for name in CONFIRM_ROWS:
        for label, setting in (("default", {}), ("candidate", knobs)):
            summary = play_row(name, seeds, setting)
            won[name, label] = [o.ending == "won" for o in summary.outcomes]
            low, high = summary.wilson("won")
            print(
                f"{name:15} {label:9} wins {summary.count('won'):4}/{summary.games} "
                f"{summary.rate('won'):6.1%} "
                f"({low:.1%}-{high:.1%}) assassin {summary.rate('assassin'):6.1%} "
                f"sudden {summary.rate('sudden_death'):6.1%} N/clue {summary.per_clue('announced'):.2f} "
                f"hit/clue {summary.per_clue('hits'):.2f}; load {os.getloadavg()[0]:.2f}",
                flush=True,
            )

    def mean(rows: tuple[str, ...], label: str) -> float:
        return sum(sum(won[r, label]) / len(won[r, label]) for r in rows) / len(rows)

    m3e, mpnet = CONFIRM_ROWS[:2], CONFIRM_ROWS[2:]
    rise = mean(m3e, "candidate") - mean(m3e, "default")
    fall = mean(mpnet, "default") - mean(mpnet, "candidate")
    b, c, z = mcnemar(
        [w for r in m3e for w in won[r, "candidate"]], [w for r in m3e for w in won[r, "default"]]
    )
    before, after = mean(m3e, "default"), mean(m3e, "candidate")
    print(f"m3e rows: mean {before:.2%} -> {after:.2%} (rise {rise * 100:+.2f} points)")
    print(f"paired (row, seed) games: candidate only {b}, default only {c}, McNemar z {z:.2f}")
    before, after = mean(mpnet, "default"), mean(mpnet, "candidate")
    print(f"mpnet rows: mean {before:.2%} -> {after:.2%} (fall {fall * 100:+.2f} points)")
    ship = rise >= 0.02 and z >= 1.96 and fall <= 0.02
    print(f"ship rule: {'SHIP' if ship else 'do not ship'}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--role", choices=sorted(GRID))
    parser.add_argument("--confirm", action="store_true", help="confirm --param knobs on fresh seeds")
    parser.add_argument("--screen", action="store_true", help="one-knob changes against the defaults")
    parser.add_argument("--param", action="append", type=ce.parse_param, default=[], help="candidate knob")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--games", type=int)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--lead", type=int, default=3, help="games a new value must win beyond the current")
    args = parser.parse_args()
    if args.confirm:
        seed, games = args.seed or 1300, args.games or 600
        confirm(range(seed, seed + games), dict(args.param))
        return
    if args.screen:
        seed, games = args.seed or 2000, args.games or 1000
        screen(range(seed, seed + games))
        return
    if args.role is None:
        parser.error("--role, --confirm or --screen")
    args.seed, args.games = args.seed or 1000, args.games or 300
    name = ROWS[args.role]
    seeds = range(args.seed, args.seed + args.games)
    grid = GRID[args.role]
    # the language's current defaults are the start (the pinned partner keeps PARTNER_KNOBS)
    best: dict[str, Any] = {k: ce.PARTNER_KNOBS[args.role][k] for k in grid}
    played: dict[tuple[tuple[str, Any], ...], int] = {}

    def wins(setting: dict[str, Any]) -> int:
        key = tuple(sorted(setting.items()))
        if key not in played:
            played[key] = play_row(name, seeds, setting).count("won")
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

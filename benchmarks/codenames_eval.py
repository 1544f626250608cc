"""Codenames Duet AI evaluation: AI pairs whose two roles use different embedding models.

    python -m benchmarks.codenames_eval [--games 300] [--seed 0] [--config NAME ...] [--param k=v ...]

Every game is a standard two-player game (9 tokens) played through the real rules; each seat is the
AI, and the *configuration* says which embedding tables its clue-giver and its guesser use. The
held-out configurations are the honest ones: the guesser's model is none of the clue-giver's models
(and not a sibling: MiniLM-L6 and paraphrase-MiniLM-L3 are both MiniLM distillations, so only USE and
GloVe are held out). Same-model pairs are an upper bound only, listed for reference.

Prints, per configuration: wins (with a 95% Wilson interval), assassin losses, sudden-death losses,
mean clue turns of wins, agents found, announced number and greens found per clue. "assassin" counts
every assassin loss, "(clued)" only those while clues were still given (in sudden death any miss
loses, so an assassin there is no worse than a bystander); "sudden" is a bystander in sudden death.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from tabletrek.games.codenames_duet.ai.selfplay import run

CONFIGS: dict[str, dict[str, Any]] = {
    # (a) the AI clue-giver, partner guessing with a model outside the giver's ensemble
    "a-heldout-use": {"giver_models": "minilm,l3,glove", "guesser_models": "use"},
    "a-heldout-glove": {"giver_models": "minilm,l3,use", "guesser_models": "glove"},
    # (b) the AI guesser, partner giving clues with a model outside the guesser's ensemble
    "b-heldout-use": {"giver_models": "use", "guesser_models": "minilm,l3,glove"},
    "b-heldout-glove": {"giver_models": "glove", "guesser_models": "minilm,l3,use"},
    # disjoint ensembles: two models on each side, none shared
    "a-disjoint": {"giver_models": "minilm,l3", "guesser_models": "use,glove"},
    "b-disjoint": {"giver_models": "use,glove", "guesser_models": "minilm,l3"},
    # references: a single-model clue-giver with a held-out guesser; the same tables on both sides
    "single-minilm-to-use": {"giver_models": "minilm", "guesser_models": "use"},
    "same-ensemble": {},
    # the research prototype's setting: the guesser's model is one of the giver's two (not held out)
    "ref-member-minilm": {"giver_models": "minilm,l3", "guesser_models": "minilm"},
    "ref-member-l3": {"giver_models": "minilm,l3", "guesser_models": "l3"},
}
DEFAULT = ("a-heldout-use", "a-heldout-glove", "b-heldout-use", "b-heldout-glove")


def parse_param(text: str) -> tuple[str, Any]:
    key, _, value = text.partition("=")
    if not value:
        raise argparse.ArgumentTypeError(f"--param wants key=value, not {text!r}")
    for kind in (int, float):
        try:
            return key, kind(value)
        except ValueError:
            pass
    return key, value


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0, help="first game seed (games use seed..seed+games-1)")
    parser.add_argument(
        "--config", action="append", choices=sorted(CONFIGS), help="default: the held-out four"
    )
    parser.add_argument(
        "--param", action="append", type=parse_param, default=[], help="AI knob, e.g. delta=1.0"
    )
    parser.add_argument(
        "--option", action="append", type=parse_param, default=[], help="rule option, e.g. tokens=11"
    )
    args = parser.parse_args()
    extra = dict(args.param)
    options = dict(args.option)
    seeds = range(args.seed, args.seed + args.games)
    last = seeds.stop - 1
    print(f"codenames-duet AI evaluation: {args.games} standard games per row, seeds {seeds.start}..{last}")
    if extra:
        print(f"knobs: {extra}")
    if options:
        print(f"rule options: {options} (not the standard game)")
    header = (
        f"{'configuration':22} {'giver models':18} {'guesser models':18} {'wins':>6} {'95% CI':>13} "
        f"{'assassin':>8} {'(clued)':>7} {'sudden':>7} {'turns(win)':>10} {'agents':>6} {'N/clue':>6} "
        f"{'hit/clue':>8} {'s/game':>6}"
    )
    print(header)
    for name in args.config or DEFAULT:
        params = {**CONFIGS[name], **extra}
        start = time.perf_counter()
        summary = run(seeds, params, options)
        elapsed = (time.perf_counter() - start) / args.games
        low, high = summary.wilson("won")
        giver = params.get("giver_models", "all four")
        guesser = params.get("guesser_models", "all four")
        print(
            f"{name:22} {giver:18} {guesser:18} {summary.rate('won'):6.1%} {f'{low:.1%}-{high:.1%}':>13} "
            f"{summary.rate('assassin'):8.1%} {summary.lost_on_clue('assassin'):7.1%} "
            f"{summary.rate('sudden_death'):7.1%} "
            f"{summary.mean('turns', 'won'):10.2f} {summary.mean('agents'):6.2f} "
            f"{summary.per_clue('announced'):6.2f} {summary.per_clue('hits'):8.2f} {elapsed:6.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()

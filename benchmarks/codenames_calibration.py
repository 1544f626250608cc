"""How well the Codenames Duet guesser's probabilities match what happens with a partner of other tables.

    taskset -c 1 python -m benchmarks.codenames_calibration [--games 200] [--seed 1000] [--config NAME]

Plays seeded standard AI games (a configuration of benchmarks/codenames_eval.py: the clue-giver and
the guesser on different tables) and, at every guess, compares the guesser's P(green) and
P(assassin) for the cell it touched (ai/guesser.py) with the cell's true kind on the partner's
side. Rows: guesses within the clue's number, past it, and in sudden death, binned by P(green);
the last two columns are the probabilities fitted on cross-model play (ai/calibration.py).
A guesser reading a partner who "thinks" like itself is well calibrated; against another model the
gap between the columns is what the guesser does not know.
"""

from __future__ import annotations

import argparse

import numpy as np

from benchmarks.codenames_eval import CONFIGS, load_heldout
from tabletrek.core.registry import load
from tabletrek.games.codenames_duet.ai.bots import situation_from_view

BINS = ((0.0, 0.3), (0.3, 0.5), (0.5, 0.7), (0.7, 0.85), (0.85, 1.01))


Row = tuple[str, float, float, str, float, float]


def collect(config: str, seeds: range) -> list[Row]:
    """(phase, P(green), P(assassin), true kind, learned P(green), learned P(assassin)) for every
    guess played (the learned pair: ai/calibration.py's models, which the guesser consults to stop
    only with ``learned_stop``)."""
    params = dict(CONFIGS[config])
    lang = params.pop("lang")
    game = load("codenames-duet", players=2, **({"word_pack": lang} if lang != "en" else {}))
    if "use" in (params.get("giver_models"), params.get("guesser_models")):
        load_heldout(lang)
    rows: list[Row] = []
    for seed in seeds:
        state = game.new_game(seed=seed)
        bots = [game.bot("codenames-clue", seat=s, seed=seed * 2 + s, **params) for s in (0, 1)]
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            view = state.view(seat)
            action = bots[seat].act(state)
            if action.text.startswith("guess "):
                situation = situation_from_view(view)
                cell = situation.words.index(action.text[len("guess ") :])
                clue = view["clue"]
                current = None if clue is None else (str(clue["word"]), int(clue["number"]))
                hits = 0 if clue is None else sum(1 for g in clue["guesses"] if g["kind"] == "green")
                # the cells the guesser chose among (its probabilities are relative to them)
                allowed = {
                    a.text[len("guess ") :] for a in state.legal_actions() if a.text.startswith("guess ")
                }
                candidates = set(situation.guess_candidates())
                cells = [i for i, w in enumerate(situation.words) if w in allowed and i in candidates] or [
                    cell
                ]
                guesser = bots[seat].guesser
                signals = guesser.signals(situation, current, hits, cells)
                at = cells.index(cell)
                phase = "sudden" if current is None else ("past" if hits >= current[1] else "within")
                truth = str(state.view(1 - seat)["key"][cell])
                learned = (
                    guesser.learned(signals, at, current[1] - hits)
                    if current is not None
                    else (np.nan, np.nan)
                )
                rows.append(
                    (
                        phase,
                        float(signals.p_green[at]),
                        float(signals.p_assassin[at]),
                        truth,
                        float(learned[0]),
                        float(learned[1]),
                    )
                )
            state.apply(action)
    return rows


def _mean(values: list[float] | list[bool]) -> float:
    return float(np.mean(values))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--config", default="en-a-loo-mpnet", choices=sorted(CONFIGS))
    args = parser.parse_args()
    rows = collect(args.config, range(args.seed, args.seed + args.games))
    print(f"{args.config}: {len(rows)} guesses in {args.games} games from seed {args.seed}")
    print(
        f"{'phase':8} {'P(green)':>10} {'n':>6} {'said green':>10} {'was green':>9} "
        f"{'said assassin':>13} {'was assassin':>12} {'learned green':>13} {'learned assassin':>16}"
    )
    for phase in ("within", "past", "sudden"):
        for low, high in BINS:
            picked = [r for r in rows if r[0] == phase and low <= r[1] < high]
            if not picked:
                continue
            print(
                f"{phase:8} {f'{low:.2f}-{min(high, 1.0):.2f}':>10} {len(picked):6d} "
                f"{_mean([r[1] for r in picked]):10.3f} {_mean([r[3] == 'green' for r in picked]):9.3f} "
                f"{_mean([r[2] for r in picked]):13.3f} {_mean([r[3] == 'assassin' for r in picked]):12.3f} "
                f"{_mean([r[4] for r in picked]):13.3f} {_mean([r[5] for r in picked]):16.3f}"
            )


if __name__ == "__main__":
    main()

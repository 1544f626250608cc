"""Fit the Codenames Duet AI's cross-model probabilities (ai/data/calibration.json) from leave-one-out play.

    python scripts/fit_codenames_calibration.py [--games 100] [--seed 5000] [--out PATH] [--report]
        [--ablation] [--cache build/codenames_calibration.npz]

Splits: the AI on some of the shipped tables, its partner on a shipped table the AI does not use
(a-side: four models give, the fifth guesses; b-side: one model gives, the other four guess; in
Chinese only e5, which reads the Chinese word, against the four tables that read its dictionary
senses, both ways). The evaluation's held-out model (USE, tables in
benchmarks/data/) is never loaded here. Games are played by the hand-made AI policy (``learned=0
learned_stop=0``) through the real rules;
at every clue turn, for the clue-giver's shortlist of candidate clues and every number k, it records
the features of ai/calibration.py under the giver's tables and what the partner's tables read: how
many greens lead its ordering of the open cells and whether the first other word is an assassin.

Fits (numpy, L2-regularised logistic regression): ``success`` = P(k greens lead), ``assassin`` =
P(the partner's first miss within k is an assassin), on the giver's ensemble features; ``green``,
``guess_assassin`` for the guesser's top cell. ``--report`` prints leave-one-partner-out
cross-validation: fitted on the other splits, log loss and calibration on the held-back one;
``--ablation`` the same with and without the per-model (agreement) features.
Seeds 5000.. by default: apart from the evaluation's report seeds (0..299) and its development
seeds (1000..2999).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tabletrek.core.registry import load
from tabletrek.games.codenames_duet.ai.bots import DuetAI, situation_from_view
from tabletrek.games.codenames_duet.ai.calibration import (
    AGREEMENT,
    CLUE_FEATURES,
    ENSEMBLE_FEATURES,
    GUESS_FEATURES,
    Logistic,
    clue_features,
    data_path,
    partner_outcome,
)
from tabletrek.games.codenames_duet.ai.tables import board_scores

EN = ("e5", "minilm", "l3", "glove", "mpnet")
# Chinese: e5 is the only table that reads the Chinese word itself; the other four read its dictionary
# senses and so share one reading of it. Only e5 against the four is a pair of different readers.
ZH_READERS = "minilm,l3,glove,mpnet"
SHORT = 120  # candidate clues recorded per clue turn
KEYS = ("x", "success", "assassin", "gx", "green", "guess_assassin")


def splits() -> list[tuple[str, str, str, str]]:
    """(name, language, giver models, partner models)."""
    out = []
    for held in EN:
        rest = ",".join(m for m in EN if m != held)
        out.append((f"en-a-{held}", "en", rest, held))
        out.append((f"en-b-{held}", "en", held, rest))
    out.append(("zh-a-e5", "zh-Hant", ZH_READERS, "e5"))
    out.append(("zh-b-e5", "zh-Hant", "e5", ZH_READERS))
    return out


Arrays = dict[str, npt.NDArray[Any]]


def guess_row(
    bot: DuetAI, state: Any, view: dict[str, Any], seat: int
) -> tuple[npt.NDArray[np.float32], str] | None:
    """The guesser's features for the cell it ranks first, and that cell's kind on the partner's side."""
    clue = view["clue"]
    if clue is None:
        return None  # sudden death: no stop decision
    situation = situation_from_view(view)
    number = int(clue["number"])
    hits = sum(1 for g in clue["guesses"] if g["kind"] == "green")
    allowed = {a.text[len("guess ") :] for a in state.legal_actions() if a.text.startswith("guess ")}
    candidates = set(situation.guess_candidates())
    cells = [i for i, w in enumerate(situation.words) if w in allowed and i in candidates]
    if not cells:
        return None
    guesser = bot.guesser
    signals = guesser.signals(situation, (str(clue["word"]), number), hits, cells)
    value = signals.p_green - guesser.knobs.loss_cost * signals.p_assassin
    at = int(value.argmax())
    features = guesser.learned_features(signals, at, number - hits)
    return features, str(state.view(1 - seat)["key"][cells[at]])


def collect(lang: str, giver_models: str, partner_models: str, seeds: range) -> Arrays:
    """Clue rows (x, success, assassin) and guess rows (gx, green, guess_assassin) of one split,
    played by the hand-made policy (``learned=0 learned_stop=0``), which the fitted models then replace."""
    options = {"word_pack": lang} if lang != "en" else {}
    game = load("codenames-duet", players=2, **options)
    feats: list[npt.NDArray[np.float32]] = []
    success: list[npt.NDArray[np.bool_]] = []
    assassin: list[npt.NDArray[np.bool_]] = []
    guess_x: list[npt.NDArray[np.float32]] = []
    guess_kind: list[str] = []
    partner = tuple(partner_models.split(","))
    for seed in seeds:
        state = game.new_game(seed=seed)
        params = {
            "giver_models": giver_models,
            "guesser_models": partner_models,
            "learned": 0,
            "learned_stop": 0,
        }
        bots = [game.bot("codenames-clue", seat=s, seed=seed * 2 + s, **params) for s in (0, 1)]
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            view = state.view(seat)
            bot = bots[seat]
            if view["phase"] != "clue" and isinstance(bot, DuetAI):
                row = guess_row(bot, state, view, seat)
                if row is not None:
                    guess_x.append(row[0])
                    guess_kind.append(row[1])
            if view["phase"] == "clue" and isinstance(bot, DuetAI):
                situation = situation_from_view(view)
                targets = situation.my_targets()
                bystanders, assassins = situation.my_dangers()
                value, _, scores = bot.giver.candidates(situation)
                short = np.argsort(-value)[:SHORT]
                ens = scores.ensemble_t[:, short]
                per_model = np.ascontiguousarray(scores.clue_z[:, short, :].transpose(0, 2, 1))
                kmax = min(4, len(targets))
                f = clue_features(ens, per_model, targets, bystanders, assassins, kmax, len(scores.models))
                p_scores = board_scores(partner, situation.words, bot.giver.knobs.vocab_cut, lang)
                lead, first_assassin = partner_outcome(
                    p_scores.ensemble_t[:, short], targets, bystanders, assassins
                )
                for j in range(kmax):
                    keep = f[j, :, 1] >= 0.5  # a real link to the k-th target
                    feats.append(f[j, keep])
                    success.append(lead[keep] >= j + 1)
                    assassin.append(first_assassin[keep] & (lead[keep] < j + 1))
            state.apply(bot.act(state))
    kinds = np.asarray(guess_kind)
    return {
        "x": np.concatenate(feats),
        "success": np.concatenate(success),
        "assassin": np.concatenate(assassin),
        "gx": np.stack(guess_x),
        "green": kinds == "green",
        "guess_assassin": kinds == "assassin",
    }


def fit_logistic(
    x: npt.NDArray[np.float32], y: npt.NDArray[np.bool_], names: tuple[str, ...], l2: float = 1e-3
) -> dict[str, Any]:
    """Newton's method on standardised features; returns the JSON spec of ai/calibration.Logistic."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.concatenate([(x - mean) / scale, np.ones((len(x), 1), np.float32)], axis=1).astype(np.float64)
    t = y.astype(np.float64)
    w = np.zeros(z.shape[1])
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -30, 30)))
        grad = z.T @ (p - t) / len(t) + l2 * np.r_[w[:-1], 0.0]
        hess = (z * (p * (1 - p))[:, None]).T @ z / len(t) + l2 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return {
        "features": list(names),
        "mean": mean.round(6).tolist(),
        "scale": scale.round(6).tolist(),
        "weights": w[:-1].round(6).tolist(),
        "bias": round(float(w[-1]), 6),
    }


def predict(spec: dict[str, Any], x: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """The fitted spec's probabilities, computed as the game computes them (``Logistic``)."""
    return Logistic(spec)(x).astype(np.float64)


def log_loss(p: npt.NDArray[np.float64], y: npt.NDArray[np.bool_]) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(np.where(y, np.log(p), np.log(1 - p))))


# fitted model -> (feature array, target array, feature names)
TARGETS = {
    "success": ("x", "success", ENSEMBLE_FEATURES),
    "assassin": ("x", "assassin", ENSEMBLE_FEATURES),
    "green": ("gx", "green", GUESS_FEATURES),
    "guess_assassin": ("gx", "guess_assassin", GUESS_FEATURES),
}


def select(arrays: Arrays, key: str, names: tuple[str, ...], every: int = 1) -> npt.NDArray[np.float32]:
    """The columns ``names`` of a split's feature rows (every ``every``-th row)."""
    all_names = CLUE_FEATURES if key == "x" else GUESS_FEATURES
    return np.asarray(arrays[key][::every][:, [all_names.index(n) for n in names]], dtype=np.float32)


def report(data: dict[str, Arrays], every: int = 3) -> None:
    """Leave-one-partner-out: fit on every other split, test on this one (clue rows: every
    ``every``-th, for speed)."""
    for target, (xk, yk, names) in TARGETS.items():
        step = every if xk == "x" else 1
        print(
            f"\n{target}: held-back split, n, base rate, log loss (fitted / base rate), "
            "predicted/true(n) by bin"
        )
        for name, held in data.items():
            x = np.concatenate([select(d, xk, names, step) for n, d in data.items() if n != name])
            y = np.concatenate([d[yk][::step] for n, d in data.items() if n != name])
            spec = fit_logistic(x, y, names)
            xt, yt = select(held, xk, names, step), held[yk][::step]
            p = predict(spec, xt)
            base = np.full(len(yt), y.mean())
            bins = np.digitize(p, [0.1, 0.3, 0.5, 0.7, 0.9])
            cal = " ".join(
                f"{p[bins == b].mean():.2f}/{yt[bins == b].mean():.2f}({(bins == b).sum()})"
                for b in range(6)
                if (bins == b).any()
            )
            print(
                f"  {name:12} {len(yt):7d} {yt.mean():.3f} "
                f"{log_loss(p, yt):.4f} / {log_loss(base, yt):.4f}  {cal}"
            )


def ablation(data: dict[str, Arrays], every: int = 5) -> None:
    """Does agreement transfer? Leave-one-partner-out log loss of the giver's two models with and
    without the per-model features (every ``every``-th row, for speed)."""
    keep = [i for i, n in enumerate(CLUE_FEATURES) if n not in AGREEMENT]
    print("\nablation (held-back split: log loss with every feature / ensemble margins only / base rate)")
    for target in ("success", "assassin"):
        totals = np.zeros(3)
        for name in data:
            x = np.concatenate([d["x"][::every] for n, d in data.items() if n != name])
            y = np.concatenate([d[target][::every] for n, d in data.items() if n != name])
            xt, yt = data[name]["x"][::every], data[name][target][::every]
            full = log_loss(predict(fit_logistic(x, y, CLUE_FEATURES), xt), yt)
            names = tuple(CLUE_FEATURES[i] for i in keep)
            plain = log_loss(predict(fit_logistic(x[:, keep], y, names), xt[:, keep]), yt)
            base = log_loss(np.full(len(yt), y.mean()), yt)
            totals += (full, plain, base)
            print(f"  {target:9} {name:12} {full:.4f} / {plain:.4f} / {base:.4f}")
        print(f"  {target:9} {'mean':12} " + " / ".join(f"{v / len(data):.4f}" for v in totals))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100, help="games per split")
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--out", type=Path, default=data_path())
    parser.add_argument("--report", action="store_true", help="print leave-one-partner-out validation")
    parser.add_argument("--ablation", action="store_true", help="... with and without agreement features")
    parser.add_argument("--cache", type=Path, default=Path("build/codenames_calibration.npz"))
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    data: dict[str, Arrays] = {}
    cached = np.load(args.cache) if args.cache.exists() else None
    for name, lang, giver, partner in splits():
        if cached is not None and f"{name}_x" in cached.files and int(cached["games"]) == args.games:
            data[name] = {key: cached[f"{name}_{key}"] for key in KEYS}
            continue
        start = time.perf_counter()
        data[name] = collect(lang, giver, partner, seeds)
        print(
            f"{name}: {len(data[name]['x'])} clue rows, {len(data[name]['gx'])} guesses in "
            f"{time.perf_counter() - start:.0f} s",
            file=sys.stderr,
        )
    args.cache.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {f"{n}_{key}": d[key] for n, d in data.items() for key in KEYS}
    arrays["games"] = np.asarray(args.games)
    np.savez_compressed(args.cache, **arrays)
    if args.report:
        report(data)
    if args.ablation:
        ablation(data)
    models = {}
    for target, (xk, yk, names) in TARGETS.items():
        x = np.concatenate([select(d, xk, names) for d in data.values()])
        models[target] = fit_logistic(x, np.concatenate([d[yk] for d in data.values()]), names)
    spec = {
        "about": "Codenames Duet AI, fitted on cross-model play: P(the partner finds k greens first), "
        "P(its first miss is an assassin); the guesser's P(green), P(assassin) of the cell it would touch. "
        "Built by scripts/fit_codenames_calibration.py",
        "games_per_split": args.games,
        "seeds": [seeds.start, seeds.stop - 1],
        "splits": [s[0] for s in splits()],
        "models": models,
    }
    args.out.write_text(json.dumps(spec, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

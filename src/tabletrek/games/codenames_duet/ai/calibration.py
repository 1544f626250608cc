"""Probabilities learned from cross-model play: what a partner who reads words differently does.

The clue-giver's question for a clue word c and a number k is how likely a partner, reading with
a model the giver does not have, finds k greens before a miss, and how likely the first miss is an
assassin. The answers are logistic models of features computed under the giver's own tables only:
its ensemble's margins and, per model, how clearly every one of its models puts the targets above
the bystanders and the assassins (agreement). They were fitted by ``scripts/fit_codenames_calibration.py``
on leave-one-out play: the AI on some shipped tables, its partner on another shipped table, never
the evaluation's held-out model, and cross-validated across those splits (fit on some partners,
tested on another). The fitted coefficients ship as ``data/calibration.json``.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]
NO_CELL = np.float32(-6.0)  # the z-score of "no such cell" (no bystander or no assassin left)
CLIP = 6.0

# The giver's features for one (clue, k) (the JSON file names the ones each model uses). The first
# group needs only the giver's ensemble; AGREEMENT needs every one of its models.
ENSEMBLE_FEATURES = (
    "k",
    "target_k",  # ensemble z of the k-th target
    "gap_bystander",  # ... minus the best bystander's
    "gap_assassin",  # ... minus the best assassin's
    "next_gap",  # the (k+1)-th green's ensemble z minus the best bad word (another green found also counts)
    "open_bad",  # bad cells the partner could touch (log)
    "models",  # how many tables the giver reads with (log)
)
AGREEMENT = (
    "worst_gap_bystander",  # per model: weakest of the k targets minus its best bystander; the minimum
    "worst_gap_assassin",  # the same against assassins
    "mean_gap_bystander",  # the mean over models of the per-model gaps
    "mean_gap_assassin",
    "worst_rank",  # largest rank (0 = first) any model gives one of the k targets among open cells, minus k-1
    "models_assassin_clear",  # share of models that put all k targets above every assassin
)
CLUE_FEATURES = ENSEMBLE_FEATURES + AGREEMENT


def _clip(values: npt.NDArray[Any]) -> FloatArray:
    return np.asarray(np.clip(values, -CLIP, CLIP), dtype=np.float32)


def clue_features(
    ensemble: FloatArray,
    per_model: FloatArray | None,
    targets: list[int],
    bystanders: list[int],
    assassins: list[int],
    kmax: int,
    n_models: int,
) -> FloatArray:
    """(kmax, clues, features) for candidate clues: ENSEMBLE_FEATURES, and with ``per_model`` all of
    CLUE_FEATURES.

    ``ensemble``: (25, clues) ensemble z-scores of the candidates; ``per_model``: (models, 25,
    clues) the same per model. The k targets of (clue, k) are the k greens the ensemble ranks
    highest for the clue, as the giver means them.
    """
    n_clues = ensemble.shape[1]
    order = np.argsort(-ensemble[targets], axis=0, kind="stable")  # (targets, clues)
    target_cells = np.asarray(targets)[order]
    cols = np.arange(n_clues)[None, :]
    ens_targets = ensemble[target_cells, cols]  # (targets, clues), descending
    bad = bystanders + assassins

    def best(z: FloatArray, rows: list[int]) -> FloatArray:
        return z[rows].max(axis=0) if rows else np.full(z.shape[1:], NO_CELL, dtype=np.float32)

    ens_by = best(ensemble, bystanders)
    ens_as = best(ensemble, assassins)
    ens_bad = np.maximum(ens_by, ens_as)
    names = CLUE_FEATURES if per_model is not None else ENSEMBLE_FEATURES
    out = np.empty((kmax, n_clues, len(names)), dtype=np.float32)
    col = {name: i for i, name in enumerate(names)}
    out[:, :, col["open_bad"]] = np.log1p(len(bad))
    out[:, :, col["models"]] = np.log(n_models)
    for j in range(kmax):
        tk = ens_targets[j]
        nxt = ens_targets[j + 1] if j + 1 < len(targets) else np.full(n_clues, NO_CELL, dtype=np.float32)
        out[j, :, col["k"]] = j + 1
        out[j, :, col["target_k"]] = _clip(tk)
        out[j, :, col["gap_bystander"]] = _clip(tk - ens_by)
        out[j, :, col["gap_assassin"]] = _clip(tk - ens_as)
        out[j, :, col["next_gap"]] = _clip(nxt - ens_bad)
    if per_model is None:
        return out
    n_models = per_model.shape[0]
    model_targets = per_model[:, target_cells, cols]  # (models, targets, clues)
    weakest = np.minimum.accumulate(model_targets, axis=1)[:, :kmax]  # (models, k, clues)
    model_by = np.stack([best(per_model[m], bystanders) for m in range(n_models)])  # (models, clues)
    model_as = np.stack([best(per_model[m], assassins) for m in range(n_models)])
    # Per model, the rank among the open cells of the weakest of the top k targets (0 = first).
    open_z = per_model[:, targets + bad, :]  # (models, open, clues)
    ranks = (open_z[:, None, :, :] > weakest[:, :, None, :]).sum(axis=2)  # (models, k, clues)
    worst_rank = ranks.max(axis=0)  # (k, clues)
    for j in range(kmax):
        gap_by_m = weakest[:, j, :] - model_by
        gap_as_m = weakest[:, j, :] - model_as
        out[j, :, col["worst_gap_bystander"]] = _clip(gap_by_m.min(axis=0))
        out[j, :, col["worst_gap_assassin"]] = _clip(gap_as_m.min(axis=0))
        out[j, :, col["mean_gap_bystander"]] = _clip(gap_by_m.mean(axis=0))
        out[j, :, col["mean_gap_assassin"]] = _clip(gap_as_m.mean(axis=0))
        out[j, :, col["worst_rank"]] = np.minimum(worst_rank[j] - j, 8)
        out[j, :, col["models_assassin_clear"]] = (gap_as_m > 0).mean(axis=0)
    return out


def partner_outcome(
    partner: FloatArray, targets: list[int], bystanders: list[int], assassins: list[int]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """For each clue (columns of ``partner``, (25, clues) z-scores under the partner's tables): how
    many greens lead the partner's reading of the open cells, and whether the first other word is
    an assassin."""
    cells = np.asarray(targets + bystanders + assassins)
    order = np.argsort(-partner[cells], axis=0, kind="stable")  # (open, clues)
    kinds = np.zeros(len(cells), dtype=np.int8)
    kinds[len(targets) :] = 1
    kinds[len(targets) + len(bystanders) :] = 2
    ordered = kinds[order]  # (open, clues)
    not_green = ordered != 0
    lead = np.where(not_green.any(axis=0), not_green.argmax(axis=0), len(cells))
    first_bad = ordered[np.minimum(lead, len(cells) - 1), np.arange(partner.shape[1])]
    return lead.astype(np.int64), (first_bad == 2) & (lead < len(cells))


class Logistic:
    """A fitted logistic model over standardised features with a few interactions-free terms."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.names = tuple(spec["features"])
        self.mean = np.asarray(spec["mean"], dtype=np.float32)
        self.scale = np.asarray(spec["scale"], dtype=np.float32)
        self.weights = np.asarray(spec["weights"], dtype=np.float32)
        self.bias = np.float32(spec["bias"])

    def __call__(self, features: FloatArray) -> FloatArray:
        x = (features - self.mean) / self.scale
        logit = x @ self.weights + self.bias
        return np.asarray(1.0 / (1.0 + np.exp(-np.clip(logit, -30, 30))), dtype=np.float32)


def data_path() -> Path:
    return Path(str(resources.files("tabletrek.games.codenames_duet.ai") / "data" / "calibration.json"))


@cache
def load_models() -> dict[str, Logistic]:
    """The shipped fitted models by name ("success", "assassin" ...)."""
    spec = json.loads(data_path().read_text(encoding="utf-8"))
    return {name: Logistic(model) for name, model in spec["models"].items()}


# The schedule. Duet needs every green (15) before the timer runs out; after the last token, sudden
# death: each further word must be green. A turn's outcome, measured on leave-one-out play (400
# games, seeds 6000..6099 of four splits, 2,374 clue turns; scripts/fit_codenames_calibration.py's
# splits): an assassin ends about 1 turn in 10; otherwise 0..4 greens with these shares. In sudden
# death a word is taken to be green with probability SUDDEN_GREEN.
TURN_ASSASSIN = 0.1
TURN_GREENS = (0.13, 0.38, 0.31, 0.14, 0.04)
SUDDEN_GREEN = 0.5
AGENTS = 15


@cache
def win_table(max_tokens: int = 12) -> npt.NDArray[np.float64]:
    """V[g, t]: the chance to win with g greens still to find and t timer tokens left, when every
    turn goes as the measured average turn does (a dynamic programme over g and t)."""
    value = np.zeros((AGENTS + 1, max_tokens + 1))
    value[:, 0] = SUDDEN_GREEN ** np.arange(AGENTS + 1)
    value[0, :] = 1.0
    for t in range(1, max_tokens + 1):
        for g in range(1, AGENTS + 1):
            after = [value[max(g - x, 0), t - 1] for x in range(len(TURN_GREENS))]
            value[g, t] = (1 - TURN_ASSASSIN) * float(np.dot(TURN_GREENS, after))
    return value


def turn_values(greens_left: int, tokens_left: int, most: int) -> npt.NDArray[np.float64]:
    """V after this turn for 0..most greens found on it (tokens_left counts this turn's token)."""
    table = win_table()
    t = int(np.clip(tokens_left - 1, 0, table.shape[1] - 1))
    g = np.clip(greens_left - np.arange(most + 1), 0, AGENTS)
    return np.asarray(table[g, t], dtype=np.float64)


# The guesser's features for the cell it would touch next, in this order.
GUESS_FEATURES = (
    "green_logit",  # log-odds of the hand-made P(green) (ai/guesser.py's clue shares and key priors)
    "assassin_log",  # log of its P(assassin)
    "z",  # the cell's ensemble z-score for the current clue
    "lead",  # ... minus the best other candidate's
    "left",  # the clue's number minus the greens found on it this turn (<= 0: past the number)
    "past",  # 1 past the number
    "prior_green",  # key-table prior of the cell being green for the partner
    "prior_assassin",
    "old_z",  # the cell's best ensemble z-score for earlier partner clues with words still unfound
    "models",  # how many tables the guesser reads with (log)
)


def guess_features(
    p_green: float,
    p_assassin: float,
    z: float,
    lead: float,
    left: int,
    prior_green: float,
    prior_assassin: float,
    old_z: float,
    n_models: int,
) -> FloatArray:
    g = min(max(p_green, 1e-4), 1 - 1e-4)
    return np.asarray(
        [
            np.log(g / (1 - g)),
            np.log(max(p_assassin, 1e-5)),
            np.clip(z, -CLIP, CLIP),
            np.clip(lead, -CLIP, CLIP),
            min(max(left, -2), 4),
            float(left <= 0),
            prior_green,
            prior_assassin,
            np.clip(old_z, -CLIP, CLIP),
            np.log(n_models),
        ],
        dtype=np.float32,
    )

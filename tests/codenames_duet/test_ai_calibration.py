"""The AI's cross-model probabilities (ai/calibration.py) and the schedule it values turns with."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tabletrek.games.codenames_duet.ai import calibration
from tabletrek.games.codenames_duet.ai.calibration import (
    CLUE_FEATURES,
    ENSEMBLE_FEATURES,
    GUESS_FEATURES,
    clue_features,
    load_models,
    partner_outcome,
    turn_values,
    win_table,
)

pytestmark = pytest.mark.filterwarnings("error")


def test_partner_outcome_counts_leading_greens_and_the_first_miss() -> None:
    # Cells 0, 1 green; 2 bystander; 3 assassin. Clue A reads 1 > 0 > 3 > 2: two greens, then the
    # assassin (after the number, so no assassin within 2 but the first miss is one). Clue B reads
    # 0 > 2 > ...: one green, then a bystander. Clue C: the assassin first.
    partner = np.zeros((25, 3), dtype=np.float32)
    partner[[0, 1, 2, 3], 0] = [2.0, 3.0, -1.0, 1.0]
    partner[[0, 1, 2, 3], 1] = [3.0, 0.0, 2.0, 1.0]
    partner[[0, 1, 2, 3], 2] = [1.0, 0.5, 0.0, 2.0]
    lead, assassin_first = partner_outcome(partner, [0, 1], [2], [3])
    assert lead.tolist() == [2, 1, 0]
    assert assassin_first.tolist() == [True, False, True]


def test_clue_features_rank_the_targets_by_the_ensemble() -> None:
    rng = np.random.default_rng(0)
    per_model = rng.standard_normal((3, 25, 40)).astype(np.float32)
    ensemble = per_model.mean(axis=0) / np.float32(0.7)
    targets, bystanders, assassins = [0, 1, 2, 3], [4, 5, 6, 7, 8], [9, 10]
    f = clue_features(ensemble, per_model, targets, bystanders, assassins, 3, 3)
    assert f.shape == (3, 40, len(CLUE_FEATURES))
    # without the per-model scores: the ensemble features alone, the same values
    plain = clue_features(ensemble, None, targets, bystanders, assassins, 3, 3)
    assert plain.shape == (3, 40, len(ENSEMBLE_FEATURES))
    assert np.array_equal(plain, f[:, :, : len(ENSEMBLE_FEATURES)])
    col = CLUE_FEATURES.index
    assert (f[:, :, col("k")] == np.arange(1, 4)[:, None]).all()
    # the k-th target's ensemble z falls with k, and so does every gap built on it
    for name in ("target_k", "gap_bystander", "gap_assassin", "worst_gap_bystander", "worst_gap_assassin"):
        assert (np.diff(f[:, :, col(name)], axis=0) <= 1e-6).all(), name
    # by hand for one clue: the best bystander and the weakest of the top two in each model
    c = 5
    top2 = np.argsort(-ensemble[targets, c])[:2]
    cells = np.asarray(targets)[top2]
    worst = min(per_model[m, cells, c].min() - per_model[m, bystanders, c].max() for m in range(3))
    assert f[1, c, col("worst_gap_bystander")] == pytest.approx(np.clip(worst, -6, 6), abs=1e-5)
    assert f[0, c, col("gap_assassin")] == pytest.approx(
        np.clip(ensemble[cells[0], c] - ensemble[assassins, c].max(), -6, 6), abs=1e-5
    )
    assert (f[:, :, col("models_assassin_clear")] >= 0).all()
    assert (f[:, :, col("models_assassin_clear")] <= 1).all()


def test_shipped_models_name_the_features_the_code_computes() -> None:
    spec = json.loads(calibration.data_path().read_text(encoding="utf-8"))
    assert tuple(spec["models"]["success"]["features"]) == ENSEMBLE_FEATURES
    assert tuple(spec["models"]["assassin"]["features"]) == ENSEMBLE_FEATURES
    assert tuple(spec["models"]["green"]["features"]) == GUESS_FEATURES
    assert tuple(spec["models"]["guess_assassin"]["features"]) == GUESS_FEATURES
    assert "use" not in " ".join(spec["splits"])  # the evaluation's held-out model stays out


def test_fitted_success_falls_with_the_number_and_rises_with_the_margins() -> None:
    success = load_models()["success"]
    col = ENSEMBLE_FEATURES.index
    base = np.zeros(len(ENSEMBLE_FEATURES), dtype=np.float32)
    base[col("k")] = 2
    base[col("target_k")] = 2.5
    for name in ("gap_bystander", "gap_assassin", "next_gap"):
        base[col(name)] = 0.5
    base[col("open_bad")] = np.log1p(14)
    base[col("models")] = np.log(5)
    clear = base.copy()
    clear[col("gap_bystander")] = 2.0
    bigger = base.copy()
    bigger[col("k")] = 4
    p = success(np.stack([base, clear, bigger]))
    assert p[1] > p[0] > 0
    assert p[2] < p[0]
    assassin = load_models()["assassin"]
    near = base.copy()
    near[col("gap_assassin")] = -0.5
    assert assassin(near[None])[0] > assassin(base[None])[0]


def test_win_table_is_a_probability_that_grows_with_time_and_progress() -> None:
    table = win_table()
    assert ((table >= 0) & (table <= 1)).all()
    assert (table[0] == 1).all()
    assert (np.diff(table, axis=0) <= 1e-12).all()  # more greens to find: less likely
    assert (np.diff(table, axis=1) >= -1e-12).all()  # more tokens: more likely
    # A standard game's start is won about one time in four by the measured average turn.
    assert 0.1 < table[15, 9] < 0.5
    after = turn_values(15, 9, 4)
    assert after.shape == (5,)
    assert (np.diff(after) > 0).all()


def test_learned_and_gaussian_numbers_both_give_legal_clues_with_their_targets() -> None:
    from tabletrek.games.codenames_duet.ai.selfplay import play_game

    for params in ({}, {"learned": 1}, {"learned": 1, "schedule": 0}, {"learned_stop": 2}):
        outcome = play_game(3, {"giver_models": "e5,minilm,l3,mpnet", "guesser_models": "glove", **params})
        assert outcome.clues >= 1
        assert all(len(r.targets) == r.number >= 1 for r in outcome.clue_reports), params


def test_learned_giver_gives_three_or_more_only_when_likely_found() -> None:
    from tabletrek.core.registry import load
    from tabletrek.games.codenames_duet.ai.bots import situation_from_view
    from tabletrek.games.codenames_duet.ai.giver import ClueGiver, GiverKnobs
    from tabletrek.games.codenames_duet.ai.tables import board_scores

    game = load("codenames-duet", players=2)
    checked = 0
    for seed in range(40):
        state = game.new_game(seed=seed)
        seat = state.current_player
        assert seat is not None
        situation = situation_from_view(state.view(seat))
        giver = ClueGiver(GiverKnobs(learned=1))
        clue = giver.give(situation, lambda word: True)
        if clue.number < 3:
            continue
        # recompute the learned P(all found) for that clue: it clears the threshold
        scores = board_scores(giver.scores(situation.words).models, situation.words, 20000)
        row = scores.tables.index[clue.word]
        targets = situation.my_targets()
        bystanders, assassins = situation.my_dangers()
        f = clue_features(
            np.ascontiguousarray(scores.ensemble_t[:, [row]]),
            None,
            targets,
            bystanders,
            assassins,
            clue.number,
            len(scores.models),
        )
        p = load_models()["success"](f[:, 0, :])
        assert np.minimum.accumulate(p)[clue.number - 1] >= GiverKnobs().big_number_p
        checked += 1
    assert checked >= 1  # boards with a 3+ clue were found and checked

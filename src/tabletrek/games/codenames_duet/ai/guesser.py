"""The AI guesser: ranks board words for the partner's clue, with Duet-aware priors and old clues.

Score of a candidate cell w for a clue c: the ensemble z-score z(c, w) plus
``prior_weight * log(P(w green on the partner's side) / 0.4)`` minus
``assassin_weight * P(w assassin on the partner's side)`` — both probabilities come from the key
table given my own side (1 in 3 of my assassins is my partner's too, so those are touched last).

Within the announced number it touches the best-scoring cell while that cell's z-score is at least
``floor``. Past the number it goes on with *earlier* clues that still have unfound targets (the
partner said "dog 3" and only 2 were found) or with the current clue, but only when the best such
cell stands out by ``bonus_z`` — and more readily when few timer tokens are left. With no clue
(sudden death) it picks the cell best explained by any earlier clue, or by the priors alone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tabletrek.games.codenames_duet.ai.giver import DEFAULT_MODELS
from tabletrek.games.codenames_duet.ai.situation import Situation
from tabletrek.games.codenames_duet.ai.tables import BoardScores, board_scores


@dataclass(frozen=True)
class GuesserKnobs:
    models: tuple[str, ...] = DEFAULT_MODELS
    prior_weight: float = 0.5
    assassin_weight: float = 3.0
    floor: float = -1.0  # within the number, stop if the best cell's z-score is below this
    bonus_z: float = 2.5  # past the number, guess only a cell at least this clearly clued
    hurry: float = 0.25  # bonus_z is lowered by this per missing token below 4 left
    vocab_cut: int = 20000


@dataclass(frozen=True)
class Guess:
    cell: int | None  # None: stop
    score: float


class Guesser:
    def __init__(self, knobs: GuesserKnobs | None = None) -> None:
        self.knobs = knobs or GuesserKnobs()

    def scores(self, words: Sequence[str]) -> BoardScores:
        return board_scores(self.knobs.models, words, self.knobs.vocab_cut)

    def clue_z(self, scores: BoardScores, word: str) -> np.ndarray | None:
        z = scores.word_ensemble(word)
        if z is None:
            # A clue outside the vocabulary (a human's rare word): try its plain forms.
            for cut in ("s", "es", "ed", "ing", "ly"):
                if word.endswith(cut) and (z := scores.word_ensemble(word[: -len(cut)])) is not None:
                    break
        return z

    def prior(self, situation: Situation) -> dict[int, float]:
        greens, assassins = situation.partner_priors()
        k = self.knobs
        return {
            i: k.prior_weight * math.log(max(greens[i], 0.02) / 0.4) - k.assassin_weight * assassins[i]
            for i in greens
        }

    def guess(
        self,
        situation: Situation,
        clue: tuple[str, int] | None,
        hits_this_turn: int,
        allowed: Sequence[int],
        may_stop: bool,
    ) -> Guess:
        """The next cell to touch among ``allowed``, or a stop (only when ``may_stop``)."""
        k = self.knobs
        scores = self.scores(situation.words)
        prior = self.prior(situation)
        cells = [i for i in allowed if i in prior] or list(allowed)
        current = self.clue_z(scores, clue[0]) if clue else None
        within = clue is not None and hits_this_turn < clue[1]
        if current is not None and (within or not may_stop):
            best = max(cells, key=lambda i: float(current[i]) + prior.get(i, 0.0))
            if not may_stop or float(current[best]) >= k.floor:
                return Guess(best, float(current[best]))
        # Past the number (or no usable clue): the clearest cell under any clue with targets left.
        bonus = k.bonus_z - k.hurry * max(0, 4 - situation.tokens_left)
        best_cell, best_z = None, -math.inf
        sources = [(c.word, c.number - len(c.hits)) for c in situation.partner_clues()]
        if clue is not None:
            sources.append((clue[0], 1))
        for word, left in sources:
            if left <= 0:
                continue
            z = self.clue_z(scores, word)
            if z is None:
                continue
            for i in cells:
                value = float(z[i]) + prior.get(i, 0.0)
                if value > best_z:
                    best_cell, best_z = i, value
        if may_stop and (best_cell is None or best_z < bonus):
            return Guess(None, best_z)
        if best_cell is None:  # sudden death with nothing to go on: the priors alone
            best_cell = max(cells, key=lambda i: prior.get(i, 0.0))
            best_z = prior.get(best_cell, 0.0)
        return Guess(best_cell, best_z)

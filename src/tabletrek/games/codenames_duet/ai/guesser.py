"""The AI guesser: a probability that each open cell is green (and an assassin) on the partner's side.

Duet economics: every turn costs one timer token whatever happens, so touching a bystander costs
nothing beyond ending the turn — stopping ends it too. The real costs are the assassin (the game is
lost) and running out of time. So the guesser keeps touching cells, within *and past* the clue's
number, while ``P(green) - loss_cost * P(assassin)`` of the best cell stays positive.

The probabilities. Before any clue, the key table given my own side (docs/rules/codenames-duet.md, "Setting
up") fixes them exactly: a cell that is a bystander on my side is green on my partner's with probability 5/13
and an assassin with 1/13; my greens: 3/9 and 1/9; my assassins: 1/3 and 1/3 (less the greens already found on
each kind). Each partner clue with r targets still unfound then spreads r "intended" shares over the open
cells, in proportion to ``prior_green * exp(z / temperature)`` (z: the ensemble z-score of the cell for the
clue), each share capped at ``cap``. The current clue weighs fully and, past its number, ``spill`` more shares
(givers seldom count every related word); earlier clues by ``old_weight``. A cell no clue means keeps its
prior; P(assassin) = P(meant by no clue) * prior_assassin.

On the last timer token it takes no bonus guess past the number unless P(green) >= 0.9
(``last_token_green``): an assassin there ends a game that sudden death could still win. In sudden
death (no clue, and any miss loses) it touches the cell most likely green.

With ``learned_stop`` (off by default: it lost games on time in leave-one-out play) the stop
decision uses P(green), P(assassin) fitted on cross-model play (ai/calibration.py) instead, valued
by the chance to win (ai/calibration.win_table).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tabletrek.games.codenames_duet.ai import calibration
from tabletrek.games.codenames_duet.ai.calibration import CLIP
from tabletrek.games.codenames_duet.ai.giver import shipped_models
from tabletrek.games.codenames_duet.ai.situation import Situation
from tabletrek.games.codenames_duet.ai.tables import BoardScores, board_scores


@dataclass(frozen=True)
class GuesserKnobs:
    models: tuple[str, ...] = ()  # empty: every shipped table of the language
    language: str = "en"
    temperature: float = 0.2  # softness of "which cell did the clue mean" (z units)
    loss_cost: float = 4.0  # an assassin costs this many greens
    endgame_cost: float = 2.0  # ... and this many once few tokens are left (time is the danger then)
    endgame_tokens: int = 2
    spill: float = 0.3  # extra intended shares of the current clue once its number is reached
    old_weight: float = 0.7  # weight of earlier clues' unfound targets
    cap: float = 0.95  # no clue makes a cell certain
    # Playing the clock: past the clue's number a bonus guess needs P(green) >= ``bonus_green``,
    # and on the last timer token >= ``last_token_green`` (a miss there costs nothing but an
    # assassin ends the game, and sudden death still gives a chance to win).
    bonus_green: float = 0.0
    last_token_green: float = 0.9
    vocab_cut: int = 20000
    # 1: stop or go on with P(green), P(assassin) fitted on cross-model play (ai/calibration.py)
    # and valued by the chance to win; 0: the hand-made rule above (loss_cost, last_token_green).
    # (0 = off; 1 = past the clue's number; 2 = every guess.)
    learned_stop: int = 0


@dataclass(frozen=True)
class Signals:
    """Per candidate cell: the hand-made probabilities and the numbers they were made of."""

    p_green: np.ndarray
    p_assassin: np.ndarray
    z: np.ndarray  # ensemble z-score for the current clue (0 without one)
    old_z: np.ndarray  # best ensemble z-score for earlier partner clues with words left
    prior_green: np.ndarray
    prior_assassin: np.ndarray
    n_models: int


@dataclass(frozen=True)
class Guess:
    cell: int | None  # None: stop
    score: float


class Guesser:
    def __init__(self, knobs: GuesserKnobs | None = None) -> None:
        self.knobs = knobs or GuesserKnobs()

    def scores(self, words: Sequence[str]) -> BoardScores:
        k = self.knobs
        return board_scores(shipped_models(k.models, k.language), words, k.vocab_cut, k.language)

    def clue_z(self, scores: BoardScores, word: str) -> np.ndarray | None:
        z = scores.word_ensemble(word)
        if z is None:
            # A clue outside the vocabulary (a human's rare word): try its plain forms.
            for cut in ("s", "es", "ed", "ing", "ly"):
                if word.endswith(cut) and (z := scores.word_ensemble(word[: -len(cut)])) is not None:
                    break
        return z

    def signals(
        self, situation: Situation, clue: tuple[str, int] | None, hits_this_turn: int, cells: list[int]
    ) -> Signals:
        """Per cell of ``cells``: the hand-made P(green), P(assassin), and what they were made of."""
        k = self.knobs
        greens, assassins = situation.partner_priors()
        prior_g = np.array([max(greens.get(i, 0.0), 1e-3) for i in cells])
        prior_a = np.array([assassins.get(i, 0.0) for i in cells])
        scores = self.scores(situation.words)
        sources: list[tuple[str, float, bool]] = []
        if clue is not None:
            sources.append((clue[0], max(clue[1] - hits_this_turn, 0) + k.spill, True))
        for record in situation.partner_clues():
            left = record.number - len(record.hits)
            if left > 0:
                sources.append((record.word, k.old_weight * left, False))
        not_meant = np.ones(len(cells))
        idx = np.asarray(cells)
        current = np.zeros(len(cells))
        old = np.full(len(cells), -CLIP)
        for word, shares, is_current in sources:
            z = self.clue_z(scores, word)
            if z is None:
                continue
            zc = np.asarray(z, dtype=np.float64)[idx]
            if is_current:
                current = zc
            else:
                old = np.maximum(old, zc)
            logits = zc / k.temperature + np.log(prior_g)
            weights = np.exp(logits - logits.max())
            meant = np.minimum(shares * weights / weights.sum(), k.cap)
            not_meant *= 1.0 - meant
        p_green = 1.0 - not_meant * (1.0 - prior_g)
        return Signals(p_green, not_meant * prior_a, current, old, prior_g, prior_a, len(scores.models))

    def learned(self, signals: Signals, at: int, left: int) -> tuple[float, float]:
        """Cross-model P(green), P(assassin) of cell ``at`` (ai/calibration.py), ``left``: the clue's
        number minus the greens found on it this turn."""
        features = self.learned_features(signals, at, left)
        fitted = calibration.load_models()
        p_green = float(fitted["green"](features[None, :])[0])
        p_assassin = float(fitted["guess_assassin"](features[None, :])[0])
        return p_green, min(p_assassin, 1.0 - p_green)

    @staticmethod
    def learned_features(signals: Signals, at: int, left: int) -> np.ndarray:
        """The fitted models' features (calibration.GUESS_FEATURES) of cell ``at``; the fit script
        collects its rows with this too, so fitting and playing read a guess alike."""
        others = np.delete(signals.z, at)
        lead = float(signals.z[at] - others.max()) if others.size else CLIP
        return calibration.guess_features(
            float(signals.p_green[at]),
            float(signals.p_assassin[at]),
            float(signals.z[at]),
            lead,
            left,
            float(signals.prior_green[at]),
            float(signals.prior_assassin[at]),
            float(signals.old_z[at]),
            signals.n_models,
        )

    def guess(
        self,
        situation: Situation,
        clue: tuple[str, int] | None,
        hits_this_turn: int,
        allowed: Sequence[int],
        may_stop: bool,
    ) -> Guess:
        """The next cell to touch among ``allowed``, or a stop (only when ``may_stop``)."""
        candidates = set(situation.guess_candidates())
        cells = [i for i in allowed if i in candidates] or list(allowed)
        signals = self.signals(situation, clue, hits_this_turn, cells)
        p_green, p_assassin = signals.p_green, signals.p_assassin
        if clue is None and not may_stop:  # sudden death: any miss loses, only P(green) counts
            best = int(p_green.argmax())
            return Guess(cells[best], float(p_green[best]))
        k = self.knobs
        cost = k.endgame_cost if situation.tokens_left <= k.endgame_tokens else k.loss_cost
        value = p_green - cost * p_assassin
        best = int(value.argmax())
        past = clue is not None and hits_this_turn >= clue[1]
        if may_stop and clue is not None and (k.learned_stop >= 2 or (k.learned_stop == 1 and past)):
            # Stop or go on with cross-model probabilities, valued by the chance to win: a green
            # brings the position closer (at least V(g-1) after this turn), a bystander or a stop
            # leaves V(g), an assassin loses.
            green, assassin = self.learned(signals, best, clue[1] - hits_this_turn)
            after = calibration.turn_values(
                calibration.AGENTS - len(situation.covered), situation.tokens_left, 1
            )
            gain = green * (after[1] - after[0]) - assassin * after[0]
            if gain <= 0:
                return Guess(None, gain)
            return Guess(cells[best], gain)
        if may_stop and value[best] <= 0:
            return Guess(None, float(value[best]))
        if may_stop and clue is not None and hits_this_turn >= clue[1]:
            floor = k.last_token_green if situation.tokens_left <= 1 else k.bonus_green
            if p_green[best] < floor:
                return Guess(None, float(value[best]))
        if not math.isfinite(float(value[best])):
            best = 0
        return Guess(cells[best], float(value[best]))

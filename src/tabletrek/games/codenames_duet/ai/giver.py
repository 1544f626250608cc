"""The AI clue-giver: an ensemble of embedding models, with margins over bystanders and assassins.

For every clue candidate c and count k it takes the k unfound greens the ensemble ranks highest for c
and asks how far they stand above the most dangerous other word: the best bystander my partner could
still touch, or the best assassin plus an extra margin. A (c, k) is admissible when that gap is at
least ``delta`` and the k-th target is at least ``tau`` above chance. Among admissible pairs the
number is *calibrated* (``sigma`` > 0, the default): a partner is assumed to read every word with
Gaussian noise, and (c, k) is worth the greens that partner is expected to find before a miss minus
``assassin_cost`` x P(an assassin reads above the k-th target); 3 or more only when P(all found)
is at least ``big_number_p`` (a safe 2 beats a risky 4). With ``sigma`` = 0 it picks the largest
k + 0.5 * min(gap, 2) instead. Then small penalties for rare words and for words its models read
differently (``consensus``); Chinese clues that share a character with an open board word come last.
All scores are in standard deviations (z-scores).

Two stricter variants are knobs, off by default because they did not win more games against a
partner on a held-out model (benchmarks/codenames_eval.py): ``worst_weight`` blends in the gap of
the *worst* single model, and ``noise`` re-ranks a shortlist by simulating a noisy partner. A third,
``adapt``, reweights the models toward the cells the partner touched on my earlier clues. A fourth,
``learned``, replaces the Gaussian with probabilities fitted on cross-model play (ai/calibration.py)
and values a clue by the chance to win from the position it leads to.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from tabletrek.games.codenames_duet.ai import calibration
from tabletrek.games.codenames_duet.ai.situation import Situation
from tabletrek.games.codenames_duet.ai.tables import BoardScores, agreement, board_scores, load_tables

NEG = np.float32(-1e9)


def shipped_models(models: tuple[str, ...], language: str) -> tuple[str, ...]:
    """``models``, or (empty) every table shipped for the language."""
    return models or load_tables(language).shipped


@dataclass(frozen=True)
class GiverKnobs:
    """Difficulty knobs (z units). Larger margins: safer, smaller numbers; smaller: bolder."""

    models: tuple[str, ...] = ()  # empty: every shipped table of the language
    language: str = "en"  # table language (ai/tables.py): "en" or "zh-Hant"
    delta: float = 0.5  # margin of the k-th target over the best bystander
    delta_assassin: float = 1.0  # extra margin demanded over assassins
    tau: float = 1.5  # the k-th target's own z-score must reach this
    max_number: int = 4  # largest number the giver announces
    vocab_cut: int = 20000  # only the most frequent clue words are candidates
    worst_weight: float = 0.0  # blend of worst-model gap (1.0) and ensemble-mean gap (0.0)
    rarity: float = 0.1  # score penalty per doubling of a clue word's frequency rank past 1000
    # Penalty per unit of disagreement between the giver's models about a clue word (0 = off).
    consensus: float = 1.0
    # Noisy-partner check of the best ``shortlist`` clues: the partner is assumed to rank the words by
    # the ensemble z-score plus Gaussian noise of ``noise`` (plus the models' own disagreement on that
    # word); a clue is worth its expected greens minus ``assassin_cost`` times P(assassin). 0 = off.
    noise: float = 0.0
    disagreement: float = 1.0
    assassin_cost: float = 3.0  # in greens, for ``noise`` and ``sigma``
    shortlist: int = 150
    samples: int = 64
    # Adapting to the partner: weight the models by how well each explains the cells the partner
    # touched on my earlier clues (softmax of ``adapt`` x log-likelihood; 0 = equal weights).
    adapt: float = 0.0
    adapt_temperature: float = 0.5
    # Calibrated numbers (0 = off): the partner is assumed to read each board word's z-score with
    # Gaussian noise ``sigma``; the giver announces the number with the best expected greens minus
    # ``assassin_cost`` x P(assassin), and 3+ only when P(all found) >= ``big_number_p``.
    sigma: float = 0.7
    big_number_p: float = 0.5
    # Learned numbers (1 = on; 0, the default = the Gaussian ``sigma`` model above): P(the partner
    # finds k greens first) and P(its first miss is an assassin) from logistic models fitted on
    # cross-model play (ai/calibration.py). With ``schedule`` on, a clue is valued by the chance
    # to win from the position it leads to (ai/calibration.win_table); off: expected greens minus
    # ``assassin_cost`` x P(assassin). Off by default: in leave-one-out play it won no more games
    # than the Gaussian numbers (fewer assassins, more games lost on time; ai/README.md).
    learned: int = 0
    schedule: int = 1


@dataclass(frozen=True)
class Clue:
    word: str
    number: int
    targets: tuple[int, ...]  # cells the giver means
    gap: float


class ClueGiver:
    def __init__(self, knobs: GiverKnobs | None = None, seed: int = 0) -> None:
        self.knobs = knobs or GiverKnobs()
        if not 1 <= self.knobs.max_number <= 9:
            raise ValueError(f"max_number must be 1..9, not {self.knobs.max_number}")
        self._seed = seed
        self._eps_cache: npt.NDArray[np.float32] | None = None

    @property
    def _eps(self) -> npt.NDArray[np.float32]:
        """Fixed noise draws (drawn on first use: only ``noise`` needs them), so the same situation
        always gets the same clue."""
        if self._eps_cache is None:
            rng = np.random.default_rng(self._seed)
            shape = (self.knobs.samples, self.knobs.shortlist, 25)
            self._eps_cache = np.asarray(rng.standard_normal(shape), np.float32)
        return self._eps_cache

    def scores(self, words: Sequence[str]) -> BoardScores:
        k = self.knobs
        return board_scores(shipped_models(k.models, k.language), words, k.vocab_cut, k.language)

    def candidates(
        self, situation: Situation
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64], BoardScores]:
        """(value, best k) for every clue word in the vocabulary cut; inadmissible words get NEG."""
        k_opts = self.knobs
        scores = self.scores(situation.words)
        targets = situation.my_targets()
        bystanders, assassins = situation.my_dangers()
        n_clues = scores.n_clues
        if not targets:
            return np.full(n_clues, NEG), np.ones(n_clues, dtype=np.int64), scores
        cells = self._adapted(situation, scores)  # (25, clues), one contiguous row per board cell
        mean_danger = np.full(n_clues, -10.0, dtype=np.float32)
        if bystanders:
            mean_danger = cells[bystanders].max(axis=0)
        if assassins:
            mean_danger = np.maximum(mean_danger, cells[assassins].max(axis=0) + k_opts.delta_assassin)
        kmax = min(k_opts.max_number, len(targets))
        sorted_mean = _top_rows(cells[targets], kmax)  # (k, clues): k-th best target
        gap = sorted_mean - mean_danger[None, :]
        w = k_opts.worst_weight
        if w > 0:
            worst = self._worst_gap(
                scores.clue_z, cells, targets, bystanders, assassins, kmax, k_opts.delta_assassin
            )
            gap = (1.0 - w) * gap + w * worst
        ks = np.arange(1, kmax + 1, dtype=np.float32)[:, None]
        ok = (gap >= k_opts.delta) & (sorted_mean >= k_opts.tau)
        if k_opts.learned:
            learned = self._learned(
                situation, scores, cells, sorted_mean, targets, bystanders, assassins, gap
            )
            value = np.where(ok, learned, NEG)
        elif k_opts.sigma > 0:
            value = np.where(ok, self._calibrated(cells, sorted_mean, bystanders, assassins, gap), NEG)
        else:
            value = np.where(ok, ks + 0.5 * np.minimum(gap, 2.0), NEG)
        best_k = value.argmax(axis=0)
        best = value.max(axis=0)
        # No admissible k: fall back to the safest single-target clue (valued below any admissible one).
        none = best <= NEG / 2
        fallback = np.where(none, gap[0] - 10.0, best)
        best_k = np.where(none, 0, best_k) + 1
        rarity = _rarity(n_clues, k_opts.rarity)
        if k_opts.consensus > 0:
            agree = agreement(scores.models, k_opts.language)
            if agree is not None:
                rarity = rarity + k_opts.consensus * (1.0 - agree[:n_clues])
        fallback = fallback - rarity
        if k_opts.language != "en":  # written-form links (shared characters) are no hints
            open_words = [w for i, w in enumerate(scores.board) if i not in situation.covered]
            fallback[scores.tables.rows_sharing_characters(open_words, n_clues)] -= 1000.0  # last resort
        self._targets = targets
        self._gap = gap
        self._cells = cells
        if k_opts.noise > 0:
            self._noisy_partner(
                fallback, best_k, scores.clue_z, scores.ensemble, targets, bystanders, assassins, rarity
            )
        return fallback.astype(np.float32), best_k.astype(np.int64), scores

    def partner_weights(self, situation: Situation, scores: BoardScores) -> npt.NDArray[np.float64] | None:
        """Per model, how well it explains my partner's picks on my earlier clues (None: no evidence).

        Each pick is scored as a choice among the cells open at the end of the game so far plus the
        picks themselves (a softmax of z / adapt_temperature), in the order they were touched.
        """
        k_opts = self.knobs
        mine = [c for c in situation.clues if c.giver == situation.seat and (c.hits or c.misses)]
        if k_opts.adapt <= 0 or len(scores.models) < 2 or not mine:
            return None
        still_open = {i for i in range(len(situation.words)) if i not in situation.covered}
        loglik = np.zeros(len(scores.models))
        for clue in mine:
            z = scores.word_z(clue.word)
            if z is None:
                continue
            picks = list(clue.hits) + list(clue.misses)
            pool = sorted(still_open | set(picks))
            for pick in picks:
                logits = np.asarray(z[:, pool], dtype=np.float64) / k_opts.adapt_temperature
                top = logits.max(axis=1, keepdims=True)
                lse = top[:, 0] + np.log(np.exp(logits - top).sum(axis=1))
                loglik += z[:, pick] / k_opts.adapt_temperature - lse
                pool.remove(pick)
        logw = k_opts.adapt * (loglik - loglik.max())
        weights = np.exp(logw)
        return np.asarray(weights / weights.sum(), dtype=np.float64)

    def _adapted(self, situation: Situation, scores: BoardScores) -> npt.NDArray[np.float32]:
        """(25, clues) ensemble z-scores, the models weighted toward the partner's observed picks."""
        weights = self.partner_weights(situation, scores)
        if weights is None:
            return scores.ensemble_t
        mixed = np.tensordot(weights.astype(np.float32), scores.clue_z, axes=1)  # (clues, 25)
        spread = float(mixed[::7].std()) or 1.0  # a subsample is enough for the scale
        return np.ascontiguousarray((mixed / np.float32(spread)).T)

    def _calibrated(
        self,
        cells: npt.NDArray[np.float32],
        sorted_mean: npt.NDArray[np.float32],
        bystanders: list[int],
        assassins: list[int],
        gap: npt.NDArray[np.float32],
    ) -> npt.NDArray[np.float32]:
        """(k, clues) value of announcing k: the greens a partner who reads each word with noise
        ``sigma`` is expected to find before a miss, minus ``assassin_cost`` x the chance that one
        of my assassins reads above the k-th target. A number of 3 or more also needs P(every
        target found) >= ``big_number_p``: a safe 2 beats a risky 4. Only a shortlist of clue words
        (the best by the plain margins) is valued; the rest stay inadmissible, and so does any
        (clue, k) that fails the plain margins (``delta``, ``delta_assassin``, ``tau``)."""
        k_opts = self.knobs
        kmax, n_clues = sorted_mean.shape
        value = np.full((kmax, n_clues), NEG, dtype=np.float32)
        ks = np.arange(1, kmax + 1, dtype=np.float32)[:, None]
        short = self._shortlist(gap)
        top = sorted_mean[:, short]  # (k, P)
        scale = np.float32(1.702 / (k_opts.sigma * np.sqrt(2.0)))  # logistic approximation of Phi

        def log_above(rows: list[int]) -> npt.NDArray[np.float32]:
            """(k, P): log P(the j-th target reads above every word of ``rows``)."""
            if not rows:
                return np.zeros_like(top)
            diff = top[:, None, :] - cells[rows][:, short][None, :, :]  # (k, rows, P)
            return np.asarray(-np.log1p(np.exp(-scale * diff)).sum(axis=1), dtype=np.float32)

        safe_from_assassins = log_above(assassins)
        p_all = np.exp(np.cumsum(log_above(bystanders) + safe_from_assassins, axis=0))
        expected = np.cumsum(p_all, axis=0)  # greens found before a miss, at most k
        p_assassin = 1.0 - np.exp(safe_from_assassins)
        worth = expected - np.float32(k_opts.assassin_cost) * p_assassin
        allowed = (ks <= 2) | (p_all >= k_opts.big_number_p)
        allowed &= top >= k_opts.tau  # a real link, not the best of weak ones
        value[:, short] = np.where(allowed, worth, NEG)
        return value

    def _shortlist(self, gap: npt.NDArray[np.float32]) -> npt.NDArray[np.intp]:
        """The ``shortlist`` clue words with the best plain margins (k counted half a margin each)."""
        kmax, n_clues = gap.shape
        ks = np.arange(1, kmax + 1, dtype=np.float32)[:, None]
        rough = (gap + 0.5 * ks).max(axis=0)
        size = min(self.knobs.shortlist, n_clues)
        return np.argpartition(-rough, size - 1)[:size]

    def _learned(
        self,
        situation: Situation,
        scores: BoardScores,
        cells: npt.NDArray[np.float32],
        sorted_mean: npt.NDArray[np.float32],
        targets: list[int],
        bystanders: list[int],
        assassins: list[int],
        gap: npt.NDArray[np.float32],
    ) -> npt.NDArray[np.float32]:
        """(k, clues) value of announcing k, with the partner's behaviour taken from models fitted on
        cross-model play: P(the first j words it touches are greens) for j <= k, and P(its first miss
        within k is an assassin). Valued either as the chance to win from the position the turn
        leads to (``schedule``: a green is worth most when the clock is short, an assassin is the
        lost game it is) or as expected greens minus ``assassin_cost`` x P(assassin). 3 or more
        only when P(all k found) >= ``big_number_p``."""
        k_opts = self.knobs
        kmax, n_clues = sorted_mean.shape
        value = np.full((kmax, n_clues), NEG, dtype=np.float32)
        short = self._shortlist(gap)
        # Ensemble margins only: the per-model (agreement) features predicted an unseen partner no
        # better in leave-one-partner-out validation (scripts/fit_codenames_calibration.py --ablation).
        features = calibration.clue_features(
            np.ascontiguousarray(cells[:, short]),
            None,
            targets,
            bystanders,
            assassins,
            kmax,
            len(scores.models),
        )
        fitted = calibration.load_models()
        p_found = np.minimum.accumulate(fitted["success"](features), axis=0)  # (k, P), P(>= j greens)
        p_assassin = np.minimum(fitted["assassin"](features), 1.0 - p_found)
        if k_opts.schedule:
            greens_left = calibration.AGENTS - len(situation.covered)
            after = calibration.turn_values(greens_left, situation.tokens_left, kmax)  # V(x greens)
            worth = np.empty_like(p_found)
            for k in range(1, kmax + 1):
                reach = np.vstack([np.ones((1, len(short)), np.float32), p_found[:k]])  # P(>= j), j=0..k
                exact = reach[:-1] - reach[1:]  # P(exactly j < k greens)
                missed = np.maximum(1.0 - reach[k], 1e-6)
                survive = 1.0 - p_assassin[k - 1] / missed  # of the misses, not an assassin
                worth[k - 1] = (exact * after[:k, None]).sum(axis=0) * survive + reach[k] * after[k]
            # In greens of this turn (the word penalties that follow are in greens): the gain over
            # finding none, per the first green's gain.
            worth = (worth - after[0]) / max(after[1] - after[0], 1e-6)
        else:
            worth = np.cumsum(p_found, axis=0) - np.float32(k_opts.assassin_cost) * p_assassin
        top = sorted_mean[:, short]
        ks = np.arange(1, kmax + 1)[:, None]
        allowed = ((ks <= 2) | (p_found >= k_opts.big_number_p)) & (top >= k_opts.tau)
        value[:, short] = np.where(allowed, worth, NEG)
        return value

    @staticmethod
    def _worst_gap(
        z: npt.NDArray[np.float32],
        cells: npt.NDArray[np.float32],
        targets: list[int],
        bystanders: list[int],
        assassins: list[int],
        kmax: int,
        delta_assassin: float,
    ) -> npt.NDArray[np.float32]:
        """(k, clues): per model, the weakest of the top-k targets (ranked by the ensemble) minus
        that model's own danger; the minimum over models."""
        order = np.argsort(-cells[targets], axis=0)[:kmax]  # (k, clues) indices into targets
        target_cells = np.asarray(targets)[order]  # (k, clues)
        cols = np.arange(z.shape[1])[None, :]
        worst = np.full((kmax, z.shape[1]), np.inf, dtype=np.float32)
        for zm in z:  # (clues, 25) per model
            danger = np.full(z.shape[1], -10.0, dtype=np.float32)
            if bystanders:
                danger = zm[:, bystanders].max(axis=1)
            if assassins:
                danger = np.maximum(danger, zm[:, assassins].max(axis=1) + delta_assassin)
            weakest = np.minimum.accumulate(zm[cols, target_cells], axis=0)
            worst = np.minimum(worst, weakest - danger[None, :])
        return worst

    def _noisy_partner(
        self,
        value: npt.NDArray[np.float32],
        best_k: npt.NDArray[np.int64],
        z: npt.NDArray[np.float32],
        ensemble: npt.NDArray[np.float32],
        targets: list[int],
        bystanders: list[int],
        assassins: list[int],
        rarity: npt.NDArray[np.float32],
    ) -> None:
        """Re-value the shortlist in place by simulating a partner who reads the clue noisily."""
        k_opts = self.knobs
        short = np.argsort(-value)[: k_opts.shortlist]
        cells = targets + bystanders + assassins
        mu = ensemble[short][:, cells]  # (P, cells)
        spread = z[:, short][:, :, cells].std(axis=0) if z.shape[0] > 1 else np.zeros_like(mu)
        sigma = np.sqrt(k_opts.noise**2 + (k_opts.disagreement * spread) ** 2)
        eps = self._eps[:, : len(short), : len(cells)]
        sampled = mu[None] + sigma[None] * eps  # (S, P, cells)
        n_t = len(targets)
        bad = sampled[:, :, n_t:]
        best_bad = bad.max(axis=2)
        bad_is_assassin = bad.argmax(axis=2) >= len(bystanders)
        lead = (sampled[:, :, :n_t] > best_bad[:, :, None]).sum(axis=2)  # greens touched before a miss
        kmax = min(k_opts.max_number, n_t)
        best_val = np.full(len(short), -np.inf, dtype=np.float32)
        best_num = np.ones(len(short), dtype=np.int64)
        for k in range(1, kmax + 1):
            hits = np.minimum(lead, k).mean(axis=0)
            p_assassin = ((lead < k) & bad_is_assassin).mean(axis=0)
            val = (hits - k_opts.assassin_cost * p_assassin).astype(np.float32)
            better = val > best_val
            best_val = np.where(better, val, best_val)
            best_num = np.where(better, k, best_num)
        value[:] = -1e6  # only the shortlist stays in play, ranked by the simulation
        value[short] = best_val - rarity[short]
        best_k[short] = best_num

    def give(self, situation: Situation, is_legal: Callable[[str], bool], avoid: Sequence[str] = ()) -> Clue:
        """The best legal clue. ``is_legal(word)`` is the rules' own check; ``avoid``: words already used."""
        best = self.ranked(situation, is_legal, avoid, 1)
        if not best:
            raise RuntimeError("no legal clue word in the AI vocabulary")
        return best[0]

    def ranked(
        self, situation: Situation, is_legal: Callable[[str], bool], avoid: Sequence[str], count: int
    ) -> list[Clue]:
        """The ``count`` best legal clues, best first (fewer when the vocabulary runs out):
        ``give``'s choice and runners-up a person may pick from. Each aims at a different set of
        agents: the next word for the same ones (a synonym, mostly) is no second choice."""
        value, best_k, scores = self.candidates(situation)
        words = scores.tables.words
        board = set(scores.board)
        value = value.copy()
        for word in avoid:
            row = scores.tables.index.get(word.lower())
            if row is not None and row < value.size:
                value[row] = NEG
        clues: list[Clue] = []
        aimed: set[frozenset[int]] = set()
        for _ in range(value.size):
            if len(clues) == count:
                break
            row = int(value.argmax())
            if value[row] <= NEG / 2:
                break
            word = words[row]
            if word not in board and not _shares_letters_with(word, board) and is_legal(word):
                k = int(best_k[row])
                ranked = sorted(self._targets, key=lambda c: -float(self._cells[c, row]))
                gap = float(self._gap[min(k, self._gap.shape[0]) - 1, row])
                if frozenset(ranked[:k]) not in aimed:
                    aimed.add(frozenset(ranked[:k]))
                    clues.append(Clue(word, k, tuple(ranked[:k]), gap))
            value[row] = NEG
        return clues


def _top_rows(rows: npt.NDArray[np.float32], k: int) -> npt.NDArray[np.float32]:
    """The k largest values of each column, largest first (= a descending sort's first k rows).

    With at most 8 rows, inserting each row into k running maxima is ~4x faster than a sort
    along the short axis, and gives the same values."""
    top = np.full((k, rows.shape[1]), -np.inf, dtype=np.float32)
    high = np.empty(rows.shape[1], dtype=np.float32)
    for row in rows:
        carry = row.copy()
        for i in range(k):
            np.maximum(top[i], carry, out=high)
            np.minimum(top[i], carry, out=carry)
            top[i] = high
    return top


@lru_cache(maxsize=16)  # bounded: a browser names the bot's vocab_cut and rarity weight
def _rarity_cached(n_clues: int, weight: float) -> npt.NDArray[np.float32]:
    ranks = np.arange(n_clues, dtype=np.float32)
    return np.asarray(weight * np.log2(np.maximum(ranks / 1000.0, 1.0)), dtype=np.float32)


def _rarity(n_clues: int, weight: float) -> npt.NDArray[np.float32]:
    """Penalty per clue rank: frequent words are easier for people and read alike across models."""
    return _rarity_cached(n_clues, weight)


def _shares_letters_with(word: str, board: set[str]) -> bool:
    """Cheap pre-check before the rules' validator: contains or is contained in a board word."""
    return any(word in b or b in word for b in board)

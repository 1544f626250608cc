"""The shipped word-vector tables (built by scripts/build_codenames_tables.py) and per-board z-scores.

Nothing here loads a model: each table is a vocabulary x dimension int8 matrix with one scale per row,
already reduced with PCA at build time. Similarities are cosines, turned into z-scores with the mean
and standard deviation the build measured for that model, so margins are in the same units for every
model and an ensemble can average them.

One directory per table language under ``data/``: ``en`` for the English pack, ``zh_hant`` for the
Traditional Chinese pack (its own clue vocabulary, in Traditional characters).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tabletrek.core.data import DataError
from tabletrek.games.codenames_duet.words import load_pack

FloatArray = npt.NDArray[np.float32]
DATA_FILES = ("tables.npz", "vocab.txt")
LANGUAGES = ("en", "zh-Hant")
# The pack's clue language (words.pack_language) -> the table language that covers it.
PACK_LANGUAGE = {"en": "en", "zh": "zh-Hant"}


def data_dir(lang: str = "en") -> Path:
    if lang not in LANGUAGES:
        raise ValueError(f"no AI tables for language {lang!r}; there are: {', '.join(LANGUAGES)}")
    # Directory names are identifiers ("zh_hant"): the wheel's package discovery skips others.
    folder = lang.replace("-", "_").lower()
    return Path(str(resources.files("tabletrek.games.codenames_duet.ai") / "data" / folder))


def table_language(pack_language: str) -> str | None:
    """The table language for a word pack's language, or None when the AI cannot play it."""
    return PACK_LANGUAGE.get(pack_language)


@dataclass(frozen=True)
class ModelTable:
    name: str
    vectors: FloatArray  # (words, dims), rows L2-normalised; a transposed view of (dims, words)
    mean: float
    std: float


@dataclass(frozen=True)
class Moments:
    """Clue-vocabulary moments of all models' vectors concatenated (``spans``: each model's columns)."""

    spans: dict[str, slice]
    mean: npt.NDArray[np.float64]
    cov: npt.NDArray[np.float64]


class Tables:
    """The vocabulary and every model's vectors; the first ``n_clues`` words are clue candidates."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        manifest_path = directory / "manifest.json"
        try:
            manifest: dict[str, Any] = json.loads(manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise DataError(str(manifest_path), "", f"cannot read the AI manifest: {error}") from error
        self.manifest = manifest
        self.words: list[str] = (directory / "vocab.txt").read_text(encoding="utf-8").split()
        self.index: dict[str, int] = {w: i for i, w in enumerate(self.words)}
        self.n_clues: int = int(manifest["n_clues"])
        self.language: str = str(manifest.get("language", "en"))
        if len(self.words) != int(manifest["n_words"]):
            raise DataError(str(directory / "vocab.txt"), "n_words", "does not match manifest.json")
        self.models: dict[str, ModelTable] = {}
        # A bot's ``vocab_cut`` and ``models`` come from table settings a browser may send, and each
        # distinct pair costs megabytes here: kept most-recent-first and bounded, not per value ever seen.
        self._moments: OrderedDict[int, Moments] = OrderedDict()
        self._joint_cov: OrderedDict[tuple[int, tuple[str, ...]], npt.NDArray[np.float64]] = OrderedDict()
        self._char_rows: dict[str, npt.NDArray[np.intp]] | None = None
        self.agreement: dict[tuple[str, str], FloatArray] = {}
        with np.load(directory / "tables.npz") as data:
            for key in data.files:
                if key.startswith("agree_"):
                    a, b = key.split("_")[1:3]
                    self.agreement[(a, b)] = data[key].astype(np.float32)
            self._read_models(directory, manifest, data)
        self.shipped: tuple[str, ...] = tuple(self.models)

    def _read_models(self, directory: Path, manifest: dict[str, Any], data: Any) -> None:
        for name, meta in manifest["models"].items():
            q = data[f"{name}_q"].astype(np.float32)
            q *= data[f"{name}_scale"][:, None]
            q /= np.linalg.norm(q, axis=1, keepdims=True)
            if q.shape[0] != len(self.words):
                raise DataError(str(directory / "tables.npz"), f"{name}_q", "row count != vocabulary")
            # Stored dims-major (the rows are a transposed view): a board's products with the
            # whole clue vocabulary then come out one contiguous row per board word.
            vectors = np.ascontiguousarray(q.T).T
            self.models[name] = ModelTable(name, vectors, float(meta["mean"]), float(meta["std"]))

    def add_models(self, directory: Path) -> None:
        """Add the tables of another directory built over the same vocabulary (the evaluation's
        held-out partner model, which the AI's own tables leave out)."""
        manifest = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
        if manifest.get("vocab_sha256") != self.manifest.get("vocab_sha256"):
            raise DataError(str(directory), "vocab_sha256", "built over another vocabulary")
        with np.load(directory / "tables.npz") as data:
            self._read_models(directory, manifest, data)
        self._moments.clear()
        self._joint_cov.clear()

    def moments(self, n_clues: int) -> Moments:
        """Mean and covariance (population) of the first ``n_clues`` rows of all models side by side,
        computed once per process (the cross-model blocks give an ensemble's spread)."""
        if n_clues not in self._moments:
            spans: dict[str, slice] = {}
            start = 0
            for name, table in self.models.items():
                spans[name] = slice(start, start + table.vectors.shape[1])
                start += table.vectors.shape[1]
            rows = np.empty((n_clues, start), dtype=np.float64)
            for name, table in self.models.items():
                rows[:, spans[name]] = table.vectors[:n_clues]
            mean = rows.mean(axis=0)
            rows -= mean
            self._moments[n_clues] = Moments(spans, mean, rows.T @ rows / n_clues)
            _trim(self._moments)
        self._moments.move_to_end(n_clues)
        return self._moments[n_clues]

    def joint_cov(self, n_clues: int, models: tuple[str, ...]) -> npt.NDArray[np.float64]:
        """The covariance block of ``models``' columns, kept per model set: with 256 dimensions a
        model the copy is 9 MB, and taking it afresh for every board cost most of a first clue."""
        key = (n_clues, models)
        if key not in self._joint_cov:
            moments = self.moments(n_clues)
            cols = np.concatenate([np.arange(moments.cov.shape[0])[moments.spans[m]] for m in models])
            self._joint_cov[key] = moments.cov[np.ix_(cols, cols)]
            _trim(self._joint_cov)
        self._joint_cov.move_to_end(key)
        return self._joint_cov[key]

    def rows_sharing_characters(self, words: Sequence[str], n_clues: int) -> npt.NDArray[np.intp]:
        """Clue rows (of the first ``n_clues``) that share a character with any of ``words``.

        For Chinese: a clue that shares a character with a board word ("樣子" for "褲子") links
        to it by its written form, which a subword model over-rates and a person does not take
        for a hint (and the rules forbid the clue outright when it contains the whole word).
        """
        if self._char_rows is None:
            index: dict[str, list[int]] = {}
            for row, word in enumerate(self.words[: self.n_clues]):
                for ch in set(word):
                    index.setdefault(ch, []).append(row)
            self._char_rows = {ch: np.asarray(rows, dtype=np.intp) for ch, rows in index.items()}
        found = [self._char_rows[ch] for ch in {c for w in words for c in w} if ch in self._char_rows]
        if not found:
            return np.zeros(0, dtype=np.intp)
        rows = np.unique(np.concatenate(found))
        return rows[rows < n_clues]

    def clue_vectors_t(self, name: str, n_clues: int) -> FloatArray:
        """(dims, n_clues), a view of the dims-major storage."""
        return self.model(name).vectors[:n_clues].T

    def model(self, name: str) -> ModelTable:
        try:
            return self.models[name]
        except KeyError:
            known = ", ".join(self.models)
            raise ValueError(f"no AI table for model {name!r}; the tables have: {known}") from None

    def rows(self, words: Sequence[str]) -> list[int]:
        """Vocabulary rows of board words; every word of the language's shipped pack has one."""
        missing = [w for w in words if w.lower() not in self.index]
        if missing:
            raise ValueError(
                f"the AI has no vectors for {', '.join(missing)}: its {self.language} tables cover the "
                f"shipped {self.language} word pack (rebuild them with scripts/build_codenames_tables.py "
                "for another pack)"
            )
        return [self.index[w.lower()] for w in words]

    def z(self, model: str, a_rows: npt.NDArray[np.intp] | slice, b_rows: Sequence[int]) -> FloatArray:
        """z-scored cosine similarity of rows ``a_rows`` against rows ``b_rows`` under one model."""
        table = self.model(model)
        sims = table.vectors[a_rows] @ table.vectors[list(b_rows)].T
        return np.asarray((sims - table.mean) / table.std, dtype=np.float32)


@cache
def pair_agreement(model_a: str, model_b: str, lang: str = "en") -> FloatArray:
    """Per clue word, how alike two models find it: the correlation of its similarities to the
    pack's words under each model (a word one model "reads" oddly is a risky clue)."""
    tables = load_tables(lang)
    if (model_a, model_b) in tables.agreement:  # precomputed by the build
        return tables.agreement[(model_a, model_b)]
    rows = tables.rows(load_pack(lang).words)
    profiles = []
    for name in (model_a, model_b):
        sims = tables.z(name, slice(0, tables.n_clues), rows)
        sims -= sims.mean(axis=1, keepdims=True)
        sims /= np.linalg.norm(sims, axis=1, keepdims=True)
        profiles.append(sims)
    return np.asarray((profiles[0] * profiles[1]).sum(axis=1), dtype=np.float32)


def agreement(models: Sequence[str], lang: str = "en") -> FloatArray | None:
    """Mean pairwise agreement of ``models`` per clue word (None for a single model)."""
    pairs = [(a, b) for i, a in enumerate(models) for b in models[i + 1 :]]
    if not pairs:
        return None
    return np.asarray(np.mean([pair_agreement(*sorted(p), lang) for p in pairs], axis=0), dtype=np.float32)


@cache
def load_tables(lang: str = "en") -> Tables:
    """The shipped tables of one language, loaded once per process."""
    return Tables(data_dir(lang))


def file_checksums(directory: Path | None = None, names: Sequence[str] = DATA_FILES) -> dict[str, str]:
    """SHA-256 of the table files (by default the shipped ones), to compare with the manifest."""
    directory = directory or data_dir()
    return {name: hashlib.sha256((directory / name).read_bytes()).hexdigest() for name in names}


class BoardScores:
    """z-scores of every clue candidate (under each model) against the 25 board words, per board.

    Per board word and model, the cosines are centred and scaled over the clue vocabulary (some words
    are close to everything under one model, "hubs"; without this, that model's quirk decides
    guesses). Those moments need no pass over the vocabulary: the mean of ``v . w`` over the clue rows
    is ``mean(v) . w`` and its variance is ``w^T C w`` (``C`` the clue rows' covariance), both from
    per-model moments computed once per process (``Tables.moments``). What is left per board is one
    (25 x dims) @ (dims x clues) product per model, summed into the ensemble. The per-model matrix
    ``clue_z`` is built only when asked for (knobs that are off by default use it).
    """

    def __init__(self, tables: Tables, models: Sequence[str], board: Sequence[str], vocab_cut: int) -> None:
        self.tables = tables
        self.models = tuple(models)
        self.board = tuple(w.lower() for w in board)
        self.board_rows = tables.rows(self.board)
        self.n_clues = min(vocab_cut, tables.n_clues)
        # Per model: the board words' vectors divided by their spread over the vocabulary, and the
        # offset (their mean z-score before centring), so z = v . scaled - offset.
        moments = tables.moments(self.n_clues)
        self._scaled: list[FloatArray] = []
        self._offset: list[FloatArray] = []
        scaled64 = []
        for name in self.models:
            table = tables.model(name)  # a clear error for an unknown model
            span = moments.spans[name]
            w = table.vectors[self.board_rows].astype(np.float64)  # (25, dims)
            word_mean = w @ moments.mean[span]
            word_std = np.sqrt(((w @ moments.cov[span, span]) * w).sum(axis=1))
            scaled64.append(w / word_std[:, None])
            self._scaled.append(np.asarray(scaled64[-1], dtype=np.float32))
            self._offset.append(np.asarray(word_mean / word_std, dtype=np.float32))
        # The mean of correlated z-scores has a spread below 1; the ensemble is rescaled to unit
        # spread so that margins mean the same for one model and for an ensemble. That spread is
        # known without the matrix: per board word, the variance of the models' summed z-scores is
        # s^T C s (s: the scaled vectors side by side, C: the joint covariance).
        joint = np.concatenate(scaled64, axis=1)  # (25, sum of dims)
        cov = tables.joint_cov(self.n_clues, self.models)
        spread = float(np.sqrt(((joint @ cov) * joint).sum(axis=1).mean())) or 1.0
        self._spread = spread  # of the models' sum; the mean's is spread / len(models)
        self.ensemble_std = spread / len(self.models)
        self._ensemble_t: FloatArray | None = None
        self._clue_z: FloatArray | None = None

    @property
    def ensemble_t(self) -> FloatArray:
        """(25, clues) ensemble z-scores, one contiguous row per board cell, computed on first use
        (a guesser needs only its clues' columns)."""
        if self._ensemble_t is None:
            total = np.empty((len(self.board), self.n_clues), dtype=np.float32)
            scratch = _scratch(total.shape)
            for i, (name, scaled) in enumerate(zip(self.models, self._scaled, strict=True)):
                np.matmul(scaled, self.tables.clue_vectors_t(name, self.n_clues), out=scratch if i else total)
                if i:
                    total += scratch
            total -= np.sum(self._offset, axis=0)[:, None]
            total *= np.float32(1.0 / self._spread)
            self._ensemble_t = total
        return self._ensemble_t

    @property
    def ensemble(self) -> FloatArray:
        """(clues, 25) ensemble z-scores (a view of ``ensemble_t``)."""
        return self.ensemble_t.T

    @property
    def clue_z(self) -> FloatArray:
        """(models, clues, 25) per-model z-scores, computed on first use."""
        if self._clue_z is None:
            self._clue_z = np.stack(
                [
                    self.tables.model(name).vectors[: self.n_clues] @ scaled.T - offset[None, :]
                    for name, scaled, offset in zip(self.models, self._scaled, self._offset, strict=True)
                ]
            )
        return self._clue_z

    def word_ensemble(self, word: str) -> FloatArray | None:
        """(25,) ensemble z-scores of any vocabulary word against the board, or None if unknown."""
        row = self.tables.index.get(word.lower())
        if row is None:
            return None
        if row < self.n_clues and self._ensemble_t is not None:
            return self._ensemble_t[:, row]
        z = self._row_z(row)
        return np.asarray(z.mean(axis=0) / np.float32(self.ensemble_std), dtype=np.float32)

    def word_z(self, word: str) -> FloatArray | None:
        """(models, 25) z-scores of any vocabulary word against the board, or None if unknown."""
        row = self.tables.index.get(word.lower())
        return None if row is None else self._row_z(row)

    def _row_z(self, row: int) -> FloatArray:
        return np.stack(
            [
                self.tables.model(name).vectors[row] @ scaled.T - offset
                for name, scaled, offset in zip(self.models, self._scaled, self._offset, strict=True)
            ]
        )


_SCRATCH: dict[tuple[int, ...], FloatArray] = {}


def _scratch(shape: tuple[int, ...]) -> FloatArray:
    """A reused buffer for the per-model products (a fresh 2 MB array per model costs page faults)."""
    if shape not in _SCRATCH:
        _SCRATCH.clear()
        _SCRATCH[shape] = np.empty(shape, dtype=np.float32)
    return _SCRATCH[shape]


_BOARD_CACHE: OrderedDict[tuple[Any, ...], BoardScores] = OrderedDict()
MOMENTS_KEPT = 4  # vocabulary cuts / model sets whose covariance a process keeps (9 MB each at 256 dims)
BOARDS_KEPT = 8


def _trim(kept: OrderedDict[Any, Any], limit: int = MOMENTS_KEPT) -> None:
    """Drop the least recently used entries beyond ``limit``."""
    while len(kept) > limit:
        kept.popitem(last=False)


def board_scores(
    models: Sequence[str], board: Sequence[str], vocab_cut: int, lang: str = "en"
) -> BoardScores:
    key = (lang, tuple(models), tuple(board), vocab_cut)
    scores = _BOARD_CACHE.get(key)
    if scores is None:
        scores = BoardScores(load_tables(lang), models, board, vocab_cut)
        _BOARD_CACHE[key] = scores
        _trim(_BOARD_CACHE, BOARDS_KEPT)
    else:
        _BOARD_CACHE.move_to_end(key)
    return scores

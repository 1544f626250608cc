"""The shipped word-vector tables (built by scripts/build_codenames_tables.py) and per-board z-scores.

Nothing here loads a model: each table is a vocabulary x dimension int8 matrix with one scale per row,
already reduced with PCA at build time. Similarities are cosines, turned into z-scores with the mean
and standard deviation the build measured for that model, so margins are in the same units for every
model and an ensemble can average them.
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

FloatArray = npt.NDArray[np.float32]
DATA_FILES = ("tables.npz", "vocab.txt")


def data_dir() -> Path:
    return Path(str(resources.files("tabletrek.games.codenames_duet.ai") / "data"))


@dataclass(frozen=True)
class ModelTable:
    name: str
    vectors: FloatArray  # (words, dims), rows L2-normalised
    mean: float
    std: float


class Tables:
    """The vocabulary and every model's vectors; the first ``n_clues`` words are clue candidates."""

    def __init__(self, directory: Path) -> None:
        manifest_path = directory / "manifest.json"
        try:
            manifest: dict[str, Any] = json.loads(manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise DataError(str(manifest_path), "", f"cannot read the AI manifest: {error}") from error
        self.manifest = manifest
        self.words: list[str] = (directory / "vocab.txt").read_text(encoding="utf-8").split()
        self.index: dict[str, int] = {w: i for i, w in enumerate(self.words)}
        self.n_clues: int = int(manifest["n_clues"])
        if len(self.words) != int(manifest["n_words"]):
            raise DataError(str(directory / "vocab.txt"), "n_words", "does not match manifest.json")
        self.models: dict[str, ModelTable] = {}
        self.agreement: dict[tuple[str, str], FloatArray] = {}
        with np.load(directory / "tables.npz") as data:
            for key in data.files:
                if key.startswith("agree_"):
                    a, b = key.split("_")[1:3]
                    self.agreement[(a, b)] = data[key].astype(np.float32)
            for name, meta in manifest["models"].items():
                q = data[f"{name}_q"].astype(np.float32)
                q *= data[f"{name}_scale"][:, None]
                q /= np.linalg.norm(q, axis=1, keepdims=True)
                if q.shape[0] != len(self.words):
                    raise DataError(str(directory / "tables.npz"), f"{name}_q", "row count != vocabulary")
                self.models[name] = ModelTable(name, q, float(meta["mean"]), float(meta["std"]))

    def model(self, name: str) -> ModelTable:
        try:
            return self.models[name]
        except KeyError:
            known = ", ".join(self.models)
            raise ValueError(f"no AI table for model {name!r}; the tables have: {known}") from None

    def rows(self, words: Sequence[str]) -> list[int]:
        """Vocabulary rows of board words; every word of the English pack has one."""
        missing = [w for w in words if w.lower() not in self.index]
        if missing:
            raise ValueError(
                f"the AI has no vectors for {', '.join(missing)}: it plays the English word pack "
                "(rebuild the tables with scripts/build_codenames_tables.py for another pack)"
            )
        return [self.index[w.lower()] for w in words]

    def z(self, model: str, a_rows: npt.NDArray[np.intp] | slice, b_rows: Sequence[int]) -> FloatArray:
        """z-scored cosine similarity of rows ``a_rows`` against rows ``b_rows`` under one model."""
        table = self.model(model)
        sims = table.vectors[a_rows] @ table.vectors[list(b_rows)].T
        return np.asarray((sims - table.mean) / table.std, dtype=np.float32)


@cache
def pair_agreement(model_a: str, model_b: str) -> FloatArray:
    """Per clue word, how alike two models find it: the correlation of its similarities to the
    English pack's words under each model (a word one model "reads" oddly is a risky clue)."""
    from tabletrek.games.codenames_duet.words import load_pack

    tables = load_tables()
    if (model_a, model_b) in tables.agreement:  # precomputed by the build
        return tables.agreement[(model_a, model_b)]
    rows = tables.rows(load_pack("en").words)
    profiles = []
    for name in (model_a, model_b):
        sims = tables.z(name, slice(0, tables.n_clues), rows)
        sims -= sims.mean(axis=1, keepdims=True)
        sims /= np.linalg.norm(sims, axis=1, keepdims=True)
        profiles.append(sims)
    return np.asarray((profiles[0] * profiles[1]).sum(axis=1), dtype=np.float32)


def agreement(models: Sequence[str]) -> FloatArray | None:
    """Mean pairwise agreement of ``models`` per clue word (None for a single model)."""
    pairs = [(a, b) for i, a in enumerate(models) for b in models[i + 1 :]]
    if not pairs:
        return None
    return np.asarray(np.mean([pair_agreement(*sorted(p)) for p in pairs], axis=0), dtype=np.float32)


@cache
def load_tables() -> Tables:
    """The shipped tables, loaded once per process."""
    return Tables(data_dir())


def file_checksums(directory: Path | None = None) -> dict[str, str]:
    """SHA-256 of the shipped table files, to compare with the manifest."""
    directory = directory or data_dir()
    return {name: hashlib.sha256((directory / name).read_bytes()).hexdigest() for name in DATA_FILES}


class BoardScores:
    """z-scores of every clue candidate (under each model) against the 25 board words, per board.

    Computing them is the expensive step (vocabulary x 25 dot products per model), so a small cache
    keyed by board and model set keeps one game's turns cheap.
    """

    def __init__(self, tables: Tables, models: Sequence[str], board: Sequence[str], vocab_cut: int) -> None:
        self.tables = tables
        self.models = tuple(models)
        self.board = tuple(w.lower() for w in board)
        self.board_rows = tables.rows(self.board)
        self.n_clues = min(vocab_cut, tables.n_clues)
        clue_rows = slice(0, self.n_clues)
        # (models, clues, 25)
        raw = np.stack([tables.z(m, clue_rows, self.board_rows) for m in self.models])
        # Per board word, centre and scale over the clue vocabulary: some words are close to
        # everything under one model ("hubs"); without this, that model's quirk decides guesses.
        self.word_mean: FloatArray = raw.mean(axis=1, keepdims=True)
        self.word_std: FloatArray = raw.std(axis=1, keepdims=True)
        self.clue_z: FloatArray = (raw - self.word_mean) / self.word_std
        # The mean of correlated z-scores has a spread below 1; rescale it so that margins mean the
        # same for one model and for an ensemble.
        mean = self.clue_z.mean(axis=0)
        self.ensemble_std = float(mean.std()) or 1.0
        self.ensemble: FloatArray = mean / np.float32(self.ensemble_std)
        self.ensemble_t: FloatArray = np.ascontiguousarray(self.ensemble.T)  # (25, clues)

    def word_ensemble(self, word: str) -> FloatArray | None:
        """(25,) ensemble z-scores of any vocabulary word against the board, or None if unknown."""
        z = self.word_z(word)
        return None if z is None else z.mean(axis=0) / np.float32(self.ensemble_std)

    def word_z(self, word: str) -> FloatArray | None:
        """(models, 25) z-scores of any vocabulary word against the board, or None if unknown."""
        row = self.tables.index.get(word.lower())
        if row is None:
            return None
        if row < self.n_clues:
            return self.clue_z[:, row, :]
        raw = np.stack([self.tables.z(m, np.array([row]), self.board_rows)[0] for m in self.models])
        return np.asarray((raw - self.word_mean[:, 0, :]) / self.word_std[:, 0, :], dtype=np.float32)


_BOARD_CACHE: OrderedDict[tuple[Any, ...], BoardScores] = OrderedDict()


def board_scores(models: Sequence[str], board: Sequence[str], vocab_cut: int) -> BoardScores:
    key = (tuple(models), tuple(board), vocab_cut)
    scores = _BOARD_CACHE.get(key)
    if scores is None:
        scores = BoardScores(load_tables(), models, board, vocab_cut)
        _BOARD_CACHE[key] = scores
        while len(_BOARD_CACHE) > 8:
            _BOARD_CACHE.popitem(last=False)
    else:
        _BOARD_CACHE.move_to_end(key)
    return scores

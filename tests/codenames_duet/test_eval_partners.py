"""The evaluation's partners (benchmarks/codenames_eval.py): a development row's left-out model reads
bare words, never the WordNet-augmented table the AI reads."""

from __future__ import annotations

import json

import numpy as np
import pytest
from benchmarks import codenames_eval

from tabletrek.games.codenames_duet.ai import tables


def test_a_glossed_model_is_partnered_by_its_plain_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codenames_eval, "glossed", lambda lang: {"e5"})
    assert codenames_eval.partner_side("e5", "en") == "plain-e5"
    assert codenames_eval.partner_side("mpnet", "en") == "mpnet"
    monkeypatch.setattr(codenames_eval, "glossed", lambda lang: set())
    assert codenames_eval.partner_side("e5", "en") == "e5"


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_shipped_glossed_tables_have_plain_partners_over_the_same_words(lang: str) -> None:
    glossed = codenames_eval.glossed(lang)
    folder = codenames_eval.HELDOUT_DIR / f"codenames_plain_{lang.replace('-', '_').lower()}"
    if not glossed:
        # nothing reads glosses (Chinese today): the partners are the shipped tables themselves, and
        # no stale plain tables lie about to be loaded by mistake
        assert not folder.exists()
        return
    codenames_eval.load_heldout(lang)
    loaded = tables.load_tables(lang)
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["vocab_sha256"] == loaded.manifest["vocab_sha256"]
    for model in glossed:
        plain = loaded.model(f"plain-{model}").vectors[:300]
        mixed = loaded.model(model).vectors[:300]
        # the same model read without its glosses (each table has its own PCA axes, so compare the
        # words' similarities): alike, but not the same table
        upper = np.triu_indices(300, 1)
        r = np.corrcoef((plain @ plain.T)[upper], (mixed @ mixed.T)[upper])[0, 1]
        assert 0.5 < r < 0.99


def test_the_native_chinese_partner_is_benchmark_only_and_reads_chinese() -> None:
    """m3e-small (research licence) partners the Chinese rows from benchmarks/data and is in no shipped
    table; its table shares the shipped vocabulary and reads meaning (a hospital is nearer a doctor
    than a tiger)."""
    lang = "zh-Hant"
    folder = codenames_eval.HELDOUT_DIR / "codenames_partner_zh_hant"
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert "non-commercial" in manifest["licence"]
    assert "m3e" not in tables.load_tables(lang).manifest["models"]
    codenames_eval.load_heldout(lang)
    loaded = tables.load_tables(lang)
    assert manifest["vocab_sha256"] == loaded.manifest["vocab_sha256"]
    m3e = loaded.model("m3e").vectors
    row = {w: i for i, w in enumerate(loaded.words)}
    hospital = m3e[row["醫院"]]
    assert hospital @ m3e[row["醫生"]] > hospital @ m3e[row["老虎"]] + 0.1
    assert {"zh-a-m3e", "zh-b-m3e", "zh-m3e-same"} <= set(codenames_eval.CONFIGS)

"""The table build's WordLlama reader (scripts/codenames_wordllama.py) and the build's ``--extend`` mode."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from codenames_wordllama import read_safetensors

HAS_WORDLLAMA = importlib.util.find_spec("wordllama") is not None


def write_safetensors(path: Path, matrix: np.ndarray, key: str = "embedding.weight") -> None:
    data = matrix.astype("<f2").tobytes()
    header = json.dumps(
        {key: {"dtype": "F16", "shape": list(matrix.shape), "data_offsets": [0, len(data)]}}
    ).encode()
    path.write_bytes(len(header).to_bytes(8, "little") + header + data)


def test_safetensors_reader_returns_the_fp16_matrix(tmp_path: Path) -> None:
    matrix = np.arange(12, dtype=np.float32).reshape(3, 4) / 8
    write_safetensors(tmp_path / "w.safetensors", matrix)
    assert np.array_equal(read_safetensors(tmp_path / "w.safetensors"), matrix)


def test_safetensors_reader_refuses_another_dtype(tmp_path: Path) -> None:
    header = json.dumps({"embedding.weight": {"dtype": "F32", "shape": [1, 1], "data_offsets": [0, 4]}})
    (tmp_path / "w.safetensors").write_bytes(len(header).to_bytes(8, "little") + header.encode() + b"\0" * 4)
    with pytest.raises(SystemExit, match="F16"):
        read_safetensors(tmp_path / "w.safetensors")


@pytest.mark.skipif(not HAS_WORDLLAMA, reason="wordllama (extra ai-build) not installed")
def test_wordllama_vectors_mean_something_in_both_languages() -> None:
    from codenames_wordllama import embedder

    words = ["music", "piano", "ocean", "submarine", "money", "音樂", "海洋", "銀行", "bank"]
    v = embedder()(words)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    sims = v @ v.T
    i = {w: k for k, w in enumerate(words)}
    assert sims[i["music"], i["piano"]] > sims[i["music"], i["submarine"]]
    assert sims[i["ocean"], i["submarine"]] > sims[i["ocean"], i["piano"]]
    # cross-lingual: a Chinese word is nearer its English translation than another English word
    assert sims[i["海洋"], i["ocean"]] > sims[i["海洋"], i["money"]]
    assert sims[i["銀行"], i["bank"]] > sims[i["銀行"], i["music"]]


@pytest.mark.skipif(not HAS_WORDLLAMA, reason="wordllama (extra ai-build) not installed")
def test_extend_adds_a_model_and_keeps_the_others_unchanged(tmp_path: Path) -> None:
    import build_codenames_tables as build

    # A small table in the shipped format over a five-word vocabulary (two clue words, three board
    # words), with one made-up model; --extend must add WordLlama beside it and copy it unchanged.
    words = ["piano", "ocean", "music", "submarine", "money"]
    pack = tmp_path / "pack.txt"
    pack.write_text("\n".join(words[2:]) + "\n", encoding="utf-8")
    out = tmp_path / "tables"
    rng = np.random.default_rng(1)
    arrays: dict[str, np.ndarray] = {}
    entry = build.store_table(arrays, "fake", rng.normal(size=(5, 8)), 8, 2, np.array([2, 3, 4]))
    vocab_text = "\n".join(words) + "\n"
    sources = {"wordfreq": "test"}  # the vocabulary's record, which --extend must keep
    meta = {
        "format": 2,
        "language": "en",
        "n_clues": 2,
        "n_words": 5,
        "board_pack": pack.name,
        "vocabulary_sources": sources,
    }
    build.write_tables(
        out, arrays, {"vocab.txt": vocab_text}, {**meta, "models": {"fake": entry}, "attribution": ""}
    )
    build.main(
        [
            "--lang",
            "en",
            "--models",
            "wordllama",
            "--extend",
            "--out",
            str(out),
            "--words",
            str(pack),
            "--cache",
            str(tmp_path / "cache"),
        ]
    )
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert list(manifest["models"]) == ["fake", "wordllama"]
    assert manifest["models"]["fake"] == json.loads(json.dumps(entry))
    assert "WordLlama" in manifest["attribution"]
    assert manifest["vocabulary_sources"] == sources
    with np.load(out / "tables.npz") as data:
        assert np.array_equal(data["fake_q"], arrays["fake_q"])
        assert data["wordllama_q"].shape == (5, 256)  # 256 dims: PCA keeps them all
        assert "agree_fake_wordllama" in data.files
    assert (out / "vocab.txt").read_text(encoding="utf-8") == vocab_text

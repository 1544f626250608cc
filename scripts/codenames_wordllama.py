"""WordLlama (l2_supercat, 256 dims) as a build-time word model, read with numpy (no torch, no download).

The ``wordllama`` wheel (0.4.0.post1, MIT) ships its weights: ``weights/l2_supercat_256.safetensors``,
one 32000 x 256 fp16 matrix of Llama-2-tokenizer token embeddings (several LLMs' input embeddings
concatenated, projected and trained contrastively), and the tokenizer in
``tokenizers/l2_supercat_tokenizer_config.json``. A text's vector is the mean of its tokens' rows
without BOS/EOS, exactly as WordLlama's own ``embed`` pools (``add_special_tokens=False``); the lone
word-start piece "▁" that SentencePiece emits before a character it cannot attach (common before
Chinese characters) carries no meaning and is left out.

Other readings were tried on the build's no-game proxy (per-board z-score agreement with the other
models' tables) and none agreed better: weighting pieces by length or by token id, the first piece
only or doubled, unit-length token rows, removing the top 1-8 principal axes, averaging "music" with
"Music" / "MUSIC" / "the music" (docs/notes/codenames-wordllama-2026-12-02.md).

The safetensors file is read with numpy (``codenames_encoder.read_safetensors``, as mpnet's weights
are) rather than adding the ``safetensors`` package for one fp16 matrix.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

WEIGHTS = "weights/l2_supercat_256.safetensors"
TOKENIZER = "tokenizers/l2_supercat_tokenizer_config.json"
WORD_START = "\u2581"  # SentencePiece's "▁"


def package_dir() -> Path:
    spec = importlib.util.find_spec("wordllama")
    if spec is None or spec.origin is None:
        raise SystemExit("need wordllama: pip install --no-deps wordllama==0.4.0.post1")
    return Path(spec.origin).parent


def read_safetensors(path: Path, key: str = "embedding.weight") -> np.ndarray:
    """The weights file's fp16 matrix, as float32 (another stored type is refused)."""
    from codenames_encoder import read_safetensors as read_arrays

    return read_arrays(path.read_bytes(), kinds={"F16": np.float16})[key]


def embedder() -> Callable[[Sequence[str]], np.ndarray]:
    """Texts -> mean-pooled WordLlama vectors (not normalised; the build normalises)."""
    from tokenizers import Tokenizer

    root = package_dir()
    matrix = read_safetensors(root / WEIGHTS)
    tokenizer = Tokenizer.from_file(str(root / TOKENIZER))

    def embed(texts: Sequence[str]) -> np.ndarray:
        rows = np.empty((len(texts), matrix.shape[1]), dtype=np.float32)
        for i, encoding in enumerate(tokenizer.encode_batch(list(texts), add_special_tokens=False)):
            ids = [t for t, piece in zip(encoding.ids, encoding.tokens, strict=True) if piece != WORD_START]
            rows[i] = matrix[ids or encoding.ids].mean(axis=0)
        return rows

    return embed

"""A fixed-length observation vector from any game's ``view(seat)``, by feature hashing.

A view is nested JSON. Each leaf becomes a feature named by its path: a number adds its value
(log-scaled) under the path; text or a boolean counts once under "path=value". Lists are read as bags (the
items' paths drop the position), so a hand of cards is a count per card, whatever its order or
length. Names are hashed (stable BLAKE2, not Python's salted ``hash``) into ``size`` buckets.
The vector therefore has the same length in every state of every game; collisions are rare at the
default size and only blur, never break, what a learner sees. The seat to act and the acting
seat's own number are views' business, so nothing game-specific is needed here.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

DEFAULT_SIZE = 512


@lru_cache(maxsize=65536)
def bucket(name: str, size: int) -> tuple[int, float]:
    """The bucket of a feature name, and a sign that makes collisions cancel out on average."""
    digest = hashlib.blake2b(name.encode(), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return value % size, 1.0 if (value >> 63) & 1 else -1.0


class ViewEncoder:
    """``encode(view)`` → float32 vector of length ``size``."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        if size < 8:
            raise ValueError(f"the observation size must be at least 8, not {size}")
        self.size = size

    def encode(self, view: Mapping[str, Any]) -> npt.NDArray[np.float32]:
        out = np.zeros(self.size, dtype=np.float32)
        self._walk(view, "", out)
        return out

    def _add(self, name: str, value: float, out: npt.NDArray[np.float32]) -> None:
        index, sign = bucket(name, self.size)
        out[index] += sign * value

    def _walk(self, node: Any, path: str, out: npt.NDArray[np.float32]) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                self._walk(value, f"{path}.{key}", out)
        elif isinstance(node, list | tuple):
            self._add(f"{path}#len", float(len(node)), out)
            for item in node:
                self._walk(item, f"{path}[]", out)
        elif isinstance(node, bool):
            self._add(f"{path}={node}", 1.0, out)
        elif isinstance(node, int | float):
            # Log scale: cash in the hundreds of thousands and a count of 3 both stay readable.
            x = float(node)
            self._add(path, math.copysign(math.log1p(abs(x)), x), out)
        elif node is None:
            self._add(f"{path}=null", 1.0, out)
        else:
            self._add(f"{path}={node}", 1.0, out)

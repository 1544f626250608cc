"""Randomness held in the state: seeding, derivation, and exact (de)serialization."""

from __future__ import annotations

import hashlib
import random
import secrets
from typing import Any


def new_seed() -> int:
    return secrets.randbits(63)


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts, stable across processes and Python versions."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def make_rng(seed: int) -> random.Random:
    return random.Random(seed)


def copy_rng(rng: random.Random) -> random.Random:
    clone = random.Random()
    clone.setstate(rng.getstate())
    return clone


def rng_to_json(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: Any) -> random.Random:
    try:
        version, internal, gauss = data
        rng = random.Random()
        rng.setstate((int(version), tuple(int(x) for x in internal), gauss))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"malformed RNG state: {exc}") from None
    return rng

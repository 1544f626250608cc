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


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)``: the same permutation, leaving ``rng`` in the same state, at about
    half the cost. ``random.Random.shuffle`` draws each index through the ``_randbelow`` method, a
    Python call per item, which made dealing a tenth of a random playout's time; the draw is
    inlined here. Seeded games must keep dealing the same cards, so this is CPython's algorithm
    (unchanged since 3.2, and what ``core/mt19937.py`` compiles): from the last item down, swap
    with an index below i + 1, drawn by rejection from ``getrandbits`` of its bit length.
    ``tests/core/test_rng_shuffle.py`` holds it to ``random.Random.shuffle``."""
    if type(rng) is not random.Random or len(items) > len(DRAW_BITS):
        rng.shuffle(items)  # a subclass may draw differently; a list that long is rare
        return
    getrandbits = rng.getrandbits
    bits = DRAW_BITS
    for i in reversed(range(1, len(items))):
        k = bits[i]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


DRAW_BITS = tuple((i + 1).bit_length() for i in range(1024))
"""The bits of the draw that picks position ``i``'s partner in ``shuffle`` (one of ``i + 1``):
looked up rather than computed per card, for the decks and piles the games shuffle."""


def randint(rng: random.Random, low: int, high: int) -> int:
    """``rng.randint(low, high)``: the same number, leaving ``rng`` in the same state, in one Python
    call instead of four (``randint``, ``randrange``, ``_randbelow``): games that roll dice roll
    about once a move. CPython's algorithm, as in ``shuffle`` above: ``low`` plus a number below
    the width drawn by rejection from ``getrandbits`` of its bit length."""
    width = high - low + 1
    if type(rng) is not random.Random or width <= 0:  # a subclass may draw differently
        return rng.randint(low, high)
    getrandbits = rng.getrandbits
    k = width.bit_length()
    r = getrandbits(k)
    while r >= width:
        r = getrandbits(k)
    return low + r

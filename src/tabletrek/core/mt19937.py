"""Python's ``random.Random`` compiled with numba: the same Mersenne Twister, seeding and
``_randbelow``, so that a compiled batch of games deals and shuffles exactly as the Python rules do.

Why: the batch engines (``games/*/batch.py``) must play the very game that ``new_game(seed)``
plays, move for move; the rules draw all their randomness from ``random.Random(seed)`` through
``shuffle`` and ``randint`` (``core/rng.py``). Reproducing those two calls bit for bit keeps one
seed meaning one game in both engines, and lets a batch state be handed back to Python
(``to_python_state``) with its generator.

A generator is a row of ``SIZE`` uint32: the 624 words of state, then the position (0..624), as
``random.getstate()`` holds them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

F = TypeVar("F", bound=Callable[..., Any])


def _plain(fn: F) -> F:
    return fn


njit: Callable[[F], F] = _plain
njit_inline: Callable[[F], F] = _plain
"""``njit`` whose function numba copies into each caller (``inline="always"``): for a batch
engine's rules, called once per env per step from ``core/batch_driver.py``. A plain call hands
every array argument through reference counting (an atomic add on entry and on exit, for each
array); inlined, those pairs cancel."""
try:
    import numba

    from tabletrek.core.compiled_cache import refresh

    # Before any function below is compiled or loaded: a cache built from other sources goes.
    refresh()
    njit = cast("Callable[[F], F]", numba.njit(cache=True, nogil=True))
    njit_inline = cast("Callable[[F], F]", numba.njit(cache=True, nogil=True, inline="always"))
    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - exercised only without the [search] extra
    HAVE_NUMBA = False

N = 624
M = 397
SIZE = N + 1
POS = N
MATRIX_A = 0x9908B0DF
UPPER = 0x80000000
LOWER = 0x7FFFFFFF


def _genrand_words(s: int) -> npt.NDArray[np.uint32]:
    """``init_genrand(s)``'s 624 words, in Python (run once, at import)."""
    words = [s & 0xFFFFFFFF]
    for i in range(1, N):
        prev = words[-1]
        words.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    return np.array(words, dtype=np.uint32)


INIT_19650218 = _genrand_words(19650218)
"""Where every ``init_by_array`` starts: a constant, copied instead of recomputed at each seeding
(the batch engines seed a generator for every game they deal)."""


@njit
def seed(mt: np.ndarray, value: int) -> None:
    """``random.Random(value)`` for a non-negative int below 2**64 (CPython's ``init_by_array``
    over the value's 32-bit words, low word first)."""
    key = np.zeros(2, dtype=np.uint64)
    v = np.uint64(value)
    key[0] = v & np.uint64(0xFFFFFFFF)
    key[1] = v >> np.uint64(32)
    length = 2 if key[1] != 0 else 1
    mt[:N] = INIT_19650218  # init_genrand(mt, 19650218)
    i = 1
    j = 0
    k = N if length < N else length
    mask = np.uint64(0xFFFFFFFF)
    while k > 0:
        prev = np.uint64(mt[i - 1])
        mt[i] = (
            (np.uint64(mt[i]) ^ ((prev ^ (prev >> np.uint64(30))) * np.uint64(1664525)))
            + key[j]
            + np.uint64(j)
        ) & mask
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= length:
            j = 0
        k -= 1
    k = N - 1
    while k > 0:
        prev = np.uint64(mt[i - 1])
        mt[i] = (
            (np.uint64(mt[i]) ^ ((prev ^ (prev >> np.uint64(30))) * np.uint64(1566083941))) - np.uint64(i)
        ) & mask
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        k -= 1
    mt[0] = 0x80000000
    mt[POS] = N


@njit
def _twist_one(mt: np.ndarray, kk: int, kk1: int, kkm: int) -> None:
    y = (np.uint32(mt[kk]) & np.uint32(UPPER)) | (np.uint32(mt[kk1]) & np.uint32(LOWER))
    odd = y & np.uint32(1)
    mt[kk] = np.uint32(mt[kkm]) ^ (y >> np.uint32(1)) ^ (np.uint32(MATRIX_A) * odd)


@njit
def _twist(mt: np.ndarray) -> None:
    # CPython's genrand_uint32 loops, split where (kk + M) and then (kk + 1) wrap past N rather
    # than taking both modulo N at every word.
    for kk in range(N - M):
        _twist_one(mt, kk, kk + 1, kk + M)
    for kk in range(N - M, N - 1):
        _twist_one(mt, kk, kk + 1, kk + M - N)
    _twist_one(mt, N - 1, 0, M - 1)
    mt[POS] = 0


@njit
def next_u32(mt: np.ndarray) -> np.uint32:
    if mt[POS] >= N:
        _twist(mt)
    y = np.uint32(mt[mt[POS]])
    mt[POS] += 1
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y


@njit
def below(mt: np.ndarray, n: int) -> int:
    """``rng._randbelow(n)`` for 1 <= n < 2**32: ``getrandbits(bit_length(n))`` until below n."""
    k = 0
    m = n
    while m:
        k += 1
        m >>= 1
    shift = np.uint32(32 - k)
    r = int(next_u32(mt) >> shift)
    while r >= n:
        r = int(next_u32(mt) >> shift)
    return r


@njit
def shuffle(mt: np.ndarray, a: np.ndarray, start: int, n: int) -> None:
    """``rng.shuffle`` of ``a[start:start + n]``."""
    for i in range(n - 1, 0, -1):
        j = below(mt, i + 1)
        a[start + i], a[start + j] = a[start + j], a[start + i]


@njit
def getrandbits63(mt: np.ndarray) -> int:
    """``rng.getrandbits(63)``: two words, low first, the high one cut to its top 31 bits (how the
    search's ``determinize`` seeds a world's own generator)."""
    low = np.uint64(next_u32(mt))
    high = np.uint64(next_u32(mt) >> np.uint32(1))
    return int((high << np.uint64(32)) | low)


@njit
def randint(mt: np.ndarray, low: int, high: int) -> int:
    """``rng.randint(low, high)``."""
    return low + below(mt, high - low + 1)


def to_random(mt: npt.NDArray[np.uint32]) -> random.Random:
    """The Python generator in the same state."""
    rng = random.Random()
    rng.setstate((3, tuple(mt.tolist()), None))
    return rng


def from_random(rng: random.Random) -> npt.NDArray[np.uint32]:
    _, internal, _ = rng.getstate()
    return np.array(internal, dtype=np.uint32)

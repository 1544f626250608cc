"""``core/batch_primitives.py``: the rows the driver's loops hand the rules are ``array[i]``
exactly (values, writes, strides), though they hold no reference count of their own; and
``lowest_set`` numbers a word's lowest set bit, compiled as in plain Python."""

from __future__ import annotations

import numpy as np
import pytest

from tabletrek.core import batch_primitives, mt19937

pytestmark = pytest.mark.skipif(not mt19937.HAVE_NUMBA, reason="numba (extra [search]) is not installed")

numba = pytest.importorskip("numba")


@numba.njit  # not cached: numba would check a cached copy against this file only, not the driver's
def _rows_doubled(array: np.ndarray, out: np.ndarray) -> None:
    """Row by row through ``row``: ``out[i, j] = 2 * array[i, j]``, then ``array[i, 0] = -i``."""
    for i in range(array.shape[0]):
        source = batch_primitives.row(array, i)
        target = batch_primitives.row(out, i)
        for j in range(source.shape[0]):
            target[j] = 2 * source[j]
        source[0] = -i


@pytest.mark.parametrize("dtype", [np.int16, np.int64, np.float32, np.uint8])
def test_a_row_reads_and_writes_the_array(dtype: type) -> None:
    array = np.arange(5 * 7, dtype=dtype).reshape(5, 7)
    expected = 2 * array
    out = np.zeros_like(array)
    _rows_doubled(array, out)
    assert np.array_equal(out, expected)
    assert np.array_equal(array[:, 0], np.array([0, -1, -2, -3, -4]).astype(dtype))
    assert np.array_equal(array[:, 1:], np.arange(5 * 7, dtype=dtype).reshape(5, 7)[:, 1:])


def test_a_row_of_a_strided_array_keeps_its_strides() -> None:
    whole = np.arange(6 * 10, dtype=np.int64).reshape(6, 10)
    every_other = whole[::2, ::3]  # neither rows nor columns contiguous: numba's layout "A"
    out = np.zeros(every_other.shape, dtype=np.int64)
    _rows_doubled(every_other, out)
    assert np.array_equal(out, 2 * np.arange(6 * 10, dtype=np.int64).reshape(6, 10)[::2, ::3])
    assert list(whole[::2, 0]) == [0, -1, -2]  # written through to the array viewed
    assert whole[1, 0] == 10 and whole[0, 1] == 1  # and nothing else


def test_a_bool_mask_viewed_as_bytes() -> None:
    mask = np.zeros((3, 11), dtype=np.bool_)
    mask[1, 4] = mask[2, 10] = True
    out = np.zeros((3, 11), dtype=np.uint8)
    _rows_doubled(mask.view(np.uint8), out)  # as the driver packs a mask's flags
    assert out[1, 4] == 2 and out[2, 10] == 2 and out.sum() == 4


@numba.njit
def _lowest_of_each(words: np.ndarray, out: np.ndarray) -> None:
    for i in range(words.shape[0]):
        out[i] = batch_primitives.lowest_set(words[i])


def test_the_lowest_set_bit_is_numbered_alike_compiled_and_plain() -> None:
    words = [1, 2, 3, 12, 1 << 31, 1 << 32, (1 << 63) | (1 << 40), 1 << 63, 2**64 - 1]
    expected = [0, 1, 0, 2, 31, 32, 40, 63, 0]
    compiled = np.zeros(len(words), dtype=np.int64)
    _lowest_of_each(np.array(words, dtype=np.uint64), compiled)
    assert list(compiled) == expected
    assert [batch_primitives._plain_trailing_zeros(np.uint64(w)) for w in words] == expected

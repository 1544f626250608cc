"""The compiled generator is Python's ``random.Random``: same seeding, shuffles, dice, state."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tabletrek.core import mt19937 as mt

pytestmark = pytest.mark.skipif(not mt.HAVE_NUMBA, reason="numba (extra [search]) is not installed")


@pytest.mark.parametrize("seed", [0, 1, 7, 2**31 + 5, 2**32, 2**32 + 1, 123456789012345, 2**63 - 1])
def test_seeding_shuffles_and_dice_match_python(seed: int) -> None:
    gen = np.zeros(mt.SIZE, dtype=np.uint32)
    mt.seed(gen, seed)
    rng = random.Random(seed)
    assert mt.from_random(rng).tolist() == gen.tolist()
    for n in (1, 2, 13, 99, 128):
        cards = np.arange(n, dtype=np.int32)
        expected = list(range(n))
        mt.shuffle(gen, cards, 0, n)
        rng.shuffle(expected)
        assert cards.tolist() == expected
    rolls = [mt.randint(gen, 1, 6) for _ in range(1500)]  # crosses a twist of the 624 words
    assert rolls == [rng.randint(1, 6) for _ in range(1500)]
    assert mt.to_random(gen).getstate() == rng.getstate()


def test_a_shuffle_inside_a_larger_array_leaves_the_rest_alone() -> None:
    gen = np.zeros(mt.SIZE, dtype=np.uint32)
    mt.seed(gen, 5)
    row = np.arange(20, dtype=np.int32)
    mt.shuffle(gen, row, 5, 10)
    assert row[:5].tolist() == list(range(5)) and row[15:].tolist() == list(range(15, 20))
    expected = list(range(5, 15))
    random.Random(5).shuffle(expected)
    assert row[5:15].tolist() == expected

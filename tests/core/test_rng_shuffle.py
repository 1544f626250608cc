"""core.rng.shuffle and randint must deal and roll exactly what random.Random does: seeded games
depend on it."""

from __future__ import annotations

import random

import pytest

from tabletrek.core.rng import randint, shuffle


@pytest.mark.parametrize("length", [0, 1, 2, 3, 7, 8, 9, 54, 55, 99, 100, 129, 256, 1000, 1024, 1025, 3000])
def test_same_permutation_and_generator_state(length: int) -> None:
    for seed in range(40):
        theirs, ours = random.Random(seed), random.Random(seed)
        expected = list(range(length))
        theirs.shuffle(expected)
        got = list(range(length))
        shuffle(ours, got)
        assert got == expected
        assert ours.getstate() == theirs.getstate()


def test_a_subclass_keeps_its_own_shuffle() -> None:
    class Reversing(random.Random):
        def shuffle(self, x: list[int]) -> None:
            x.reverse()

    items = [1, 2, 3]
    shuffle(Reversing(1), items)
    assert items == [3, 2, 1]


@pytest.mark.parametrize(("low", "high"), [(1, 6), (0, 0), (2, 12), (-5, 5), (0, 1), (1, 1000), (0, 2**70)])
def test_randint_same_numbers_and_generator_state(low: int, high: int) -> None:
    for seed in range(20):
        theirs, ours = random.Random(seed), random.Random(seed)
        expected = [theirs.randint(low, high) for _ in range(200)]
        assert [randint(ours, low, high) for _ in range(200)] == expected
        assert ours.getstate() == theirs.getstate()


def test_randint_refuses_an_empty_range_as_random_does() -> None:
    with pytest.raises(ValueError):
        randint(random.Random(1), 3, 2)

"""The number checks every caller, file and client message goes through."""

from __future__ import annotations

import numpy as np
import pytest

from tabletrek.core.numeric import ascii_whole, is_integral, is_number, is_whole


@pytest.mark.parametrize("value", [0, 7, -3, 2**70, np.int64(3), np.uint8(2), np.int32(-1)], ids=repr)
def test_whole_numbers_from_python_or_numpy_are_integral(value: object) -> None:
    assert is_integral(value)


@pytest.mark.parametrize("value", [True, False, np.True_, 2.0, np.float64(1), "1", None, 1j], ids=repr)
def test_bools_floats_and_text_are_not_integral(value: object) -> None:
    # a seat or seed that is a bool or a float is a caller's slip, numpy's kinds included
    assert not is_integral(value)


def test_the_plain_checks_stay_plain() -> None:
    assert is_whole(3) and not is_whole(True) and not is_whole(3.0)
    assert is_number(3) and is_number(2.5) and not is_number(False) and not is_number("2")


@pytest.mark.parametrize(
    ("text", "value"),
    [("0", 0), ("7", 7), ("012", 12), ("999999999", 999_999_999), ("1234567890", None), ("9" * 5000, None)]
    + [
        (text, None)
        for text in ("", "-1", "+1", " 1", "1 ", "1_0", "1.0", "\u00b2", "\u0663", "\uff13", "\U0001d7d1")
    ],
    ids=lambda v: ascii(v)[:20],
)
def test_a_typed_number_is_plain_ascii_digits_of_bounded_length(text: str, value: int | None) -> None:
    # int() reads "\u0663" (Arabic-Indic three) and the full-width three as 3 and raises on
    # "\u00b2" and on 5,000 digits: none of them may reach it
    assert ascii_whole(text) == value


def test_the_digit_bound_is_the_callers() -> None:
    assert ascii_whole("1000", most_digits=3) is None and ascii_whole("999", most_digits=3) == 999

"""What counts as a number where a caller, a file or a client message passes one.

``bool`` is a subclass of ``int`` in Python, so ``isinstance(True, int)`` holds; but a seat, seed,
count or clock given as ``true`` is a slip (usually a JSON or TOML field filled with the wrong
kind), not the number 1, and is refused everywhere with the rest of the wrong types.
"""

from __future__ import annotations

from numbers import Integral
from typing import TYPE_CHECKING, Any, TypeGuard

if TYPE_CHECKING:  # numpy is optional: the check below never imports it
    import numpy as np


def is_whole(value: object) -> TypeGuard[int]:
    """An ``int`` that is not a ``bool`` (floats, even 2.0, are refused: they come from a slip)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> TypeGuard[int | float]:
    """An ``int`` or ``float`` that is not a ``bool``."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_integral(value: object) -> TypeGuard[int | np.integer[Any]]:
    """A whole number that is not a ``bool``, numpy's integer scalars included.

    For the research faces, where a seat, seed or index often comes out of an array as
    ``np.int64``; numpy registers its integer types as ``numbers.Integral`` (and ``np.bool_`` not),
    so this needs no numpy import. Callers turn the value into an ``int`` before using it.
    """
    return isinstance(value, Integral) and not isinstance(value, bool)


def ascii_digits(text: str) -> bool:
    """``text`` is a run of ASCII digits, of any length (``str.isdigit()`` alone takes "²" and "٣")."""
    return text.isascii() and text.isdigit()


def ascii_whole(text: str, most_digits: int = 9) -> int | None:
    """The whole number ``text`` writes in ASCII digits, at most ``most_digits`` of them; else None.

    For numbers typed or read as text (a move, a menu choice, a key in a data file).
    ``str.isdigit()`` alone lets through "²", which ``int()`` refuses with a ValueError, and "٣",
    which it reads as 3; and ``int()`` raises on any run of more than 4,300 digits.
    """
    if ascii_digits(text) and len(text) <= most_digits:
        return int(text)
    return None

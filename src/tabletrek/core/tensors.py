"""Documented fixed-layout tensors: a list of named fields, each a block of floats.

A game's ``observation`` module (``<game package>/observation.py``) builds a :class:`Layout` from
the loaded game (so sizes follow the player count and options) and fills it from a seat's
``view``. The same layout documents itself field by field (``docs/observations.md`` is generated
from it by ``python -m tabletrek.rl.obsdoc``), so a learner can tell which number means what.

Seats inside a tensor are *relative*: block 0 is the observing seat, block 1 the next seat in turn
order, and so on, so one policy serves every seat.

Every field states the range its values keep (``low``, ``high``), derived from the rules and the
loaded game's options (a flag's top is 1; a count's is what the rules conserve or cap). The RL faces
declare these as their ``Box`` bounds, so learners can scale by them and the checkers see finite
limits; the tests play random games under many options and hold every tensor to them.

numpy is imported by the encoders that fill these, not here: ``tabletrek.core`` stays importable
without the ``[rl]`` extra.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


@dataclass(frozen=True, slots=True)
class Field:
    """One block of a tensor: ``shape`` floats starting at ``offset``, each within ``low..high``
    (``math.inf`` where the rules set no top)."""

    name: str
    shape: tuple[int, ...]
    doc: str
    offset: int
    low: float
    high: float

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n


class Layout:
    """Fields added in order; ``size`` is the tensor's length."""

    def __init__(self) -> None:
        self.fields: list[Field] = []
        self._by_name: dict[str, Field] = {}
        self.size = 0

    def add(
        self, name: str, shape: int | tuple[int, ...], doc: str, *, high: float, low: float = 0.0
    ) -> Layout:
        """Appends a field; ``high`` has no default so that each field states its top (or
        ``math.inf``, with the reason beside it)."""
        if name in self._by_name:
            raise ValueError(f"field {name!r} is already in the layout")
        dims = (shape,) if isinstance(shape, int) else tuple(shape)
        if any(d < 0 for d in dims):
            raise ValueError(f"field {name!r} has a negative dimension: {dims}")
        if math.isnan(low) or math.isnan(high) or low > high or low == math.inf:
            raise ValueError(f"field {name!r} has no values between {low} and {high}")
        field = Field(name, dims, doc, self.size, float(low), float(high))
        self.fields.append(field)
        self._by_name[name] = field
        self.size += field.size
        return self

    def extend(self, other: Layout, prefix: str = "") -> Layout:
        for f in other.fields:
            self.add(prefix + f.name, f.shape, f.doc, low=f.low, high=f.high)
        return self

    def field(self, name: str) -> Field:
        return self._by_name[name]

    def view(self, out: npt.NDArray[np.float32], name: str) -> npt.NDArray[np.float32]:
        """The block of ``out`` that holds field ``name``, shaped as declared (a numpy view)."""
        f = self._by_name[name]
        return out[f.offset : f.offset + f.size].reshape(f.shape)

    def split(self, tensor: Any) -> dict[str, Any]:
        """A tensor cut into its named fields (for reading and for the golden tests)."""
        return {f.name: tensor[f.offset : f.offset + f.size].reshape(f.shape) for f in self.fields}

    def bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Each value's lowest and highest, as two arrays of the tensor's length (a ``Box``'s)."""
        import numpy as np  # noqa: PLC0415 - the [rl] extra; tabletrek.core stays importable without it

        low = np.empty(self.size, dtype=np.float32)
        high = np.empty(self.size, dtype=np.float32)
        for f in self.fields:
            low[f.offset : f.offset + f.size] = f.low
            high[f.offset : f.offset + f.size] = f.high
        return low, high

    def describe(self) -> list[tuple[str, str, int, int, str, str]]:
        """Rows of (name, shape, offset, size, range, meaning) for the documentation."""
        return [
            (f.name, "×".join(map(str, f.shape)), f.offset, f.size, value_range(f.low, f.high), f.doc)
            for f in self.fields
        ]


def value_range(low: float, high: float) -> str:
    """``0–1``, ``-1–597``, ``0–∞``: a field's range as the documentation shows it."""

    def number(x: float) -> str:
        if math.isinf(x):
            return "∞" if x > 0 else "-∞"
        return f"{x:g}" if x != int(x) else f"{int(x):,}"

    return f"{number(low)}–{number(high)}"

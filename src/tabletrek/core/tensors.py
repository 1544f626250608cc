"""Documented fixed-layout tensors: a list of named fields, each a block of floats.

A game's ``observation`` module (``<game package>/observation.py``) builds a :class:`Layout` from
the loaded game (so sizes follow the player count and options) and fills it from a seat's
``view``. The same layout documents itself field by field (``docs/observations.md`` is generated
from it by ``scripts/gen_observations_doc.py``), so a learner can tell which number means what.

Seats inside a tensor are *relative*: block 0 is the observing seat, block 1 the next seat in turn
order, and so on, so one policy serves every seat.

numpy is imported by the encoders that fill these, not here: ``tabletrek.core`` stays importable
without the ``[rl]`` extra.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


@dataclass(frozen=True, slots=True)
class Field:
    """One block of a tensor: ``shape`` floats starting at ``offset``."""

    name: str
    shape: tuple[int, ...]
    doc: str
    offset: int

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

    def add(self, name: str, shape: int | tuple[int, ...], doc: str) -> Layout:
        if name in self._by_name:
            raise ValueError(f"field {name!r} is already in the layout")
        dims = (shape,) if isinstance(shape, int) else tuple(shape)
        if any(d < 0 for d in dims):
            raise ValueError(f"field {name!r} has a negative dimension: {dims}")
        field = Field(name, dims, doc, self.size)
        self.fields.append(field)
        self._by_name[name] = field
        self.size += field.size
        return self

    def extend(self, other: Layout, prefix: str = "") -> Layout:
        for f in other.fields:
            self.add(prefix + f.name, f.shape, f.doc)
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

    def describe(self) -> list[tuple[str, str, int, int, str]]:
        """Rows of (name, shape, offset, size, meaning) for the documentation."""
        return [(f.name, "×".join(map(str, f.shape)), f.offset, f.size, f.doc) for f in self.fields]

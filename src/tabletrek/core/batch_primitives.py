"""Two things the compiled batch engines need that numba's subset of Python cannot say: a row of
a 2-D array that holds no reference count, and the number of a word's lowest set bit. Each is
numba's own machinery (an ``intrinsic``, LLVM's ``cttz``), with a plain-Python stand-in where
numba is not installed."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from tabletrek.core.mt19937 import njit_inline


def _plain_row(array: np.ndarray, i: int) -> np.ndarray:
    view: np.ndarray = array[i]
    return view


def _plain_trailing_zeros(word: Any) -> int:
    w = int(word)
    return (w & -w).bit_length() - 1


row: Callable[[np.ndarray, int], np.ndarray] = _plain_row
"""Row ``i`` of a 2-D array, as ``array[i]`` (the same memory, strides and type), for the
driver's loops (``core/batch_driver.py``) to hand each env's rows to the rules. Compiled, it
holds no reference count: valid only while ``array`` is held, never to be returned or kept; and
``i`` must lie in ``range(len(array))`` (a negative ``i`` is not counted from the end, and no
bound is checked, as numba checks none by default)."""

_trailing_zeros: Callable[[Any], int] = _plain_trailing_zeros

try:
    # numba's code-generating internals carry no type hints: taken as Any
    nbtypes: Any = importlib.import_module("numba.core.types")
    cgutils: Any = importlib.import_module("numba.core.cgutils")
    arrayobj: Any = importlib.import_module("numba.np.arrayobj")
    numbers: Any = importlib.import_module("numba.cpython.unsafe.numbers")
    intrinsic: Any = importlib.import_module("numba.extending").intrinsic

    def _borrowed_row(typingctx: Any, array: Any, i: Any) -> Any:
        # numba gives a view ``array[i]`` the array's own reference count, adding to it and taking
        # from it with an atomic instruction wherever the view is made, passed or dropped: about a
        # dozen times an env-step in the driver's loops, each stalling the core for some twenty
        # cycles. This view is made without one (no ``meminfo``), as numba's ``carray`` makes
        # views of foreign memory.
        if not (isinstance(array, nbtypes.Array) and array.ndim == 2 and isinstance(i, nbtypes.Integer)):
            return None
        layout = "C" if array.layout == "C" else "A"
        row_type = nbtypes.Array(array.dtype, 1, layout, readonly=not array.mutable)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            whole = arrayobj.make_array(signature.args[0])(context, builder, args[0])
            index = context.cast(builder, args[1], signature.args[1], nbtypes.intp)
            shape = cgutils.unpack_tuple(builder, whole.shape)
            strides = cgutils.unpack_tuple(builder, whole.strides)
            view = arrayobj.make_array(signature.return_type)(context, builder)
            arrayobj.populate_array(
                view,
                data=cgutils.pointer_add(builder, whole.data, builder.mul(index, strides[0])),
                shape=[shape[1]],
                strides=[strides[1]],
                itemsize=whole.itemsize,
                meminfo=None,
            )
            return view._getvalue()

        return row_type(array, i), codegen

    row = cast("Callable[[np.ndarray, int], np.ndarray]", intrinsic(_borrowed_row))
    # numba's own, under its "unsafe" namespace because it trusts its caller not to pass 0
    _trailing_zeros = cast("Callable[[Any], int]", numbers.trailing_zeros)
except ImportError:  # pragma: no cover - exercised only without the [search] extra
    pass


@njit_inline
def lowest_set(word: np.uint64) -> int:
    """The number of ``word``'s lowest bit that is 1 (``word`` must not be 0): one ``tzcnt``."""
    return int(_trailing_zeros(word))

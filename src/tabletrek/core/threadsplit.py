"""Work split into contiguous slices over threads: the search bot's compiled playouts
(``bots/search/base.py``) and the vector env's steps (``rl/vector.py``). The compiled code each
slice runs releases the GIL, so the slices run at once."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

P = TypeVar("P")
R = TypeVar("R")


def even_slices(n: int, parts: int) -> list[slice]:
    """``parts`` contiguous slices of ``range(n)``, in order, their sizes differing by one at most."""
    return [slice(k * n // parts, (k + 1) * n // parts) for k in range(parts)]


def run_parts(pool: ThreadPoolExecutor, run: Callable[[P], R], parts: Sequence[P]) -> list[R]:
    """``run`` of each part, results in the parts' order. The last part runs on the calling
    thread, which would otherwise only wait, so ``pool`` needs one thread fewer than the parts."""
    futures = [pool.submit(run, part) for part in parts[:-1]]
    last = run(parts[-1])
    return [*(f.result() for f in futures), last]

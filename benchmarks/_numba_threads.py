"""How many threads numba may start in a benchmark's own process."""

from __future__ import annotations

import os
import sys


def numba_threads(n: int) -> None:
    """NUMBA_NUM_THREADS=``n`` for this process unless the environment already sets it. A
    benchmark's ``main`` calls it first: numba reads the variable when it is imported and again at
    every compile, and refuses any change once its threads have run, so a process that imported
    numba before (a test calling ``main``) is left as it is, and importing a benchmark changes
    nothing."""
    if "numba" not in sys.modules:
        os.environ.setdefault("NUMBA_NUM_THREADS", str(n))

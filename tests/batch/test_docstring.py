"""The vector environment's docstring example runs as written."""

from __future__ import annotations

import doctest

import pytest

from tabletrek.core import mt19937


@pytest.mark.skipif(not mt19937.HAVE_NUMBA, reason="numba (extra [search]) is not installed")
def test_vector_docstring_example_runs() -> None:
    pytest.importorskip("gymnasium")
    from tabletrek.rl import vector

    failures, tried = doctest.testmod(vector, verbose=False)
    assert tried > 0 and failures == 0

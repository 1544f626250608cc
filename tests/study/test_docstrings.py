"""The examples in the study modules' docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    ("module", "needs"),
    [("tabletrek.rl", "pettingzoo"), ("tabletrek.openspiel", "pyspiel")],
)
def test_docstring_examples_run(module: str, needs: str) -> None:
    pytest.importorskip(needs, reason=f"{module} needs {needs} (its extra)")
    failures, tried = doctest.testmod(importlib.import_module(module), verbose=False)
    assert tried > 0 and failures == 0

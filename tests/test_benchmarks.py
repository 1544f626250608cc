"""Every benchmark imports with the CI extras, has a ``main``, and says how to run it (modules named
``_*`` are helpers the benchmarks share, not benchmarks)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

BENCHMARKS = sorted(
    p.stem for p in (Path(__file__).parent.parent / "benchmarks").glob("*.py") if not p.stem.startswith("_")
)


@pytest.mark.parametrize("name", BENCHMARKS)
def test_benchmark_is_runnable_and_documented(name: str) -> None:
    module = importlib.import_module(f"benchmarks.{name}")
    assert callable(getattr(module, "main", None)), f"benchmarks/{name}.py has no main()"
    assert f"python -m benchmarks.{name}" in (module.__doc__ or ""), f"benchmarks/{name}.py: no run command"


def test_benchmarks_are_found() -> None:
    assert {"touring", "ismcts", "touring_headroom", "fit_evaluation", "codenames_eval"} <= set(BENCHMARKS)

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


def test_python_api_takes_each_engines_best_over_fresh_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The public-API benchmark's figure per engine is its best over every process it started."""
    import argparse
    import json
    import subprocess

    from benchmarks import python_api

    replies = iter([{"tight": 10.0, "game": 4.0}, {"tight": 12.0, "game": 3.0}, {"tight": 9.0, "game": 5.0}])
    commands: list[list[str]] = []

    def fake_run(command: list[str], **_: object) -> subprocess.CompletedProcess[str]:
        commands.append(command)
        return subprocess.CompletedProcess(command, 0, stdout=json.dumps(next(replies)))

    monkeypatch.setattr(python_api.subprocess, "run", fake_run)
    args = argparse.Namespace(games=["touring"], seconds=0.1, repeats=2, processes=3)
    assert python_api.in_fresh_processes(args) == {"tight": 12.0, "game": 5.0}
    assert len(commands) == 3 and all("--worker" in c and "touring" in c for c in commands)


def test_python_api_worker_times_every_engine() -> None:
    from benchmarks import python_api

    best = python_api.best_rates(["touring"], seconds=0.01, repeats=1)
    assert set(best) == {python_api.TIGHT, "touring 2p"}
    assert all(rate > 0 for rate in best.values())


def test_vector_benchmark_times_the_threaded_batch_beside_one_thread(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("numba")
    pytest.importorskip("gymnasium")
    import sys

    from benchmarks import vector

    argv = ["vector", "touring", "--envs", "16", "--seconds", "0.05", "--threads", "2"]
    monkeypatch.setattr(sys, "argv", argv)
    vector.main()
    out = capsys.readouterr().out
    timed = {line.strip().split("  ")[0] for line in out.splitlines() if "steps/s wall" in line}
    wanted = {"vector (compiled batch)", "vector, copy=False", "vector, 2 threads", "public Python API"}
    assert wanted <= timed
    assert "2 threads / one thread:" in out


def test_vector_instructions_runs_every_stage() -> None:
    # Before: `--stages` failed at its observe stage (the loop named `_observe`, which the engines
    # had renamed `observe`), so no stage of a step could be counted. The stage loops are bound to
    # an engine by the names every engine defines (core.batch_driver.RULES): one game shows them.
    from benchmarks.vector_instructions import STAGES, run_stage

    for stage in STAGES:
        assert run_stage("touring", 4, stage, 1) == 4, stage


def test_vector_instructions_prints_the_noise_beside_each_count(monkeypatch: pytest.MonkeyPatch) -> None:
    # Before: one short and one long run, their difference printed as exact; two identical runs
    # here differ by tens of millions of instructions, more than a cheap stage's whole signal, and
    # the mask stage once read -319 instructions an env-step.
    from benchmarks import vector_instructions

    runs = iter([(8_192, 4_000_000_000), (8_192, 4_060_000_000), (49_152, 4_030_000_000)])
    monkeypatch.setattr(vector_instructions, "counted", lambda *_args: next(runs))
    value, noise = vector_instructions.per_step("touring", 4_096, "mask")
    assert value == 0 and noise == 60_000_000 / 40_960  # the noise says the figure means nothing

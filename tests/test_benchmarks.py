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


def test_vector_benchmark_takes_turns_so_a_burst_of_load_hits_every_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Before: each engine ran its whole time in one block, one after another, so a neighbour's
    # burst on a shared host fell on one engine and moved the ratios by a third between runs.
    from benchmarks import vector

    clock = iter(range(1_000))
    monkeypatch.setattr(vector.time, "perf_counter", lambda: float(next(clock)))
    monkeypatch.setattr(vector.time, "process_time", lambda: 0.0)
    order: list[str] = []

    def engine(name: str, steps: int) -> object:
        def run(deadline: float) -> int:
            order.append(name)
            return steps

        return run

    runs = {"a": engine("a", 10), "b": engine("b", 20), "c": engine("c", 30)}
    rates = vector.interleaved(runs, seconds=4.0, slices=4)
    assert order == ["a", "b", "c", "b", "c", "a", "c", "a", "b", "a", "b", "c"]
    assert [(r.name, r.steps, r.wall) for r in rates] == [("a", 40, 4.0), ("b", 80, 4.0), ("c", 120, 4.0)]
    assert rates[1].slices == [20.0] * 4


def test_vector_benchmark_names_the_processor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Before: the header named the Python but not the host, and two hosts read the same change as
    # -9% and -30%.
    from benchmarks import vector

    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9B14\n\n")
    assert vector.cpu_model(str(info)) == "AMD EPYC 9B14"
    # No such file (not Linux): the platform's names, in turn.
    monkeypatch.setattr(vector.platform, "processor", lambda: "")
    monkeypatch.setattr(vector.platform, "machine", lambda: "arm64")
    assert vector.cpu_model(str(tmp_path / "none")) == "arm64"
    monkeypatch.setattr(vector.platform, "machine", lambda: "")
    assert vector.cpu_model(str(tmp_path / "none")) == "an unknown processor"


def test_vector_benchmark_refuses_no_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from benchmarks import vector

    for bad in (["--slices", "0"], ["--seconds", "0"]):
        monkeypatch.setattr(sys, "argv", ["vector", "touring", *bad])
        with pytest.raises(SystemExit) as stopped:
            vector.main()
        assert stopped.value.code == 2


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

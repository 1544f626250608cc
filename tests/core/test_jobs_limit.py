"""How many worker processes a simulation, tournament or analysis may start: a few for each core
this process may use (``sim.backend.JOBS_PER_CORE``), refused in the reader's language before any
starts; on Ray the jobs only size the batches."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tabletrek.cli import app
from tabletrek.core.errors import UsageError, message_in
from tabletrek.sim import backend
from tabletrek.sim.backend import Backend


@pytest.mark.parametrize(
    ("cores", "english", "chinese"),
    [
        (
            1,
            "at most 4 jobs here, 4 for the 1 core this process may use (more would only take turns), not 5",
            "工作行程數在這裡最多是 4（這個行程可用 1 個核心，每個 4 個；再多也只是輪流執行），不能是 5",
        ),
        (
            2,
            "at most 8 jobs here, 4 for each of the 2 cores this process may use"
            " (more would only take turns), not 9",
            "工作行程數在這裡最多是 8（這個行程可用 2 個核心，每個 4 個；再多也只是輪流執行），不能是 9",
        ),
    ],
)
def test_more_worker_processes_than_a_few_a_core_are_refused(
    monkeypatch: pytest.MonkeyPatch, cores: int, english: str, chinese: str
) -> None:
    # before: `tabletrek tournament touring -j 10000` forked ten thousand worker processes (the
    # machine's load passed 180) for games that are all computation
    monkeypatch.setattr(backend, "usable_cores", lambda: cores)
    with pytest.raises(UsageError) as caught:
        Backend(jobs=4 * cores + 1)
    assert str(caught.value) == english
    assert message_in(caught.value, "zh-Hant") == chinese
    assert Backend(jobs=4 * cores).jobs == 4 * cores
    # a Ray cluster's size is not this machine's: there the jobs only size the batches
    assert Backend(jobs=10_000, ray_address="auto").jobs == 10_000


@pytest.mark.parametrize("command", ["simulate", "tournament", "analyze"])
def test_the_cli_refuses_thousands_of_jobs_before_starting_any(command: str, tmp_path: Path) -> None:
    args = [command, "touring", "-n", "1", "-j", "100000", "--lang", "zh-Hant"]
    if command == "analyze":
        args += ["--out", str(tmp_path / "r.html")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert "工作行程數在這裡最多是" in result.output and "不能是 100000" in result.output
    assert not (tmp_path / "r.html").exists()

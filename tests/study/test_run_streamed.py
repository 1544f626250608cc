"""A run's games are sent as they are played: a run of any length starts at once, holds only the
games so far, and Ctrl+C ends it with those games, quietly in every worker."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import tabletrek.sim.runner as runner_module
from tabletrek.sim import GamesInterrupted, simulate
from tabletrek.sim.backend import AHEAD
from tabletrek.sim.tournament import tournament

SRC = str(Path(__file__).resolve().parents[2] / "src")


class Stop(Exception):
    """Raised by the progress callback: "this is as far as the test needs to see"."""


def counted_seeds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The game indices whose spec was made, in order."""
    made: list[int] = []
    real = runner_module.game_seed

    def counting(run_seed: int, index: int) -> int:
        made.append(index)
        return real(run_seed, index)

    monkeypatch.setattr(runner_module, "game_seed", counting)
    return made


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_run_makes_its_games_as_it_goes(jobs: int, monkeypatch: pytest.MonkeyPatch) -> None:
    made = counted_seeds(monkeypatch)
    seen: list[int] = []

    def first_games(done: int) -> None:
        seen.append(done)
        raise Stop

    with pytest.raises(Stop):
        simulate("touring", 10**6, ["random", "random"], jobs=jobs, progress=first_games)
    # batches of at most 200 games: the first AHEAD a worker, then as many again as had finished
    assert seen and 1 <= seen[0] <= 200
    assert 1 <= len(made) <= 2 * jobs * AHEAD * 200, len(made)


def test_a_run_longer_than_memory_starts_at_once() -> None:
    def stop(done: int) -> None:
        raise Stop

    with pytest.raises(Stop):  # not a MemoryError, an OverflowError or a silent wait
        simulate("touring", 10**20, ["random", "random"], progress=stop)


def ctrl_c_after(games: int) -> Callable[[int], None]:
    """A progress callback that presses Ctrl+C once ``games`` games have finished."""
    finished = 0

    def progress(done: int) -> None:
        nonlocal finished
        finished += done
        if finished >= games:
            raise KeyboardInterrupt

    return progress


def test_ctrl_c_keeps_the_finished_games() -> None:
    with pytest.raises(GamesInterrupted) as stopped:
        simulate("touring", 50, ["random", "greedy"], seed=4, progress=ctrl_c_after(3), keep_records=True)
    outcomes = stopped.value.outcomes
    assert [o.index for o in outcomes] == [0, 1, 2]
    assert stopped.value.result.outcomes == outcomes
    whole = simulate("touring", 3, ["random", "greedy"], seed=4, keep_records=True)
    assert [(o.seed, o.bots, o.scores) for o in outcomes] == [
        (o.seed, o.bots, o.scores) for o in whole.outcomes
    ]


@pytest.mark.parametrize(("fmt", "pressed_after"), [("round-robin", 5), ("swiss", 14)])
def test_ctrl_c_in_a_tournament_keeps_the_finished_games_and_their_standings(
    fmt: str, pressed_after: int
) -> None:
    bots = ["random", "greedy", "greedy:go=120"]
    with pytest.raises(GamesInterrupted) as stopped:  # a Swiss round here is 2 tables of 4 games
        tournament("touring", bots, 4, fmt=fmt, rounds=3, seed=2, progress=ctrl_c_after(pressed_after))
    result = stopped.value.result
    assert [o.index for o in result.outcomes] == list(range(pressed_after))  # earlier rounds too
    assert stopped.value.outcomes == result.outcomes
    assert sum(s.games for s in result.standings) == pressed_after * 2  # two seats a game
    whole = tournament("touring", bots, 4, fmt=fmt, rounds=3, seed=2)
    assert [o.scores for o in result.outcomes] == [o.scores for o in whole.outcomes[:pressed_after]]


def run_alone(script: str) -> subprocess.CompletedProcess[str]:
    """``script`` run by Python in a session of its own, so its signals reach no test process."""
    return subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        start_new_session=True,
        # Ctrl+C as a terminal's command has it, also under a test run started in the background
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        env={**os.environ, "PYTHONPATH": SRC},
        check=False,
    )


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT to a process group")
def test_ctrl_c_at_the_terminal_ends_the_workers_without_a_traceback() -> None:
    """The terminal's Ctrl+C reaches every process of the command: here the first finished batch
    sends SIGINT to the script's whole process group (its own session), workers included."""
    script = textwrap.dedent(
        """
        import os, signal
        from tabletrek.sim import simulate
        from tabletrek.sim import GamesInterrupted
        try:
            simulate("touring", 10**20, ["random", "random"], jobs=2,
                     progress=lambda done: os.killpg(0, signal.SIGINT))
        except GamesInterrupted as stopped:
            print("finished", len(stopped.outcomes), len(stopped.result.outcomes))
        """
    )
    done = run_alone(script)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr
    words = done.stdout.split()
    assert words[0] == "finished" and int(words[1]) >= 1 and words[1] == words[2], done.stdout


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting to be reaped has ended)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads the processes in /proc")
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["TERM", "KILL"])
def test_workers_end_when_the_run_is_killed(how: signal.Signals) -> None:
    # before: `kill PID` of a run with -j 2 left both workers waiting on its queue for ever
    script = textwrap.dedent(
        """
        import multiprocessing, sys, time
        from tabletrek.sim import simulate

        def started(done):
            print(*(p.pid for p in multiprocessing.active_children()), flush=True)
            time.sleep(60)  # killed meanwhile

        simulate("touring", 10**6, ["greedy", "random"], jobs=2, progress=started)
        """
    )
    run = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "PYTHONPATH": SRC},
    )
    workers: list[int] = []
    try:
        assert run.stdout is not None
        workers = [int(pid) for pid in run.stdout.readline().split()]
        assert len(workers) == 2 and all(alive(pid) for pid in workers)
        run.send_signal(how)
        run.wait(timeout=30)
        deadline = time.monotonic() + 15
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(pid) for pid in workers), workers
    finally:  # nothing of this test may outlive it
        run.kill()
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT to one process")
def test_ctrl_c_sent_to_the_run_alone_ends_its_workers_too() -> None:
    # before: a notebook's Interrupt (SIGINT to the kernel alone) left each worker playing out
    # its batch (minutes, with search bots) after the run had returned, then exiting normally
    script = textwrap.dedent(
        """
        import multiprocessing, os, signal
        from tabletrek.sim import GamesInterrupted, simulate

        workers = []

        def first_batch(done):
            workers.extend(multiprocessing.active_children())
            os.kill(os.getpid(), signal.SIGINT)  # this process alone

        try:
            simulate("touring", 10**6, ["greedy", "random"], jobs=2, progress=first_batch)
        except GamesInterrupted as stopped:
            for worker in workers:
                worker.join(60)
            print(stopped.result.games, *(worker.exitcode for worker in workers))
        """
    )
    done = run_alone(script)
    assert done.returncode == 0, done.stderr
    games, *codes = done.stdout.split()
    assert int(games) >= 1 and codes == [str(-signal.SIGINT)] * 2, done.stdout  # ended by Ctrl+C


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="holds signals with a mask")
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_a_worker_stopped_while_writing_its_result_writes_it_whole(stop: signal.Signals) -> None:
    # before: the worker died halfway through the write, and the run's process, waiting for the
    # rest of the message, hung as it ended (`kill -INT PID` with -j 2: 1 run of 31 under load)
    script = textwrap.dedent(
        f"""
        import os, time
        from concurrent.futures import process
        from tabletrek.sim import backend

        class SlowPipe:
            def put(self, item):
                os.kill(os.getpid(), {int(stop)})
                time.sleep(0.5)  # a process taking the signal would end here
                print("written", flush=True)

        backend._start_worker()
        process._sendback_result(SlowPipe(), 1, result=[])
        time.sleep(5)
        print("not ended")
        """
    )
    done = run_alone(script)
    assert (done.returncode, done.stdout) == (-stop, "written\n"), done.stderr

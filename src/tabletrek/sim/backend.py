"""Where games run: this process, local worker processes, or a Ray cluster.

A *spec* names one game completely: (index, seed, lineup). Every backend plays the same specs with
the same seeds, so the outcomes are identical whichever backend ran them; only the order in which
batches finish differs, and ``run_specs`` hands them over in the order of the specs.

Games are sent in batches (many games per task) because a Ray task costs about a millisecond of
overhead, comparable to a whole game of some of ours. The specs of a run are made as their batches
are sent, a few batches a worker ahead, so a run of any length starts at once; it holds the
outcomes so far, or only their running totals (``simulate(keep_outcomes=False)``, ``sim/tally.py``).
Ctrl+C ends it with the games that had finished (``GamesInterrupted``).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, process, wait
from dataclasses import dataclass
from itertools import islice
from typing import Any

from tabletrek.core.errors import UsageError
from tabletrek.core.game import Game
from tabletrek.core.interrupts import Presses, sigint_noted
from tabletrek.core.machine import usable_cores
from tabletrek.core.registry import load_with
from tabletrek.sim.runner import GameOutcome, play_game

# Keeps a local Ray bound to the loopback interface, without usage reports or token files.
RAY_LOCAL_ENV = {
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    "RAY_USAGE_STATS_ENABLED": "0",
    "RAY_AUTH_MODE": "disabled",
}


@dataclass(frozen=True, slots=True)
class GameSpec:
    index: int
    seed: int
    lineup: tuple[str, ...]
    params: tuple[tuple[str, dict[str, Any]], ...] = ()
    """Bot parameters as (bot name, {param: value}) pairs, e.g. the search budget."""


class GamesInterrupted(KeyboardInterrupt):
    """Ctrl+C during a run: the games that had finished (sorted by index; empty when the run kept
    only running totals) and, once the run's function has added it, the result they make (a
    ``SimulationResult`` for ``simulate``)."""

    def __init__(self, outcomes: list[GameOutcome]) -> None:
        super().__init__()
        self.outcomes = outcomes
        self.result: Any = None


def stopped_key(terminated: bool) -> str:
    """The catalog key of the line that says a run stopped early: by Ctrl+C, or by SIGTERM
    (``kill PID``, ``timeout``, a scheduler's time limit) where the command took it as Ctrl+C."""
    return "cli.sim.stopped_sigterm" if terminated else "cli.sim.stopped"


@dataclass(frozen=True, slots=True)
class LazySpecs:
    """``count`` specs, spec ``i`` made by ``make(i)`` only when its batch is sent."""

    count: int
    make: Callable[[int], GameSpec]

    def batches(self, size: int) -> Iterator[list[GameSpec]]:
        for start in range(0, self.count, size):
            yield [self.make(i) for i in range(start, min(start + size, self.count))]


Numbered = tuple[int, list[GameOutcome]]
"""A batch's number in the run and its games' outcomes."""

AHEAD = 4
"""Batches sent to each worker beyond the one it is playing: enough to keep it busy."""

JOBS_PER_CORE = 4
"""Worker processes a run may have for each core this process may use: a game is all computation,
so more only take turns, and a mistyped ``--jobs 10000`` forked ten thousand processes."""


@dataclass(frozen=True, slots=True)
class Backend:
    """``jobs`` local processes, or Ray at ``ray_address`` ("local" starts one on this machine)."""

    jobs: int = 1
    ray_address: str | None = None
    batch_size: int | None = None

    def __post_init__(self) -> None:
        if self.jobs < 1:
            raise UsageError("core.error.jobs_positive")
        cores = usable_cores()
        most = JOBS_PER_CORE * cores
        if self.ray_address is None and self.jobs > most:
            raise UsageError(
                "core.error.jobs_at_most", most=most, per=JOBS_PER_CORE, count=cores, jobs=self.jobs
            )
        if self.batch_size is not None and self.batch_size < 1:
            raise UsageError("core.error.batch_positive")


def play_specs(
    name: str,
    players: int,
    options: Mapping[str, Any],
    specs: Sequence[GameSpec],
    keep_records: bool,
) -> list[GameOutcome]:
    """Play a batch of games in this process (the unit of work of every backend)."""
    game = load_with(name, players, options)
    return [play_spec(game, spec, keep_records) for spec in specs]


def play_spec(game: Game, spec: GameSpec, keep_records: bool = False) -> GameOutcome:
    """One game of a spec: ``play_game`` with the spec's bot parameters."""
    return play_game(game, spec.lineup, spec.seed, spec.index, keep_records, params=dict(spec.params))


def run_specs(
    name: str,
    players: int,
    options: Mapping[str, Any],
    specs: LazySpecs,
    backend: Backend,
    keep_records: bool = False,
    progress: Callable[[int], None] | None = None,
    take: Callable[[GameOutcome], None] | None = None,
) -> list[GameOutcome]:
    """Play every spec on ``backend``. Each finished game goes to ``take`` in the order of the
    specs (a batch that finishes before an earlier one waits for it), or without ``take`` into
    the list returned. Ctrl+C hands over every game that had finished, then raises
    ``GamesInterrupted`` with the list."""
    workers = backend.jobs
    size = backend.batch_size or max(1, min(200, specs.count // (workers * 8) or 1))
    batches = enumerate(specs.batches(size))
    kept: list[GameOutcome] = []
    hand = take or kept.append
    if backend.ray_address is not None:
        chunks: Generator[Numbered, None, None] = _run_ray(
            backend.ray_address, name, players, options, batches, keep_records
        )
    elif workers == 1:
        game = load_with(name, players, options)
        # Game by game: Ctrl+C keeps every finished game, and the progress bar moves with each.
        chunks = (
            (number, [play_spec(game, spec, keep_records)])
            for number, spec in enumerate(spec for _, batch in batches for spec in batch)
        )
    else:
        chunks = _run_pool(workers, name, players, options, batches, keep_records)
    # Batches not yet handed over, by number. A game leaves its queue as it is handed, a Ctrl+C
    # while one is handed waits for it (``_hand_over``), and the queue stays here until it is
    # empty: a stopped run hands each finished game once, unless a second press cuts it short.
    early: dict[int, deque[GameOutcome]] = {}
    following = 0
    with sigint_noted() as presses:
        try:
            for number, chunk in chunks:
                early[number] = deque(chunk)
                if progress:
                    progress(len(chunk))
                while following in early:
                    _hand_over(early[following], hand, presses)
                    del early[following]
                    following += 1
                if presses:  # its KeyboardInterrupt was lost (core/interrupts.py): stop now
                    raise KeyboardInterrupt
        except KeyboardInterrupt:
            for number in sorted(early):
                _hand_over(early[number], hand)
            raise GamesInterrupted(kept) from None
        finally:
            chunks.close()  # stops the workers now, not when the generator is collected
    return kept


def _hand_over(
    queue: deque[GameOutcome], hand: Callable[[GameOutcome], None], presses: Presses | None = None
) -> None:
    """Each game to ``hand``; with the run's ``presses``, a Ctrl+C waits until the game is handed
    (counted and its record saved, or neither), then stops the run. Without, it ends the hand-over
    at once: that is the second press of a run being stopped."""
    while queue:
        if presses is None:
            hand(queue.popleft())
            continue
        with presses.holding():
            hand(queue.popleft())
        if presses:
            raise KeyboardInterrupt


PARENT_CHECK = 0.5
"""Seconds between a worker's looks at whether the run's process is still there."""


STOPS = {signal.SIGINT, signal.SIGTERM}


def _start_worker() -> None:
    """A worker's Ctrl+C or SIGTERM ends it at once without a traceback (the terminal sends SIGINT
    to every process of the command, ``timeout`` SIGTERM); the parent, which gets it too, reports
    the games that finished. And a worker ends when the parent is gone: killed (``kill PID``, a
    scheduler's SIGTERM or SIGKILL), the pool's workers were left waiting on its queue for ever."""
    for stop in STOPS:  # not the run's own handlers, which a forked worker inherits
        signal.signal(stop, signal.SIG_DFL)
    # The process that started this one: the run's, or a fork server that ends with it.
    parent = os.getppid()
    masks = hasattr(signal, "pthread_sigmask")  # not on Windows, which has no signals to hold
    if masks:
        signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)  # the thread never takes them: see below
    threading.Thread(target=_end_with, args=(parent,), name="end-with-parent", daemon=True).start()
    if masks:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
        _write_results_whole()


def _write_results_whole() -> None:
    """A stop signal waits while the worker writes a batch's result. Ended halfway through that
    write, a worker left half a message in the pool's pipe, which the run's process also holds
    open: the pool's thread there waited for the rest for ever, and the run hung as it ended
    (``kill -INT PID`` or SIGTERM with ``-j 2``, about one run in twenty under load)."""
    sendback = getattr(process, "_sendback_result", None)
    if sendback is None:  # a Python whose pool sends results otherwise: nothing to wrap
        return

    def sendback_whole(*args: Any, **kwargs: Any) -> Any:
        signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
        try:
            return sendback(*args, **kwargs)
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)  # a stop that came ends it here

    process._sendback_result = sendback_whole  # read by the pool's worker loop as it sends


def _end_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(1)  # nothing of a run whose parent is gone can be handed in


def _run_pool(
    workers: int,
    name: str,
    players: int,
    options: Mapping[str, Any],
    batches: Iterator[tuple[int, list[GameSpec]]],
    keep_records: bool,
) -> Generator[Numbered, None, None]:
    others = set(multiprocessing.active_children())  # the caller's own processes, left alone
    with ProcessPoolExecutor(max_workers=workers, initializer=_start_worker) as pool:
        numbers: dict[Future[list[GameOutcome]], int] = {}

        def send(number: int, batch: list[GameSpec]) -> Future[list[GameOutcome]]:
            future = pool.submit(play_specs, name, players, dict(options), batch, keep_records)
            numbers[future] = number
            return future

        pending = {send(*batch) for batch in islice(batches, workers * AHEAD)}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                pending |= {send(*batch) for batch in islice(batches, len(done))}
                for future in done:
                    yield numbers.pop(future), future.result()
        except BaseException:
            # Not the executor's own shutdown, which would play every batch already sent.
            pool.shutdown(wait=False, cancel_futures=True)
            # Nor wait for the batches being played: a Ctrl+C sent to this process alone (a
            # notebook's Interrupt, kill -INT) does not reach the workers, so end them as the
            # terminal's Ctrl+C would.
            for worker in set(multiprocessing.active_children()) - others:
                if worker.pid is not None:  # started, as every live child is
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(worker.pid, signal.SIGINT)
            raise


def connect_ray(address: str) -> None:
    """Join the Ray cluster at ``address`` ("auto", "ray://host:port"), or start a local one
    bound to 127.0.0.1 when ``address`` is "local". Does nothing when Ray is already connected."""
    if address == "local":
        # Before Ray is imported: it reads these when its constants module loads.
        for key, value in RAY_LOCAL_ENV.items():
            os.environ.setdefault(key, value)
    try:
        import ray  # type: ignore[import-not-found,unused-ignore]  # noqa: PLC0415 - the [scale] extra
    except ImportError:
        raise UsageError("core.error.ray_extra") from None
    if ray.is_initialized():
        return
    if address == "local":
        ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)
    else:
        ray.init(address=address, log_to_driver=False, configure_logging=False)


def _run_ray(
    address: str,
    name: str,
    players: int,
    options: Mapping[str, Any],
    batches: Iterator[tuple[int, list[GameSpec]]],
    keep_records: bool,
) -> Generator[Numbered, None, None]:
    connect_ray(address)
    import ray  # type: ignore[import-not-found,unused-ignore]  # noqa: PLC0415 - the [scale] extra

    remote = ray.remote(play_specs)

    numbers: dict[Any, int] = {}

    def send(number: int, batch: list[GameSpec]) -> Any:
        ref = remote.remote(name, players, dict(options), batch, keep_records)
        numbers[ref] = number
        return ref

    cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call,unused-ignore]  # untyped in Ray
    ahead = max(1, int(cpus)) * AHEAD
    pending = [send(*batch) for batch in islice(batches, ahead)]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        pending += [send(*batch) for batch in islice(batches, len(done))]
        for ref in done:
            yield numbers.pop(ref), ray.get(ref)

"""Where games run: this process, local worker processes, or a Ray cluster.

A *spec* names one game completely: (index, seed, lineup). Every backend plays the same specs with
the same seeds, so the outcomes are identical whichever backend ran them; only the order in which
batches finish differs, and the caller sorts by index.

Games are sent in batches (many games per task) because a Ray task costs about a millisecond of
overhead, comparable to a whole game of some of ours.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from tabletrek.core.errors import UsageError
from tabletrek.core.game import Game
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


def _batches(specs: Sequence[GameSpec], size: int) -> list[Sequence[GameSpec]]:
    return [specs[start : start + size] for start in range(0, len(specs), size)]


def run_specs(
    name: str,
    players: int,
    options: Mapping[str, Any],
    specs: Sequence[GameSpec],
    backend: Backend,
    keep_records: bool = False,
    progress: Callable[[int], None] | None = None,
) -> list[GameOutcome]:
    """Play every spec on ``backend``; the outcomes come back sorted by game index."""
    workers = backend.jobs
    size = backend.batch_size or max(1, min(200, len(specs) // (workers * 8) or 1))
    batches = _batches(specs, size)
    outcomes: list[GameOutcome] = []
    if backend.ray_address is not None:
        chunks: Iterator[list[GameOutcome]] = _run_ray(
            backend.ray_address, name, players, options, batches, keep_records
        )
    elif workers == 1:
        chunks = (play_specs(name, players, options, batch, keep_records) for batch in batches)
    else:
        chunks = _run_pool(workers, name, players, options, batches, keep_records)
    for chunk in chunks:
        outcomes.extend(chunk)
        if progress:
            progress(len(chunk))
    outcomes.sort(key=lambda o: o.index)
    return outcomes


def _run_pool(
    workers: int,
    name: str,
    players: int,
    options: Mapping[str, Any],
    batches: list[Sequence[GameSpec]],
    keep_records: bool,
) -> Iterator[list[GameOutcome]]:
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [
            pool.submit(play_specs, name, players, dict(options), list(batch), keep_records)
            for batch in batches
        ]
        for future in as_completed(futures):
            yield future.result()


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
    batches: list[Sequence[GameSpec]],
    keep_records: bool,
) -> Iterator[list[GameOutcome]]:
    connect_ray(address)
    import ray  # type: ignore[import-not-found,unused-ignore]  # noqa: PLC0415 - the [scale] extra

    remote = ray.remote(play_specs)
    pending = [remote.remote(name, players, dict(options), list(batch), keep_records) for batch in batches]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            yield ray.get(ref)

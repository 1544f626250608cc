"""Running games: one game, a batch in a worker, many batches over processes.

Every game's seed and every bot's seed derive from (run seed, game index), so the same run seed
gives the same games whatever the number of processes or the batch size.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletrek.core.bots import make_bot
from tabletrek.core.errors import UsageError
from tabletrek.core.game import Game
from tabletrek.core.records import GameRecord
from tabletrek.core.registry import load_with
from tabletrek.core.rng import derive_seed
from tabletrek.sim.tally import Tally


@dataclass(frozen=True, slots=True)
class GameOutcome:
    index: int
    seed: int
    bots: tuple[str, ...]
    """The bot that played each seat."""
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    returns: tuple[float, ...]
    actions: int
    rounds: int | None
    reason: str
    record: GameRecord | None = None


@dataclass
class SimulationResult:
    game: str
    players: int
    options: Mapping[str, Any]
    bots: tuple[str, ...]
    seed: int
    cooperative: bool = False
    outcomes: list[GameOutcome] = field(default_factory=list)
    tally: Tally | None = None
    """The running totals, kept instead of ``outcomes`` by ``simulate(keep_outcomes=False)``."""

    @property
    def games(self) -> int:
        """How many games finished."""
        return self.tally.games if self.tally is not None else len(self.outcomes)

    def totals(self) -> Tally:
        """The running totals, or the totals of the outcomes when the run kept them instead."""
        return self.tally if self.tally is not None else Tally.of(self.players, self.outcomes)


def seat_bots(bots: Sequence[str], players: int, index: int) -> tuple[str, ...]:
    """The bot per seat in game ``index``: the list (cycled to fill the table) rotated by the game
    index, so each bot sits in each seat equally often over a run."""
    if not bots:
        raise UsageError("core.error.bots_needed")
    lineup = [bots[i % len(bots)] for i in range(players)]
    shift = index % players
    return tuple(lineup[(seat - shift) % players] for seat in range(players))


def play_game(
    game: Game,
    lineup: Sequence[str],
    seed: int,
    index: int = 0,
    keep_record: bool = False,
    max_actions: int = 1_000_000,
    params: Mapping[str, Mapping[str, Any]] | None = None,
) -> GameOutcome:
    """One game; each seat's bot is built from its spec (plus ``params``, see ``make_bot``) and
    seeded from the game seed and the seat."""
    if not keep_record and not params and all(bot == "random" for bot in lineup):
        try:
            from tabletrek.sim.compiled import play_random  # noqa: PLC0415 - numba: the [search] extra
        except ImportError:  # no numpy: the [search] extra is not installed
            pass
        else:
            outcome = play_random(game, tuple(lineup), seed, index)
            if outcome is not None:
                return outcome
    state = game.new_game(seed=seed)
    players = [
        make_bot(game, spec, seat=seat, seed=derive_seed(seed, "bot", seat), extra=params)
        for seat, spec in enumerate(lineup)
    ]
    count = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.apply(players[seat].act(state))
        count += 1
        if count >= max_actions:
            raise RuntimeError(f"{game.name} game {index} (seed {seed}) did not end in {max_actions} actions")
    result = state.result
    assert result is not None
    rounds = getattr(state, "rounds", None)
    record = None
    if keep_record:
        record = state.record().with_meta(bots=list(lineup), index=index)
    return GameOutcome(
        index=index,
        seed=seed,
        bots=tuple(lineup),
        winners=result.winners,
        scores=result.scores,
        returns=result.returns,
        actions=len(state.history),
        rounds=rounds if isinstance(rounds, int) else None,
        reason=result.reason,
        record=record,
    )


def game_seed(run_seed: int, index: int) -> int:
    return derive_seed(run_seed, "game", index)


def check_seats(bots: Sequence[str], players: int) -> None:
    """Refuse more bots than seats: ``seat_bots`` would seat the first ``players`` in every game
    and leave the rest out without a word (``tournament`` compares any number)."""
    if len(bots) > players:
        raise UsageError("core.error.bots_over_seats", count=len(bots), seats=players)


def check_bots(
    game: Game, entries: Sequence[str], params: Mapping[str, Mapping[str, Any]] | None = None
) -> None:
    """Build each entry's bot once here, so a bad name or parameter fails with its reason now,
    not in a worker."""
    for entry in entries:
        make_bot(game, entry, seat=0, seed=0, extra=params)


def simulate(
    name: str,
    n: int,
    bots: Sequence[str],
    *,
    players: int | None = None,
    seed: int = 0,
    jobs: int = 1,
    options: Mapping[str, Any] | None = None,
    keep_records: bool = False,
    batch_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    ray: str | None = None,
    keep_outcomes: bool = True,
    on_outcome: Callable[[GameOutcome], None] | None = None,
) -> SimulationResult:
    """Play ``n`` games of ``name`` between ``bots`` (rotated over seats) on ``jobs`` processes,
    or on Ray at address ``ray`` ("local" starts one here): the same seeds give the same games.

    Each finished game goes to ``on_outcome``, in the order of the games, and into the result's
    ``outcomes``; with ``keep_outcomes=False`` only into its running ``tally``, so a run of any
    length holds the same memory (``summarize`` reads either)."""
    if n < 1:
        raise UsageError("core.error.games_positive")
    from tabletrek.sim.backend import Backend, GamesInterrupted, GameSpec, LazySpecs, run_specs  # noqa: PLC0415 - backend imports this module

    backend = Backend(jobs, ray, batch_size)  # checks the jobs: at least 1, at most a few a core
    opts = dict(options or {})
    game = load_with(name, players, opts)
    check_seats(bots, game.players)
    check_bots(game, bots)
    tally = None if keep_outcomes else Tally(game.players)
    result = SimulationResult(
        name, game.players, opts, tuple(bots), seed, cooperative=game.cooperative, tally=tally
    )
    keep = result.outcomes.append if tally is None else tally.add

    def take(outcome: GameOutcome) -> None:
        keep(outcome)
        if on_outcome is not None:
            on_outcome(outcome)

    specs = LazySpecs(n, lambda i: GameSpec(i, game_seed(seed, i), seat_bots(bots, game.players, i)))
    try:
        run_specs(name, game.players, opts, specs, backend, keep_records, progress, take)
    except GamesInterrupted as stopped:
        stopped.outcomes, stopped.result = result.outcomes, result
        raise
    return result


def save_record(outcome: GameOutcome, game: str, seed: int, folder: str | Path) -> bool:
    """The outcome's record, if it kept one, as ``GAME-SEED-INDEX.json`` in ``folder``; whether it
    did (``simulate`` and ``tournament`` save each game's as it ends, through ``on_outcome``)."""
    if outcome.record is None:
        return False
    outcome.record.save(Path(folder) / f"{game}-{seed}-{outcome.index:06d}.json")
    return True

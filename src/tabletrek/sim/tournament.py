"""Tournaments between bots: round robin or Swiss, seats rotated, ratings from openskill.

Every game's seed derives from (run seed, game index) and every bot's from (game seed, seat), so a
tournament is the same on any backend and any number of workers. Ratings are updated game by game
in index order (Plackett-Luce, openskill's default model); a game's winners share rank 1 and the
other seats share rank 2, and a drawn game ranks everyone equal.

Round robin: every table of distinct bots (every pair in a 2-player game) plays ``n`` games, the
bots rotating through the seats. Swiss: ``rounds`` rounds; before each round the bots are sorted
by rating and seated in consecutive groups, avoiding a repeat of the previous round's group when
an alternative exists; each table plays ``n`` games.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tabletrek.core.errors import UsageError
from tabletrek.core.records import GameRecord
from tabletrek.core.registry import load_with
from tabletrek.core.rng import derive_seed
from tabletrek.sim.backend import Backend, GamesInterrupted, GameSpec, LazySpecs, run_specs
from tabletrek.sim.runner import GameOutcome, check_bots, seat_bots
from tabletrek.sim.stats import WinRate

FORMATS = ("round-robin", "swiss")


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """A conservative skill estimate (mu - 3 sigma), openskill's leaderboard value."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class Standing(WinRate):
    bot: str
    games: int
    wins: int
    draws: int
    rating: Rating


@dataclass
class Meetings:
    """A tournament's running counts: for each pair of bots the games they both sat in and those
    the first won (a bot paired with itself: the games it sat in and won, any of its seats), and
    for each bot the games it saw drawn. The standings and the head-to-head table read these, so
    a tournament need not keep its games."""

    games: int = 0
    drawn: Counter[str] = field(default_factory=Counter)
    met: Counter[tuple[str, str]] = field(default_factory=Counter)
    beat: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, outcome: GameOutcome) -> None:
        self.games += 1
        present = set(outcome.bots)
        winners = {outcome.bots[seat] for seat in outcome.winners}
        for bot in present:
            self.drawn[bot] += not outcome.winners
            for other in present:
                self.met[bot, other] += 1
                self.beat[bot, other] += bot in winners


@dataclass
class TournamentResult:
    game: str
    players: int
    options: Mapping[str, Any]
    bots: tuple[str, ...]
    format: str
    seed: int
    outcomes: list[GameOutcome] = field(default_factory=list)
    """Every game, unless ``tournament`` ran with ``keep_outcomes=False``."""
    standings: list[Standing] = field(default_factory=list)
    meetings: Meetings = field(default_factory=Meetings)

    def __post_init__(self) -> None:
        for outcome in self.outcomes:  # a result made from games already played
            self.meetings.add(outcome)

    def add(self, outcome: GameOutcome, keep: bool = True) -> None:
        self.meetings.add(outcome)
        if keep:
            self.outcomes.append(outcome)

    @property
    def games(self) -> int:
        return self.meetings.games

    def head_to_head(self, a: str, b: str) -> tuple[int, int]:
        """(games where ``a`` and ``b`` both sat, games among those that ``a`` won)."""
        return self.meetings.met[a, b], self.meetings.beat[a, b]

    def records(self) -> list[GameRecord]:
        return [o.record for o in self.outcomes if o.record is not None]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "bots": list(self.bots),
            "format": self.format,
            "seed": self.seed,
            "games": self.games,
            "standings": [
                {
                    "bot": s.bot,
                    "games": s.games,
                    "wins": s.wins,
                    "draws": s.draws,
                    "win_rate": s.win_rate,
                    "ci95": list(s.interval),
                    "mu": s.rating.mu,
                    "sigma": s.rating.sigma,
                    "ordinal": s.rating.ordinal,
                }
                for s in self.standings
            ],
            "head_to_head": {
                a: {b: dict(zip(("games", "wins"), self.head_to_head(a, b), strict=True)) for b in self.bots}
                for a in self.bots
            },
        }


class Ratings:
    """Plackett-Luce ratings (openskill), one per bot, updated game by game."""

    def __init__(self, bots: Sequence[str]) -> None:
        try:
            from openskill.models import PlackettLuce  # type: ignore[import-not-found,unused-ignore]  # noqa: PLC0415 - the [study] extra
        except ImportError:
            raise UsageError("core.error.ratings_extra") from None
        self.model = PlackettLuce()
        self.ratings = {bot: self.model.rating(name=bot) for bot in bots}

    def update(self, outcome: GameOutcome) -> None:
        seats = range(len(outcome.bots))
        # A bot that holds several seats at one table is rated once, by its best seat.
        ranks: dict[str, int] = {}
        for seat in seats:
            rank = 1 if (seat in outcome.winners or not outcome.winners) else 2
            bot = outcome.bots[seat]
            ranks[bot] = min(rank, ranks.get(bot, rank))
        if len(ranks) < 2:
            return
        names = list(ranks)
        teams = [[self.ratings[name]] for name in names]
        rated = self.model.rate(teams, ranks=[ranks[name] for name in names])
        for name, team in zip(names, rated, strict=True):
            self.ratings[name] = team[0]

    def get(self, bot: str) -> Rating:
        r = self.ratings[bot]
        return Rating(float(r.mu), float(r.sigma))


def tables_round_robin(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every group of ``players`` distinct bots (all bots, cycled, when there are fewer)."""
    if len(bots) <= players:
        return [tuple(bots[i % len(bots)] for i in range(players))]
    return list(itertools.combinations(bots, players))


def tables_swiss(ranked: Sequence[str], players: int, previous: set[frozenset[str]]) -> list[tuple[str, ...]]:
    """Consecutive groups of the ranked bots; a group that met last round swaps its last bot with
    the next group's first when that helps. Leftover bots fill the last table from the top."""
    order = list(ranked)
    groups = [order[i : i + players] for i in range(0, len(order), players)]
    for g in range(len(groups) - 1):
        if frozenset(groups[g]) in previous and len(groups[g + 1]) > 0:
            groups[g][-1], groups[g + 1][0] = groups[g + 1][0], groups[g][-1]
    if len(groups[-1]) < players:
        short = groups.pop()
        filler = [bot for bot in order if bot not in short]
        short.extend(filler[: players - len(short)])
        if len(set(short)) > 1:
            groups.append(short)
    return [tuple(group) for group in groups if len(set(group)) > 1]


def tournament(
    name: str,
    bots: Sequence[str],
    n: int,
    *,
    players: int | None = None,
    fmt: str = "round-robin",
    rounds: int | None = None,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    bot_params: Mapping[str, Mapping[str, Any]] | None = None,
    backend: Backend | None = None,
    keep_records: bool = False,
    progress: Callable[[int], None] | None = None,
    keep_outcomes: bool = True,
    on_outcome: Callable[[GameOutcome], None] | None = None,
) -> TournamentResult:
    """Play a tournament of ``bots`` at ``name``; ``n`` games per table (per round in Swiss).
    Each finished game goes to ``on_outcome``, in the order of the games, and is kept in the
    result's ``outcomes`` unless ``keep_outcomes=False`` (the standings and head to head are
    counted as the games finish either way)."""
    if fmt not in FORMATS:
        raise UsageError("core.error.tournament_format", formats=list(FORMATS), value=fmt)
    if n < 1:
        raise UsageError("core.error.games_positive")
    if len(set(bots)) < 2 or len(set(bots)) != len(bots):
        raise UsageError("core.error.tournament_bots")
    opts = dict(options or {})
    game = load_with(name, players, opts)
    params = tuple((bot, dict(p)) for bot, p in (bot_params or {}).items())
    check_bots(game, bots, dict(params))
    backend = backend or Backend()
    result = TournamentResult(name, game.players, opts, tuple(bots), fmt, seed)
    ratings = Ratings(bots)
    next_index = 0

    def play(tables: list[tuple[str, ...]]) -> None:
        nonlocal next_index
        first = next_index
        next_index += len(tables) * n

        def spec(i: int) -> GameSpec:  # game k of table t, numbered on from the last round's
            table, k = divmod(i, n)
            index = first + i
            lineup = seat_bots(tables[table], game.players, k)
            return GameSpec(index, derive_seed(seed, "game", index), lineup, params)

        run_specs(
            name, game.players, opts, LazySpecs(len(tables) * n, spec), backend, keep_records, progress, take
        )

    def take(outcome: GameOutcome) -> None:
        ratings.update(outcome)
        result.add(outcome, keep_outcomes)
        if on_outcome is not None:
            on_outcome(outcome)

    count = swiss_rounds(len(bots), rounds)
    if fmt == "swiss" and count < 1:
        raise UsageError("core.error.swiss_rounds")
    try:
        if fmt == "round-robin":
            play(tables_round_robin(bots, game.players))
        else:
            previous: set[frozenset[str]] = set()
            for _ in range(count):
                ranked = sorted(bots, key=lambda b: (-ratings.get(b).ordinal, list(bots).index(b)))
                tables = tables_swiss(ranked, game.players, previous)
                previous = {frozenset(t) for t in tables}
                play(tables)
    except GamesInterrupted as stopped:  # Ctrl+C: the standings of the games that finished
        result.standings = standings(result.meetings, bots, ratings)
        stopped.outcomes, stopped.result = list(result.outcomes), result  # earlier rounds' too
        raise
    result.standings = standings(result.meetings, bots, ratings)
    return result


def swiss_rounds(bots: int, rounds: int | None) -> int:
    """The rounds a Swiss tournament plays: as asked, else enough to rank ``bots`` (log2)."""
    return rounds if rounds is not None else max(1, (bots - 1).bit_length())


def swiss_games(bots: int, players: int, n: int, rounds: int | None) -> int:
    """How many games a Swiss tournament plays (for progress bars)."""
    tables = -(-bots // players)
    return swiss_rounds(bots, rounds) * tables * n


def planned_games(bots: Sequence[str], players: int, n: int, fmt: str, rounds: int | None) -> int:
    if fmt == "round-robin":
        return len(tables_round_robin(bots, players)) * n
    return swiss_games(len(bots), players, n, rounds)


def standings(meetings: Meetings, bots: Sequence[str], ratings: Ratings) -> list[Standing]:
    rows = [
        Standing(bot, meetings.met[bot, bot], meetings.beat[bot, bot], meetings.drawn[bot], ratings.get(bot))
        for bot in bots
    ]
    rows.sort(key=lambda s: -s.rating.ordinal)
    return rows

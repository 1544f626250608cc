"""Summary statistics of a simulation: win rates with 95% intervals, seats, game length."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tabletrek.sim.runner import SimulationResult
from tabletrek.sim.tally import describe_counts

Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (well behaved near 0 and 1, unlike the normal one)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # At no successes (or all) the bound is 0 (or 1) exactly; in floating point the centre and the
    # half width differ by a rounding, which left a lower bound above a win rate of 0.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


class WinRate:
    """Wins out of ``trials`` (games, unless a subclass counts otherwise), with the 95% interval."""

    __slots__ = ()
    wins: int
    games: int

    @property
    def trials(self) -> int:
        return self.games

    @property
    def win_rate(self) -> float:
        return self.wins / self.trials if self.trials else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.trials)


@dataclass(frozen=True)
class BotStats(WinRate):
    bot: str
    seats_played: int
    wins: int
    draws: int
    mean_score: float
    mean_return: float

    @property
    def trials(self) -> int:
        return self.seats_played


@dataclass(frozen=True)
class SeatStats(WinRate):
    seat: int
    games: int
    wins: int


@dataclass(frozen=True)
class Summary:
    game: str
    players: int
    games: int
    draws: int
    cooperative: bool
    bots: list[BotStats]
    seats: list[SeatStats]
    actions: dict[str, float]
    rounds: dict[str, float] | None
    reasons: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "draws": self.draws,
            "cooperative": self.cooperative,
            "bots": [
                {
                    "bot": b.bot,
                    "seats_played": b.seats_played,
                    "wins": b.wins,
                    "draws": b.draws,
                    "win_rate": b.win_rate,
                    "ci95": list(b.interval),
                    "mean_score": b.mean_score,
                    "mean_return": b.mean_return,
                }
                for b in self.bots
            ],
            "seats": [
                {
                    "seat": s.seat,
                    "games": s.games,
                    "wins": s.wins,
                    "win_rate": s.win_rate,
                    "ci95": list(s.interval),
                }
                for s in self.seats
            ],
            "actions": self.actions,
            "rounds": self.rounds,
            "reasons": self.reasons,
        }


def describe_lengths(values: Sequence[float]) -> dict[str, float]:
    """``describe_counts`` of a list of values (a benchmark's times, say)."""
    return describe_counts(Counter(values))


def length_args(lengths: dict[str, float]) -> dict[str, str]:
    """``describe_lengths`` as the ``cli.sim.length`` and ``cli.sim.rounds`` texts print it: the mean
    to a tenth, the median and percentiles whole (they are moves or rounds of real games)."""
    return {
        "mean": f"{lengths['mean']:.1f}",
        "median": f"{lengths['median']:.0f}",
        "p10": f"{lengths['p10']:.0f}",
        "p90": f"{lengths['p90']:.0f}",
    }


def summarize(result: SimulationResult) -> Summary:
    """The summary of a run: from its running totals, or from its outcomes when it kept them."""
    tally = result.totals()
    if not tally.games:
        raise ValueError("no games to summarise")
    draws = not result.cooperative
    bots = [
        BotStats(
            name,
            totals.seats,
            totals.wins,
            totals.unwon if draws else 0,
            totals.score / max(1, totals.seats),
            totals.returns / max(1, totals.seats),
        )
        for name in dict.fromkeys(result.bots)
        if (totals := tally.bots.get(name)) is not None
    ]
    return Summary(
        game=result.game,
        players=result.players,
        games=tally.games,
        draws=tally.unwon if draws else 0,
        cooperative=result.cooperative,
        bots=bots,
        seats=[SeatStats(seat, tally.games, wins) for seat, wins in enumerate(tally.seat_wins)],
        actions=describe_counts(tally.actions),
        rounds=describe_counts(tally.rounds) if not tally.without_rounds else None,
        reasons=dict(tally.reasons),
    )

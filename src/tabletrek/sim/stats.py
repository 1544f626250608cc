"""Summary statistics of a simulation: win rates with 95% intervals, seats, game length."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tabletrek.sim.runner import GameOutcome, SimulationResult

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
    ordered = sorted(values)
    return {
        "mean": statistics.fmean(ordered),
        "median": float(statistics.median(ordered)),
        "p10": float(ordered[int(0.1 * (len(ordered) - 1))]),
        "p90": float(ordered[int(0.9 * (len(ordered) - 1))]),
        "min": float(ordered[0]),
        "max": float(ordered[-1]),
    }


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
    outcomes: list[GameOutcome] = result.outcomes
    if not outcomes:
        raise ValueError("no games to summarise")
    players = result.players
    played = {bot for outcome in outcomes for bot in outcome.bots}
    names = [bot for bot in dict.fromkeys(result.bots) if bot in played]
    bots = []
    for name in names:
        seats = wins = draws = 0
        score_sum = return_sum = 0.0
        for outcome in outcomes:
            for seat, bot in enumerate(outcome.bots):
                if bot != name:
                    continue
                seats += 1
                wins += seat in outcome.winners
                draws += not outcome.winners and not result.cooperative
                score_sum += outcome.scores[seat]
                return_sum += outcome.returns[seat]
        bots.append(BotStats(name, seats, wins, draws, score_sum / max(1, seats), return_sum / max(1, seats)))
    seat_stats = [
        SeatStats(seat, len(outcomes), sum(seat in o.winners for o in outcomes)) for seat in range(players)
    ]
    reasons: dict[str, int] = {}
    for outcome in outcomes:
        reasons[outcome.reason] = reasons.get(outcome.reason, 0) + 1
    rounds = [o.rounds for o in outcomes if o.rounds is not None]
    return Summary(
        game=result.game,
        players=players,
        games=len(outcomes),
        draws=0 if result.cooperative else sum(not o.winners for o in outcomes),
        cooperative=result.cooperative,
        bots=bots,
        seats=seat_stats,
        actions=describe_lengths([o.actions for o in outcomes]),
        rounds=describe_lengths(rounds) if len(rounds) == len(outcomes) else None,
        reasons=reasons,
    )

"""A simulation's running totals: everything its summary reads, in memory that does not grow with
the number of games.

A run that kept every ``GameOutcome`` (about half a kilobyte each) ran out of memory after some
tens of millions of games, which the compiled engines play in an hour; ``simulate`` with
``keep_outcomes=False`` adds each game to a ``Tally`` instead. Game lengths are counted by value
(a game lasts one of a few thousand lengths at most), so the median and percentiles stay exact.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tabletrek.sim.runner import GameOutcome


@dataclass
class BotTotals:
    """One bot's seats over the games so far."""

    seats: int = 0
    wins: int = 0
    unwon: int = 0
    """Seats in games that nobody won (draws, in a competitive game)."""
    score: float = 0.0
    returns: float = 0.0


@dataclass
class Tally:
    players: int
    games: int = 0
    unwon: int = 0
    """Games nobody won."""
    bots: dict[str, BotTotals] = field(default_factory=dict)
    seat_wins: list[int] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)
    actions: Counter[int] = field(default_factory=Counter)
    rounds: Counter[int] = field(default_factory=Counter)
    without_rounds: int = 0
    """Games that do not count rounds: their table then has no rounds line."""

    def __post_init__(self) -> None:
        if not self.seat_wins:
            self.seat_wins = [0] * self.players

    @classmethod
    def of(cls, players: int, outcomes: Iterable[GameOutcome]) -> Tally:
        tally = cls(players)
        for outcome in outcomes:
            tally.add(outcome)
        return tally

    def add(self, outcome: GameOutcome) -> None:
        self.games += 1
        self.unwon += not outcome.winners
        for seat, bot in enumerate(outcome.bots):
            totals = self.bots.setdefault(bot, BotTotals())
            totals.seats += 1
            totals.wins += seat in outcome.winners
            totals.unwon += not outcome.winners
            totals.score += outcome.scores[seat]
            totals.returns += outcome.returns[seat]
        for seat in outcome.winners:
            self.seat_wins[seat] += 1
        self.reasons[outcome.reason] += 1
        self.actions[outcome.actions] += 1
        if outcome.rounds is None:
            self.without_rounds += 1
        else:
            self.rounds[outcome.rounds] += 1


def describe_counts(counts: Mapping[int, int] | Mapping[float, int]) -> dict[str, float]:
    """The mean, median, 10th and 90th percentiles, least and most of the values ``counts`` holds
    (value: how many times), without listing every value: a run's game lengths as it goes."""
    ordered = sorted(counts.items())
    total = sum(count for _, count in ordered)

    def at(position: int) -> float:
        for value, count in ordered:
            if position < count:
                return value
            position -= count
        raise IndexError(position)

    middle = total // 2
    median = float(at(middle)) if total % 2 else (at(middle - 1) + at(middle)) / 2
    return {
        "mean": math.fsum(value * count for value, count in ordered) / total,
        "median": median,
        "p10": float(at(int(0.1 * (total - 1)))),
        "p90": float(at(int(0.9 * (total - 1)))),
        "min": float(ordered[0][0]),
        "max": float(ordered[-1][0]),
    }

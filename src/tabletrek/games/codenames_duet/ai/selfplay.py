"""Seeded AI-pair games through the real rules, with the figures the evaluation reports.

Each seat is a complete AI player, but its two roles may use different embedding tables: with
``giver_models`` = an ensemble and ``guesser_models`` = a model outside it, every clue of the game is
read by a partner who "thinks" differently — the closest offline stand-in for a human partner.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tabletrek.core.registry import load


@dataclass
class GameOutcome:
    seed: int
    ending: str  # won | assassin | sudden_death | time_mistake
    agents: int
    turns: int  # clue turns played (the winning turn included)
    clues: int
    announced: int  # sum of clue numbers
    hits: int  # greens found on clues' own guessing
    sudden: bool = False  # the timer ran out and the game went to sudden death


@dataclass
class Summary:
    outcomes: list[GameOutcome] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.outcomes)

    def count(self, ending: str) -> int:
        return sum(1 for o in self.outcomes if o.ending == ending)

    def rate(self, ending: str) -> float:
        return self.count(ending) / self.games if self.games else 0.0

    def wilson(self, ending: str = "won", z: float = 1.96) -> tuple[float, float]:
        """95% confidence interval of a rate (Wilson score interval)."""
        n = self.games
        if n == 0:
            return (0.0, 1.0)
        p = self.rate(ending)
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    def mean(self, attr: str, ending: str | None = None) -> float:
        values = [getattr(o, attr) for o in self.outcomes if ending is None or o.ending == ending]
        return sum(values) / len(values) if values else float("nan")

    def per_clue(self, attr: str) -> float:
        clues = sum(o.clues for o in self.outcomes)
        return sum(getattr(o, attr) for o in self.outcomes) / clues if clues else float("nan")

    def lost_on_clue(self, ending: str = "assassin") -> float:
        """Share of games lost that way while clues were still given (not in sudden death)."""
        lost = sum(1 for o in self.outcomes if o.ending == ending and not o.sudden)
        return lost / self.games if self.games else 0.0

    def endings(self) -> Counter[str]:
        return Counter(o.ending for o in self.outcomes)


def play_game(seed: int, params: Mapping[str, Any], options: Mapping[str, Any] | None = None) -> GameOutcome:
    """One two-player game, both seats the AI with ``params``; the bots' seeds derive from ``seed``."""
    game = load("codenames-duet", players=2, **dict(options or {}))
    state = game.new_game(seed=seed)
    bots = [game.bot("codenames-clue", seat=s, seed=seed * 2 + s, **dict(params)) for s in (0, 1)]
    sudden = False
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        sudden = sudden or state.public_view()["phase"] == "sudden"
        state.apply(bots[seat].act(state))
    view = state.public_view()
    clues = [c for c in view["clues"] if not c.get("penalty")]
    hits = sum(1 for c in clues for g in c["guesses"] if g["kind"] == "green")
    reason = view["result"]["reason"]
    return GameOutcome(
        seed=seed,
        ending=str(reason).rsplit(".", 1)[-1],
        agents=int(view["agents_found"]),
        turns=len(clues),
        clues=len(clues),
        announced=sum(int(c["number"]) for c in clues),
        hits=hits,
        sudden=sudden,
    )


def run(seeds: Iterable[int], params: Mapping[str, Any], options: Mapping[str, Any] | None = None) -> Summary:
    summary = Summary()
    for seed in seeds:
        summary.outcomes.append(play_game(seed, params, options))
    return summary

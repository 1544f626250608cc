"""Seeded AI-pair games through the real rules, with the figures the evaluation reports.

Each seat is a complete AI player, but its two roles may use different embedding tables: with
``giver_models`` = an ensemble and ``guesser_models`` = a model outside it, every clue of the game is
read by a partner who "thinks" differently — the closest offline stand-in for a human partner.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tabletrek.core.registry import load

# (game, seat, bot seed) -> a bot with ``act(state)``
BotMaker = Callable[[Any, int, int], Any]


@dataclass(frozen=True)
class ClueReport:
    """One AI clue as played: what the giver meant and what the partner touched on it."""

    word: str
    number: int
    targets: tuple[str, ...]  # the giver's intended words (its first ``number`` targets)
    touched: tuple[str, ...]  # the partner's guesses on this clue, in order
    greens: int  # how many of them were the giver's agents

    @property
    def decoded(self) -> bool:
        """Every intended word was touched on this clue."""
        return set(self.targets) <= set(self.touched)


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
    past_number: bool = False  # lost on a guess beyond the number the clue announced
    clue_reports: list[ClueReport] = field(default_factory=list, compare=False)
    clue_seconds: list[float] = field(default_factory=list, compare=False)  # per bot.act for a clue
    guess_seconds: list[float] = field(default_factory=list, compare=False)


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

    def lost_past_number(self) -> float:
        """Share of games lost on a guess beyond the clue's announced number (a bonus guess)."""
        lost = sum(1 for o in self.outcomes if o.past_number)
        return lost / self.games if self.games else 0.0

    def endings(self) -> Counter[str]:
        return Counter(o.ending for o in self.outcomes)

    def clue_reports(self) -> list[ClueReport]:
        return [r for o in self.outcomes for r in o.clue_reports]

    def decoded_share(self, min_number: int = 3) -> tuple[int, int]:
        """(fully decoded, all) AI clues announcing at least ``min_number`` words."""
        big = [r for r in self.clue_reports() if r.number >= min_number]
        return sum(1 for r in big if r.decoded), len(big)


def play_game(
    seed: int,
    params: Mapping[str, Any],
    options: Mapping[str, Any] | None = None,
    make_bot: BotMaker | None = None,
) -> GameOutcome:
    """One two-player game, both seats the AI with ``params``; the bots' seeds derive from ``seed``.
    ``make_bot(game, seat, seed)``, if given, builds each seat's bot instead (the evaluation pins
    the partner role's policy that way).

    Records every clue with the giver's intended words and the wall time of every ``bot.act``.
    """
    game = load("codenames-duet", players=2, **dict(options or {}))
    state = game.new_game(seed=seed)
    if make_bot is None:
        bots = [game.bot("codenames-clue", seat=s, seed=seed * 2 + s, **dict(params)) for s in (0, 1)]
    else:
        bots = [make_bot(game, s, seed * 2 + s) for s in (0, 1)]
    sudden = False
    targets: list[tuple[str, ...]] = []  # per clue given, in order
    clue_seconds: list[float] = []
    guess_seconds: list[float] = []
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        phase = state.public_view()["phase"]
        sudden = sudden or phase == "sudden"
        start = time.perf_counter()
        action = bots[seat].act(state)
        (clue_seconds if phase == "clue" else guess_seconds).append(time.perf_counter() - start)
        if phase == "clue":
            targets.append(tuple(getattr(bots[seat], "last_targets", ())))
        state.apply(action)
    view = state.public_view()
    clues = [c for c in view["clues"] if not c.get("penalty")]
    hits = sum(1 for c in clues for g in c["guesses"] if g["kind"] == "green")
    reports = [
        ClueReport(
            str(c["word"]),
            int(c["number"]),
            meant,
            tuple(str(g["word"]) for g in c["guesses"]),
            sum(1 for g in c["guesses"] if g["kind"] == "green"),
        )
        for c, meant in zip(clues, targets, strict=False)
    ]
    ending = str(view["result"]["reason"]).rsplit(".", 1)[-1]
    # The game ended on the last clue's last guess; past its number, it was a bonus guess.
    last = clues[-1] if clues and not sudden else None
    past = last is not None and len(last["guesses"]) > int(last["number"])
    return GameOutcome(
        seed=seed,
        ending=ending,
        agents=int(view["agents_found"]),
        turns=len(clues),
        clues=len(clues),
        announced=sum(int(c["number"]) for c in clues),
        hits=hits,
        sudden=sudden,
        past_number=past and ending == "assassin",
        clue_reports=reports,
        clue_seconds=clue_seconds,
        guess_seconds=guess_seconds,
    )


def run(
    seeds: Iterable[int],
    params: Mapping[str, Any],
    options: Mapping[str, Any] | None = None,
    make_bot: BotMaker | None = None,
) -> Summary:
    summary = Summary()
    for seed in seeds:
        summary.outcomes.append(play_game(seed, params, options, make_bot))
    return summary

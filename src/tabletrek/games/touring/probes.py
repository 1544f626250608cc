"""The analysis probe: statistics ``tabletrek analyze`` reports for this game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tabletrek.core.analysis import Outcome, Probe, Section, seat_of, text_of
from tabletrek.core.events import Event


class TouringProbe(Probe):
    """Hazards: how often each is played, the miles it takes, and whether its player went on to win."""

    def __init__(self) -> None:
        super().__init__()
        self.played: Counter[str] = Counter()
        self.miles_lost: Counter[str] = Counter()
        self.by_winner: Counter[str] = Counter()

    def feed(self, outcome: Outcome, events: Sequence[Event]) -> None:
        super().feed(outcome, events)
        for event in events:
            if event.key not in ("touring.event.attack", "touring.event.attack_loss"):
                continue
            card = text_of(event.args.get("card"))
            self.played[card] += 1
            self.by_winner[card] += seat_of(event.args.get("player")) in outcome.winners
            miles = event.args.get("miles")
            if isinstance(miles, int):
                self.miles_lost[card] += miles

    def sections(self) -> list[Section]:
        cards = sorted(self.played, key=lambda c: -self.played[c])
        rows = [
            [
                {"$t": card},
                f"{self.played[card] / max(1, self.games):.2f}",
                f"{self.miles_lost[card] / max(1, self.played[card]):.1f}",
                f"{100 * self.by_winner[card] / max(1, self.played[card]):.1f}%",
            ]
            for card in cards
        ]
        plot = {
            "kind": "bar",
            "labels": [{"$t": c} for c in cards],
            "values": [self.played[c] / max(1, self.games) for c in cards],
            "ylabel": "touring.analyze.per_game",
        }
        section = Section(
            "touring.analyze.title",
            "touring.analyze.note",
            [
                "cli.analyze.col.hazard",
                "touring.analyze.per_game",
                "touring.analyze.miles",
                "touring.analyze.winner_share",
            ],
            rows,
            plot,
        )
        return [section, *super().sections()]

"""The analysis probe: how dearly the winning bids bought their prizes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tabletrek.core.analysis import Outcome, Probe, Section
from tabletrek.core.events import Event


class GoofspielProbe(Probe):
    """Per won round, the winning bid minus the prize's worth (with any carried pot)."""

    def __init__(self) -> None:
        super().__init__()
        self.margins: Counter[int] = Counter()

    def feed(self, outcome: Outcome, events: Sequence[Event]) -> None:
        super().feed(outcome, events)
        shown: list[int] = []
        for event in events:
            if event.key == "goofspiel.event.shows":
                shown.append(int(event.args["card"]))
            elif event.key == "goofspiel.event.win":
                self.margins[max(shown) - int(event.args["value"])] += 1
            if event.key in ("goofspiel.event.win", "goofspiel.event.carry", "goofspiel.event.discard"):
                shown = []

    def sections(self) -> list[Section]:
        margins = sorted(self.margins)
        section = Section(
            "goofspiel.analyze.title",
            "goofspiel.analyze.note",
            ["goofspiel.analyze.margin", "goofspiel.analyze.rounds"],
            [[str(m), str(self.margins[m])] for m in margins],
            {
                "kind": "bar",
                "labels": [str(m) for m in margins],
                "values": [self.margins[m] for m in margins],
                "ylabel": "goofspiel.analyze.rounds",
            },
        )
        return [section, *super().sections()]

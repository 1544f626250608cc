"""The analysis probe: statistics ``tabletrek analyze`` reports for this game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from tabletrek.core.analysis import Outcome, Probe, Section, seat_of, text_of
from tabletrek.core.events import Event


class DoubleCrossingProbe(Probe):
    """Which contracts and spaces separate winners from the others."""

    def __init__(self) -> None:
        super().__init__()
        self.contract_done: Counter[str] = Counter()
        self.contract_by_winner: Counter[str] = Counter()
        self.lands_winner: Counter[str] = Counter()
        self.lands_other: Counter[str] = Counter()
        self.seats = 0
        self.winner_seats = 0

    def feed(self, outcome: Outcome, events: Sequence[Event]) -> None:
        super().feed(outcome, events)
        self.seats += len(outcome.bots)
        self.winner_seats += len(outcome.winners)
        for event in events:
            player = seat_of(event.args.get("player"))
            if event.key in ("double_crossing.event.connect", "double_crossing.event.trade"):
                contract = text_of(event.args.get("contract"))
                self.contract_done[contract] += 1
                self.contract_by_winner[contract] += player in outcome.winners
            elif event.key == "double_crossing.event.land":
                space = text_of(event.args.get("name"))
                (self.lands_winner if player in outcome.winners else self.lands_other)[space] += 1

    def sections(self) -> list[Section]:
        contracts = sorted(
            self.contract_done, key=lambda c: -self.contract_by_winner[c] / self.contract_done[c]
        )
        rows: list[list[Any]] = [
            [
                {"$t": c},
                str(self.contract_done[c]),
                f"{100 * self.contract_by_winner[c] / self.contract_done[c]:.1f}%",
            ]
            for c in contracts
        ]
        contract_section = Section(
            "double_crossing.analyze.contract_title",
            "double_crossing.analyze.contract_note",
            ["cli.analyze.col.contract", "cli.analyze.col.times", "double_crossing.analyze.by_winner"],
            rows,
            {
                "kind": "barh",
                "labels": [{"$t": c} for c in contracts[:15]],
                "values": [self.contract_by_winner[c] / self.contract_done[c] for c in contracts[:15]],
                "ylabel": "double_crossing.analyze.by_winner",
            },
        )
        winners = max(1, self.winner_seats)
        others = max(1, self.seats - self.winner_seats)
        spaces = set(self.lands_winner) | set(self.lands_other)
        gap = {s: self.lands_winner[s] / winners - self.lands_other[s] / others for s in spaces}
        ordered = sorted(spaces, key=lambda s: -abs(gap[s]))[:15]
        space_section = Section(
            "double_crossing.analyze.space_title",
            "double_crossing.analyze.space_note",
            [
                "cli.analyze.col.space",
                "double_crossing.analyze.winner_lands",
                "double_crossing.analyze.other_lands",
            ],
            [
                [{"$t": s}, f"{self.lands_winner[s] / winners:.2f}", f"{self.lands_other[s] / others:.2f}"]
                for s in ordered
            ],
            {
                "kind": "barh",
                "labels": [{"$t": s} for s in ordered],
                "values": [gap[s] for s in ordered],
                "ylabel": "double_crossing.analyze.gap",
            },
        )
        return [contract_section, space_section, *super().sections()]

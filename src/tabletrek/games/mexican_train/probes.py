"""The analysis probe: statistics ``tabletrek analyze`` reports for this game."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from tabletrek.core.analysis import Outcome, Probe, Section, seat_of
from tabletrek.core.events import Event


class MexicanTrainProbe(Probe):
    """Points left in hand by round, and how often (and by whom) the Mexican train is started."""

    def __init__(self) -> None:
        super().__init__()
        self.points: defaultdict[int, list[int]] = defaultdict(list)
        self.rounds = 0
        self.started = 0
        self.started_by_winner = 0

    def feed(self, outcome: Outcome, events: Sequence[Event]) -> None:
        super().feed(outcome, events)
        # Round 1 begins with the game itself, before any move, so no event announces it; every
        # later round is announced by round_start (numbered from 1).
        current = 1
        begun = {1}
        started: set[int] = set()
        for event in events:
            if event.key == "mexican_train.event.round_start":
                current = int(event.args.get("round", current + 1))
                begun.add(current)
            elif event.key == "mexican_train.event.score":
                self.points[current].append(int(event.args.get("points", 0)))
            elif event.key == "mexican_train.event.start_mexican" and current not in started:
                # The Mexican train is started at most once a round; count rounds, not events.
                started.add(current)
                self.started_by_winner += seat_of(event.args.get("player")) in outcome.winners
        self.rounds += len(begun)
        self.started += len(started)

    def sections(self) -> list[Section]:
        rounds = sorted(self.points)
        means = [sum(self.points[r]) / len(self.points[r]) for r in rounds]
        rows: list[list[Any]] = [
            [str(r), f"{m:.1f}", str(len(self.points[r]))] for r, m in zip(rounds, means, strict=True)
        ]
        points = Section(
            "mexican_train.analyze.points_title",
            "mexican_train.analyze.points_note",
            ["cli.analyze.col.round", "mexican_train.analyze.mean_points", "cli.analyze.col.samples"],
            rows,
            {
                "kind": "line",
                "x": rounds,
                "values": means,
                "xlabel": "cli.analyze.col.round",
                "ylabel": "mexican_train.analyze.mean_points",
            },
        )
        share = self.started / max(1, self.rounds)
        starts = Section(
            "mexican_train.analyze.start_title",
            "mexican_train.analyze.start_note",
            ["cli.analyze.col.measure", "cli.analyze.col.value"],
            [
                [{"$t": "mexican_train.analyze.rounds"}, str(self.rounds)],
                [{"$t": "mexican_train.analyze.started"}, f"{100 * share:.1f}%"],
                [
                    {"$t": "mexican_train.analyze.by_winner"},
                    f"{100 * self.started_by_winner / max(1, self.started):.1f}%",
                ],
            ],
        )
        return [points, starts, *super().sections()]

"""The analysis probe: statistics ``tabletrek analyze`` reports for this game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tabletrek.core.analysis import Outcome, Probe, Section
from tabletrek.core.events import Event


class DuetProbe(Probe):
    """Cooperative: wins by the number of turns used, and what ended the lost games."""

    def __init__(self) -> None:
        super().__init__()
        self.win_turns: Counter[int] = Counter()
        self.losses: Counter[str] = Counter()

    def feed(self, outcome: Outcome, events: Sequence[Event]) -> None:
        super().feed(outcome, events)
        turns = sum(1 for e in events if e.key == "codenames_duet.event.clue")
        if outcome.winners:
            self.win_turns[turns] += 1
        else:
            self.losses[outcome.reason] += 1

    def sections(self) -> list[Section]:
        turns = sorted(self.win_turns)
        wins = Section(
            "codenames_duet.analyze.turns_title",
            "codenames_duet.analyze.turns_note",
            ["codenames_duet.analyze.turns", "cli.analyze.col.games"],
            [[str(t), str(self.win_turns[t])] for t in turns],
            {
                "kind": "bar",
                "labels": [str(t) for t in turns],
                "values": [self.win_turns[t] for t in turns],
                "ylabel": "cli.analyze.col.games",
            },
            empty="codenames_duet.analyze.no_wins",
        )
        causes = Section(
            "codenames_duet.analyze.loss_title",
            None,
            ["codenames_duet.analyze.cause", "cli.analyze.col.games"],
            [[{"$t": reason}, str(count)] for reason, count in self.losses.most_common()],
            empty="codenames_duet.analyze.no_losses",
        )
        return [wins, causes, *super().sections()]

"""Per-game statistics read from the public event stream of replayed records.

A probe sees each game as (outcome, events in order) and only reads what the public API gives:
event keys and their JSON arguments (``seat_ref``/``text_ref`` markers included). Games without a
probe of their own still get the generic one (how often each kind of event happens per game).
Each probe returns *sections*: a title key, an optional plot and a table, for the HTML report.
Table cells may be text markers: ``{"$t": key}`` (a catalog text) or ``{"$event": key}`` (an
event kind, named by its message with the details left out).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tabletrek.core.events import Event
from tabletrek.sim.runner import GameOutcome


@dataclass
class Section:
    """One block of the report: ``title`` and ``note`` are i18n keys; ``rows`` a table whose
    cells may be i18n text markers ({"$t": key}); ``plot`` says what to draw."""

    title: str
    note: str | None = None
    header: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    plot: dict[str, Any] | None = None


def seat_of(value: Any) -> int | None:
    if isinstance(value, dict) and isinstance(value.get("$seat"), int):
        return int(value["$seat"])
    return None


def text_of(value: Any) -> str:
    if isinstance(value, dict) and isinstance(value.get("$t"), str):
        return str(value["$t"])
    return str(value)


class Probe:
    """Counts every event key per game (what any game offers)."""

    def __init__(self) -> None:
        self.games = 0
        self.counts: Counter[str] = Counter()

    def feed(self, outcome: GameOutcome, events: Sequence[Event]) -> None:
        self.games += 1
        for event in events:
            self.counts[event.key] += 1

    def sections(self) -> list[Section]:
        rows: list[list[Any]] = [
            [{"$event": key}, f"{count / max(1, self.games):.2f}"]
            for key, count in self.counts.most_common(20)
        ]
        return [
            Section(
                "cli.analyze.events.title",
                "cli.analyze.events.note",
                ["cli.analyze.col.event", "cli.analyze.col.per_game"],
                rows,
            )
        ]


class TouringProbe(Probe):
    """Hazards: how often each is played, the miles it takes, and whether its player went on to win."""

    def __init__(self) -> None:
        super().__init__()
        self.played: Counter[str] = Counter()
        self.miles_lost: Counter[str] = Counter()
        self.by_winner: Counter[str] = Counter()

    def feed(self, outcome: GameOutcome, events: Sequence[Event]) -> None:
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
            "ylabel": "cli.analyze.touring.per_game",
        }
        section = Section(
            "cli.analyze.touring.title",
            "cli.analyze.touring.note",
            [
                "cli.analyze.col.hazard",
                "cli.analyze.touring.per_game",
                "cli.analyze.touring.miles",
                "cli.analyze.touring.winner_share",
            ],
            rows,
            plot,
        )
        return [section, *super().sections()]


class MexicanTrainProbe(Probe):
    """Points left in hand by round, and how often (and by whom) the Mexican train is started."""

    def __init__(self) -> None:
        super().__init__()
        self.points: defaultdict[int, list[int]] = defaultdict(list)
        self.rounds = 0
        self.started = 0
        self.started_by_winner = 0

    def feed(self, outcome: GameOutcome, events: Sequence[Event]) -> None:
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
            "cli.analyze.mexican.points_title",
            "cli.analyze.mexican.points_note",
            ["cli.analyze.col.round", "cli.analyze.mexican.mean_points", "cli.analyze.col.samples"],
            rows,
            {
                "kind": "line",
                "x": rounds,
                "values": means,
                "xlabel": "cli.analyze.col.round",
                "ylabel": "cli.analyze.mexican.mean_points",
            },
        )
        share = self.started / max(1, self.rounds)
        starts = Section(
            "cli.analyze.mexican.start_title",
            "cli.analyze.mexican.start_note",
            ["cli.analyze.col.measure", "cli.analyze.col.value"],
            [
                [{"$t": "cli.analyze.mexican.rounds"}, str(self.rounds)],
                [{"$t": "cli.analyze.mexican.started"}, f"{100 * share:.1f}%"],
                [
                    {"$t": "cli.analyze.mexican.by_winner"},
                    f"{100 * self.started_by_winner / max(1, self.started):.1f}%",
                ],
            ],
        )
        return [points, starts, *super().sections()]


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

    def feed(self, outcome: GameOutcome, events: Sequence[Event]) -> None:
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
            "cli.analyze.crossing.contract_title",
            "cli.analyze.crossing.contract_note",
            ["cli.analyze.col.contract", "cli.analyze.col.times", "cli.analyze.crossing.by_winner"],
            rows,
            {
                "kind": "barh",
                "labels": [{"$t": c} for c in contracts[:15]],
                "values": [self.contract_by_winner[c] / self.contract_done[c] for c in contracts[:15]],
                "ylabel": "cli.analyze.crossing.by_winner",
            },
        )
        winners = max(1, self.winner_seats)
        others = max(1, self.seats - self.winner_seats)
        spaces = set(self.lands_winner) | set(self.lands_other)
        gap = {s: self.lands_winner[s] / winners - self.lands_other[s] / others for s in spaces}
        ordered = sorted(spaces, key=lambda s: -abs(gap[s]))[:15]
        space_section = Section(
            "cli.analyze.crossing.space_title",
            "cli.analyze.crossing.space_note",
            [
                "cli.analyze.col.space",
                "cli.analyze.crossing.winner_lands",
                "cli.analyze.crossing.other_lands",
            ],
            [
                [{"$t": s}, f"{self.lands_winner[s] / winners:.2f}", f"{self.lands_other[s] / others:.2f}"]
                for s in ordered
            ],
            {
                "kind": "barh",
                "labels": [{"$t": s} for s in ordered],
                "values": [gap[s] for s in ordered],
                "ylabel": "cli.analyze.crossing.gap",
            },
        )
        return [contract_section, space_section, *super().sections()]


class DuetProbe(Probe):
    """Cooperative: wins by the number of turns used, and what ended the lost games."""

    def __init__(self) -> None:
        super().__init__()
        self.win_turns: Counter[int] = Counter()
        self.losses: Counter[str] = Counter()

    def feed(self, outcome: GameOutcome, events: Sequence[Event]) -> None:
        super().feed(outcome, events)
        turns = sum(1 for e in events if e.key == "codenames_duet.event.clue")
        if outcome.winners:
            self.win_turns[turns] += 1
        else:
            self.losses[outcome.reason] += 1

    def sections(self) -> list[Section]:
        turns = sorted(self.win_turns)
        wins = Section(
            "cli.analyze.duet.turns_title",
            "cli.analyze.duet.turns_note",
            ["cli.analyze.duet.turns", "cli.analyze.col.games"],
            [[str(t), str(self.win_turns[t])] for t in turns],
            {
                "kind": "bar",
                "labels": [str(t) for t in turns],
                "values": [self.win_turns[t] for t in turns],
                "ylabel": "cli.analyze.col.games",
            },
        )
        causes = Section(
            "cli.analyze.duet.loss_title",
            None,
            ["cli.analyze.duet.cause", "cli.analyze.col.games"],
            [[{"$t": reason}, str(count)] for reason, count in self.losses.most_common()],
        )
        return [wins, causes, *super().sections()]


PROBES: dict[str, type[Probe]] = {
    "touring": TouringProbe,
    "mexican-train": MexicanTrainProbe,
    "double-crossing": DoubleCrossingProbe,
    "codenames-duet": DuetProbe,
}


def probe_for(game: str) -> Probe:
    return PROBES.get(game, Probe)()


def feed_all(probe: Probe, games: Iterable[tuple[GameOutcome, Sequence[Event]]]) -> Probe:
    for outcome, events in games:
        probe.feed(outcome, events)
    return probe

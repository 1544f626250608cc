"""Analysis probes: per-game statistics read from the public event stream of played games.

A probe sees each game as (outcome, events in order) and only reads what the public API gives:
event keys and their JSON arguments (``seat_ref``/``text_ref`` markers included). A game offers
its own probe through its spec (``GameSpec.probe``); games without one get this generic one (how
often each kind of event happens per game). Each probe returns *sections*: a title key, an
optional plot and a table, for the HTML report. Table cells may be text markers: ``{"$t": key}``
(a catalog text) or ``{"$event": key}`` (an event kind, named by its message with the details
left out).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from tabletrek.core.events import Event


class Outcome(Protocol):
    """What a probe may read of a finished game besides its events (``sim.runner.GameOutcome``)."""

    @property
    def bots(self) -> tuple[str, ...]: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def reason(self) -> str: ...


@dataclass
class Section:
    """One block of the report: ``title`` and ``note`` are i18n keys; ``rows`` a table whose
    cells may be i18n text markers ({"$t": key}); ``plot`` says what to draw; ``empty`` (an i18n
    key) what the report says instead when the games gave nothing to count."""

    title: str
    note: str | None = None
    header: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    plot: dict[str, Any] | None = None
    empty: str = "cli.analyze.report.empty"


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

    def feed(self, outcome: Outcome, events: Sequence[Event]) -> None:
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

"""Per-game statistics read from the public event stream of replayed records.

The probes themselves are in ``core.analysis`` (the generic one) and in each game's package,
named by its spec (``GameSpec.probe``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tabletrek.core.analysis import Probe, Section, seat_of, text_of
from tabletrek.core.events import Event
from tabletrek.core.registry import spec
from tabletrek.core.spec import load_attribute
from tabletrek.sim.runner import GameOutcome

__all__ = ["Probe", "Section", "feed_all", "probe_for", "seat_of", "text_of"]


def probe_for(game: str) -> Probe:
    """The game's own probe when its spec names one, else the generic one."""
    path = spec(game).probe
    probe: Probe = load_attribute(path)() if path else Probe()
    return probe


def feed_all(probe: Probe, games: Iterable[tuple[GameOutcome, Sequence[Event]]]) -> Probe:
    for outcome, events in games:
        probe.feed(outcome, events)
    return probe

"""A table's log of events, kept compact: text and integers only.

A server holds the whole log of every live table (for reconnections and replays). As ``Event``
objects with their argument dicts that is hundreds of thousands of objects the garbage collector
walks on every full collection (over 100 ms with 500 tables in the load benchmark). Stored as
tuples of strings and ints, which the collector stops tracking, the same log costs it nothing.
``for_viewer`` gives exactly what ``Event.for_viewer`` gives.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from tabletrek.core.events import OMNISCIENT, Event

Compact = tuple[str, str, str | None, int]
"""(key, public args as JSON, secret args as JSON or None, audience as a bit mask of seats)"""

Step = tuple[int | None, tuple[Compact, ...]]
"""One accepted action: the seat that took it and the events it caused."""


def compact(event: Event) -> Compact:
    mask = 0
    for seat in event.audience:
        mask |= 1 << seat
    secret = json.dumps(dict(event.secret), ensure_ascii=False) if event.secret else None
    return (event.key, json.dumps(dict(event.args), ensure_ascii=False), secret, mask)


def step(actor: int | None, events: Iterable[Event]) -> Step:
    return (actor, tuple(compact(e) for e in events))


def for_viewer(entry: Compact, viewer: int | None) -> dict[str, Any]:
    key, args, secret, mask = entry
    shown: dict[str, Any] = json.loads(args)
    if (
        secret is not None
        and viewer is not None
        and (viewer == OMNISCIENT or (viewer >= 0 and mask >> viewer & 1))
    ):
        shown.update(json.loads(secret))
        return {"key": key + ".seen", "args": shown}
    return {"key": key, "args": shown}

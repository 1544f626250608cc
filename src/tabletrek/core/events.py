"""Events: what happened, with the parts only some seats may see.

An event is a message key plus arguments. Arguments in ``args`` are public; arguments in
``secret`` are seen only by the seats in ``audience`` (and by an omniscient viewer, e.g. a replay
of a finished game). A viewer who may see the secret gets the message ``key + ".seen"``.

Argument values are JSON-safe. Two marker forms are resolved when rendering:
``{"$seat": 2}`` becomes the name of seat 2, ``{"$t": "touring.card.go"}`` becomes that catalog
entry in the viewer's language. Helpers below build them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tabletrek.i18n import join_list, seat_name, translate

OMNISCIENT = -1
"""Viewer id that sees every secret (finished-game replays, debugging)."""


def seat_ref(seat: int) -> dict[str, int]:
    return {"$seat": seat}


def text_ref(key: str) -> dict[str, str]:
    return {"$t": key}


@dataclass(slots=True)
class Event:
    """Treat as immutable. (Not a frozen dataclass: freezing makes construction several times
    slower, and games create an event or two for every action.)"""

    key: str
    args: Mapping[str, Any] = field(default_factory=dict)
    secret: Mapping[str, Any] | None = None
    audience: frozenset[int] = frozenset()

    def sees_secret(self, viewer: int | None) -> bool:
        return bool(self.secret) and viewer is not None and (viewer == OMNISCIENT or viewer in self.audience)

    def for_viewer(self, viewer: int | None) -> dict[str, Any]:
        """The JSON-safe form of this event as ``viewer`` may see it (None: a spectator)."""
        if self.sees_secret(viewer):
            assert self.secret is not None
            return {"key": self.key + ".seen", "args": {**self.args, **self.secret}}
        return {"key": self.key, "args": dict(self.args)}

    def render(self, viewer: int | None, lang: str, names: Sequence[str] | None = None) -> str:
        return render_message(self.for_viewer(viewer), lang, names)


def resolve_args(args: Mapping[str, Any], lang: str, names: Sequence[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in args.items():
        if isinstance(value, dict):
            if "$seat" in value:
                seat = int(value["$seat"])
                out[name] = names[seat] if names and 0 <= seat < len(names) else seat_name(seat, lang)
                continue
            if "$t" in value:
                inner = value.get("args")
                inner_args = resolve_args(inner, lang, names) if isinstance(inner, dict) else {}
                out[name] = translate(str(value["$t"]), lang, **inner_args)
                continue
        if isinstance(value, list):  # a list is joined as the reader's language joins one
            out[name] = join_list(map(str, value), lang)
            continue
        out[name] = value
    return out


def render_message(message: Mapping[str, Any], lang: str, names: Sequence[str] | None = None) -> str:
    """Render a ``{"key", "args"}`` message (as produced by ``Event.for_viewer``)."""
    return translate(str(message["key"]), lang, **resolve_args(message.get("args", {}), lang, names))

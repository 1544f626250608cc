"""Declarative game options, validated when a game is loaded."""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tabletrek.core.errors import UsageError
from tabletrek.core.numeric import is_number, is_whole

NO_LEGACY: Any = object()
"""The ``legacy`` of an option that games were always recorded with."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One rule option. ``help`` is an i18n key; ``choices`` restricts values when given.

    ``named`` lists the values a free-text option offers by name (a word pack's languages) where
    the library also takes others (a pack's file path): a lobby shows them as a list, and a server
    accepts only them, since a path would read the server's files for whoever asks.

    ``legacy`` is the value that games recorded before the option existed were played with. A
    record names every option its game had, so a record (or saved state) that does not name this
    one was made under the old rule and is rebuilt with this value (``Game.recorded``)."""

    name: str
    default: Any
    help: str
    kind: type = bool
    choices: tuple[Any, ...] | None = None
    minimum: int | float | None = None
    maximum: int | float | None = None
    nullable: bool = False
    legacy: Any = NO_LEGACY
    named: tuple[Any, ...] | None = None

    def check(self, game: str, value: Any) -> Any:
        if value is None and self.nullable:
            return None
        kind = self.kind

        def refused(key: str, **params: Any) -> UsageError:
            return UsageError(f"core.error.{key}", name=self.name, game=game, value=value, **params)

        if kind is bool:
            if not isinstance(value, bool):
                raise refused("option_bool")
        elif kind is int:
            if not is_whole(value):
                raise refused("option_int")
        elif kind is float:
            if not is_number(value):
                raise refused("option_number")
            value = float(value)
        elif not isinstance(value, kind):
            raise refused("option_type", kind=kind.__name__)
        if self.choices is not None and value not in self.choices:
            raise refused("option_choice", allowed=[repr(choice) for choice in self.choices])
        if self.minimum is not None and value < self.minimum:
            raise refused("option_min", minimum=self.minimum)
        if self.maximum is not None and value > self.maximum:
            raise refused("option_max", maximum=self.maximum)
        return value


def check_option_names(game: str, specs: Sequence[OptionSpec], given: Mapping[str, Any]) -> None:
    """Every given name is an option of the game; any other is a ValueError naming it (with the
    nearest known name)."""
    known = sorted(spec.name for spec in specs)
    for name in given:
        if name not in known:
            close = difflib.get_close_matches(str(name), known, n=1)
            raise UsageError(
                "core.error.unknown_option",
                name=name,
                game=game,
                known=known,
                close=close[0] if close else None,
            )


def resolve_options(game: str, specs: Sequence[OptionSpec], given: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults filled in, every given value checked; an unknown name is a ValueError naming it."""
    check_option_names(game, specs, given)
    return {spec.name: spec.check(game, given.get(spec.name, spec.default)) for spec in specs}


def parse_option_value(text: str) -> Any:
    """Parse ``key=value`` values from a command line: booleans, integers, floats, else text.

    A number is read from ASCII only: ``int()`` also reads "٣" and "１２" as 3 and 12, which the
    typed moves, the web and the JSON of records and OpenSpiel all refuse; such a value stays text,
    which the option's own check then refuses by name."""
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("none", "null"):
        return None
    if not text.isascii():
        return text
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text

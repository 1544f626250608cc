"""Which games exist, loaded by name."""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabletrek.core.game import Game


def _table() -> dict[str, str]:
    from tabletrek.games import REGISTRY

    return REGISTRY


def games() -> list[str]:
    """Names of the registered games, sorted."""
    return sorted(_table())


def game_class(name: str) -> type[Game]:
    table = _table()
    if not isinstance(name, str) or name not in table:
        close = difflib.get_close_matches(str(name), list(table), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise ValueError(f"unknown game {name!r} (known games: {', '.join(games())}){hint}")
    module_name, _, class_name = table[name].partition(":")
    cls: type[Game] = getattr(importlib.import_module(module_name), class_name)
    return cls


def load(name: str, players: int | None = None, **options: Any) -> Game:
    """A game by registry name, e.g. ``load("touring", players=2, free_discard=True)``."""
    return game_class(name)(players, **options)


def load_recorded(name: str, players: int | None, options: Mapping[str, Any]) -> Game:
    """The game a stored record or state names: options it predates get their old values."""
    return game_class(name).recorded(players, options)

"""Which games exist, loaded by name: the specs the games registered (``core.spec``)."""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tabletrek.core.errors import UsageError
from tabletrek.core.spec import GameSpec, registered

if TYPE_CHECKING:
    from tabletrek.core.game import Game

BUILTIN_GAMES = "tabletrek.games"
"""The package whose import registers the games that ship with tabletrek (one line per game)."""


def specs() -> dict[str, GameSpec]:
    """Every registered game's spec, by name."""
    # A plugin point, not a dependency: core never names a game, the games package names itself.
    importlib.import_module(BUILTIN_GAMES)
    return registered()


def games() -> list[str]:
    """Names of the registered games, sorted."""
    return sorted(specs())


def spec(name: str) -> GameSpec:
    """A game's spec (ValueError naming the known games, with a close match, for any other name)."""
    table = specs()
    if not isinstance(name, str) or name not in table:
        close = difflib.get_close_matches(str(name), list(table), n=1)
        raise UsageError(
            "core.error.unknown_game", name=name, known=sorted(table), close=close[0] if close else None
        )
    return table[name]


def game_class(name: str) -> type[Game]:
    return spec(name).game_class()


def load(name: str, players: int | None = None, **options: Any) -> Game:
    """A game by registry name, e.g. ``load("touring", players=2, free_discard=True)``."""
    return game_class(name)(players, **options)


def load_with(name: str, players: int | None, options: Mapping[str, Any]) -> Game:
    """As ``load``, with the options as a mapping someone gave (``Game.with_options``): a name
    that is not an option of the game, ``players`` included, is refused by name."""
    return game_class(name).with_options(players, options)


def load_recorded(
    name: str, players: int | None, options: Mapping[str, Any], rules_version: int | None = None
) -> Game:
    """The game a stored record or state names, under the rules it was played with: options it
    predates get their old values. A record from rules this code cannot replay exactly is refused
    with a ValueError naming both versions (``None``: made before records carried a version)."""
    game_spec = spec(name)
    if not game_spec.accepts_version(rules_version):
        raise UsageError(
            "core.error.rules_version", game=name, recorded=rules_version, current=game_spec.rules_version
        )
    return game_spec.game_class().recorded(players, options)

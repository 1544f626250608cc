"""Game-agnostic bots, offered to every game through ``core.bots.register_generic_bot``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletrek.bots.random_bot import RandomBot
from tabletrek.bots.search import SearchBot, make_search_bot
from tabletrek.core.bots import register_generic_bot

if TYPE_CHECKING:
    from tabletrek.core.game import Game


def search_bot(game: Game, *, seat: int, seed: int, **params: Any) -> SearchBot:
    """The search bot with the game's measured defaults (``SearchSupport.defaults``) under the
    parameters given; a table that names a budget means that budget, not the default as well."""
    defaults = dict(game.search().defaults)
    if "iterations" in params or "ms" in params:
        defaults = {k: v for k, v in defaults.items() if k not in ("iterations", "ms")}
    return make_search_bot(game, seat=seat, seed=seed, **{**defaults, **params})


register_generic_bot("random", RandomBot)
register_generic_bot("ismcts", search_bot, search=True)

__all__ = ["RandomBot", "SearchBot", "search_bot"]

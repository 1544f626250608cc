"""The generic search, as two bots sharing one settings object: the information-set tree search
(``TreeSearchBot``) and the paired comparison at the root (``PairedSearchBot``). Tables know
both by one name, ``ismcts``; ``paired=true`` picks the second."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletrek.bots.search.base import SearchBot
from tabletrek.bots.search.paired import PairedSearchBot
from tabletrek.bots.search.settings import SearchSettings
from tabletrek.bots.search.tree import TreeSearchBot

if TYPE_CHECKING:
    from tabletrek.core.game import Game


def make_search_bot(game: Game, *, seat: int, seed: int, **params: Any) -> SearchBot:
    """The search bot the parameters name (see ``SearchSettings``), exactly as given."""
    settings = SearchSettings.parse(game, params)
    kind = PairedSearchBot if settings.paired else TreeSearchBot
    return kind(game, seat=seat, seed=seed, settings=settings)


__all__ = ["PairedSearchBot", "SearchBot", "SearchSettings", "TreeSearchBot", "make_search_bot"]

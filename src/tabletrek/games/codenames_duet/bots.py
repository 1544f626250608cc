"""The bots Codenames Duet offers besides the generic random bot: the AI partner (``ai/``, extra
``[ai]``), which gives clues and guesses. Without numpy or its tables the game still plays with the
random bot and people; a pack in a language the AI has no tables for gets no AI bots rather than
bots that refuse to start."""

from __future__ import annotations

import importlib

from tabletrek.core.game import BotFactory
from tabletrek.games.codenames_duet.words import WordPack


def bot_factories(pack: WordPack) -> dict[str, BotFactory]:
    try:
        # by name: the AI package raises ImportError on import when its extra is missing
        module = importlib.import_module("tabletrek.games.codenames_duet.ai")
    except ImportError:
        return {}
    factories = getattr(module, "bot_factories", None)
    return dict(factories(pack)) if callable(factories) else {}

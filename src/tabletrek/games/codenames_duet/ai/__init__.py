"""The offline AI partner for Codenames Duet (extra ``[ai]``: numpy only at run time), in English
and in Traditional Chinese.

Word similarities come from small int8 tables built once from offline embedding models
(scripts/build_codenames_tables.py); no model is loaded while playing. ``bot_factories`` is what
the game's ``bots.bot_factories`` picks up; importing this package raises ImportError without numpy.
"""

from __future__ import annotations

import importlib.util
from typing import Any

if importlib.util.find_spec("numpy") is None:  # the rules then offer no AI bots
    raise ImportError("the Codenames Duet AI needs numpy: pip install 'tabletrek[ai]'")


def bot_factories(pack: Any = None) -> dict[str, Any]:
    """The AI bots, or none for a word pack in a language without tables (``pack.language``)."""
    # Extra [ai]: the bots and their numpy tables load when a table first asks for AI seats.
    from tabletrek.games.codenames_duet.ai.bots import ClueBot, GuessBot  # noqa: PLC0415 - [ai]
    from tabletrek.games.codenames_duet.ai.tables import table_language  # noqa: PLC0415 - [ai]

    if pack is not None and table_language(pack.language) is None:
        return {}
    return {"codenames-clue": ClueBot, "codenames-guess": GuessBot}

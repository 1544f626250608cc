"""Random-bot games played by the compiled batch engines, for ``simulate`` (same outcomes).

When every seat of a game is the ``random`` bot, ``play_game`` asks ``play_random`` first. Each
seat's bot is Python's generator seeded as ``make_bot`` seeds it (``derive_seed(seed, "bot",
seat)``), compiled (``core/mt19937.py``), and picks ``choice(legal_actions())`` over the legal
moves in the order the Python rules list them; the engines play the Python rules move for move
(``tests/batch``), so the outcome is the one the Python path gives, ten times faster or more.
A game offers this through its spec (``GameSpec.random_games``: its ``play`` function); games
that do not and runs without numba return None: the Python path plays them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tabletrek.core import mt19937 as mt
from tabletrek.core.errors import BeyondEngine
from tabletrek.core.mt19937 import HAVE_NUMBA
from tabletrek.core.registry import spec
from tabletrek.core.rng import derive_seed
from tabletrek.core.spec import load_attribute
from tabletrek.sim.runner import GameOutcome

if TYPE_CHECKING:
    from collections.abc import Callable

    from tabletrek.core.game import Game
    from tabletrek.core.state import State

LIMIT = 1_000_000


def play_random(game: Game, lineup: tuple[str, ...], seed: int, index: int) -> GameOutcome | None:
    """The outcome of an all-random game, or None when the compiled path does not apply."""
    path = spec(game.name).random_games
    if not HAVE_NUMBA or path is None or any(bot != "random" for bot in lineup):
        return None
    bots = np.zeros((game.players, mt.SIZE), dtype=np.uint32)
    for seat in range(game.players):
        mt.seed(bots[seat], derive_seed(seed, "bot", seat))
    play: Callable[[Game, np.ndarray, int, int], tuple[State, int, int | None]] = load_attribute(path)
    try:
        state, count, rounds = play(game, bots, seed, LIMIT)
    except BeyondEngine:
        return None  # options the compiled game does not hold: the Python rules play it
    result = state.result
    if result is None:
        raise RuntimeError(f"{game.name} game {index} (seed {seed}) did not end in {LIMIT:,} actions")
    return GameOutcome(
        index=index,
        seed=seed,
        bots=lineup,
        winners=result.winners,
        scores=result.scores,
        returns=result.returns,
        actions=count,
        rounds=rounds,
        reason=result.reason,
    )

"""What both search bots share: the settings, the sampled worlds (determinizations), the rollout
policy and its playouts, the default bot, and the thread pool compiled playouts are split over.

Every playout samples a full state consistent with what the bot's seat knows
(``state.determinize(seat, rng)``) and plays it out with the rollout policy: uniform random, the
game's fast policy (``SearchSupport.policy``, ``rollout="auto"``) or another bot of the game. A
game may set a horizon (``SearchSupport.horizon``): playouts stop when it changes (Mexican Train:
at the end of the round they started in) and its evaluator scores them, as for ``rollout_depth``.
The reward is 1 for a winning seat, 0 for a losing one, 1/players each for a draw; ``margin``
takes half of it from the normalised score margin, which says more per playout in long games.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from tabletrek.bots.search.settings import NAME
from tabletrek.core.bots import check_turn
from tabletrek.core.rng import derive_seed, make_rng
from tabletrek.core.threadsplit import even_slices, run_parts

if TYPE_CHECKING:
    from tabletrek.bots.search.settings import SearchSettings
    from tabletrek.core.actions import Action
    from tabletrek.core.bots import Bot
    from tabletrek.core.game import Game
    from tabletrek.core.search import Belief, PairedPlayouts, PlayoutRunner, RolloutPolicy
    from tabletrek.core.state import State

# Shared by every bot with ``threads`` > 1 (a simulation creates thousands of bots), by size.
_POOLS: dict[tuple[int, int], ThreadPoolExecutor] = {}


class SearchBot:
    """The common part of the tree and the paired search; a subclass decides with ``_choose``."""

    name = NAME
    paired = False
    # The paired search's compiled playouts and belief; the tree search has neither.
    compiled: PairedPlayouts | None = None
    belief: Belief | None = None
    infer = False

    def __init__(self, game: Game, *, seat: int, seed: int, settings: SearchSettings) -> None:
        self.game = game
        self.seat = seat
        self.settings = settings
        self.rng = make_rng(seed)
        support = self.support = game.search()
        self.evaluate = support.evaluate
        self.horizon = support.horizon
        self.policy = self._rollout_policy(seed)
        # The default's bot decides from the real state it is handed, reading only its seat's view.
        default = settings.default
        self.default_bot: Bot | None = (
            None if default is None else game.bot(default, seat=seat, seed=derive_seed(seed, "default"))
        )
        self.last_iterations = 0
        self.last_override = False

    # The settings a table most often asks a bot about, read through.
    @property
    def iterations(self) -> int | None:
        return self.settings.iterations

    @property
    def ms(self) -> float | None:
        return self.settings.ms

    @property
    def rollout_depth(self) -> int | None:
        return self.settings.rollout_depth

    def _rollout_policy(self, seed: int) -> RolloutPolicy | None:
        rollout = self.settings.rollout
        if rollout == "auto":
            return self.support.policy
        if rollout == "random":
            return None
        # One bot per seat, reused across playouts (bots hold no per-game state that a
        # determinized copy could confuse: they decide from the state they are handed).
        game = self.game
        bots = [game.bot(rollout, seat=s, seed=derive_seed(seed, "rollout", s)) for s in range(game.players)]

        def by_bot(state: State, rng: random.Random) -> Action:
            seat = state.current_player
            assert seat is not None
            return bots[seat].act(state)

        return by_bot

    def act(self, state: State) -> Action:
        check_turn(self, state)
        return self._choose(state)

    def _choose(self, state: State) -> Action:
        raise NotImplementedError

    def _rollout(self, state: State, rng: random.Random | None = None) -> list[float]:
        """Plays ``state`` out with the rollout policy; every seat's reward."""
        players = self.game.players
        limit = self.settings.rollout_depth
        steps = 0
        policy = self.policy
        rng = self.rng if rng is None else rng
        horizon = self.horizon
        start = None if horizon is None else horizon(state)
        while not state.is_over:
            if (limit is not None and steps >= limit) or (horizon is not None and horizon(state) != start):
                evaluate = self.evaluate
                if evaluate is None:
                    return [1.0 / players] * players
                return [(1.0 + evaluate(state, s)) / 2 for s in range(players)]
            if policy is None:
                state.apply(rng.choice(state.legal_actions()))
            else:
                state.apply(policy(state, rng))
            steps += 1
        return self._final_rewards(state)

    def _final_rewards(self, state: State) -> list[float]:
        players = self.game.players
        result = state.result
        assert result is not None
        if not result.winners:
            return [1.0 / players] * players
        winners = set(result.winners)
        wins = [1.0 if s in winners else 0.0 for s in range(players)]
        if not self.settings.margin:
            return wins
        # Half the reward from the score margin: a playout says more than "won" or "lost".
        # Whether higher scores are better is read off the result itself (the winners' side).
        scores = result.scores
        low, high = min(scores), max(scores)
        if high == low or len(winners) == players:
            return wins
        best = max(scores[s] for s in winners)
        span = high - low
        if best == high:
            return [0.5 * w + 0.5 * (scores[s] - low) / span for s, w in enumerate(wins)]
        return [0.5 * w + 0.5 * (high - scores[s]) / span for s, w in enumerate(wins)]


def playouts_in_threads(run: PlayoutRunner, moves: list[int], seeds: list[int], threads: int) -> Any:
    """The compiled paired playouts of ``moves`` in the worlds of ``seeds``, split over
    ``threads``. Each world is dealt and played from its own seed, so the split changes only
    how soon the rewards arrive, never what they are."""
    parts = min(threads, len(seeds))
    if parts == 1:
        return run(moves, seeds)
    import numpy as np  # noqa: PLC0415 - numpy: the [search] extra; present wherever compiled playouts are

    # One thread fewer than the slices (``run_parts``). Keyed by process too: a pool inherited
    # through fork has no threads behind it.
    key = (os.getpid(), parts - 1)
    pool = _POOLS.get(key)
    if pool is None:
        pool = _POOLS.setdefault(key, ThreadPoolExecutor(parts - 1, thread_name_prefix=NAME))
    # Contiguous slices, so the rewards come back in the seeds' order, summed as one call's.
    chunks: list[Sequence[int]] = [seeds[part] for part in even_slices(len(seeds), parts)]
    return np.concatenate(run_parts(pool, lambda chunk: run(moves, chunk), chunks), axis=1)

"""The paired search: a flat comparison at the root on common random numbers.

Every candidate move is played out in the same sampled worlds with the same future draws and the
same policy seeds, and the policy's own move (or that of ``default``, another bot of the game,
e.g. a strong but slow planner while a cheap policy plays out) is overridden only when another
move's paired mean advantage clears ``z`` standard errors. Against a well-tuned heuristic, single
lucky playouts must not overturn it: the pairing removes most of the luck of the draw from the
comparison, and the bound keeps the rest from deciding.

A game may offer compiled paired playouts (``SearchSupport.paired``: the same worlds and the same
policy, to the end or cut at ``rollout_depth`` or the game's horizon and scored by the same
evaluation); ``compiled=True`` (the default) uses them whenever the search plays out with the
policy they compile and scores as they do (``SearchSupport.paired_rollout``, ``paired_margin``),
so many more worlds fit in a move's budget, split over
``threads``. With ``infer=True`` the compiled worlds also follow what the other players' moves
revealed: the bot keeps the position it last decided in, replays the moves made since, and feeds
each other player's move to the game's belief (``SearchSupport.belief``), which the worlds are
dealt from (Touring: a greedy opponent who discarded held nothing playable).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tabletrek.bots.search.base import SearchBot, playouts_in_threads
from tabletrek.bots.search.settings import NAME
from tabletrek.bots.search.stats import (
    MIN_WORLDS,
    bound_of_sums,
    lower_bound,
    pooled_variance,
    pooled_variance_of_sums,
    upper_bound,
)
from tabletrek.core.errors import BeyondEngine, UsageError
from tabletrek.core.rng import derive_seed, make_rng

if TYPE_CHECKING:
    from tabletrek.bots.search.settings import SearchSettings
    from tabletrek.core.actions import Action
    from tabletrek.core.game import Game
    from tabletrek.core.search import PlayoutRunner
    from tabletrek.core.state import State

# Compiled paired playouts: worlds per call; the live moves are judged, and pruned, after each.
COMPILED_BATCH = 32


class PairedSearchBot(SearchBot):
    """The paired comparison, configured by ``SearchSettings`` (``z``, ``default``, ``compiled``,
    ``infer``, ``threads`` and the common ones)."""

    paired = True

    def __init__(self, game: Game, *, seat: int, seed: int, settings: SearchSettings) -> None:
        super().__init__(game, seat=seat, seed=seed, settings=settings)
        if self.policy is None:  # random play out, asked for or the game's only one
            others = [bot for bot in game.bots() if bot not in (NAME, "random")]
            raise UsageError("core.error.paired_rollout", game=game.name, known=others)
        # Compiled playouts replace the Python ones only where they play the same thing: the
        # policy they compile, scored as the settings ask (won/lost or with the margin, by the
        # game's evaluation where cut at the depth or the game's horizon).
        self.compiled = None
        support = self.support
        if (
            settings.compiled
            and settings.rollout == support.paired_rollout
            and settings.margin == support.paired_margin
        ):
            self.compiled = support.paired
        self._belief_seed = derive_seed(seed, "belief")
        self.belief = None
        if settings.infer and self.compiled is not None and self.support.belief is not None:
            self.belief = self.support.belief(seat, self._belief_seed)
        self.infer = self.belief is not None
        # With ``infer``: the real state this bot last decided in, from which the moves since are
        # replayed for the belief (which reads only what this seat may see of them).
        self._last_position: State | None = None

    def act(self, state: State) -> Action:
        if not self.infer:
            return super().act(state)
        self._catch_up(state)
        action = super().act(state)
        self._last_position = state.clone()
        return action

    def _catch_up(self, state: State) -> None:
        """Feeds the belief every other player's move since the position this bot last decided
        in (replayed from there, whatever move was then made). A state that did not come from
        that position (another game, a reloaded table) starts a new belief."""
        position = self._last_position
        if position is None:
            return
        self._last_position = None
        seen, now = position.history, state.history
        if now[: len(seen)] != seen:
            make = self.support.belief
            self.belief = None if make is None else make(self.seat, self._belief_seed)
            return
        belief = self.belief
        assert belief is not None
        for text in now[len(seen) :]:
            action = position.parse(text)
            if position.current_player != self.seat:
                belief.observe(position, action)
            position.apply(action)

    def _choose(self, state: State) -> Action:
        legal = state.legal_actions()
        self.last_override = False
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        policy = self.policy
        assert policy is not None
        ms = self.settings.ms
        deadline = None if ms is None else time.perf_counter() + ms / 1000
        world = state.determinize(self.seat, self.rng)
        if self.default_bot is not None:
            default = self.default_bot.act(state).index
        else:
            default = policy(world.clone(), make_rng(self.rng.getrandbits(63))).index
        best = None
        if self.compiled is not None:
            try:
                best = self._compiled_compare(state, legal, default, deadline)
            except BeyondEngine:
                # The compiled game does not hold this table's options (a score past its row's
                # range, say): the Python rules, the reference, play the same comparison.
                self.compiled = None
        if best is None:
            best = self._python_compare(state, world, legal, default, deadline)
        self.last_override = best != default
        return next(a for a in legal if a.index == best)

    def _out_of_budget(self, done: int, deadline: float | None) -> bool:
        iterations = self.settings.iterations
        if iterations is not None and done >= iterations:
            return True
        return deadline is not None and time.perf_counter() >= deadline

    def _python_compare(
        self, state: State, world: State, legal: Sequence[Action], default: int, deadline: float | None
    ) -> int:
        """The comparison with Python playouts. ``iterations`` counts playouts (one per live
        candidate per world). Candidates clearly worse than the default (upper bound below zero)
        stop being played, so the budget goes to the moves that might beat it."""
        rng, seat, z = self.rng, self.seat, self.settings.z
        live = [a.index for a in legal if a.index != default]
        # rewards[index][k]: the seat's reward after that move in world k.
        rewards: dict[int, list[float]] = {a.index: [] for a in legal}
        by_index = {a.index: a for a in legal}
        done = worlds = 0
        while live:
            seed = rng.getrandbits(63)
            for index in [default, *live]:
                trial = world.clone()
                trial.apply(by_index[index])
                rewards[index].append(self._rollout(trial, make_rng(seed))[seat])
                done += 1
            worlds += 1
            if worlds >= MIN_WORLDS:
                prior = pooled_variance(rewards, default)
                live = [i for i in live if upper_bound(rewards[i], rewards[default], z, prior) >= 0]
            if self._out_of_budget(done, deadline):
                break
            world = state.determinize(seat, rng)
        self.last_iterations = done
        if worlds < MIN_WORLDS:
            return default
        prior = pooled_variance(rewards, default)
        bounds = {
            index: lower_bound(values, rewards[default], z, prior)
            for index, values in rewards.items()
            if index != default and len(values) >= worlds
        }
        return _best_above_zero(bounds, default)

    def _compiled_compare(
        self, state: State, legal: Sequence[Action], default: int, deadline: float | None
    ) -> int:
        """The comparison on the game's compiled playouts, a batch of worlds per call. Each move's
        paired differences against the default are kept as running sums, so judging a move after
        a batch costs the same whatever the number of worlds."""
        compiled = self.compiled
        assert compiled is not None
        rng, z, iterations = self.rng, self.settings.z, self.settings.iterations
        live = [a.index for a in legal if a.index != default]
        run = compiled(state, self.seat, self.belief, self.settings.rollout_depth)
        # Per move: [worlds, sum of differences, sum of squared differences].
        sums = {index: [0.0, 0.0, 0.0] for index in live}
        done = worlds = 0
        while live:
            batch = COMPILED_BATCH
            if iterations is not None:
                batch = max(1, min(batch, (iterations - done) // (len(live) + 1)))
            seeds = [rng.getrandbits(62) for _ in range(batch)]
            _add_differences(sums, live, self._playouts(run, [default, *live], seeds), batch)
            done += batch * (len(live) + 1)
            worlds += batch
            if worlds >= MIN_WORLDS:
                prior = pooled_variance_of_sums(sums.values())
                live = [i for i in live if bound_of_sums(sums[i], prior, z) >= 0]
            if self._out_of_budget(done, deadline):
                break
        self.last_iterations = done
        if worlds < MIN_WORLDS:
            return default
        prior = pooled_variance_of_sums(sums.values())
        bounds = {
            index: bound_of_sums(entry, prior, -z) for index, entry in sums.items() if entry[0] >= worlds
        }
        return _best_above_zero(bounds, default)

    def _playouts(self, run: PlayoutRunner, moves: list[int], seeds: list[int]) -> Any:
        return playouts_in_threads(run, moves, seeds, self.settings.threads)


def _add_differences(sums: dict[int, list[float]], live: list[int], rewards: Any, batch: int) -> None:
    """Adds a batch's paired differences against the default (row 0) to each live move's sums."""
    for row, index in enumerate(live, start=1):
        diffs = rewards[row] - rewards[0]
        entry = sums[index]
        entry[0] += batch
        entry[1] += float(diffs.sum())
        entry[2] += float((diffs * diffs).sum())


def _best_above_zero(bounds: dict[int, float], default: int) -> int:
    """The move with the highest lower bound above zero, in the candidates' order; the default
    if none clears it."""
    best, best_bound = default, 0.0
    for index, bound in bounds.items():
        if bound > best_bound:
            best, best_bound = index, bound
    return best

"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012).

Game-agnostic: it reads only the core contract. Every iteration samples a full state consistent
with what the bot's seat knows (``state.determinize(seat, rng)``), walks one shared tree keyed by
action index, expands one untried move, finishes the game with a rollout policy and backs the
outcome up. Children carry an *availability* count (how often their move was legal when their
parent was visited), so UCB compares moves that were legal in different determinizations fairly.

Each node stores the reward of the seat that chose its move, so the tree serves any number of
players. The reward is 1 for a winning seat, 0 for a losing one, and 1/players each for a draw.

The budget is ``iterations`` (reproducible: same seed, same move) and/or ``ms`` milliseconds per
move (wall clock, so not reproducible); with neither, 200 iterations or one second, whichever
comes first. ``margin=True`` takes half the reward from the normalised score margin, which says
more per playout than won/lost in long games. The rollout policy is uniform random by default,
or any bot the game offers (``rollout="greedy"``): in long games random playouts say little, and
the policy's own move is then tried first and can be favoured at the end (``trust``). A game may
offer a fast playout policy (``SearchSupport.policy``); ``rollout="auto"`` (the default) uses it
when there is one and random moves otherwise. A game may also set a horizon
(``SearchSupport.horizon``): playouts stop when it changes (Mexican Train: at the end of the round
they started in) and its evaluator scores them, as for ``rollout_depth``.

``paired=True`` replaces the tree by a flat comparison at the root on common random numbers:
every candidate move is played out in the same sampled worlds with the same future draws and
the same policy seeds, and the policy's own move (the default) is overridden only when another
move's paired mean advantage clears ``z`` standard errors (``default`` names another bot of the
game whose move is the one to beat, e.g. a strong but slow planner while a cheap policy plays
out). Against a well-tuned heuristic, single lucky playouts must not overturn it: the pairing
removes most of the luck of the draw from the comparison, and the bound keeps the rest from
deciding. A game may offer compiled paired playouts (``SearchSupport.paired``: the same worlds
and the same fast policy, to the end or cut at ``rollout_depth`` and scored by the same
evaluation); ``compiled=True`` (the default) uses them whenever the search plays out with the
game's fast policy (no margin, no horizon), so many more worlds fit in a move's budget.
With ``infer=True`` the compiled worlds also follow what the other players' moves revealed: the
bot keeps the position it last decided in, replays the moves made since, and feeds each other
player's move to the game's belief (``Game.search_belief``), which the worlds are dealt from
(Touring: a greedy opponent who discarded held nothing playable).
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from tabletrek.core.bots import check_turn
from tabletrek.core.rng import derive_seed, make_rng

if TYPE_CHECKING:
    from tabletrek.core.actions import Action
    from tabletrek.core.game import Game
    from tabletrek.core.search import Belief, PairedPlayouts, PlayoutRunner, RolloutPolicy
    from tabletrek.core.state import State

DEFAULT_ITERATIONS = 200
# With no budget given, a player at a table should not wait on a long game's playouts: the
# default also stops after this many milliseconds. Name ``iterations`` for reproducible runs.
DEFAULT_MS = 1000.0
# Paired mode: worlds every candidate must have been played in before any is judged (fewer give
# standard errors too rough to trust).
MIN_WORLDS = 6
# Each candidate's paired variance starts from this many pseudo-worlds of the variance pooled over
# all candidates (see ``pooled_variance``).
PRIOR_WORLDS = 3
# Compiled paired playouts: worlds per call; the live moves are judged, and pruned, after each.
COMPILED_BATCH = 32
# Shared by every bot with ``threads`` > 1 (a simulation creates thousands of bots), by size.
_POOLS: dict[tuple[int, int], ThreadPoolExecutor] = {}


class Node:
    """One move in the shared tree: its statistics and the moves tried after it."""

    __slots__ = ("action", "avail", "children", "mover", "parent", "reward", "visits")

    def __init__(self, action: Action | None, mover: int | None, parent: Node | None) -> None:
        self.action = action
        self.mover = mover
        self.parent = parent
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0

    def ucb(self, c: float) -> float:
        return self.reward / self.visits + c * math.sqrt(math.log(self.avail) / self.visits)


class ISMCTSBot:
    """Search over determinizations; parameters: ``iterations``, ``ms``, ``c`` (exploration),
    ``rollout`` ("auto", "random", or a bot of the game), ``rollout_depth`` (cut rollouts after
    this many actions and score them with the game's evaluator, or as a draw if it has none),
    ``trust`` (extra visits credited to the rollout policy's own move when the final move is
    chosen), ``margin``, and for the flat paired comparison ``paired``, ``z`` (the confidence
    bound an override must clear), ``default`` (the bot whose move is overridden; the rollout
    policy's by default), ``compiled`` (use the game's compiled paired playouts when it has
    them), ``infer`` (their worlds follow what the other players' moves revealed) and ``threads``
    (compiled playouts split each batch of worlds over this many threads: the same move sooner)."""

    name = "ismcts"

    def __init__(
        self,
        game: Game,
        *,
        seat: int,
        seed: int,
        iterations: int | None = None,
        ms: float | None = None,
        c: float = 0.7,
        rollout: str = "auto",
        rollout_depth: int | None = None,
        trust: int = 0,
        margin: bool = False,
        paired: bool = False,
        z: float = 2.0,
        default: str | None = None,
        compiled: bool = True,
        infer: bool = False,
        threads: int = 1,
        **params: Any,
    ) -> None:
        if params:
            raise ValueError(f"the ismcts bot has no parameter(s) {', '.join(sorted(params))}")
        if iterations is None and ms is None:
            iterations, ms = DEFAULT_ITERATIONS, DEFAULT_MS
        if iterations is not None and (isinstance(iterations, bool) or int(iterations) < 1):
            raise ValueError(f"iterations must be a positive integer, not {iterations!r}")
        if ms is not None and float(ms) <= 0:
            raise ValueError(f"ms must be positive, not {ms!r}")
        if float(c) < 0:
            raise ValueError(f"c must not be negative, not {c!r}")
        if rollout == self.name or (rollout not in ("auto", "random") and rollout not in game.bots()):
            raise ValueError(
                f"rollout must be auto, random or another bot of {game.name}: {', '.join(game.bots())}"
            )
        if isinstance(trust, bool) or int(trust) < 0:
            raise ValueError(f"trust must be a non-negative integer, not {trust!r}")
        if rollout_depth is not None and int(rollout_depth) < 0:
            raise ValueError(f"rollout_depth must not be negative, not {rollout_depth!r}")
        if float(z) < 0:
            raise ValueError(f"z must not be negative, not {z!r}")
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads must be a positive integer, not {threads!r}")
        if default is not None and (default == self.name or default not in game.bots()):
            raise ValueError(f"default must be another bot of {game.name}: {', '.join(game.bots())}")
        self.game = game
        self.seat = seat
        self.rng = make_rng(seed)
        self.iterations = None if iterations is None else int(iterations)
        self.ms = None if ms is None else float(ms)
        self.c = float(c)
        self.rollout_depth = None if rollout_depth is None else int(rollout_depth)
        self.trust = int(trust)
        self.margin = bool(margin)
        self.paired = bool(paired)
        self.z = float(z)
        support = self.support = game.search()
        self.evaluate = support.evaluate
        self.horizon = support.horizon
        self.policy: RolloutPolicy | None = support.policy if rollout == "auto" else None
        if rollout not in ("auto", "random"):
            # One bot per seat, reused across iterations (bots hold no per-game state that a
            # determinized copy could confuse: they decide from the state they are handed).
            bots = [
                game.bot(rollout, seat=s, seed=derive_seed(seed, "rollout", s)) for s in range(game.players)
            ]

            def by_bot(state: State, rng: random.Random) -> Action:
                seat = state.current_player
                assert seat is not None
                return bots[seat].act(state)

            self.policy = by_bot
        if self.paired and self.policy is None:
            raise ValueError(
                f"paired needs a rollout policy whose move is the default: {game.name} offers no fast"
                f" policy, so name a bot with rollout ({', '.join(game.bots())})"
            )
        # The default's bot decides from the real state it is handed, reading only its seat's view.
        self.default_bot = (
            None if default is None else game.bot(default, seat=seat, seed=derive_seed(seed, "default"))
        )
        # Compiled playouts replace the Python ones only where they play the same thing: the
        # game's own fast policy, scored won/lost or by its evaluation where cut.
        self.compiled: PairedPlayouts | None = None
        if compiled and self.paired and rollout == "auto" and self.horizon is None and not self.margin:
            self.compiled = support.paired
        self._belief_seed = derive_seed(seed, "belief")
        self.belief: Belief | None = None
        if infer and self.compiled is not None and support.belief is not None:
            self.belief = support.belief(seat, self._belief_seed)
        self.infer = self.belief is not None
        self.threads = int(threads)
        # With ``infer``: the real state this bot last decided in, from which the moves since are
        # replayed for the belief (which reads only what this seat may see of them).
        self._last_position: State | None = None
        self.last_iterations = 0
        self.last_override = False

    # ----- the search ---------------------------------------------------------------------------

    def act(self, state: State) -> Action:
        check_turn(self, state)
        if self.infer:
            self._catch_up(state)
        action = self._choose(state)
        if self.infer:
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
        if self.paired:
            return self._paired_act(state, legal)
        root = Node(None, None, None)
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000
        done = 0
        while True:
            self._iterate(root, state.determinize(self.seat, self.rng))
            done += 1
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        # The most visited legal move is the robust choice. With a rollout policy, its own move
        # keeps ``trust`` extra visits: single noisy playouts should not overturn it. The policy
        # is asked in a sampled world: a game's fast policy may read the whole state it is given.
        favourite = None
        if self.default_bot is not None:
            favourite = self.default_bot.act(state).index
        elif self.policy is not None:
            world = state.determinize(self.seat, self.rng)
            favourite = self.policy(world, self.rng).index
        best = legal[0]
        best_score = -1.0
        for action in legal:
            child = root.children.get(action.index)
            if child is None:
                continue
            score = (
                child.visits
                + (self.trust if action.index == favourite else 0)
                + child.reward / (child.visits + 1)
            )
            if score > best_score:
                best, best_score = action, score
        self.last_override = favourite is not None and best.index != favourite
        return best

    def _paired_act(self, state: State, legal: list[Action]) -> Action:
        """Flat Monte Carlo at the root on common random numbers (see the module docstring).

        ``iterations`` counts playouts (one per live candidate per world). Candidates clearly
        worse than the default (upper bound below zero) stop being played, so the budget goes to
        the moves that might beat it.
        """
        policy = self.policy
        assert policy is not None
        rng = self.rng
        seat = self.seat
        z = self.z
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000
        world = state.determinize(seat, rng)
        if self.default_bot is not None:
            default = self.default_bot.act(state).index
        else:
            default = policy(world.clone(), make_rng(rng.getrandbits(63))).index
        if self.compiled is not None:
            return self._compiled_paired_act(state, legal, default, deadline)
        live = [a for a in legal if a.index != default]
        # rewards[index][k]: the seat's reward after that move in world k.
        rewards: dict[int, list[float]] = {a.index: [] for a in legal}
        by_index = {a.index: a for a in legal}
        done = 0
        worlds = 0
        while live:
            seed = rng.getrandbits(63)
            for index in [default, *(a.index for a in live)]:
                trial = world.clone()
                trial.apply(by_index[index])
                rewards[index].append(self._rollout(trial, make_rng(seed))[seat])
                done += 1
            worlds += 1
            if worlds >= MIN_WORLDS:
                prior = pooled_variance(rewards, default)
                live = [a for a in live if upper_bound(rewards[a.index], rewards[default], z, prior) >= 0]
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            world = state.determinize(seat, rng)
        self.last_iterations = done
        best, best_bound = by_index[default], 0.0
        if worlds >= MIN_WORLDS:
            prior = pooled_variance(rewards, default)
            for index, values in rewards.items():
                if index == default or len(values) < worlds:
                    continue
                bound = lower_bound(values, rewards[default], z, prior)
                if bound > best_bound:
                    best, best_bound = by_index[index], bound
        self.last_override = best.index != default
        return best

    def _compiled_paired_act(
        self, state: State, legal: list[Action], default: int, deadline: float | None
    ) -> Action:
        """``_paired_act`` on the game's compiled playouts, a batch of worlds per call. Each move's
        paired differences against the default are kept as running sums, so judging a move after
        a batch costs the same whatever the number of worlds."""
        compiled = self.compiled
        assert compiled is not None
        rng = self.rng
        z = self.z
        by_index = {a.index: a for a in legal}
        live = [a.index for a in legal if a.index != default]
        run = compiled(state, self.seat, self.belief, self.rollout_depth)
        # Per move: [worlds, sum of differences, sum of squared differences].
        sums = {index: [0.0, 0.0, 0.0] for index in live}
        done = worlds = 0
        while live:
            batch = COMPILED_BATCH
            if self.iterations is not None:
                batch = max(1, min(batch, (self.iterations - done) // (len(live) + 1)))
            seeds = [rng.getrandbits(62) for _ in range(batch)]
            rewards = self._playouts(run, [default, *live], seeds)
            for row, index in enumerate(live, start=1):
                diffs = rewards[row] - rewards[0]
                entry = sums[index]
                entry[0] += batch
                entry[1] += float(diffs.sum())
                entry[2] += float((diffs * diffs).sum())
            done += batch * (len(live) + 1)
            worlds += batch
            if worlds >= MIN_WORLDS:
                prior = pooled_variance_of_sums(sums.values())
                live = [i for i in live if bound_of_sums(sums[i], prior, z) >= 0]
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        best, best_bound = default, 0.0
        if worlds >= MIN_WORLDS:
            prior = pooled_variance_of_sums(sums.values())
            for index, entry in sums.items():
                if entry[0] < worlds:
                    continue
                bound = bound_of_sums(entry, prior, -z)
                if bound > best_bound:
                    best, best_bound = index, bound
        self.last_override = best != default
        return by_index[best]

    def _playouts(self, run: PlayoutRunner, moves: list[int], seeds: list[int]) -> Any:
        """The compiled paired playouts of ``moves`` in the worlds of ``seeds``, split over
        ``threads``. Each world is dealt and played from its own seed, so the split changes only
        how soon the rewards arrive, never what they are."""
        parts = min(self.threads, len(seeds))
        if parts == 1:
            return run(moves, seeds)
        import numpy as np  # noqa: PLC0415 - numpy: the [search] extra; present wherever compiled playouts are

        # The calling thread plays the last slice itself, so the pool needs one thread fewer.
        # Keyed by process too: a pool inherited through fork has no threads behind it.
        key = (os.getpid(), parts - 1)
        pool = _POOLS.get(key)
        if pool is None:
            pool = _POOLS.setdefault(key, ThreadPoolExecutor(parts - 1, thread_name_prefix="ismcts"))
        n = len(seeds)
        # Contiguous slices, so the rewards come back in the seeds' order, summed as one call's.
        chunks: list[Sequence[int]] = [seeds[k * n // parts : (k + 1) * n // parts] for k in range(parts)]
        futures = [pool.submit(run, moves, chunk) for chunk in chunks[:-1]]
        last = run(moves, chunks[-1])
        return np.concatenate([*(f.result() for f in futures), last], axis=1)

    def _iterate(self, root: Node, state: State) -> None:
        node = root
        rng = self.rng
        # Selection: descend while every legal move here has a child.
        while not state.is_over:
            legal = state.legal_actions()
            children = node.children
            untried = [a for a in legal if a.index not in children]
            available = [children[a.index] for a in legal if a.index in children]
            for child in available:
                child.avail += 1
            if untried:
                # Expansion: one new child for a move never tried from this node. With a policy
                # for rollouts, its own choice is tried first: a small budget then plays at least
                # as the policy does, and search only has to find where the policy is wrong.
                action = rng.choice(untried)
                if self.policy is not None and not children:
                    action = self.policy(state, rng)
                child = Node(action, state.current_player, node)
                children[action.index] = child
                state.apply(action)
                node = child
                break
            c = self.c
            node = max(available, key=lambda ch: ch.ucb(c))
            assert node.action is not None
            state.apply(node.action)
        rewards = self._rollout(state)
        while node is not None:
            node.visits += 1
            if node.mover is not None:
                node.reward += rewards[node.mover]
            node = node.parent  # type: ignore[assignment]

    def _rollout(self, state: State, rng: random.Random | None = None) -> list[float]:
        players = self.game.players
        limit = self.rollout_depth
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
        result = state.result
        assert result is not None
        if not result.winners:
            return [1.0 / players] * players
        winners = set(result.winners)
        wins = [1.0 if s in winners else 0.0 for s in range(players)]
        if not self.margin:
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


def paired_stats(values: list[float], base: list[float], prior: float = 0.5) -> tuple[float, float]:
    """Mean and standard error of the paired differences ``values[k] - base[k]``.

    The variance estimate starts from ``PRIOR_WORLDS`` pseudo-differences of variance ``prior``:
    a few worlds in which a move happened to win every time would otherwise show a standard
    error of zero and override the default on pure luck.
    """
    n = min(len(values), len(base))
    diffs = [values[k] - base[k] for k in range(n)]
    mean = sum(diffs) / n
    squares = sum((d - mean) ** 2 for d in diffs)
    return mean, standard_error(n, squares, prior)


def standard_error(n: float, squares: float, prior: float) -> float:
    """The standard error of a mean of ``n`` differences whose squared deviations from their
    mean sum to ``squares``, the variance starting from ``PRIOR_WORLDS`` pseudo-worlds of ``prior``."""
    var = (squares + PRIOR_WORLDS * prior) / (n - 1 + PRIOR_WORLDS)
    return math.sqrt(var / n)


def bound_of_sums(entry: list[float], prior: float, z: float) -> float:
    """``mean + z * standard error`` of a move's paired differences kept as running sums
    ``[n, sum, sum of squares]`` (an upper bound for positive ``z``, a lower one for negative)."""
    n, total, square_total = entry
    mean = total / n
    squares = max(square_total - total * mean, 0.0)
    return mean + z * standard_error(n, squares, prior)


def pooled_variance_of_sums(entries: Iterable[list[float]]) -> float:
    """``pooled_variance`` over moves kept as running sums."""
    n = total = square_total = 0.0
    for count, s, ss in entries:
        n += count
        total += s
        square_total += ss
    if n < 2:
        return 0.5
    return max((square_total - total * total / n) / (n - 1), 1e-4)


def pooled_variance(rewards: dict[int, list[float]], default: int) -> float:
    """The paired differences' variance over every candidate: the prior for each one's own, so
    the bound follows the scale of the rewards (full games' 0/1 or an evaluation's fractions)."""
    base = rewards[default]
    diffs = [
        v - base[k] for index, values in rewards.items() if index != default for k, v in enumerate(values)
    ]
    if len(diffs) < 2:
        return 0.5
    mean = sum(diffs) / len(diffs)
    return max(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1), 1e-4)


def lower_bound(values: list[float], base: list[float], z: float, prior: float = 0.5) -> float:
    mean, se = paired_stats(values, base, prior)
    return mean - z * se


def upper_bound(values: list[float], base: list[float], z: float, prior: float = 0.5) -> float:
    mean, se = paired_stats(values, base, prior)
    return mean + z * se

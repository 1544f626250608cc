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
the policy's own move is then tried first and can be favoured at the end (``trust``).
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any

from tabletrek.core.bots import check_turn
from tabletrek.core.rng import derive_seed, make_rng

if TYPE_CHECKING:
    from tabletrek.core.actions import Action
    from tabletrek.core.bots import Bot
    from tabletrek.core.game import Game
    from tabletrek.core.state import State

DEFAULT_ITERATIONS = 200
# With no budget given, a player at a table should not wait on a long game's playouts: the
# default also stops after this many milliseconds. Name ``iterations`` for reproducible runs.
DEFAULT_MS = 1000.0


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
    ``rollout`` (a bot of the game, or "random"), ``rollout_depth`` (cut rollouts after this many
    actions; a cut game counts as a draw) and ``trust`` (extra visits credited to the rollout
    policy's own move when the final move is chosen)."""

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
        rollout: str = "random",
        rollout_depth: int | None = None,
        trust: int = 0,
        margin: bool = False,
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
        if rollout == self.name or rollout not in game.bots():
            raise ValueError(f"rollout must name another bot of {game.name}: {', '.join(game.bots())}")
        if isinstance(trust, bool) or int(trust) < 0:
            raise ValueError(f"trust must be a non-negative integer, not {trust!r}")
        if rollout_depth is not None and int(rollout_depth) < 0:
            raise ValueError(f"rollout_depth must not be negative, not {rollout_depth!r}")
        self.game = game
        self.seat = seat
        self.rng = make_rng(seed)
        self.iterations = None if iterations is None else int(iterations)
        self.ms = None if ms is None else float(ms)
        self.c = float(c)
        self.rollout_depth = None if rollout_depth is None else int(rollout_depth)
        self.trust = int(trust)
        self.margin = bool(margin)
        # One rollout bot per seat, reused across iterations (bots hold no per-game state that a
        # determinized copy could confuse: they decide from the state they are handed).
        self.rollout_bots: list[Bot] | None = None
        if rollout != "random":
            self.rollout_bots = [
                game.bot(rollout, seat=s, seed=derive_seed(seed, "rollout", s)) for s in range(game.players)
            ]
        self.last_iterations = 0

    # ----- the search ---------------------------------------------------------------------------

    def act(self, state: State) -> Action:
        check_turn(self, state)
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
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
        # keeps ``trust`` extra visits: single noisy playouts should not overturn it.
        favourite = None
        if self.rollout_bots is not None and self.trust:
            favourite = self.rollout_bots[self.seat].act(state).index
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
        return best

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
                if self.rollout_bots is not None and not children:
                    seat = state.current_player
                    assert seat is not None
                    action = self.rollout_bots[seat].act(state)
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

    def _rollout(self, state: State) -> list[float]:
        players = self.game.players
        limit = self.rollout_depth
        steps = 0
        bots = self.rollout_bots
        rng = self.rng
        while not state.is_over:
            if limit is not None and steps >= limit:
                return [1.0 / players] * players
            if bots is None:
                state.apply(rng.choice(state.legal_actions()))
            else:
                seat = state.current_player
                assert seat is not None
                state.apply(bots[seat].act(state))
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

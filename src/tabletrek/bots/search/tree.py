"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012).

Every iteration samples a world consistent with what the bot's seat knows, walks one shared tree
keyed by action index, expands one untried move, plays the game out (``SearchBot._rollout``) and
backs the outcome up. Children carry an *availability* count (how often their move was legal when
their parent was visited), so UCB compares moves that were legal in different worlds fairly. Each
node stores the reward of the seat that chose its move, so the tree serves any number of players.

The budget is ``iterations`` (reproducible: same seed, same move) and/or ``ms`` milliseconds per
move (wall clock, so not reproducible). With a rollout policy, the policy's own move is tried
first and can be favoured at the end (``trust``): in long games single playouts say little.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tabletrek.bots.search.base import SearchBot

if TYPE_CHECKING:
    from tabletrek.core.actions import Action
    from tabletrek.core.state import State


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


class TreeSearchBot(SearchBot):
    """The tree search, configured by ``SearchSettings`` (``c``, ``trust`` and the common ones)."""

    def _choose(self, state: State) -> Action:
        legal = state.legal_actions()
        self.last_override = False
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = Node(None, None, None)
        ms, iterations = self.settings.ms, self.settings.iterations
        deadline = None if ms is None else time.perf_counter() + ms / 1000
        done = 0
        while True:
            self._iterate(root, state.determinize(self.seat, self.rng))
            done += 1
            if iterations is not None and done >= iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        favourite = self._favourite(state)
        best = self._most_visited(root, legal, favourite)
        self.last_override = favourite is not None and best.index != favourite
        return best

    def _favourite(self, state: State) -> int | None:
        """The move of the default bot or the rollout policy, if any. The policy is asked in a
        sampled world: a game's fast policy may read the whole state it is given."""
        if self.default_bot is not None:
            return self.default_bot.act(state).index
        if self.policy is not None:
            world = state.determinize(self.seat, self.rng)
            return self.policy(world, self.rng).index
        return None

    def _most_visited(self, root: Node, legal: Sequence[Action], favourite: int | None) -> Action:
        """The most visited legal move is the robust choice. The favourite keeps ``trust`` extra
        visits: single noisy playouts should not overturn it."""
        trust = self.settings.trust
        best = legal[0]
        best_score = -1.0
        for action in legal:
            child = root.children.get(action.index)
            if child is None:
                continue
            score = (
                child.visits + (trust if action.index == favourite else 0) + child.reward / (child.visits + 1)
            )
            if score > best_score:
                best, best_score = action, score
        return best

    def _iterate(self, root: Node, state: State) -> None:
        node = root
        rng = self.rng
        c = self.settings.c
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
            node = max(available, key=lambda ch: ch.ucb(c))
            assert node.action is not None
            state.apply(node.action)
        rewards = self._rollout(state)
        back: Node | None = node
        while back is not None:
            back.visits += 1
            if back.mover is not None:
                back.reward += rewards[back.mover]
            back = back.parent

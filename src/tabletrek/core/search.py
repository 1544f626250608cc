"""What a game offers the generic search bot: one object, not hooks on ``Game``.

A game that supports search returns a :class:`SearchSupport` from ``Game.search()``: the parameters
the bot plays best with there, a fast playout policy, an evaluation for cut playouts, a horizon,
compiled paired playouts with a belief to deal their worlds from, and a way to prepare them. Every
part is optional; a game without search support returns ``NO_SEARCH``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol

from tabletrek.core.generics import S, S_contra

if TYPE_CHECKING:
    from tabletrek.core.actions import Action
    from tabletrek.core.game import Game

RolloutPolicy = Callable[[S, random.Random], "Action"]
"""A fast playout policy for search: (a full state, an RNG) -> a legal action for the seat to act."""
Evaluator = Callable[[S, int], float]
"""A position's value for a seat in [-1, 1] (-1 a sure loss, 1 a sure win), for cut playouts."""
Horizon = Callable[[S], int]
"""A mark of where a playout is (e.g. the round number): playouts stop when it changes."""
PlayoutRunner = Callable[[Sequence[int], Sequence[int]], Any]
"""(moves, world seeds) -> a moves x worlds array of the seat's rewards (1 win, 0 loss)."""
PairedPlayouts = Callable[[S, int, "Belief[S] | None", "int | None"], PlayoutRunner]
"""Compiled paired playouts: (the real state, the searching seat, the seat's belief or None, a
depth or None) -> a runner for that position, which a search calls for batch after batch of
worlds (and from several threads at once) while the position is prepared only once. Each world
is a determinization for that seat dealt from its seed (following the belief, when given), each
move is played there and the rollout policy (``SearchSupport.paired_rollout``) plays on, to the
end, to the game's horizon or for ``depth`` moves, after which the game's evaluation scores the
position; the same random numbers serve every move in one world."""


class Belief(Protocol[S_contra]):
    """What a seat has learned about hidden cards from the other players' moves."""

    def observe(self, position: S_contra, action: Action) -> None:
        """Another player made ``action`` in ``position`` (a real state: only what the seat may
        see of it may be read)."""


def warm_up_paired(game: Game[S], paired: PairedPlayouts[S], depth: int | None = None) -> None:
    """Compile (or load from numba's cache) everything a search move's paired playouts run: one
    batch of one world from a new game's first position (a ``SearchSupport.prepare``)."""
    state = game.new_game(seed=0)
    seat = state.current_player
    assert seat is not None
    paired(state, seat, None, depth)([state.legal_actions()[0].index], [0])


def logistic_value(weights: Sequence[float], features: Sequence[float]) -> float:
    """A fitted logistic model's win chance mapped to [-1, 1], the scale of an ``Evaluator``.

    The sum is clamped so a position far outside the fitted range gives ±1, not an overflow."""
    x = sum(w * f for w, f in zip(weights, features, strict=True))
    x = max(-30.0, min(30.0, x))
    return 2.0 / (1.0 + math.exp(-x)) - 1.0


@dataclass(frozen=True)
class SearchSupport(Generic[S]):
    """What the search bot may use in one loaded game whose states are ``S`` (see the module
    docstring)."""

    defaults: Mapping[str, Any] = field(default_factory=dict)
    """The bot's parameters here when none are named: the setting measured to play best against
    the game's heuristic (``benchmarks/ismcts.py``). Each named parameter replaces its default;
    naming a budget (``iterations`` or ``ms``) replaces both."""
    policy: RolloutPolicy[S] | None = None
    """A fast playout policy (None: random moves or a named bot). It is called inside
    determinizations, so it may read the whole state, but decides only from what the seat to act
    could know."""
    evaluate: Evaluator[S] | None = None
    """An evaluation of unfinished positions for cut playouts (None: a cut playout is a draw)."""
    horizon: Horizon[S] | None = None
    """Where playouts stop and are evaluated (Mexican Train: the round number); None: at the end
    or at ``rollout_depth``."""
    paired: PairedPlayouts[S] | None = None
    """Compiled paired playouts (None when the game has none or its accelerator is missing). They
    stop at the game's ``horizon`` as Python playouts do."""
    paired_rollout: str = "auto"
    """The rollout setting the compiled playouts reproduce: "auto" (the fast ``policy``) or the name
    of the game's bot they compile; with another rollout the search plays out in Python."""
    paired_margin: bool = False
    """Whether the compiled playouts score a finished game as ``margin=True`` asks (half the
    reward from the score margin) rather than won/lost; the search uses them only where this
    matches its own setting."""
    belief: Callable[[int, int], Belief[S] | None] | None = None
    """(seat, seed) -> a belief the paired playouts deal their worlds from (``infer=True``)."""
    prepare: Callable[[], None] | None = None
    """Compile or load what ``paired`` runs on, so a table's first search move does not wait."""


NO_SEARCH = SearchSupport()

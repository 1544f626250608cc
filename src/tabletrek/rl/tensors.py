"""Observation and information-state tensors for any game that ships an ``observation`` module,
and the finite action space the RL faces use (``ActionCodec``).

``observation_tensor(state, seat)`` is the seat's ``view`` in the game's documented layout
(``<game package>/observation.py``; ``docs/observations.md``). ``information_state_tensor`` adds a
bounded summary of the history that the view may not keep: how many times each seat (relative,
the observer's own first) took each action of the finite action space. Every move text is public
in all four games (records, logs and the browser's event feed show it), so the other seats'
counts reveal nothing hidden. It is a summary, not the full sequence: two histories with the same
counts and the same view give the same tensor (perfect recall of the order would need a tensor
as long as the longest game, thousands of moves).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from types import ModuleType
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from tabletrek.core.actions import Action
from tabletrek.core.game import Game
from tabletrek.core.numeric import is_integral
from tabletrek.core.state import State
from tabletrek.core.tensors import Layout


class Codec(Protocol):
    n: int

    def action(self, state: State | None, i: int) -> Action: ...
    def index(self, action: Action) -> int | None: ...
    def mask(self, state: State) -> npt.NDArray[np.int8]: ...
    def label(self, i: int) -> str: ...


class ActionCodec:
    """The game's action indices that exist with this player count and these options, renumbered
    ``0..n-1``: a ``Discrete(n)`` of the true size (the game's own index space is shared by every
    player count, so some of its indices name no move)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        indices: list[int] = []
        for i in range(game.num_actions):
            try:
                action = game.action(i)
            except ValueError:
                continue
            if action.text:
                indices.append(i)
        self.indices = np.array(indices, dtype=np.int64)
        self.compact = {g: i for i, g in enumerate(indices)}
        self.n = len(indices)

    def action(self, state: State | None, i: int) -> Action:
        if not 0 <= i < self.n:
            raise ValueError(
                f"{self.game.name} with {self.game.players} players has {self.n} actions, not {i}"
            )
        return self.game.action(int(self.indices[i]))

    def index(self, action: Action) -> int | None:
        return self.compact.get(action.index)

    def label(self, i: int) -> str:
        return self.action(None, i).text

    def mask(self, state: State) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.n, dtype=np.int8)
        for action in state.legal_actions():
            i = self.compact.get(action.index)
            if i is not None:
                mask[i] = 1
        return mask


def observation_module(game: Game) -> ModuleType:
    try:
        return importlib.import_module(f"{game.package}.observation")
    except ModuleNotFoundError as exc:
        raise ValueError(f"{game.name} has no observation tensor (no {game.package}.observation)") from exc


@cache
def codec_for(game: Game) -> Codec:
    """The finite action space of ``game`` (its player count and options): ``n`` actions,
    ``label(i)``, ``action(state, i)`` and ``mask(state)``."""
    make: Callable[[Game], Codec] | None = getattr(observation_module(game), "action_codec", None)
    return make(game) if make is not None else ActionCodec(game)


@cache
def observation_layout(game: Game) -> Layout:
    """The fields of ``observation_tensor`` for ``game`` (name, shape, offset, meaning, as listed
    in docs/observations.md); ``layout.split(x)`` cuts a tensor into them."""
    layout: Layout = observation_module(game).layout(game)
    return layout


@cache
def information_state_layout(game: Game) -> Layout:
    """``observation_layout`` plus ``action_counts``: how often each seat took each action."""
    out = Layout().extend(observation_layout(game))
    out.add(
        "action_counts",
        (game.players, codec_for(game).n),
        "per seat (the observer's first, then in turn order): how many times it took each action "
        "of the finite action space",
        high=most_moves(game),
    )
    return out


def most_moves(game: Game) -> float:
    """The game's proven length, which no action count can pass; ``math.inf`` when it has none
    (Double Crossing: Roll Again can chain without end)."""
    bound: Callable[[Game], tuple[int, bool]] | None = getattr(
        observation_module(game), "game_length_bound", None
    )
    if bound is None:
        return math.inf
    moves, proven = bound(game)
    return moves if proven else math.inf


def encode_view(game: Game, view: dict[str, Any]) -> npt.NDArray[np.float32]:
    out = np.zeros(observation_layout(game).size, dtype=np.float32)
    observation_module(game).encode(game, view, out)
    return out


def observation_tensor(state: State, seat: int) -> npt.NDArray[np.float32]:
    """The seat's view in the game's documented layout."""
    return encode_view(state.game, state.view(checked_seat(state, seat)))


def checked_seat(state: State, seat: Any) -> int:
    """``seat`` as an int, refused by name when it is no seat of the game (None, a float, a bool
    and a string reached some games' views and failed there as an unrelated TypeError)."""
    players = state.game.players
    if not is_integral(seat) or not 0 <= seat < players:
        raise ValueError(f"no seat {seat!r} in a {players}-player game")
    return int(seat)


def acting_seats(state: State) -> list[tuple[int, Action]]:
    """(seat, action) for every move of the game so far, found by replaying its record."""
    replayed = state.game.new_game(seed=state.seed)
    out: list[tuple[int, Action]] = []
    for text in state.history:
        seat = replayed.current_player
        assert seat is not None
        action = replayed.parse(text)
        out.append((seat, action))
        replayed.apply(action)
    return out


def information_state_tensor(
    state: State, seat: int, moves: Sequence[tuple[int, Action]] | None = None
) -> npt.NDArray[np.float32]:
    """The observation plus each seat's action counts. ``moves`` ((seat, action) per move) saves
    a replay when the caller kept them; without it the record is replayed."""
    game = state.game
    lay = information_state_layout(game)
    out = np.zeros(lay.size, dtype=np.float32)
    obs = observation_layout(game)
    seat = checked_seat(state, seat)
    out[: obs.size] = observation_tensor(state, seat)
    add_counts(game, lay.view(out, "action_counts"), seat, acting_seats(state) if moves is None else moves)
    return out


def add_counts(
    game: Game, counts: npt.NDArray[np.float32], seat: int, moves: Iterable[tuple[int, Action]]
) -> None:
    codec = codec_for(game)
    for s, action in moves:
        i = codec.index(action)
        if i is not None:
            counts[(s - seat) % game.players, i] += 1

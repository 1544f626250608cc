"""What the Gymnasium and PettingZoo faces share: one game, its finite action space, the chosen
observation, and the moves made so far (who made which), so the information state needs no replay.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.game import Game
from tabletrek.core.state import State
from tabletrek.rl.features import DEFAULT_SIZE, ViewEncoder
from tabletrek.rl.tensors import (
    codec_for,
    encode_view,
    information_state_layout,
    information_state_tensor,
    observation_layout,
)

ObservationKind = Literal["tensor", "information_state", "hashed"]
OBSERVATIONS: tuple[str, ...] = ("tensor", "information_state", "hashed")
IllegalPolicy = Literal["penalty", "raise"]
ILLEGAL: tuple[str, ...] = ("penalty", "raise")
Observation = dict[str, npt.NDArray[Any]]


def option_values(options: Any) -> dict[str, Any]:
    """The ``options=`` argument of the environments as keyword arguments for ``load``: a mapping
    of option name to value, refused by name otherwise (a string such as OpenSpiel's
    ``"rounds:1"`` failed inside ``dict()`` with "dictionary update sequence element #0")."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(
            f"options is a mapping of option name to value, e.g. {{'rounds': 1}}, not {options!r}"
        )
    return dict(options)


def no_reset_options(options: Mapping[str, Any] | None, made_with: str) -> None:
    """Gymnasium passes ``options`` to ``reset`` for settings of the next episode. A game's
    options shape its spaces, so they are fixed when the env is made (``made_with``); a non-empty
    dict is refused by name rather than ignored without a word. (The PettingZoo faces ignore
    them: PettingZoo's own ``api_test`` resets with ``options={"options": 1}`` and expects it
    accepted.)"""
    if options:
        raise ValueError(
            f"reset() takes no options: a game's options are set when its env is made "
            f"({made_with}), not {dict(options)!r}"
        )


def action_index(action: Any) -> int:
    """``action`` as an index into the Discrete space: a Python or numpy integer, or an array
    holding exactly one. Anything else (a float, a string, a bool, a batch) is the caller's bug,
    refused here by name instead of being truncated by ``int()`` into some other move or failing
    deep inside numpy."""
    value = action
    if isinstance(value, np.ndarray) and value.size == 1:
        value = value.reshape(()).item() if value.dtype.kind in "iu" else value.reshape(())
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        shown = f"an array of shape {value.shape}" if isinstance(value, np.ndarray) else repr(value)
        raise TypeError(f"an action is an integer index into the action space, not {shown}")
    return int(value)


class Table:
    def __init__(self, game: Game, observation: str = "tensor", obs_size: int = DEFAULT_SIZE) -> None:
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {', '.join(OBSERVATIONS)}, not {observation!r}")
        self.game = game
        self.kind = observation
        self.codec = codec_for(game)
        self.encoder = ViewEncoder(obs_size) if observation == "hashed" else None
        if observation == "hashed":
            self.obs_len = obs_size
        elif observation == "information_state":
            self.obs_len = information_state_layout(game).size
        else:
            self.obs_len = observation_layout(game).size
        self.state_: State | None = None
        self.moves: list[tuple[int, Action]] = []

    @property
    def n(self) -> int:
        return self.codec.n

    def render(self, mode: str | None, seat: int | None = None) -> str | None:
        """What an environment's ``render()`` returns: the table as SVG (``"svg"``) or as the
        terminal's text (``"ansi"``), as ``seat`` sees it (None: a spectator)."""
        if mode is None or self.state_ is None:
            return None
        if mode == "svg":
            return str(self.state_.render(seat))
        return self.state_.render_text(seat)

    def observation_space(self) -> spaces.Dict:
        return spaces.Dict(
            {
                "observation": self.tensor_space(),
                "action_mask": spaces.Box(0, 1, (self.n,), np.int8),
            }
        )

    def tensor_space(self) -> spaces.Box:
        """The tensor's fields' ranges (``docs/observations.md``). The hashed features are
        signed sums with no range, so they keep an unbounded box."""
        if self.kind == "hashed":
            return spaces.Box(-np.inf, np.inf, (self.obs_len,), np.float32)
        info = self.kind == "information_state"
        low, high = (information_state_layout if info else observation_layout)(self.game).bounds()
        return spaces.Box(low, high, dtype=np.float32)

    @property
    def state(self) -> State:
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        return self.state_

    def new_game(self, seed: int) -> None:
        self.state_ = self.game.new_game(seed=seed)
        self.moves = []

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        state = self.state
        if state.is_over or state.current_player != seat:
            return np.zeros(self.n, dtype=np.int8)
        return self.codec.mask(state)

    def tensor(self, seat: int) -> npt.NDArray[np.float32]:
        state = self.state
        if self.encoder is not None:
            return self.encoder.encode(state.view(seat))
        if self.kind == "information_state":
            return information_state_tensor(state, seat, self.moves)
        return encode_view(self.game, state.view(seat))

    def observe(self, seat: int) -> Observation:
        return {"observation": self.tensor(seat), "action_mask": self.mask(seat)}

    def try_apply(self, seat: int, index: int) -> str | None:
        """Apply action ``index`` of the finite space for ``seat``; the reason it was refused
        (the state unchanged), or None."""
        state = self.state
        if state.current_player != seat:
            return f"it is not seat {seat}'s turn"
        try:
            action = self.codec.action(state, int(index))
            state.apply(action)
        except IllegalAction as exc:
            return exc.reason
        except ValueError as exc:  # an index outside the space
            return str(exc)
        self.moves.append((seat, action))
        return None

    def act(self, seat: int, action: Action) -> None:
        """A move chosen by a bot (an Action, not an index)."""
        self.state.apply(action)
        self.moves.append((seat, action))


def agent_seat(agent: object, agents: list[str]) -> int:
    """The seat of ``agent`` ("player_0" ...), or a KeyError naming the game's agents (a bare
    ``KeyError: 'player_9'`` from a dict said nothing of what exists)."""
    if isinstance(agent, str) and agent in agents:
        return agents.index(agent)
    raise KeyError(f"no agent {agent!r} in this game: its agents are {', '.join(agents)}")


def check_illegal(policy: str) -> None:
    if policy not in ILLEGAL:
        raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}, not {policy!r}")

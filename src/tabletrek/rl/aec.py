"""PettingZoo AEC environments for every tabletrek game (versioned names: ``touring_v1`` ...).

Agents are "player_0" … "player_{n-1}" (seats). Each observation is a dict with ``observation``
(the game's documented tensor by default; ``observation="information_state"`` or ``"hashed"``
as in :class:`~tabletrek.rl.single.SingleSeatEnv`) and ``action_mask`` over the finite action space
(``Discrete(n)``, the moves that exist for this player count; ``env.action_label(i)`` names one).
The structured view is in ``infos[agent]["view"]``. Rewards are the game's ``Result.returns``
when it ends (0 before). An illegal action raises ``IllegalAction`` (``illegal="raise"``, the
default: masks are part of the observation) or, with ``illegal="penalty"``, is ignored: the same
agent acts again and is charged ``illegal_penalty``, with ``infos[agent]["illegal"]`` saying why.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]  # typed in some releases only

from tabletrek.core.actions import IllegalAction
from tabletrek.core.registry import load_with, specs
from tabletrek.core.rng import new_seed
from tabletrek.core.state import State
from tabletrek.rl.features import DEFAULT_SIZE
from tabletrek.rl.table import (
    Observation,
    Table,
    action_index,
    agent_seat,
    check_illegal,
    option_values,
)

VERSION = 1


def env_name(game: str) -> str:
    """The versioned PettingZoo name of ``game``'s environment: ``"touring"`` → ``"touring_v1"``."""
    return f"{game.replace('-', '_')}_v{VERSION}"


class TabletrekAEC(AECEnv):  # type: ignore[misc,unused-ignore]  # AECEnv is Any where PettingZoo is untyped
    """``game`` as a PettingZoo AEC environment, agents ``player_0`` … one per seat, stepped one
    at a time with an integer index into ``action_space(agent)``. Keyword arguments: ``players``,
    ``options``, ``observation``, ``illegal`` (``"raise"``, the default, or ``"penalty"``),
    ``illegal_penalty``, ``render_mode`` (``"ansi"`` or ``"svg"``); see the module docstring."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class and the instance
        "render_modes": ["ansi", "svg"],
        "name": "tabletrek_v1",
        "is_parallelizable": False,  # turn-based: the parallel form is TabletrekParallel, not aec_to_parallel
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        observation: str = "tensor",
        obs_size: int = DEFAULT_SIZE,
        illegal: str = "raise",
        illegal_penalty: float = -0.1,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi", "svg"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'svg', not {render_mode!r}")
        check_illegal(illegal)
        self.game = load_with(game, players, option_values(options))
        self.metadata = {**self.metadata, "name": env_name(self.game.name)}
        self.render_mode = render_mode
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.table = Table(self.game, observation, obs_size)
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.players)]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.action_spaces = {agent: spaces.Discrete(self.table.n) for agent in self.possible_agents}
        self.observation_spaces = {agent: self.table.observation_space() for agent in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        agent_seat(agent, self.possible_agents)  # an unknown name is refused by name
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        agent_seat(agent, self.possible_agents)
        return self.action_spaces[agent]

    def action_label(self, i: int) -> str:
        return self.table.codec.label(int(i))

    @property
    def game_state(self) -> State:
        return self.table.state

    # ----- the AEC loop -------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.new_game(new_seed() if seed is None else seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.game_state.current_player
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]
        for agent in self.agents:
            self.infos[agent] = {"view": self.view(agent)}

    def step(self, action: int | None) -> None:
        if self.table.state_ is None:
            raise RuntimeError("call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for agents whose game is over")
        state = self.game_state
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        action = action_index(action)
        refused = self.table.try_apply(self.seat_of[agent], action)
        if refused is not None:
            if self.illegal == "raise":
                raise IllegalAction("core.illegal.not_legal", action=f"{int(action)} ({refused})")
            self.rewards[agent] = self.illegal_penalty
            self._select()
            self.infos[agent]["illegal"] = refused
            self._accumulate_rewards()
            return
        if state.is_over:
            result = state.result
            assert result is not None
            for a in self.agents:
                self.rewards[a] = float(result.returns[self.seat_of[a]])
                self.terminations[a] = True
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    # ----- what agents see ----------------------------------------------------------------------

    def view(self, agent: str) -> dict[str, Any]:
        return self.game_state.view(agent_seat(agent, self.possible_agents))

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        return self.table.mask(agent_seat(agent, self.possible_agents))

    def observe(self, agent: str) -> Observation:
        return self.table.observe(agent_seat(agent, self.possible_agents))

    def render(self) -> str | None:
        return self.table.render(self.render_mode)

    def close(self) -> None:
        self.table.state_ = None


def aec_env(game: str, **kwargs: Any) -> TabletrekAEC:
    """An AEC environment for ``game`` (players=, options=, observation=, illegal=, render_mode=)."""
    return TabletrekAEC(game, **kwargs)


def __getattr__(name: str) -> Any:
    """``touring_v1(**kwargs)`` and so on: a constructor for every registered game under its
    versioned PettingZoo name (and the unversioned ``touring_env`` of the first release)."""
    for game in specs().values():
        if name in (env_name(game.name), f"{game.domain}_env"):
            return functools.partial(TabletrekAEC, game.name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""PettingZoo AEC environments for any tabletrek game with a finite action space.

Agents are "player_0" … "player_{n-1}" (seats). Each observation is a dict with ``observation``
(the seat's ``view`` encoded by :class:`ViewEncoder`) and ``action_mask`` (1 for the legal action
indices in ``[0, game.num_actions)``). The structured view itself is in ``infos[agent]["view"]``
and from :meth:`TabletrekAEC.view`. Rewards are the game's ``Result.returns`` when it ends (0
before). An illegal action raises ``IllegalAction`` naming the rule and leaves the game as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]

from tabletrek.core.registry import load
from tabletrek.core.rng import new_seed
from tabletrek.core.state import State
from tabletrek.rl.features import DEFAULT_SIZE, ViewEncoder

Observation = dict[str, npt.NDArray[Any]]


class TabletrekAEC(AECEnv):  # type: ignore[misc,unused-ignore]
    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class and the instance
        "render_modes": ["ansi"],
        "name": "tabletrek_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        obs_size: int = DEFAULT_SIZE,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = load(game, players=players, **dict(options or {}))
        self.metadata = {**self.metadata, "name": f"tabletrek_{self.game.name.replace('-', '_')}_v0"}
        self.render_mode = render_mode
        self.encoder = ViewEncoder(obs_size)
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.players)]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        n = self.game.num_actions
        self.action_spaces = {agent: spaces.Discrete(n) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (obs_size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.state_: State | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game_state(self) -> State:
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        return self.state_

    # ----- the AEC loop -------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.state_ = self.game.new_game(seed=new_seed() if seed is None else seed)
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
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for agents whose game is over")
        state = self.game_state
        self._cumulative_rewards[agent] = 0.0
        state.apply(self.game.action(int(action)))
        if state.is_over:
            result = state.result
            assert result is not None
            for a in self.agents:
                self.rewards[a] = float(result.returns[self.seat_of[a]])
                self.terminations[a] = True
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            self.render()

    # ----- what agents see ----------------------------------------------------------------------

    def view(self, agent: str) -> dict[str, Any]:
        return self.game_state.view(self.seat_of[agent])

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        state = self.game_state
        if not state.is_over and agent == self.possible_agents[state.current_player or 0]:
            for action in state.legal_actions():
                mask[action.index] = 1
        return mask

    def observe(self, agent: str) -> Observation:
        return {"observation": self.encoder.encode(self.view(agent)), "action_mask": self.action_mask(agent)}

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        state = self.game_state
        return f"{self.game.name} after {len(state.history)} moves; to act: {state.current_player}"

    def close(self) -> None:
        self.state_ = None


def aec_env(game: str, **kwargs: Any) -> TabletrekAEC:
    """An AEC environment for ``game`` (players=, options=, obs_size=, render_mode=)."""
    return TabletrekAEC(game, **kwargs)


def touring_env(**kwargs: Any) -> TabletrekAEC:
    return TabletrekAEC("touring", **kwargs)


def mexican_train_env(**kwargs: Any) -> TabletrekAEC:
    return TabletrekAEC("mexican-train", **kwargs)


def double_crossing_env(**kwargs: Any) -> TabletrekAEC:
    return TabletrekAEC("double-crossing", **kwargs)

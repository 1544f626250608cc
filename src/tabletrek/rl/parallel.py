"""PettingZoo parallel environments: every seat submits an action each step.

All four games are turn-based, so the parallel form follows the standard convention for turns:
at each step only the seat to act has legal actions (its ``action_mask``); every other live agent
waits, with an all-zero mask, and whatever it submits (conventionally ``0``, which is what
``action_space.sample(mask=...)`` gives for an empty mask) is ignored. Offered for every game,
since a parallel trainer (one batched forward pass for all seats) is the reason to want it;
observations, rewards, masks and the illegal-action policy are the AEC environment's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gymnasium import spaces
from pettingzoo import ParallelEnv  # type: ignore[import-untyped,unused-ignore]  # typed in some releases only

from tabletrek.core.actions import IllegalAction
from tabletrek.core.registry import load_with
from tabletrek.core.rng import new_seed
from tabletrek.core.state import State
from tabletrek.rl.aec import env_name
from tabletrek.rl.features import DEFAULT_SIZE
from tabletrek.rl.table import (
    Observation,
    Table,
    action_index,
    agent_seat,
    check_illegal,
    option_values,
)


class TabletrekParallel(ParallelEnv):  # type: ignore[misc,unused-ignore]  # Any where PettingZoo is untyped
    """``game`` as a PettingZoo parallel environment: ``step`` takes ``{agent: action}`` and must
    include the agent to act (the others' actions are ignored). The AEC environment's keyword
    arguments; see the module docstring."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "svg"], "name": "tabletrek_v1"}  # noqa: RUF012 - PettingZoo's convention

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
        self.agents: list[str] = []
        self._action = spaces.Discrete(self.table.n)
        self._observation = self.table.observation_space()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        agent_seat(agent, self.possible_agents)  # an unknown name is refused, not given a space
        return self._observation

    def action_space(self, agent: str) -> spaces.Space[Any]:
        agent_seat(agent, self.possible_agents)
        return self._action

    @property
    def game_state(self) -> State:
        return self.table.state

    def _observe_all(self) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        obs = {a: self.table.observe(s) for s, a in enumerate(self.possible_agents) if a in self.agents}
        infos = {
            a: {"view": self.game_state.view(s)}
            for s, a in enumerate(self.possible_agents)
            if a in self.agents
        }
        return obs, infos

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        self.table.new_game(new_seed() if seed is None else seed)
        self.agents = self.possible_agents[:]
        return self._observe_all()

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        state = self.game_state
        seat = state.current_player
        if seat is None:
            raise RuntimeError("the game is over: call reset()")
        agent = self.possible_agents[seat]
        for name in actions:
            agent_seat(name, self.possible_agents)  # a misspelt agent's move would be dropped unseen
        if agent not in actions:
            # Without it nothing would be played and the same observations come back, a loop a
            # trainer does not notice.
            given = sorted(actions)
            raise ValueError(f"no action for {agent}, the agent to act (actions were given for {given})")
        action = action_index(actions[agent])
        rewards = dict.fromkeys(self.agents, 0.0)
        refused = self.table.try_apply(seat, action)
        if refused is not None:
            if self.illegal == "raise":
                raise IllegalAction("core.illegal.not_legal", action=f"{action} ({refused})")
            rewards[agent] = self.illegal_penalty
        done = state.is_over
        if done:
            result = state.result
            assert result is not None
            for s, a in enumerate(self.possible_agents):
                rewards[a] = float(result.returns[s])
        obs, infos = self._observe_all()
        if refused is not None:
            infos[agent]["illegal"] = refused
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, False)
        if done:
            self.agents = []
        if self.render_mode == "ansi":
            print(self.render())
        return obs, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.table.render(self.render_mode)

    def close(self) -> None:
        self.table.state_ = None


def parallel_env(game: str, **kwargs: Any) -> TabletrekParallel:
    """A parallel environment for ``game`` (the AEC environment's keyword arguments)."""
    return TabletrekParallel(game, **kwargs)

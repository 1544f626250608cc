"""A Gymnasium environment that plays one seat of a game against chosen bots.

``SingleSeatEnv("touring", seat=0, opponents=["greedy"])``: on ``reset`` and after each of the
learner's actions the bots play until it is the learner's turn again or the game is over. The
observation is the learner's encoded view with its action mask; ``info`` holds the structured
view. The reward is the learner's ``Result.returns`` entry at the end, 0 before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from tabletrek.core.bots import Bot
from tabletrek.core.registry import load
from tabletrek.core.rng import derive_seed, new_seed
from tabletrek.core.state import State
from tabletrek.rl.features import DEFAULT_SIZE, ViewEncoder

Observation = dict[str, npt.NDArray[Any]]


class SingleSeatEnv(gym.Env[Observation, int]):
    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's convention

    def __init__(
        self,
        game: str,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        bot_params: Mapping[str, Mapping[str, Any]] | None = None,
        obs_size: int = DEFAULT_SIZE,
        render_mode: str | None = None,
    ) -> None:
        self.game = load(game, players=players, **dict(options or {}))
        if not 0 <= seat < self.game.players:
            raise ValueError(f"seat must be in 0..{self.game.players - 1}, not {seat}")
        names = [opponents] if isinstance(opponents, str) else list(opponents)
        if not names:
            raise ValueError("name at least one opponent bot")
        offered = self.game.bots()
        for name in names:
            if name not in offered:
                raise ValueError(f"{game} has no bot {name!r}; it offers: {', '.join(offered)}")
        others = [s for s in range(self.game.players) if s != seat]
        self.opponents = {s: names[i % len(names)] for i, s in enumerate(others)}
        self.bot_params = {k: dict(v) for k, v in (bot_params or {}).items()}
        self.seat = seat
        self.render_mode = render_mode
        self.encoder = ViewEncoder(obs_size)
        n = self.game.num_actions
        self.action_space = spaces.Discrete(n)  # type: ignore[assignment]
        self.observation_space = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(-np.inf, np.inf, (obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            }
        )
        self.state: State | None = None
        self.bots: dict[int, Bot] = {}

    def _observe(self) -> tuple[Observation, dict[str, Any]]:
        assert self.state is not None
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if self.state.current_player == self.seat:
            for action in self.state.legal_actions():
                mask[action.index] = 1
        view = self.state.view(self.seat)
        return {"observation": self.encoder.encode(view), "action_mask": mask}, {"view": view}

    def _play_bots(self) -> None:
        assert self.state is not None
        while not self.state.is_over and self.state.current_player != self.seat:
            seat = self.state.current_player
            assert seat is not None
            self.state.apply(self.bots[seat].act(self.state))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = new_seed() if seed is None else seed
        self.state = self.game.new_game(seed=game_seed)
        self.bots = {
            s: self.game.bot(
                name, seat=s, seed=derive_seed(game_seed, "bot", s), **self.bot_params.get(name, {})
            )
            for s, name in self.opponents.items()
        }
        self._play_bots()
        return self._observe()

    def step(self, action: int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.state is None:
            raise RuntimeError("call reset() first")
        if self.state.is_over:
            raise RuntimeError("the game is over: call reset()")
        self.state.apply(self.game.action(int(action)))
        self._play_bots()
        obs, info = self._observe()
        reward = 0.0
        done = self.state.is_over
        if done:
            result = self.state.result
            assert result is not None
            reward = float(result.returns[self.seat])
            info["result"] = result.to_dict()
        return obs, reward, done, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state is None:
            return None
        return f"{self.game.name} after {len(self.state.history)} moves; to act: {self.state.current_player}"

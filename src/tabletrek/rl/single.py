"""A Gymnasium environment that plays one seat of a game against chosen bots.

``SingleSeatEnv("touring", seat=0, opponents=["greedy"])``: on ``reset`` and after each of the
learner's actions the bots play until it is the learner's turn again or the game is over.

- Actions: ``Discrete(n)``, the moves that exist for this player count and these options
  (``env.action_label(i)`` names one). Codenames Duet's clues are one action per (pack word,
  number), see ``games/codenames_duet/observation.py``.
- Observations: ``{"observation": float32[...], "action_mask": int8[n]}``; the observation is
  the game's documented tensor (``docs/observations.md``) by default, or
  ``observation="information_state"`` (plus per-seat action counts) or ``"hashed"`` (the view
  feature-hashed into ``obs_size`` floats). The mask is also ``info["action_mask"]`` and
  ``env.action_masks()`` (what maskable learners such as sb3-contrib's MaskablePPO call).
- An illegal action (``illegal="penalty"``, the default) leaves the game as it was and returns
  ``illegal_penalty`` as the reward, with ``info["illegal"]`` giving the reason; after
  ``max_illegal`` illegal actions in a row the episode is truncated. ``illegal="raise"`` raises
  ``IllegalAction`` instead.
- Reward: the learner's ``Result.returns`` entry at the end (+1 win, -1 loss), 0 before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from tabletrek.core.actions import IllegalAction
from tabletrek.core.bots import Bot
from tabletrek.core.numeric import is_integral
from tabletrek.core.registry import load_with
from tabletrek.core.rng import derive_seed
from tabletrek.core.state import State
from tabletrek.rl.features import DEFAULT_SIZE
from tabletrek.rl.table import (
    Observation,
    Table,
    action_index,
    check_illegal,
    no_reset_options,
    option_values,
)

SEED_SPACE = 2**63 - 1


class SingleSeatEnv(gym.Env[Observation, np.int64]):
    """One seat of ``game`` for a Gymnasium learner; the other seats are played by ``opponents``
    (a bot name, or one per other seat, e.g. ``["greedy", "random"]``).

    ``players`` and ``options`` choose the game as ``tabletrek.load`` does; ``observation`` is
    ``"tensor"`` (default), ``"information_state"`` or ``"hashed"``; ``illegal`` is ``"penalty"``
    (default: the game unchanged, ``illegal_penalty`` as reward, ``info["illegal"]`` says why,
    truncated after ``max_illegal`` in a row) or ``"raise"``; ``render_mode`` is ``"ansi"`` or
    ``"svg"``. An action is an integer index into ``action_space`` (``action_label(i)`` names
    it). The module docstring and docs/research.md say more."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "svg"], "render_fps": 1}  # noqa: RUF012 - Gymnasium convention

    def __init__(
        self,
        game: str,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        bot_params: Mapping[str, Mapping[str, Any]] | None = None,
        observation: str = "tensor",
        obs_size: int = DEFAULT_SIZE,
        illegal: str = "penalty",
        illegal_penalty: float = -0.1,
        max_illegal: int = 100,
        render_mode: str | None = None,
    ) -> None:
        self.game = load_with(game, players, option_values(options))
        if not is_integral(seat) or not 0 <= seat < self.game.players:
            raise ValueError(f"seat must be in 0..{self.game.players - 1}, not {seat!r}")
        seat = int(seat)
        names = [opponents] if isinstance(opponents, str) else list(opponents)
        if not names:
            raise ValueError("name at least one opponent bot")
        if len(names) not in (1, self.game.players - 1):
            # a list of another length would be cycled or cut without a word
            raise ValueError(
                f"name one opponent bot for all the other seats, or one per other seat "
                f"({self.game.players - 1} here), not {len(names)}: {names}"
            )
        offered = self.game.bots()
        for name in names:
            if name not in offered:
                raise ValueError(f"{game} has no bot {name!r}; it offers: {', '.join(offered)}")
        check_illegal(illegal)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None, 'ansi' or 'svg', not {render_mode!r}")
        if max_illegal < 1:
            raise ValueError(f"max_illegal must be at least 1, not {max_illegal}")
        others = [s for s in range(self.game.players) if s != seat]
        self.opponents = {s: names[i % len(names)] for i, s in enumerate(others)}
        self.bot_params = {k: dict(v) for k, v in (bot_params or {}).items()}
        self.seat = seat
        self.render_mode = render_mode
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.max_illegal = max_illegal
        self.table = Table(self.game, observation, obs_size)
        self.action_space = spaces.Discrete(self.table.n)
        self.observation_space = self.table.observation_space()  # type: ignore[assignment]  # spaces.Dict is a Space[dict], not Space[Observation]
        self.bots: dict[int, Bot] = {}
        self.illegal_streak = 0

    @property
    def state(self) -> State | None:
        return self.table.state_

    def action_label(self, i: int) -> str:
        """The move text of action ``i``."""
        return self.table.codec.label(int(i))

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Legal actions now, as booleans (the maskable-learner convention)."""
        return self.table.mask(self.seat).astype(bool)

    def _observe(self) -> tuple[Observation, dict[str, Any]]:
        obs = self.table.observe(self.seat)
        return obs, {"action_mask": obs["action_mask"].copy(), "view": self.table.state.view(self.seat)}

    def _play_bots(self) -> None:
        state = self.table.state
        while not state.is_over and state.current_player != self.seat:
            seat = state.current_player
            assert seat is not None
            self.table.act(seat, self.bots[seat].act(state))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        no_reset_options(options, "SingleSeatEnv(game, options={...})")
        super().reset(seed=seed)
        # Unseeded resets draw from the env's own generator, so one seeded reset fixes the rest.
        game_seed = int(self.np_random.integers(SEED_SPACE)) if seed is None else seed
        self.table.new_game(game_seed)
        self.bots = {
            s: self.game.bot(
                name, seat=s, seed=derive_seed(game_seed, "bot", s), **self.bot_params.get(name, {})
            )
            for s, name in self.opponents.items()
        }
        self.illegal_streak = 0
        self._play_bots()
        return self._observe()

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        state = self.table.state
        if state.is_over:
            raise RuntimeError("the game is over: call reset()")
        action = action_index(action)
        refused = self.table.try_apply(self.seat, action)
        if refused is not None:
            if self.illegal == "raise":
                raise IllegalAction("core.illegal.not_legal", action=f"{int(action)} ({refused})")
            self.illegal_streak += 1
            obs, info = self._observe()
            info["illegal"] = refused
            return obs, self.illegal_penalty, False, self.illegal_streak >= self.max_illegal, info
        self.illegal_streak = 0
        self._play_bots()
        obs, info = self._observe()
        reward = 0.0
        done = state.is_over
        if done:
            result = state.result
            assert result is not None
            reward = float(result.returns[self.seat])
            info["result"] = result.to_dict()
        return obs, reward, done, False, info

    def render(self) -> str | None:
        return self.table.render(self.render_mode, self.seat)

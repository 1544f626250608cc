"""The RL face (extra ``[rl]``): PettingZoo AEC and parallel environments, a Gymnasium single-seat
environment, and the documented observation tensors they share.

>>> from tabletrek.rl import aec_env
>>> env = aec_env("touring")
>>> env.reset(seed=1)
>>> sorted(env.observe(env.agent_selection))
['action_mask', 'observation']
>>> env.observe(env.agent_selection)["observation"].shape
(85,)
>>> import gymnasium
>>> gymnasium.make("tabletrek/touring-v1", opponents="greedy").action_space
Discrete(33)
"""

from typing import TYPE_CHECKING, Any

import gymnasium

from tabletrek.core.registry import games
from tabletrek.rl.aec import (
    TabletrekAEC,
    aec_env,
    env_name,
)
from tabletrek.rl.aec import __getattr__ as _versioned_env
from tabletrek.rl.features import ViewEncoder
from tabletrek.rl.parallel import TabletrekParallel, parallel_env
from tabletrek.rl.single import SingleSeatEnv
from tabletrek.rl.tensors import (
    ActionCodec,
    codec_for,
    information_state_layout,
    information_state_tensor,
    observation_layout,
    observation_tensor,
)

if TYPE_CHECKING:
    # Imported lazily below (numba); this gives type checkers the real signature, not Any.
    from tabletrek.rl.vector import vector_env


def _register_gymnasium_ids() -> None:
    """``gymnasium.make("tabletrek/touring-v1", opponents="greedy")`` and so on, for every game."""
    for name in games():
        env_id = f"tabletrek/{name}-v1"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="tabletrek.rl.single:SingleSeatEnv", kwargs={"game": name})


_register_gymnasium_ids()

__all__ = [
    "ActionCodec",
    "SingleSeatEnv",
    "TabletrekAEC",
    "TabletrekParallel",
    "ViewEncoder",
    "aec_env",
    "codec_for",
    "env_name",
    "information_state_layout",
    "information_state_tensor",
    "observation_layout",
    "observation_tensor",
    "parallel_env",
    "vector_env",
]


def __getattr__(name: str) -> Any:
    # The batch engines import numba: loaded on first use, not with every RL import.
    if name == "vector_env":
        from tabletrek.rl.vector import vector_env  # noqa: PLC0415 - numba: the [search] extra

        return vector_env
    # Every registered game's versioned PettingZoo constructor (``touring_v1``), from its spec.
    return _versioned_env(name)

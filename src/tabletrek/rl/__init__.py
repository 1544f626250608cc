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

from typing import Any

from tabletrek.rl.aec import (
    TabletrekAEC,
    aec_env,
    codenames_duet_v1,
    double_crossing_env,
    double_crossing_v1,
    env_name,
    mexican_train_env,
    mexican_train_v1,
    touring_env,
    touring_v1,
)
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


def _register_gymnasium_ids() -> None:
    """``gymnasium.make("tabletrek/touring-v1", opponents="greedy")`` and so on, for every game."""
    import gymnasium

    from tabletrek.core.registry import games

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
    "codenames_duet_v1",
    "double_crossing_env",
    "double_crossing_v1",
    "env_name",
    "information_state_layout",
    "information_state_tensor",
    "mexican_train_env",
    "mexican_train_v1",
    "observation_layout",
    "observation_tensor",
    "parallel_env",
    "touring_env",
    "touring_v1",
    "vector_env",
]


def __getattr__(name: str) -> Any:
    # The batch engines import numba: loaded on first use, not with every RL import.
    if name == "vector_env":
        from tabletrek.rl.vector import vector_env

        return vector_env
    raise AttributeError(f"module 'tabletrek.rl' has no attribute {name!r}")

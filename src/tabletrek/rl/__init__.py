"""The RL face (extra ``[rl]``): PettingZoo AEC environments and a Gymnasium single-seat wrapper.

>>> from tabletrek.rl import aec_env
>>> env = aec_env("touring")
>>> env.reset(seed=1)
>>> sorted(env.observe(env.agent_selection))
['action_mask', 'observation']
"""

from typing import Any

from tabletrek.rl.aec import TabletrekAEC, aec_env, double_crossing_env, mexican_train_env, touring_env
from tabletrek.rl.features import ViewEncoder
from tabletrek.rl.single import SingleSeatEnv

__all__ = [
    "SingleSeatEnv",
    "TabletrekAEC",
    "ViewEncoder",
    "aec_env",
    "double_crossing_env",
    "mexican_train_env",
    "touring_env",
    "vector_env",
]


def __getattr__(name: str) -> Any:
    # The batch engines import numba: loaded on first use, not with every RL import.
    if name == "vector_env":
        from tabletrek.rl.vector import vector_env

        return vector_env
    raise AttributeError(f"module 'tabletrek.rl' has no attribute {name!r}")

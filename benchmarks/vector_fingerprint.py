"""A fingerprint of the vector environment's outputs under seeded random play, for layout work on
the compiled batch engines.

    python -m benchmarks.vector_fingerprint [GAME ...] [--envs 64] [--steps 1500]

For each player count and option set below, steps ``vector_env(GAME, envs)`` from
``reset(seed=...)`` with ``sample_actions`` (a fixed generator) and hashes, step by step, every
observation, mask, seat, seed, reward, terminated flag and return, then the Python states that
``python_state`` hands back at the end (their dumps, generator included). A change meant to leave
every output alone (a narrower row, fields moved) must leave every printed hash unchanged: run it
before and after and compare.
"""

from __future__ import annotations

import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # before numba is imported

import argparse
import hashlib
import json
from typing import Any

import numpy as np

CONFIGS: dict[str, list[dict[str, Any]]] = {
    "touring": [
        {"players": 2},
        {"players": 2, "free_discard": True},
        {"players": 2, "max_turns": 40},
        {"players": 3},
        {"players": 3, "free_discard": True, "country_first": True},
        {"players": 4},
        {"players": 4, "country_first": True},
        {"players": 5},
        {"players": 6},
        {"players": 6, "max_turns": 150, "free_discard": True},
    ],
    "mexican-train": [
        {"players": 2},
        {"players": 4},
        {"players": 4, "rounds": 1, "set_size": 9},
        {"players": 3, "rounds": 2, "rotate_start": True, "relaxed_doubles": False},
        {"players": 8, "rounds": 1},
    ],
    "double-crossing": [
        {"players": 2},
        {"players": 4},
        {"players": 3, "exact_return": True, "stops_per_turn": 2},
        {"players": 6, "connections_needs_cars": True, "crew_per_roll": True, "forced_moves": True},
    ],
}


def fingerprint(game: str, config: dict[str, Any], envs: int, steps: int) -> str:
    from tabletrek.rl.vector import BatchEnv, sample_actions

    options = dict(config)
    players = options.pop("players")
    env = BatchEnv(game, envs, players=players, seed=11, **options)
    rng = np.random.default_rng(3)
    digest = hashlib.sha256()
    obs, info = env.reset(seed=11)
    for array in (obs, info["action_mask"], info["seat"], info["seed"]):
        digest.update(np.ascontiguousarray(array).tobytes())
    for _ in range(steps):
        obs, rewards, terminated, truncated, info = env.step(sample_actions(info["action_mask"], rng))
        for array in (obs, rewards, terminated, truncated, info["action_mask"], info["seat"]):
            digest.update(np.ascontiguousarray(array).tobytes())
        for array in (info["seed"], info["returns"]):
            digest.update(np.ascontiguousarray(array).tobytes())
    for i in range(envs):
        state = env.python_state(i)
        dump = state._dump()
        digest.update(json.dumps(dump, sort_keys=True, default=str).encode())
        digest.update(repr(state.rng.getstate()).encode())
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("games", nargs="*", default=sorted(CONFIGS), choices=sorted(CONFIGS))
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=1500)
    args = parser.parse_args()
    for game in args.games:
        for config in CONFIGS[game]:
            digest = fingerprint(game, config, args.envs, args.steps)
            print(f"{game} {json.dumps(config, sort_keys=True)} {digest}", flush=True)


if __name__ == "__main__":
    main()

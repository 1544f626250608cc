"""A fingerprint of everything the vector environment hands out, to show a change left it alone.

    python -m benchmarks.vector_fingerprint [GAME ...] [--steps 1500] [--envs 64]

For each game, each player count it allows and a few options, ``vector_env`` (copying, the
default) is stepped with ``sample_actions`` from a fixed seed; one sha256 per setting covers every
observation, mask, seat, seed, reward, termination and return handed out, then each env's game in
progress mapped back to the Python rules (``python_state``, the engine's ``canonical`` form). Run it
on two commits and compare the lines: an engine's row layout or dtype, or the env's copying path,
must not move a byte. It also re-hashes the last few steps' arrays at the end: what a caller got is
never written again, whatever the env does with its buffers.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from typing import Any

import numpy as np

import tabletrek
from benchmarks._numba_threads import numba_threads

SETTINGS: dict[str, list[dict[str, Any]]] = {
    "touring": [{}, {"free_discard": True}],
    "mexican-train": [
        {},
        {"rotate_start": True},
        {"relaxed_doubles": False},
        {"double_blank_points": 50, "rounds": 3},
        {"set_size": 12},
        {"engine": 4},
    ],
    "double-crossing": [{}],
}
KEPT = 3
"""Steps whose arrays are kept and hashed again at the end."""


def _digest(arrays: list[Any]) -> str:
    h = hashlib.sha256()
    for given in arrays:
        a = np.ascontiguousarray(given)
        h.update(str((a.dtype.str, a.shape)).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def fingerprint(game: str, players: int, options: dict[str, Any], steps: int, envs: int) -> str:
    from tabletrek.rl.vector import BatchEnv, sample_actions

    env = BatchEnv(game, envs, players=players, seed=7, **options)
    engine = env.engine
    rng = np.random.default_rng(7)
    obs, info = env.reset(seed=7)
    h = hashlib.sha256()
    kept: list[tuple[str, list[Any]]] = []
    for step in range(steps):
        out = env.step(sample_actions(info["action_mask"], rng))
        obs, rewards, terminated, truncated, info = out
        arrays = [obs, rewards, terminated, truncated, info["action_mask"], info["seat"], info["seed"]]
        arrays.append(info["returns"])
        digest = _digest(arrays)
        h.update(digest.encode())
        if step >= steps - KEPT:
            kept.append((digest, arrays))
    for digest, arrays in kept:
        if _digest(arrays) != digest:
            raise SystemExit(f"{game}: an array handed out was written again by a later step")
    for i in range(envs):
        state = env.python_state(i)
        h.update(json.dumps(engine.canonical(state), sort_keys=True, default=repr).encode())
    return h.hexdigest()


def main() -> None:
    numba_threads(1)  # one thread, as the figures assume
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(SETTINGS))
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--envs", type=int, default=64)
    args = parser.parse_args()
    for game in args.games:
        rules = tabletrek.load(game)
        for players in type(rules).player_counts:
            for options in SETTINGS[game]:
                try:
                    tabletrek.load(game, players=players, **options)
                except ValueError:
                    continue  # an option this player count does not take (a set's table sizes)
                digest = fingerprint(game, players, options, args.steps, args.envs)
                print(f"{game} players={players} {json.dumps(options, sort_keys=True)} {digest}", flush=True)


if __name__ == "__main__":
    main()

"""Checks that a compiled batch engine plays exactly the Python rules (the reference).

``check(game, games, players=..., **options)`` runs a batch of envs with random legal actions and,
beside each env, the Python game of the same seed (``new_game(info["seed"][i])``) fed the same
actions. Every move it compares the legal moves (the mask against ``legal_actions()``) and the
seat to act; every ``state_every`` moves each env's state is handed back to Python
(``BatchEnv.python_state``) and compared field by field with the reference state, generator
included (``canonical`` in the engine: what the rules depend on); every finished game's returns
and the reward of its last mover are compared. The first difference raises ``Mismatch`` naming the
seed, move and what differs. Used by ``tests/batch`` (CI-sized) and ``benchmarks/vector.py --check``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tabletrek.rl.vector import BatchEnv, sample_actions


class Mismatch(AssertionError):
    """The compiled engine and the Python rules disagree."""


@dataclass(frozen=True)
class Checked:
    games: int
    moves: int
    states: int


def check(
    game: str,
    games: int,
    players: int | None = None,
    seed: int = 0,
    num_envs: int = 256,
    state_every: int = 8,
    moves: int | None = None,
    **options: Any,
) -> Checked:
    """Play until ``games`` games have finished in the batch, comparing as the module says.

    With ``moves``, games are instead checked for their first ``moves`` moves only (a small move
    budget: deals and openings by the thousand): every env is dealt anew after that many steps,
    and each game started counts once."""
    env = BatchEnv(game, min(num_envs, games), players=players, **options)
    rules = env.rules
    canonical = env.engine.canonical
    _, info = env.reset(seed=seed)
    reference = [rules.new_game(seed=int(s)) for s in info["seed"]]
    rng = np.random.default_rng(seed)
    finished = played = states = started = 0
    step = 0
    while (started < games or step % moves != 0) if moves else finished < games:
        if moves and step % moves == 0:
            _, info = env.reset(seed=seed + started)
            reference = [rules.new_game(seed=int(s)) for s in info["seed"]]
            started += env.num_envs
        mask = info["action_mask"]
        for i, state in enumerate(reference):
            legal = sorted(a.index for a in state.legal_actions())
            if legal != np.flatnonzero(mask[i]).tolist():
                raise Mismatch(
                    f"{game} seed {state.seed} move {len(state.history)}: legal {legal}, "
                    f"batch {np.flatnonzero(mask[i]).tolist()}"
                )
            if state.current_player != info["seat"][i]:
                raise Mismatch(f"{game} seed {state.seed} move {len(state.history)}: seat to act differs")
            if (step + i) % state_every == 0:
                if canonical(state) != canonical(env.python_state(i)):
                    raise Mismatch(f"{game} seed {state.seed} move {len(state.history)}: states differ")
                states += 1
        actions = sample_actions(mask, rng)
        movers = info["seat"]
        _, rewards, terminated, _, info = env.step(actions)
        for i, state in enumerate(reference):
            state.apply(rules.action(int(actions[i])))
            played += 1
            if state.is_over != bool(terminated[i]):
                raise Mismatch(f"{game} seed {state.seed} move {len(state.history)}: game over differs")
            if state.is_over:
                result = state.result
                assert result is not None
                if list(result.returns) != info["returns"][i].tolist():
                    raise Mismatch(
                        f"{game} seed {state.seed}: returns {result.returns} vs {info['returns'][i]}"
                    )
                if rewards[i] != result.returns[movers[i]]:
                    raise Mismatch(f"{game} seed {state.seed}: the last mover's reward differs")
                finished += 1
                reference[i] = rules.new_game(seed=int(info["seed"][i]))
        step += 1
    return Checked(started if moves else finished, played, states)

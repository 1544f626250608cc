"""Fit a game's position evaluation for the search bot's cut playouts, on its heuristic's games.

    python -m benchmarks.fit_evaluation GAME [--games 3000] [--seed 10000] [--players 2]

GAME is ``touring`` (``games/touring/rollout.py``, greedy's fast policy) or ``double-crossing``
(``games/double_crossing/evaluation.py``, the trader bot). Plays games between the heuristic's
copies, samples every seventh position with a random seat, labels it with whether that seat won,
and fits a logistic regression on the game's ``features`` (Newton's method with a light ridge,
numpy from the ``rl`` extra). Prints the weights to copy into ``EVAL_WEIGHTS``, with the fit's log
loss and accuracy on the positions.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

import numpy as np

import tabletrek
from tabletrek.core.actions import Action
from tabletrek.core.bots import Bot
from tabletrek.core.search import RolloutPolicy
from tabletrek.core.state import State

Features = Callable[[State, int], list[float]]


def features_of(name: str) -> Features:
    if name == "touring":
        from tabletrek.games.touring.rollout import features

        return features
    if name == "double-crossing":
        from tabletrek.games.double_crossing.evaluation import features as dc_features

        return dc_features
    raise SystemExit(f"no evaluation features for {name}: touring or double-crossing")


def move(state: State, fast: RolloutPolicy | None, bots: list[Bot], rng: random.Random) -> Action:
    """The game's fast policy where it has one, else its heuristic bot for the seat to act."""
    if fast is not None:
        return fast(state, rng)
    seat = state.current_player
    assert seat is not None
    return bots[seat].act(state)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    features = features_of(args.game)
    game = tabletrek.load(args.game, players=args.players)
    fast = game.search().policy
    rows: list[list[float]] = []
    labels: list[float] = []
    for i in range(args.games):
        state = game.new_game(seed=args.seed + i)
        rng = random.Random(args.seed + i)
        bots = (
            []
            if fast
            else [game.bot(game.default_bot, seat=s, seed=args.seed + i) for s in range(game.players)]
        )
        sampled: list[tuple[list[float], int]] = []
        step = 0
        while not state.is_over:
            if step % 7 == 0:
                seat = rng.randrange(game.players)
                sampled.append((features(state, seat), seat))
            state.apply(move(state, fast, bots, rng))
            step += 1
        result = state.result
        assert result is not None
        for row, seat in sampled:
            rows.append(row)
            labels.append(0.5 if not result.winners else float(seat in result.winners))
    x = np.array(rows)
    y = np.array(labels)
    w = np.zeros(x.shape[1])
    ridge = 1e-3
    for _ in range(30):
        p = 1 / (1 + np.exp(-x @ w))
        hessian = x.T @ (x * (p * (1 - p))[:, None]) + ridge * np.eye(len(w))
        w -= np.linalg.solve(hessian, x.T @ (p - y) + ridge * w)
    p = 1 / (1 + np.exp(-x @ w))
    loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    accuracy = np.mean((p > 0.5) == (y > 0.5))
    print(f"{len(y)} positions from {args.games} games: log loss {loss:.4f}, accuracy {accuracy:.3f}")
    print("EVAL_WEIGHTS = (" + ", ".join(f"{v:.3f}" for v in w) + ")")


if __name__ == "__main__":
    main()

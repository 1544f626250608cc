"""Fit Touring's position evaluation (``games/touring/rollout.py``) on greedy-vs-greedy games.

    python -m benchmarks.touring_evaluation [--games 3000] [--seed 10000]

Plays games with the fast greedy policy, samples every seventh position with a random seat,
labels it with whether that seat's team won, and fits a logistic regression on ``features``
(Newton's method with a light ridge, numpy from the ``rl`` extra). Prints the weights to copy into
``EVAL_WEIGHTS``, with the fit's log loss and accuracy on the positions.
"""

from __future__ import annotations

import argparse
import random

import numpy as np

import tabletrek
from tabletrek.games.touring.rollout import features, greedy_policy


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=10_000)
    args = parser.parse_args()
    game = tabletrek.load("touring", players=2)
    rows: list[list[float]] = []
    labels: list[float] = []
    for i in range(args.games):
        state = game.new_game(seed=args.seed + i)
        rng = random.Random(args.seed + i)
        sampled: list[tuple[list[float], int]] = []
        step = 0
        while not state.is_over:
            if step % 7 == 0:
                seat = rng.randrange(game.players)
                sampled.append((features(state, seat), seat))
            state.apply(greedy_policy(state, rng))
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

"""Fit the value network that scores compiled Touring's cut playouts (``games/touring/evaluation.py``).

    python -m benchmarks.touring_value_net [--games 28000] [--continuations 16] [--hidden 32]
        [--epochs 60] [--seed 1] [--processes 2] [--out FILE]

Plays greedy-vs-greedy 2-player games compiled and labels positions with ``label_positions`` (4
turns a game drawn below 600, both seats; each label the mean result of ``--continuations``
playouts with the draw pile reshuffled), spread over ``--processes``. Fits a network with one
tanh layer of ``--hidden`` units and a logistic output by Adam on the cross-entropy (numpy, from
the ``rl`` extra) on four fifths of the positions, and prints the squared error to the labels on
the other fifth: a constant, the logistic model (``evaluation.logistic``), the network, and the
labels' own noise (what a perfect evaluation would still show). With ``--out``, writes the weights:
the shipped ``src/tabletrek/games/touring/data/value_net.npz`` is the defaults' output, bit for bit
(about a minute on two cores). Needs numba.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

import tabletrek
from tabletrek.core.rng import derive_seed
from tabletrek.games.touring import evaluation, kernel

SNAPSHOTS = 4
LAST_TURN = 600


def label_chunk(seed: int, games: int, continuations: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, labels and the logistic model's values of the positions of ``games`` games."""
    game = tabletrek.load("touring", players=2)
    states = [game.new_game(seed=derive_seed(seed, "game", g)) for g in range(games)]
    starts = np.array([kernel.pack(s) for s in states])
    cfg = kernel.config(states[0])
    rows = games * SNAPSHOTS * 2
    features = np.zeros((rows, evaluation.FEATURES))
    labels = np.zeros(rows)
    logistic = np.zeros(rows)
    n = evaluation.label_positions(
        starts, cfg, kernel.WEIGHTS, SNAPSHOTS, LAST_TURN, continuations, seed, features, labels, logistic
    )
    return features[:n], labels[:n], logistic[:n]


def fit(
    x: np.ndarray, y: np.ndarray, hidden: int, epochs: int, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One tanh layer and a logistic output, by Adam on minibatches of the cross-entropy."""
    rng = np.random.default_rng(seed)
    d = x.shape[1]
    params = [
        rng.normal(0, 1 / np.sqrt(d), (d, hidden)),
        np.zeros(hidden),
        rng.normal(0, 1 / np.sqrt(hidden), hidden),
        np.zeros(1),
    ]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    rate, batch, ridge, step = 3e-3, 512, 1e-5, 0
    for _ in range(epochs):
        order = rng.permutation(len(y))
        for start in range(0, len(y), batch):
            rows = order[start : start + batch]
            xb, yb = x[rows], y[rows]
            h = np.tanh(xb @ params[0] + params[1])
            p = predict_from_hidden(h, params)
            dz = (p - yb) / len(rows)
            dh = np.outer(dz, params[2]) * (1 - h * h)
            grads = [
                xb.T @ dh + ridge * params[0],
                dh.sum(0),
                h.T @ dz + ridge * params[2],
                np.array([dz.sum()]),
            ]
            step += 1
            for k, g in enumerate(grads):
                first[k] = 0.9 * first[k] + 0.1 * g
                second[k] = 0.999 * second[k] + 0.001 * g * g
                mean, square = first[k] / (1 - 0.9**step), second[k] / (1 - 0.999**step)
                params[k] -= rate * mean / (np.sqrt(square) + 1e-8)
    return params[0], params[1], params[2], params[3]


def predict_from_hidden(h: np.ndarray, params: list[np.ndarray]) -> np.ndarray:
    z = np.clip(h @ params[2] + params[3][0], -30, 30)
    return 1 / (1 + np.exp(-z))


def predict(x: np.ndarray, net: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    w1, b1, w2, b2 = net
    return predict_from_hidden(np.tanh(x @ w1 + b1), [w1, b1, w2, b2])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=28000)
    parser.add_argument("--continuations", type=int, default=16)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out")
    args = parser.parse_args()
    if not kernel.available():
        raise SystemExit("this benchmark needs numba: pip install -e '.[search]'")
    start = time.perf_counter()
    chunks = 4 * args.processes
    sizes = [args.games * (k + 1) // chunks - args.games * k // chunks for k in range(chunks)]
    seeds = [derive_seed(args.seed, "chunk", k) for k in range(chunks)]
    with ProcessPoolExecutor(args.processes) as pool:
        parts = list(pool.map(label_chunk, seeds, sizes, [args.continuations] * chunks))
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    logistic = np.concatenate([p[2] for p in parts])
    print(f"{len(y)} positions labelled in {time.perf_counter() - start:.0f} s")
    # Held out by game: chunks are whole games, so the last chunk's positions are all unseen.
    held = len(parts[-1][1])
    train, test = slice(0, len(y) - held), slice(len(y) - held, len(y))
    start = time.perf_counter()
    net = fit(x[train], y[train], args.hidden, args.epochs, args.seed)
    print(f"fitted in {time.perf_counter() - start:.0f} s; squared error on {held} held-out positions:")
    yt = y[test]
    k = args.continuations
    rows = [
        ("a constant", np.full(held, y[train].mean())),
        ("the logistic model", logistic[test]),
        ("the network", predict(x[test], net)),
    ]
    for name, values in rows:
        print(f"  {name:20s} {np.mean((values - yt) ** 2):.5f}")
    # A label is a mean of k results: its variance around the true chance is p(1-p)/k.
    print(f"  {'the labels own noise':20s} {np.mean(yt * (1 - yt) / (k - 1)):.5f}")
    if args.out:
        w1, b1, w2, b2 = net
        np.savez(args.out, W1=w1, b1=b1, W2=w2, b2=b2)
        print(f"weights written to {args.out}")


if __name__ == "__main__":
    main()

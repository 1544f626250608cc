"""Train a Touring policy by self-play on the compiled batch engine, then measure it against bots.

``tabletrek.rl.vector_env("touring", --envs)`` advances that many two-player games in one compiled
call per step; ``info["seat"]`` says whose move each row is, and a finished game is dealt again in
the same step (``docs/vector.md``). The learner holds seat ``i % 2`` of env ``i``; the other seat
is its league, one drawn per game: uniformly random play in half the games (``--random-share``),
else one of the learner's frozen copies, taken every ten updates (the last ten kept). Pure
self-play, the learner on both seats, drifted: after 10,000 games it beat random play 87% of the
time and after 60,000 only 77% (``docs/research.md``).

The learner is the numpy actor-critic of ``train_touring_pg.py`` (the same network, loss and
Adam), fed the batch engine's observation rows (layout in the docstring of
``tabletrek/games/touring/batch.py``) on a log scale. When a game ends, the learner's moves in it
become samples carrying its return (``info["returns"]``), discounted, plus the same
potential-based shaping from the mileage race, from its own view; the policy steps once for every
``--batch-games`` finished games.

Then the policy, choosing its most probable legal move, plays ``--eval-games`` fresh games against
tabletrek's ``random`` and ``greedy`` bots, seats alternating. The games run in a batch env too;
the bots decide on the Python rules' own state of each game (``BatchEnv.python_state``), so they
are the bots of ``tabletrek play`` and ``train_touring_pg.py``'s evaluation, not a copy of them.
Win rates come with 95% Wilson intervals; each env's first game is the one counted, so short games
are not over-counted.

    python examples/selfplay_touring_vector.py            # 20,000 training games
    python examples/selfplay_touring_vector.py --smoke    # seconds: what CI runs

Needs the ``[rl]`` and ``[search]`` extras (gymnasium, numba): ``pip install -e '.[rl,search]'``.
"""

from __future__ import annotations

import argparse
import copy
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from train_touring_pg import Adam, Array, Policy, count, discounted, features, publish, scored

from tabletrek.core.bots import make_bot
from tabletrek.games.touring.batch import C
from tabletrek.games.touring.cards import MILES
from tabletrek.rl.vector import BatchEnv, sample_actions, vector_env

Samples = tuple[Array, npt.NDArray[np.bool_], npt.NDArray[np.int64], Array]
"""Features, masks, actions and returns, one row per move."""

TABLE = C + 1 + 3 + 8
"""One table's block in the observation: Go-pile top one-hot, speed top one-hot, mileage counts,
mileage still required (the engine's docstring); the seat's own hand counts come first."""


def potential(obs: npt.NDArray[np.float32], tables: int, goal: float) -> Array:
    """Per row, the shaping potential of the seat to act: the share of the trip the other tables
    still lack, less its own (tables come rotated, its own first)."""
    lack = np.stack(
        [
            obs[:, C + t * TABLE + C + 8 : C + (t + 1) * TABLE] @ np.array(MILES, np.float32)
            for t in range(tables)
        ],
        axis=1,
    ) / np.float32(goal)
    return (lack[:, 1:].mean(axis=1) - lack[:, 0]).astype(np.float64)


def sample(probs: Array, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One action per row drawn from ``probs`` (zero off the legal moves, which are never drawn:
    the first index whose running total reaches a draw in (0, 1])."""
    running = probs.cumsum(axis=1)
    running /= running[:, -1:]
    draw = 1.0 - rng.random(len(probs))
    return (running < draw[:, None]).sum(axis=1).astype(np.int64)


class Rollouts:
    """The moves of each env's game in progress; a finished game's moves become samples."""

    def __init__(self, num_envs: int, shaping: float, gamma: float) -> None:
        self.shaping, self.gamma = shaping, gamma
        self.steps: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], Any, Array, Any]] = []
        self.first = 0  # the step number of steps[0]
        self.now = 0
        self.start = np.zeros(num_envs, dtype=np.int64)  # the step each env's game began at

    def add(
        self,
        obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.bool_],
        seats: npt.NDArray[np.int64],
        actions: npt.NDArray[np.int64],
        phi: Array,
    ) -> None:
        """One step of every env: what each seat to act saw and chose."""
        self.steps.append((obs, mask, seats, phi, actions))
        self.now += 1

    def finish(self, env: int, returns: npt.NDArray[np.float32], learners: Sequence[int]) -> Samples:
        """The samples of env ``env``'s game, just ended with ``returns`` (one per seat): the
        features, mask and action of every move of the seats ``learners``, and its seat's
        discounted shaped return from there; the env's next game starts with the next step."""
        rows = self.steps[int(self.start[env]) - self.first : self.now - self.first]
        self.start[env] = self.now
        seats = np.array([row[2][env] for row in rows])
        phi = np.array([row[3][env] for row in rows])
        target = np.zeros(len(rows))
        for seat in learners:
            mine = np.flatnonzero(seats == seat)
            if not len(mine):
                continue
            after = np.append(phi[mine][1:], 0.0)  # the potential of an ended game: 0
            rewards = self.shaping * (self.gamma * after - phi[mine])
            rewards[-1] += float(returns[seat])
            target[mine] = discounted(rewards.tolist(), self.gamma)
        kept = np.flatnonzero(np.isin(seats, learners))
        return (
            features(np.stack([rows[k][0][env] for k in kept])),
            np.stack([rows[k][1][env] for k in kept]),
            np.array([rows[k][4][env] for k in kept], dtype=np.int64),
            target[kept],
        )

    def forget(self) -> None:
        """Drops the steps no game in progress began at or after."""
        drop = int(self.start.min()) - self.first
        del self.steps[:drop]
        self.first += drop


class League:
    """The learner's opponents: frozen copies of its policy, one taken every ``every`` updates (the
    last ``size`` kept), and uniformly random play. Each game draws one of them for the seat the
    learner does not hold."""

    RANDOM = -1

    def __init__(self, size: int, every: int, random_share: float) -> None:
        self.size, self.every, self.random_share = size, every, random_share
        self.pool: list[Policy] = []

    def updated(self, policy: Policy, updates: int) -> None:
        if updates % self.every == 0:
            self.pool = [*self.pool, copy.deepcopy(policy)][-self.size :]

    def draw(self, rng: np.random.Generator, n: int) -> npt.NDArray[np.int64]:
        """``n`` opponents: ``RANDOM`` (random play) with probability ``random_share``, else an
        index into the pool, each copy as likely (random play only until the first copy)."""
        if not self.pool:
            return np.full(n, self.RANDOM, dtype=np.int64)
        copies = rng.integers(0, len(self.pool), n)
        return np.where(rng.random(n) < self.random_share, self.RANDOM, copies)

    def moves(
        self,
        who: npt.NDArray[np.int64],
        obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.bool_],
        rng: np.random.Generator,
    ) -> npt.NDArray[np.int64]:
        """The moves of the opponents ``who`` (one per row of ``obs`` and ``mask``)."""
        out = np.zeros(len(who), dtype=np.int64)
        for k in np.unique(who):
            rows = np.flatnonzero(who == k)
            if k == self.RANDOM:
                out[rows] = sample_actions(mask[rows], rng)
            else:
                _, probs, _ = self.pool[k].forward(features(obs[rows]), mask[rows])
                out[rows] = sample(probs, rng)
        return out


def train(
    games: int,
    num_envs: int = 256,
    seed: int = 0,
    batch_games: int = 64,
    lr: float = 0.003,
    shaping: float = 1.0,
    entropy_coef: float = 0.03,
    gamma: float = 0.98,
    log_every: int = 0,
    league_size: int = 10,
    snapshot_every: int = 10,
    random_share: float = 0.5,
) -> tuple[Policy, list[dict[str, float]], int]:
    """``games`` finished games, the learner in seat ``i % 2`` of env ``i`` against its league;
    returns the policy, its learning log and the env-steps played."""
    env = vector_env("touring", num_envs, players=2, seed=seed)
    tables = env.rules.teams  # type: ignore[attr-defined]  # Touring's own, not on Game
    goal = float(env.rules.goal_miles)  # type: ignore[attr-defined]  # as above
    policy = Policy(env.single_observation_space.shape[0], int(env.single_action_space.n), seed=seed)
    optimizer = Adam(policy.params, lr)
    rng = np.random.default_rng(seed)
    rollouts = Rollouts(num_envs, shaping, gamma)
    league = League(league_size, snapshot_every, random_share)
    learner = np.arange(num_envs) % 2
    opponent = league.draw(rng, num_envs)
    obs, info = env.reset(seed=seed)
    batch: list[Samples] = []
    finished = waiting = steps = 0
    lengths: list[int] = []
    log: list[dict[str, float]] = []
    while finished < games:
        mask, seats = info["action_mask"], info["seat"]
        mine = seats == learner
        actions = np.zeros(num_envs, dtype=np.int64)
        _, probs, _ = policy.forward(features(obs[mine]), mask[mine])
        actions[mine] = sample(probs, rng)
        actions[~mine] = league.moves(opponent[~mine], obs[~mine], mask[~mine], rng)
        rollouts.add(obs, mask, info["seat"], actions, potential(obs, tables, goal))
        obs, _, ended, _, info = env.step(actions)
        steps += num_envs
        for i in np.flatnonzero(ended):
            lengths.append(rollouts.now - int(rollouts.start[i]))
            batch.append(rollouts.finish(int(i), info["returns"][i], [int(learner[i])]))
            opponent[i] = league.draw(rng, 1)[0]
            finished += 1
            waiting += 1
        if waiting >= batch_games:
            rollouts.forget()
            x, masks, chosen, returns = (np.concatenate(part) for part in zip(*batch, strict=True))
            grads, stats = policy.gradients(x, masks, chosen, returns, entropy_coef, value_coef=0.5)
            optimizer.step(policy.params, grads)
            league.updated(policy, len(log) + 1)
            log.append(
                {"games": finished, "samples": len(chosen), "mean_length": float(np.mean(lengths)), **stats}
            )
            if log_every and finished // log_every != (finished - waiting) // log_every:
                print(
                    f"{finished} games: entropy {stats['entropy']:.2f}, mean length {np.mean(lengths):.0f}",
                    flush=True,
                )
            batch, lengths, waiting = [], [], 0
    return policy, log, steps


def greedy_moves(
    policy: Policy, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]
) -> npt.NDArray[np.int64]:
    _, probs, _ = policy.forward(features(obs), mask)
    return np.argmax(probs, axis=1).astype(np.int64)


def evaluate(policy: Policy, opponent: str, games: int, seed: int) -> dict[str, Any]:
    """``games`` games, one per env, the policy in seat ``i % 2`` of env ``i`` and the bot
    ``opponent`` in the other; the policy plays its most probable legal move."""
    env: BatchEnv = vector_env("touring", games, players=2)
    learner = np.arange(games) % 2
    bots = [make_bot(env.rules, opponent, seat=1 - int(learner[i]), seed=seed + i) for i in range(games)]
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=10**9 + seed * 100_003)
    result = np.full(games, np.nan)  # the policy's return in each env's first game
    while np.isnan(result).any():
        mask, seats = info["action_mask"], info["seat"]
        actions = greedy_moves(policy, obs, mask)
        filler = sample_actions(mask, rng)  # envs whose counted game is over play on at random
        for i in range(games):
            if not np.isnan(result[i]):
                actions[i] = filler[i]
            elif seats[i] != learner[i]:
                actions[i] = bots[i].act(env.python_state(i)).index
        obs, _, ended, _, info = env.step(actions)
        for i in np.flatnonzero(ended & np.isnan(result)):
            result[i] = info["returns"][i, learner[i]]
    return scored(opponent, int((result > 0).sum()), games)


def share(text: str) -> float:
    """An argparse type: a fraction from 0 to 1."""
    value = float(text)
    if not 0.0 <= value <= 1.0:  # NaN fails too
        raise argparse.ArgumentTypeError(f"must be from 0 to 1, not {text}")
    return value


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=count(1), default=20_000, help="training games (default 20,000)")
    parser.add_argument("--envs", type=count(1), default=256, help="games played at once (default 256)")
    parser.add_argument("--batch-games", type=count(1), default=64, help="finished games per update")
    parser.add_argument("--eval-games", type=count(1), default=1000, help="evaluation games per opponent")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=0.003, help="Adam's step size")
    parser.add_argument(
        "--gamma", type=float, default=0.98, help="discount (with shaping, < 1 cuts variance)"
    )
    parser.add_argument("--entropy", type=float, default=0.03, help="weight of the entropy bonus")
    parser.add_argument(
        "--random-share",
        type=share,
        default=0.5,
        help="share of games against random play, the rest against frozen copies (default 0.5)",
    )
    parser.add_argument("--smoke", action="store_true", help="a few games only (for CI)")
    parser.add_argument("--out", help="write the figures (and the weights) to this JSON file")
    args = parser.parse_args(argv)
    games, envs, batch_games, eval_games = (
        (24, 16, 8, 6) if args.smoke else (args.games, args.envs, args.batch_games, args.eval_games)
    )
    start, cpu_start = time.perf_counter(), time.process_time()
    policy, log, steps = train(
        games,
        envs,
        args.seed,
        batch_games,
        lr=args.lr,
        gamma=args.gamma,
        entropy_coef=args.entropy,
        random_share=args.random_share,
        log_every=0 if args.smoke else 5000,
    )
    trained, trained_cpu = time.perf_counter() - start, time.process_time() - cpu_start
    results = [evaluate(policy, opponent, eval_games, args.seed) for opponent in ("random", "greedy")]
    report = {
        "games": games,
        "envs": envs,
        "env_steps": steps,
        "updates": len(log),
        "training_seconds": round(trained, 1),
        "training_cpu_seconds": round(trained_cpu, 1),
        "total_seconds": round(time.perf_counter() - start, 1),
        "total_cpu_seconds": round(time.process_time() - cpu_start, 1),
        "evaluation": results,
        "learning_curve": log[:: max(1, len(log) // 20)],
    }
    print(
        f"trained on {games} games against its league ({steps:,} moves) in {trained:.0f} s "
        f"({trained_cpu:.0f} CPU s, {steps / max(trained_cpu, 1e-9):,.0f} moves per CPU second with learning)"
    )
    publish(report, policy, args.out)
    return report


if __name__ == "__main__":
    main()

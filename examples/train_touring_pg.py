"""Train a Touring agent with a small numpy policy-gradient learner, then measure it.

The agent plays one seat of two-player Touring through tabletrek's Gymnasium environment
(``tabletrek.rl.SingleSeatEnv``), reading the documented observation tensor
(``docs/observations.md``) and choosing among the legal moves only (the action mask). It learns
by REINFORCE with a learned baseline (actor-critic without bootstrapping): a one-hidden-layer
network in numpy, Adam, an entropy bonus. The reward is the game's (+1 win, -1 loss) plus
potential-based shaping from the mileage race (own progress minus the opponent's: F = gamma *
phi(next) - phi(now), which leaves the best policy unchanged and gives every move feedback), with
returns discounted by gamma = 0.98 to cut the variance of 150-move games. It trains against the
random bot (alternating seats); ``--opponent mix`` (random and greedy in turn) did worse on the
measurements, both against random and against greedy.

Then it plays ``--eval-games`` fresh games against the random bot and against the greedy bot
(seats alternating) and prints its win rate with 95% Wilson intervals.

    python examples/train_touring_pg.py                 # the full run (~5 minutes of CPU)
    python examples/train_touring_pg.py --smoke         # seconds: what CI runs

Needs the ``[rl]`` extra (numpy, gymnasium, pettingzoo): ``pip install -e '.[rl]'``.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from tabletrek.rl import SingleSeatEnv, observation_layout
from tabletrek.sim.stats import wilson_interval

Array = npt.NDArray[np.float64]


def features(obs: npt.NDArray[np.float32]) -> Array:
    """The tensor's counts on a log scale (every Touring field is a count or a flag, >= 0)."""
    return np.log1p(np.maximum(obs.astype(np.float64), 0.0))


def progress(env: SingleSeatEnv, obs: npt.NDArray[np.float32]) -> float:
    """The shaping potential: the share of the trip the learner's team still lacks, minus the
    opponent's (both from the tensor's ``miles_needed`` field)."""
    needed = observation_layout(env.game).split(obs)["miles_needed"]
    goal = float(env.game.goal_miles)  # type: ignore[attr-defined]  # Touring's own, not on Game
    miles = np.array([1.0, 3.0, 15.0, 30.0])
    lack = needed @ miles / goal
    return float(lack[1:].mean() - lack[0])


@dataclass
class Policy:
    """A one-hidden-layer tanh network with a softmax policy head and a value head."""

    inputs: int
    actions: int
    hidden: int = 64
    seed: int = 0
    params: dict[str, Array] = field(init=False)

    def __post_init__(self) -> None:
        rng = np.random.default_rng(self.seed)
        self.params = {
            "w1": rng.normal(0, 1 / math.sqrt(self.inputs), (self.hidden, self.inputs)),
            "b1": np.zeros(self.hidden),
            "w2": rng.normal(0, 0.01, (self.actions, self.hidden)),
            "b2": np.zeros(self.actions),
            "wv": np.zeros(self.hidden),
            "bv": np.zeros(1),
        }

    def forward(self, x: Array, mask: npt.NDArray[np.bool_]) -> tuple[Array, Array, Array]:
        p = self.params
        h = np.tanh(x @ p["w1"].T + p["b1"])
        logits = h @ p["w2"].T + p["b2"]
        logits = np.where(mask, logits, -1e9)
        logits -= logits.max(axis=-1, keepdims=True)
        probs = np.exp(logits) * mask
        probs /= probs.sum(axis=-1, keepdims=True)
        value = h @ p["wv"] + p["bv"][0]
        return h, probs, value

    def act(
        self, x: Array, mask: npt.NDArray[np.bool_], rng: np.random.Generator, greedy: bool = False
    ) -> int:
        _, probs, _ = self.forward(x[None, :], mask[None, :])
        if greedy:
            return int(np.argmax(probs[0]))
        return int(rng.choice(len(probs[0]), p=probs[0]))

    def gradients(
        self,
        x: Array,
        mask: npt.NDArray[np.bool_],
        actions: npt.NDArray[np.int64],
        returns: Array,
        entropy_coef: float,
        value_coef: float,
    ) -> tuple[dict[str, Array], dict[str, float]]:
        """Gradients of the batch's loss (policy + value - entropy), averaged over steps."""
        p = self.params
        n = len(actions)
        h, probs, value = self.forward(x, mask)
        advantage = returns - value
        adv = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
        onehot = np.zeros_like(probs)
        onehot[np.arange(n), actions] = 1.0
        logp = np.log(np.where(mask, probs, 1.0) + 1e-12)
        entropy = -(probs * logp).sum(axis=1)
        # d(-adv * log pi(a))/dz = -adv * (onehot - p); d(-H)/dz = p * (log p + H)
        dz = -adv[:, None] * (onehot - probs) + entropy_coef * probs * (logp + entropy[:, None])
        dz *= mask
        dv = value_coef * (value - returns)
        grads = {
            "w2": dz.T @ h / n,
            "b2": dz.mean(axis=0),
            "wv": dv @ h / n,
            "bv": np.array([dv.mean()]),
        }
        dh = dz @ p["w2"] + dv[:, None] * p["wv"][None, :]
        dpre = dh * (1 - h * h)
        grads["w1"] = dpre.T @ x / n
        grads["b1"] = dpre.mean(axis=0)
        stats = {"entropy": float(entropy.mean()), "value_error": float(np.mean(advantage**2))}
        return grads, stats

    def to_json(self) -> str:
        return json.dumps({k: v.tolist() for k, v in self.params.items()})


class Adam:
    def __init__(self, params: dict[str, Array], lr: float) -> None:
        self.lr, self.t = lr, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params: dict[str, Array], grads: dict[str, Array]) -> None:
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            m_hat = self.m[k] / (1 - 0.9**self.t)
            v_hat = self.v[k] / (1 - 0.999**self.t)
            params[k] -= self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def play_episode(
    env: SingleSeatEnv,
    policy: Policy,
    rng: np.random.Generator,
    seed: int,
    shaping: float,
    gamma: float = 1.0,
) -> tuple[list[Array], list[npt.NDArray[np.bool_]], list[int], list[float], float]:
    obs, info = env.reset(seed=seed)
    xs, masks, actions, rewards = [], [], [], []
    potential = progress(env, obs["observation"])
    done = truncated = False
    outcome = 0.0
    while not (done or truncated):
        x, mask = features(obs["observation"]), obs["action_mask"].astype(bool)
        action = policy.act(x, mask, rng)
        obs, reward, done, truncated, info = env.step(action)
        assert "illegal" not in info, "the policy only picks masked moves"
        new_potential = progress(env, obs["observation"])
        xs.append(x)
        masks.append(mask)
        actions.append(action)
        rewards.append(float(reward) + shaping * (gamma * new_potential - potential))
        potential = new_potential
        outcome = float(reward)
    return xs, masks, actions, rewards, outcome


def discounted(rewards: list[float], gamma: float) -> Array:
    out = np.zeros(len(rewards))
    total = 0.0
    for t in range(len(rewards) - 1, -1, -1):
        total = rewards[t] + gamma * total
        out[t] = total
    return out


def train(
    episodes: int,
    opponent: str = "random",
    seed: int = 0,
    batch: int = 16,
    lr: float = 0.01,
    shaping: float = 1.0,
    entropy_coef: float = 0.01,
    log_every: int = 0,
    gamma: float = 0.98,
) -> tuple[Policy, list[dict[str, float]]]:
    # "mix" alternates random and greedy opponents, so the agent meets both kinds of play.
    kinds = ["random", "greedy"] if opponent == "mix" else [opponent]
    envs = [SingleSeatEnv("touring", seat=s, opponents=k) for k in kinds for s in (0, 1)]
    policy = Policy(observation_layout(envs[0].game).size, int(envs[0].action_space.n), seed=seed)
    optimizer = Adam(policy.params, lr)
    rng = np.random.default_rng(seed)
    log: list[dict[str, float]] = []
    batch_x: list[Array] = []
    batch_mask: list[npt.NDArray[np.bool_]] = []
    batch_a: list[int] = []
    batch_g: list[float] = []
    wins: list[float] = []
    for episode in range(episodes):
        env = envs[episode % len(envs)]
        xs, masks, actions, rewards, outcome = play_episode(
            env, policy, rng, seed * 1_000_003 + episode, shaping, gamma
        )
        returns = discounted(rewards, gamma)
        batch_x += xs
        batch_mask += masks
        batch_a += actions
        batch_g += returns.tolist()
        wins.append(outcome > 0)
        if (episode + 1) % batch == 0:
            grads, stats = policy.gradients(
                np.array(batch_x),
                np.array(batch_mask),
                np.array(batch_a),
                np.array(batch_g),
                entropy_coef,
                value_coef=0.5,
            )
            optimizer.step(policy.params, grads)
            batch_x, batch_mask, batch_a, batch_g = [], [], [], []
            recent = float(np.mean(wins[-200:]))
            log.append({"episode": episode + 1, "train_win_rate_last_200": recent, **stats})
            if log_every and (episode + 1) // log_every != (episode + 1 - batch) // log_every:
                print(
                    f"episode {episode + 1}: win rate (last 200 training games) {recent:.3f}, "
                    f"entropy {stats['entropy']:.2f}",
                    flush=True,
                )
    return policy, log


def evaluate(policy: Policy, opponent: str, games: int, seed: int) -> dict[str, Any]:
    """Greedy play (the most probable legal move) in ``games`` fresh games, seats alternating."""
    envs = [SingleSeatEnv("touring", seat=s, opponents=opponent) for s in (0, 1)]
    rng = np.random.default_rng(seed)
    wins = 0
    for g in range(games):
        env = envs[g % 2]
        obs, _ = env.reset(seed=10**9 + seed * 100_003 + g)
        done = truncated = False
        reward = 0.0
        while not (done or truncated):
            action = policy.act(
                features(obs["observation"]), obs["action_mask"].astype(bool), rng, greedy=True
            )
            obs, reward, done, truncated, _ = env.step(action)
        wins += float(reward) > 0
    return scored(opponent, wins, games)


def scored(opponent: str, wins: int, games: int) -> dict[str, Any]:
    """One evaluation's row, as ``publish`` prints it: wins, the rate and its 95% Wilson interval."""
    low, high = wilson_interval(wins, games)
    return {"opponent": opponent, "games": games, "wins": wins, "win_rate": wins / games, "ci95": [low, high]}


def count(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``least`` (0 evaluation games divided by zero)."""

    def parse(text: str) -> int:
        value = int(text)
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
        return value

    return parse


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--episodes", type=count(0), default=6000, help="training games (default 6000; 0: untrained)"
    )
    parser.add_argument("--eval-games", type=count(1), default=1000, help="evaluation games per opponent")
    parser.add_argument(
        "--opponent",
        default="random",
        choices=["random", "greedy", "mix"],
        help="the bot to train against: random, greedy, or mix (both, alternating)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=0.01, help="Adam's step size")
    parser.add_argument(
        "--gamma", type=float, default=0.98, help="discount (with shaping, < 1 cuts variance)"
    )
    parser.add_argument("--smoke", action="store_true", help="a few games only (for CI)")
    parser.add_argument("--out", help="write the figures (and the weights) to this JSON file")
    args = parser.parse_args(argv)
    episodes, eval_games = (32, 10) if args.smoke else (args.episodes, args.eval_games)
    start, cpu_start = time.perf_counter(), time.process_time()
    policy, log = train(
        episodes, args.opponent, args.seed, lr=args.lr, gamma=args.gamma, log_every=0 if args.smoke else 500
    )
    trained, trained_cpu = time.perf_counter() - start, time.process_time() - cpu_start
    results = [evaluate(policy, opponent, eval_games, args.seed) for opponent in ("random", "greedy")]
    report = {
        "episodes": episodes,
        "training_seconds": round(trained, 1),
        "training_cpu_seconds": round(trained_cpu, 1),
        "total_seconds": round(time.perf_counter() - start, 1),
        "total_cpu_seconds": round(time.process_time() - cpu_start, 1),
        "evaluation": results,
        "learning_curve": log[:: max(1, len(log) // 20)],
    }
    print(f"trained on {episodes} games in {trained:.0f} s ({trained_cpu:.0f} s of CPU)")
    publish(report, policy, args.out)
    return report


def publish(report: dict[str, Any], policy: Policy, out: str | None) -> None:
    """Prints each evaluation's win rate and interval; writes the report and weights to ``out``."""
    for r in report["evaluation"]:
        low, high = r["ci95"]
        print(
            f"vs {r['opponent']:>6}: {r['wins']}/{r['games']} = {100 * r['win_rate']:.1f}% "
            f"(95% interval {100 * low:.1f}-{100 * high:.1f}%)"
        )
    if out:
        with open(out, "w", encoding="utf-8") as f:
            json.dump({**report, "weights": json.loads(policy.to_json())}, f)


if __name__ == "__main__":
    main()

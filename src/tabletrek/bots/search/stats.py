"""The paired comparison's statistics: means and standard errors of paired differences, with a
variance prior pooled over the candidates so a few lucky worlds cannot override the default."""

from __future__ import annotations

import math
from collections.abc import Iterable

# Paired mode: worlds every candidate must have been played in before any is judged (fewer give
# standard errors too rough to trust).
MIN_WORLDS = 6
# Each candidate's paired variance starts from this many pseudo-worlds of the variance pooled over
# all candidates (see ``pooled_variance``).
PRIOR_WORLDS = 3


def paired_stats(values: list[float], base: list[float], prior: float = 0.5) -> tuple[float, float]:
    """Mean and standard error of the paired differences ``values[k] - base[k]``.

    The variance estimate starts from ``PRIOR_WORLDS`` pseudo-differences of variance ``prior``:
    a few worlds in which a move happened to win every time would otherwise show a standard
    error of zero and override the default on pure luck.
    """
    n = min(len(values), len(base))
    diffs = [values[k] - base[k] for k in range(n)]
    mean = sum(diffs) / n
    squares = sum((d - mean) ** 2 for d in diffs)
    return mean, standard_error(n, squares, prior)


def standard_error(n: float, squares: float, prior: float) -> float:
    """The standard error of a mean of ``n`` differences whose squared deviations from their
    mean sum to ``squares``, the variance starting from ``PRIOR_WORLDS`` pseudo-worlds of ``prior``."""
    var = (squares + PRIOR_WORLDS * prior) / (n - 1 + PRIOR_WORLDS)
    return math.sqrt(var / n)


def bound_of_sums(entry: list[float], prior: float, z: float) -> float:
    """``mean + z * standard error`` of a move's paired differences kept as running sums
    ``[n, sum, sum of squares]`` (an upper bound for positive ``z``, a lower one for negative)."""
    n, total, square_total = entry
    mean = total / n
    squares = max(square_total - total * mean, 0.0)
    return mean + z * standard_error(n, squares, prior)


def pooled_variance_of_sums(entries: Iterable[list[float]]) -> float:
    """``pooled_variance`` over moves kept as running sums."""
    n = total = square_total = 0.0
    for count, s, ss in entries:
        n += count
        total += s
        square_total += ss
    if n < 2:
        return 0.5
    return max((square_total - total * total / n) / (n - 1), 1e-4)


def pooled_variance(rewards: dict[int, list[float]], default: int) -> float:
    """The paired differences' variance over every candidate: the prior for each one's own, so
    the bound follows the scale of the rewards (full games' 0/1 or an evaluation's fractions)."""
    base = rewards[default]
    diffs = [
        v - base[k] for index, values in rewards.items() if index != default for k, v in enumerate(values)
    ]
    if len(diffs) < 2:
        return 0.5
    mean = sum(diffs) / len(diffs)
    return max(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1), 1e-4)


def lower_bound(values: list[float], base: list[float], z: float, prior: float = 0.5) -> float:
    mean, se = paired_stats(values, base, prior)
    return mean - z * se


def upper_bound(values: list[float], base: list[float], z: float, prior: float = 0.5) -> float:
    mean, se = paired_stats(values, base, prior)
    return mean + z * se

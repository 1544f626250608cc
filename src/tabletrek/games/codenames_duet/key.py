"""The double-sided key: which words are agents, bystanders and assassins on each side.

Keys are drawn with exactly the table in docs/rules/codenames-duet.md, "Setting up" (the printed
key cards' distribution): 25 cells, each a pair (side A, side B). Each side then has 9 greens,
3 assassins and 13 bystanders, and 15 cells are green on at least one side (the 15 agent cards).
"""

from __future__ import annotations

import random
from collections import Counter

GREEN, BYSTANDER, ASSASSIN = 0, 1, 2
KINDS = ("green", "bystander", "assassin")
KIND_CODE = {name: code for code, name in enumerate(KINDS)}

KEY_TABLE: tuple[tuple[int, int, int], ...] = (
    (GREEN, GREEN, 3),
    (GREEN, BYSTANDER, 5),
    (BYSTANDER, GREEN, 5),
    (GREEN, ASSASSIN, 1),
    (ASSASSIN, GREEN, 1),
    (ASSASSIN, ASSASSIN, 1),
    (ASSASSIN, BYSTANDER, 1),
    (BYSTANDER, ASSASSIN, 1),
    (BYSTANDER, BYSTANDER, 7),
)
CELLS = sum(n for _a, _b, n in KEY_TABLE)
GREENS_PER_SIDE = sum(n for a, _b, n in KEY_TABLE if a == GREEN)
AGENTS = sum(n for a, b, n in KEY_TABLE if GREEN in (a, b))
PAIR_COUNTS: Counter[tuple[int, int]] = Counter({(a, b): n for a, b, n in KEY_TABLE})


def draw_key(rng: random.Random) -> list[list[int]]:
    """A random key: ``key[side][cell]``, the table's 25 pairs in a random order."""
    pairs = [(a, b) for a, b, n in KEY_TABLE for _ in range(n)]
    rng.shuffle(pairs)
    return [[a for a, _b in pairs], [b for _a, b in pairs]]


def pair_counts(key: list[list[int]]) -> Counter[tuple[int, int]]:
    return Counter(zip(key[0], key[1], strict=True))


def sample_partner_side(
    own: list[int], own_side: int, fixed: dict[int, int], rng: random.Random
) -> list[int]:
    """A partner key side consistent with ``own`` and the partner cells already revealed.

    For each kind on the own side, the table says which partner kinds those cells carry; cells
    whose partner kind is known (``fixed``) keep it and the remaining kinds are shuffled over the
    rest, which samples uniformly among the keys consistent with what ``own_side`` knows.
    """
    partner = [GREEN] * len(own)
    for kind in range(len(KINDS)):
        pool: list[int] = []
        for a, b, n in KEY_TABLE:
            mine, theirs = (a, b) if own_side == 0 else (b, a)
            if mine == kind:
                pool.extend([theirs] * n)
        cells = [c for c, k in enumerate(own) if k == kind]
        for c in cells:
            if c in fixed:
                pool.remove(fixed[c])
        rng.shuffle(pool)
        for c in cells:
            partner[c] = fixed[c] if c in fixed else pool.pop()
    return partner

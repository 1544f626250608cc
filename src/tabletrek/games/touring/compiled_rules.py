"""Touring's card rules as compiled decisions on plain values, shared by both compiled engines.

Why: Touring has two compiled forms of its rules on different state layouts, for different needs:
``kernel.py`` (the search's playouts: piles as counts, its own fast generator in the state) and
``batch.py`` (the vector environment: piles in order, Python's generator, so a seeded env replays
``new_game(seed)`` exactly). Each reads the tops of the piles and the mileage counts off its own
layout; what those values allow and cost is decided here, once, so the two cannot come to disagree
on a rule. ``rules.py`` is the reference (``docs/rules/touring.md``); both engines are tested move
for move against it (``tests/touring/test_kernel.py``, ``tests/batch/``).

Each function is compiled into its callers (``njit_inline``), so a step costs what it cost with the
decision written out in place.
"""

from __future__ import annotations

import numpy as np

from tabletrek.core.mt19937 import njit_inline
from tabletrek.games.touring.cards import (
    CITY,
    COLLISION,
    COUNTRY,
    GASOLINE,
    GO,
    HAULED,
    M30,
    OOG,
    PUNCTURE,
    TARGETED,
)
from tabletrek.games.touring.rules import TAKE_15S, TAKE_AUTO

TARGETED_ARR = np.array(TARGETED, dtype=np.int64)
"""The targeted cards in action-index order (City Limits, Puncture, Out of Gas, Collision)."""


@njit_inline
def fits_own_table(card: int, go_top: int, speed_top: int, country_first: bool) -> bool:
    """Whether ``card``, played on its player's own table, fits the tops of the table's Go and speed
    piles (-1 for empty). A mileage card must also be below its required count; a targeted card
    never goes on its own table."""
    if card == GO:
        # Go starts the Go pile, or covers a Puncture or a remedy.
        return go_top in (-1, PUNCTURE, GASOLINE, HAULED)
    if card <= M30:
        return go_top == GO
    if card == COUNTRY:
        # Go first: Country opens an empty speed pile only once the Go pile holds a card.
        return speed_top == CITY or (speed_top == -1 and (go_top != -1 or country_first))
    if card == GASOLINE:
        return go_top == OOG
    if card == HAULED:
        return go_top == COLLISION
    return False


@njit_inline
def hits(card: int, go_top: int, speed_top: int) -> bool:
    """Whether the targeted ``card`` may be played on a table with these tops: City Limits on a
    Country, a delay on a Go."""
    if card == CITY:
        return speed_top == COUNTRY
    return go_top == GO


@njit_inline
def collision_choice(speed_top: int, fifteens: int, thirties: int) -> bool:
    """Whether a Collision's attacker picks the loss: in the Country, with both a 30 and two 15s."""
    return speed_top == COUNTRY and thirties > 0 and fifteens >= 2


@njit_inline
def counts_miles(card: int, speed_top: int) -> bool:
    """Whether a playable mileage card counts: a 30 under City Limits (or on no speed pile) is
    discarded instead."""
    return card != M30 or speed_top == COUNTRY


@njit_inline
def miles_lost(card: int, speed_top: int, fifteens: int, thirties: int, variant: int) -> tuple[int, int]:
    """How many 15s and 30s a delay takes from its victim (``rules.mileage_lost``): a Puncture in
    the Country costs a 15; a Collision costs a 15 in town, and in the Country a 30 or two 15s."""
    country = speed_top == COUNTRY
    if card == PUNCTURE:
        return (1 if country and fifteens > 0 else 0), 0
    if card != COLLISION:
        return 0, 0
    if not country:
        return (1 if fifteens > 0 else 0), 0
    if variant == TAKE_15S or (variant == TAKE_AUTO and thirties == 0):
        return min(2, fifteens), 0
    return 0, (1 if thirties > 0 else 0)

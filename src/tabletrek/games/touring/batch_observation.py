"""The compiled Touring's observation (``batch.py``, ``observe``) as a named layout with ranges.

The vector environment declares these ranges as its ``Box`` bounds; ``observe`` writes the values in
this order, and the environment sizes its rows by this layout, so the two cannot disagree on the
length. Tables are rotated so that the seat to act's own comes first (``tables[0]``); hand sizes run
from the seat to act in turn order.
"""

from __future__ import annotations

from functools import cache

from tabletrek.core.tensors import Layout
from tabletrek.games.touring.cards import CARD_TYPES, SLUGS
from tabletrek.games.touring.game import Touring

KIND_LIST = ", ".join(SLUGS)


@cache
def obs_layout(game: Touring) -> Layout:
    # The same tops as the Python tensor's (observation.py): no pile or hand holds more of a kind
    # than the deck, and a table plays no mileage card past its required count.
    deck, most_of_a_kind, most_miles = sum(game.deck_counts), max(game.deck_counts), max(game.required)
    out = Layout()
    out.add(
        "hand",
        CARD_TYPES,
        f"cards of each kind in the hand of the seat to act ({KIND_LIST})",
        high=most_of_a_kind,
    )
    for k in range(game.teams):
        table = f"tables[{k}]"
        out.add(
            f"{table}.go_top",
            CARD_TYPES + 1,
            "top of the Go pile, one-hot: empty, then the card kinds",
            high=1,
        )
        out.add(
            f"{table}.speed_top", 3, "top of the speed pile, one-hot: empty, country, city-limits", high=1
        )
        out.add(f"{table}.miles", 4, "mileage cards played of 1, 3, 15, 30", high=most_miles)
        out.add(f"{table}.miles_needed", 4, "mileage cards of 1, 3, 15, 30 still required", high=most_miles)
    out.add("hand_sizes", game.players, "cards in each seat's hand, from the seat to act", high=deck)
    out.add("draw_pile", 1, "cards in the draw pile / cards in the deck", high=1)
    out.add("discard", CARD_TYPES, "cards of each kind in the discard pile", high=most_of_a_kind)
    out.add("turns", 1, "turns played / the turn limit (max_turns)", high=1)
    return out

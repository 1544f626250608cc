"""Goofspiel's observation tensor: a seat's ``view`` as a fixed layout of card flags and counts.

Read by ``tabletrek.rl`` and ``tabletrek.openspiel``. Seats are relative to the observer (block 0
is the observer's); card ``k`` is column ``k - 1``.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from tabletrek.core.tensors import Layout

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from tabletrek.games.goofspiel.game import Goofspiel


@cache
def layout(game: Goofspiel) -> Layout:
    p, n = game.players, game.cards
    prizes = n * (n + 1) // 2  # every prize card's worth: the most a seat or the pot can hold
    out = Layout()
    out.add(
        "hand", n, "1 for each card still in the observer's hand (not counting its face-down bid)", high=1
    )
    out.add("bid", n, "one-hot: the observer's face-down bid this round, all 0 before it bids", high=1)
    out.add("prize", n, "one-hot: the prize on the table, all 0 once the game is over", high=1)
    out.add("pot", 1, "worth of the prizes carried over from tied rounds (option ties=carry)", high=prizes)
    out.add("prizes_left", n, "1 for each prize card not yet turned up", high=1)
    out.add(
        "hands",
        (p, n),
        "per seat (observer first): cards not yet shown (a face-down bid counts as not shown)",
        high=1,
    )
    out.add("has_bid", p, "per seat (observer first): 1 when it has bid this round", high=1)
    out.add("scores", p, "per seat (observer first): prize points won", high=prizes)
    out.add("to_act", p, "1 for the seat to act (relative), all 0 once the game is over", high=1)
    out.add("over", 1, "1 once the game has ended", high=1)
    return out


def encode(game: Goofspiel, view: dict[str, Any], out: npt.NDArray[np.float32]) -> None:
    """Fill ``out`` (zeros, length ``layout(game).size``) from ``view`` (a seat's view)."""
    lay = layout(game)
    seat, p = int(view["seat"]), game.players
    hand = lay.view(out, "hand")
    for card in view["hand"]:
        hand[card - 1] = 1
    if view["bid"] is not None:
        lay.view(out, "bid")[view["bid"] - 1] = 1
    if view["prize"] is not None:
        lay.view(out, "prize")[view["prize"] - 1] = 1
    lay.view(out, "pot")[0] = sum(view["pot"])
    left = lay.view(out, "prizes_left")
    for card in view["prizes_left"]:
        left[card - 1] = 1
    hands, has_bid, scores = lay.view(out, "hands"), lay.view(out, "has_bid"), lay.view(out, "scores")
    for k in range(p):
        s = (seat + k) % p
        for card in view["hands"][s]:
            hands[k, card - 1] = 1
        has_bid[k] = view["has_bid"][s]
        scores[k] = view["scores"][s]
    if view["to_act"] is not None:
        lay.view(out, "to_act")[(int(view["to_act"]) - seat) % p] = 1
    lay.view(out, "over")[0] = float(view["over"])


def chance_bound(game: Goofspiel) -> int:
    """The most outcomes one random draw can have: the first prize, from the whole prize deck."""
    return game.cards


def game_length_bound(game: Goofspiel) -> tuple[int, bool]:
    """(the most moves a game can take, whether that bound is proven): a bid per seat per card."""
    return game.players * game.cards, True

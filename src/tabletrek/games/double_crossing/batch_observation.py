"""The compiled Double Crossing's observation (``batch.py``, ``observe``) as a named layout with
ranges.

The vector environment declares these ranges as its ``Box`` bounds; ``observe`` writes the values in
this order, and the environment sizes its rows by this layout, so the two cannot disagree on the
length. Seats run from the seat to act (``seats[0]``) in turn order; contract owners likewise.
"""

from __future__ import annotations

from functools import cache

from tabletrek.core.tensors import Layout
from tabletrek.games.double_crossing.batch_layout import TASK_NAMES
from tabletrek.games.double_crossing.game import DoubleCrossing

MILLION = 1_000_000
DICE = 12  # two dice: the most steps a move task holds


@cache
def obs_layout(game: DoubleCrossing) -> Layout:
    # The same tops as the Python tensor's (observation.py): money, cars and crew cards are
    # conserved, so no holding passes the game's whole stock of them.
    c, p = game.content, game.players
    money, most_cars, deck = c.bank_total / MILLION, max(c.car_counts), sum(c.crew)
    out = Layout()
    out.add("hand", 4, "crew cards of each kind in the hand of the seat to act", high=max(c.crew))
    for k in range(p):
        seat = f"seats[{k}]"
        out.add(
            f"{seat}.position",
            c.size + 1,
            f"its token's space, one-hot: not yet on the track, then spaces 0..{c.size - 1}",
            high=1,
        )
        out.add(f"{seat}.cash", 1, "cash in $M", high=money)
        out.add(f"{seat}.cars", 4, "cars of each type", high=most_cars)
        out.add(f"{seat}.contracts", 1, "contracts completed", high=len(c.contracts))
        out.add(f"{seat}.cards", 1, "crew cards held", high=deck)
    out.add(
        "contract_owner",
        (len(c.contracts), p + 1),
        "per contract: its owner one-hot: none, then the seats from the seat to act",
        high=1,
    )
    out.add("yard", 4, "cars of each type left in the yards", high=most_cars)
    out.add("depot", 1, "cash on the Depot in $M", high=money)
    out.add("bank", 1, "cash in the bank in $M", high=money)
    out.add("dropped", c.size, "per space: cars lying there (Derail)", high=sum(c.car_counts))
    out.add("pending", len(TASK_NAMES), f"the decision awaited, one-hot ({', '.join(TASK_NAMES)})", high=1)
    out.add(
        "pending_field",
        1,
        "its first field: an amount to pay in $M, else a seat, space, company, car, die or steps / 10",
        high=max(_most_field(game) / 10, _most_payment(game) / MILLION),
    )
    out.add("flags", 4, "this turn's flags: roll again, turn ends, villain used, engineer used", high=1)
    out.add("round", 1, "rounds begun / max_rounds", high=1)
    return out


def _most_field(game: DoubleCrossing) -> int:
    """The largest first field of a task other than a payment: a seat (window), a space (drop),
    a company (trade), a car type (yard), a die (buy cards), two dice (move) or a flag."""
    c = game.content
    return max(game.players, c.size, len(c.companies), 4, 6, DICE)


def _most_payment(game: DoubleCrossing) -> int:
    """The largest payment a task asks: a space's tax, or the corner fare for every passenger car."""
    c = game.content
    taxes = max((s.amount for s in c.spaces), default=0)
    return max(taxes, c.corner_fare * max(c.car_counts))

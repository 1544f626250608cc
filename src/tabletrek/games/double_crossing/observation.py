"""Double Crossing's observation tensor: a seat's ``view`` as a fixed layout.

Read by ``tabletrek.rl`` and ``tabletrek.openspiel`` (``docs/observations.md`` lists the fields).
Sizes follow the loaded game's data (spaces on the board, contracts) and its number of seats.
Seats are relative to the observer (block 0 is the observer's). Money is in millions of dollars.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from tabletrek.core.tensors import Layout
from tabletrek.games.double_crossing.content import CAR_SLUGS, CARD_SLUGS
from tabletrek.games.double_crossing.game import DoubleCrossing

# The kinds of decision the game can wait for (the ``k`` of its pending task); an unknown kind
# (a newer rules version) lands in the last column rather than failing.
TASKS = (
    "preroll",
    "window",
    "move",
    "discard",
    "rack",
    "end",
    "drop",
    "buy_cards",
    "pay",
    "trade",
    "yard",
    "double_cross",
    "roundhouse",
    "tower",
    "return",
    "connect",
)
FLAGS = ("again", "used_villain", "used_engineer")
MILLION = 1_000_000.0


@cache
def layout(game: DoubleCrossing) -> Layout:
    # Tops from what the rules conserve: money (the bank's bills, content.bank_total, shared by
    # the seats, the Depot and the bank), cars (content.car_counts) and crew cards (content.crew);
    # and from the clock: a turn passes once per seat per round, and the game ends after
    # ``max_rounds`` rounds (rules.py, next_turn).
    c = game.content
    p, spaces, contracts = game.players, len(c.spaces), len(c.contracts)
    cars, cards = len(CAR_SLUGS), len(CARD_SLUGS)
    money, most_cars = c.bank_total / MILLION, max(c.car_counts)
    deck, most_cards = sum(c.crew), max(c.crew)
    out = Layout()
    out.add(
        "hand",
        cards,
        f"crew cards of each kind in the observer's hand ({', '.join(CARD_SLUGS)})",
        high=most_cards,
    )
    out.add("hand_counts", p, "crew cards in each seat's hand, observer first", high=deck)
    out.add("to_act", p, "1 for the seat to act (relative), all 0 once the game is over", high=1)
    out.add("pending", len(TASKS) + 1, f"the decision awaited, one-hot ({', '.join(TASKS)}, other)", high=1)
    out.add("pending_seat", p, "the seat the awaited decision belongs to (relative)", high=1)
    out.add("turn_seat", p, "whose turn it is (relative); a reaction may be another seat's", high=1)
    out.add("first", p, "the seat that started the game (relative)", high=1)
    out.add("round", 1, "rounds begun", high=game.max_rounds)
    out.add("turns", 1, "turns taken", high=p * game.max_rounds)
    out.add(
        "position",
        (p, spaces + 1),
        f"per seat: its token's space (0..{spaces - 1}) one-hot, last column = not yet on the track",
        high=1,
    )
    out.add("cash", p, "per seat: cash in $M", high=money)
    out.add("cars", (p, cars), f"per seat: cars of each type ({', '.join(CAR_SLUGS)})", high=most_cars)
    out.add(
        "contract_owner",
        (contracts, p + 1),
        "per contract (data order): its owner (relative seat) one-hot, last column = still available",
        high=1,
    )
    out.add("contracts_held", p, "per seat: contracts completed", high=contracts)
    out.add("yard", cars, "cars of each type left in the yards", high=most_cars)
    out.add("dropped", (spaces, cars), "per space: cars dropped there (Derail) of each type", high=most_cars)
    out.add("depot", 1, "cash on the Depot in $M", high=money)
    out.add("bank", 1, "cash in the bank in $M", high=money)
    out.add("draw_pile", 1, "crew cards in the draw pile", high=deck)
    out.add("discard", cards, "crew cards of each kind in the discard pile", high=most_cards)
    out.add("flags", len(FLAGS), f"this turn's flags ({', '.join(FLAGS)})", high=1)
    out.add("over", 1, "1 once the game has ended", high=1)
    return out


def encode(game: DoubleCrossing, view: dict[str, Any], out: npt.NDArray[np.float32]) -> None:
    """Fill ``out`` (zeros, length ``layout(game).size``) from ``view`` (a seat's view)."""
    lay = layout(game)
    c = game.content
    seat, p = int(view["seat"]), game.players

    def rel(s: int) -> int:
        return (int(s) - seat) % p

    for i, slug in enumerate(CARD_SLUGS):
        lay.view(out, "hand")[i] = view["hand"][slug]
        lay.view(out, "discard")[i] = view["discard"][slug]
    if view["to_act"] is not None:
        lay.view(out, "to_act")[rel(view["to_act"])] = 1
    pending = view["pending"]
    if pending is not None:
        kind = pending.get("k")
        lay.view(out, "pending")[TASKS.index(kind) if kind in TASKS else len(TASKS)] = 1
        lay.view(out, "pending_seat")[rel(pending["seat"])] = 1
    if view["turn_seat"] is not None:
        lay.view(out, "turn_seat")[rel(view["turn_seat"])] = 1
    lay.view(out, "first")[rel(view["first"])] = 1
    lay.view(out, "round")[0] = view["round"]
    lay.view(out, "turns")[0] = view["turns"]
    position, cash, cars = lay.view(out, "position"), lay.view(out, "cash"), lay.view(out, "cars")
    held = lay.view(out, "contracts_held")
    spaces = len(c.spaces)
    for k in range(p):
        s = (seat + k) % p
        pos = int(view["positions"][s])
        position[k, pos if 0 <= pos < spaces else spaces] = 1
        cash[k] = view["cash"][s] / MILLION
        lay.view(out, "hand_counts")[k] = view["hand_counts"][s]
        for j, slug in enumerate(CAR_SLUGS):
            cars[k, j] = view["cars"][s][slug]
        held[k] = len(view["contracts"][s])
    index = {k.slug: k.index for k in c.contracts}
    owner = lay.view(out, "contract_owner")
    for slug in view["available"]:
        owner[index[slug], p] = 1
    for s, mine in enumerate(view["contracts"]):
        for slug in mine:
            owner[index[slug], rel(s)] = 1
    dropped = lay.view(out, "dropped")
    for space, rack in view["dropped"].items():
        for j, slug in enumerate(CAR_SLUGS):
            dropped[int(space), j] = rack[slug]
    for j, slug in enumerate(CAR_SLUGS):
        lay.view(out, "yard")[j] = view["yard"][slug]
    lay.view(out, "depot")[0] = view["depot"] / MILLION
    lay.view(out, "bank")[0] = view["bank"] / MILLION
    lay.view(out, "draw_pile")[0] = view["draw_pile"]
    for j, flag in enumerate(FLAGS):
        lay.view(out, "flags")[j] = bool(view["flags"][flag])
    lay.view(out, "over")[0] = bool(view["over"])


def chance_bound(game: DoubleCrossing) -> int:
    """The most outcomes one random draw can have: a die (6) or a shuffle of the crew deck."""
    return max(6, sum(game.content.crew))


MOVES_PER_TURN_CAP = 60


def game_length_bound(game: DoubleCrossing) -> tuple[int, bool]:
    """(cap, proven=False): the game stops at ``max_rounds`` rounds, but a turn has no fixed
    number of moves (Roll Again can chain; short of cash, a seat sells item by item), so the
    OpenSpiel face ends a game that reaches this many moves as a draw: 60 moves a turn on
    average, about ten times what the bots use (random play: ~5 a turn)."""
    return MOVES_PER_TURN_CAP * game.players * int(game.options["max_rounds"]), False

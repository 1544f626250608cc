"""The small changes to the table that many steps share: dice and duels, money, crew cards, cars
sold back, the end of the game, and the references events and refusals carry.

Each takes the state it changes; none pushes a step (that is ``steps.py`` and up), so every step
module can use them.
"""

from __future__ import annotations

from functools import cache, lru_cache
from operator import ge
from random import Random
from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import IllegalAction
from tabletrek.core.events import Event, seat_ref, text_ref
from tabletrek.core.rng import shuffle
from tabletrek.games.double_crossing.content import CAR_SLUGS, CARD_SLUGS, half

if TYPE_CHECKING:
    from tabletrek.games.double_crossing.state import DoubleCrossingState

CAR_REF = tuple(text_ref(f"double_crossing.car.{slug}") for slug in CAR_SLUGS)
CARD_REF = tuple(text_ref(f"double_crossing.card.{slug}") for slug in CARD_SLUGS)
SEAT_REF = tuple(seat_ref(seat) for seat in range(6))
"""Seat markers shared by the events (treated as immutable, like the events themselves)."""


def contract_ref(state: DoubleCrossingState, k: int) -> dict[str, str]:
    return text_ref(f"double_crossing.contract.{state.game.content.contracts[k].slug}")


class Refusal:
    """Why a move may not be made now: an ``IllegalAction`` not yet built (building one renders
    its message, and the checks that list the legal moves refuse many candidates)."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params

    def error(self) -> IllegalAction:
        return IllegalAction(self.key, **self.params)


@lru_cache(maxsize=256)  # the prices in the content data; the listing refuses many offers for cash
def too_poor(amount: int) -> Refusal:
    """Short of ``amount`` dollars (shared: a refusal is only read, like the constant ones)."""
    return Refusal("double_crossing.illegal.too_poor", amount=amount)


# ----- queries ------------------------------------------------------------------------------------


def has_cars(state: DoubleCrossingState, seat: int, k: int) -> bool:
    """Whether ``seat``'s rack holds the cars contract ``k`` names."""
    # map and ge, not a generator expression: no Python frame per car (a Trade space asks this
    # of each contract on offer)
    return all(map(ge, state.cars[seat], state.game.content.contracts[k].cars))


def cards_available(state: DoubleCrossingState) -> int:
    return len(state.draw) + len(state.discard)


# ----- dice -----------------------------------------------------------------------------------------


def die(state: DoubleCrossingState) -> int:
    """One die: ``randint(state.rng, 1, 6)``, the same draw (CPython's: three random bits, drawn
    again while they exceed 5) written out here, because a die is rolled about once a move and
    the shared helper was a second Python call per die. ``tests/double_crossing/test_dc_dice.py``
    holds the two equal."""
    rng = state.rng
    if rng.__class__ is not Random:  # a subclass may draw differently (the tests script dice so)
        return rng.randint(1, 6)
    getrandbits = rng.getrandbits
    r = getrandbits(3)
    while r > 5:
        r = getrandbits(3)
    return r + 1


@cache  # a few keys x 6 seats x 6 faces: made once, then shared like every Event
def die_event(key: str, seat: int, face: int) -> Event:
    """The event of one die rolled by ``seat`` (a crew-card purchase, a Train Shop)."""
    return Event(key, {"player": SEAT_REF[seat], "face": face})


def duel(state: DoubleCrossingState, a: int, b: int, events: list[Event]) -> bool:
    """One die each, ties re-rolled (our ruling); True when ``a`` wins."""
    while True:
        ra, rb = die(state), die(state)
        events.append(
            Event("double_crossing.event.duel", {"a": SEAT_REF[a], "ra": ra, "b": SEAT_REF[b], "rb": rb})
        )
        if ra != rb:
            return ra > rb


# ----- money ----------------------------------------------------------------------------------------


def from_bank(state: DoubleCrossingState, seat: int, amount: int) -> int:
    paid = min(amount, state.bank)  # our ruling: an empty bank pays what it has
    state.bank -= paid
    state.cash[seat] += paid
    return paid


def to_bank(state: DoubleCrossingState, seat: int, amount: int) -> None:
    state.cash[seat] -= amount
    state.bank += amount


# ----- crew cards -------------------------------------------------------------------------------------


def draw_card(state: DoubleCrossingState, seat: int, events: list[Event]) -> bool:
    if not state.draw and state.discard:
        state.draw, state.discard = state.discard, []
        shuffle(state.rng, state.draw)
        events.append(Event("double_crossing.event.reshuffle", {"cards": len(state.draw)}))
    if not state.draw:
        events.append(Event("double_crossing.event.no_cards", {"player": SEAT_REF[seat]}))
        return False
    card = state.draw.pop()
    state.hands[seat][card] += 1
    events.append(DREW[seat][card])
    return True


DREW = tuple(
    tuple(
        Event("double_crossing.event.drew", {"player": ref}, {"card": card}, frozenset((seat,)))
        for card in CARD_REF
    )
    for seat, ref in enumerate(SEAT_REF)
)
"""``DREW[seat][card]``: a card drawn, which only ``seat`` sees; made once and shared."""


def play_card(state: DoubleCrossingState, seat: int, card: int, count: int = 1) -> None:
    state.hands[seat][card] -= count
    state.discard.extend([card] * count)
    state.played[card] += count


# ----- cars and the end ---------------------------------------------------------------------------------


def sell_car(state: DoubleCrossingState, seat: int, car: int, events: list[Event]) -> None:
    state.cars[seat][car] -= 1
    state.yard[car] += 1
    got = from_bank(state, seat, half(state.game.content.car_prices[car]))
    events.append(
        Event(
            "double_crossing.event.sell_car",
            {"player": SEAT_REF[seat], "car": CAR_REF[car], "amount": got},
        )
    )


def end_game(state: DoubleCrossingState, winner: int | None, events: list[Event]) -> None:
    state.is_over = True
    state.winner = winner
    state.stack.clear()
    if winner is not None:
        events.append(
            Event(
                "double_crossing.event.won",
                {"player": SEAT_REF[winner], "contracts": state.owner.count(winner)},
            )
        )

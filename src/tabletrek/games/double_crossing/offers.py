"""The decisions a space offers: a Trade space's contracts, a yard's car, Connections,
Double-Cross, and the contract a Dissatisfied Customer takes back (see ``steps.py`` for what a
step is)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import Action
from tabletrek.core.events import Event
from tabletrek.games.double_crossing.content import half
from tabletrek.games.double_crossing.effects import (
    CAR_REF,
    SEAT_REF,
    Refusal,
    contract_ref,
    duel,
    has_cars,
    to_bank,
    too_poor,
)
from tabletrek.games.double_crossing.moves import BUY_CAR, CONNECT, DECLINE, DONE, DOUBLE_CROSS, RETURN, TRADE
from tabletrek.games.double_crossing.steps import (
    CARS_NEEDED,
    CONTRACT_TAKEN,
    NOT_YOURS,
    WRONG_COMPANY,
    Step,
    Task,
    gain_car,
    offer_or_skip,
)

if TYPE_CHECKING:
    from tabletrek.games.double_crossing.state import DoubleCrossingState


def take_contract(
    state: DoubleCrossingState, seat: int, k: int, price: int, events: list[Event], key: str
) -> None:
    """A contract bought at a Trade space (with its cars) or through Connections."""
    contract = state.game.content.contracts[k]
    to_bank(state, seat, price)
    if key == "trade" or state.game.connections_needs_cars:
        for car, n in enumerate(contract.cars):
            state.cars[seat][car] -= n
            state.yard[car] += n
    state.owner[k] = seat
    events.append(
        Event(
            f"double_crossing.event.{key}",
            {
                "player": SEAT_REF[seat],
                "contract": contract_ref(state, k),
                "amount": price,
                "count": state.owner.count(seat),
            },
        )
    )


class Trade(Step):
    """A Trade space: up to three of its company's open contracts, each for its cars and price."""

    __slots__ = ("company", "left")
    kind = "trade"
    answers = frozenset((TRADE, DONE))

    def __init__(self, seat: int, company: int, left: int) -> None:
        self.seat = seat
        self.company = company
        self.left = left

    def fields(self) -> Task:
        return {"company": self.company, "left": self.left}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Trade:
        return cls(int(data["seat"]), int(data["company"]), int(data["left"]))

    def copy(self) -> Trade:
        return Trade(self.seat, self.company, self.left)

    def candidates(self, state: DoubleCrossingState) -> Iterable[Action]:
        return state.game.menu.trade_at[self.company]

    def options(self, state: DoubleCrossingState) -> list[Action]:
        return offer_or_skip(super().options(state), state.game.menu.done)

    def check(self, state: DoubleCrossingState, kind: int, a: int, b: int) -> Refusal | None:
        if kind == DONE:
            return None
        seat, k = self.seat, state.game.content.contracts[a]
        if k.company != self.company:
            return WRONG_COMPANY
        if state.owner[a] >= 0:
            return CONTRACT_TAKEN
        if state.cash[seat] < k.price:
            return too_poor(k.price)
        return None if has_cars(state, seat, a) else CARS_NEEDED

    def decide(self, state: DoubleCrossingState, kind: int, a: int, b: int, events: list[Event]) -> None:
        if kind == DONE:
            state.stack.pop()
            return
        take_contract(state, self.seat, a, state.game.content.contracts[a].price, events, "trade")
        self.left -= 1
        if self.left <= 0:
            state.stack.pop()


class Yard(Step):
    """A yard: buy one of its cars, or not."""

    __slots__ = ("car",)
    kind = "yard"
    answers = frozenset((BUY_CAR, DECLINE))

    def __init__(self, seat: int, car: int) -> None:
        self.seat = seat
        self.car = car

    def fields(self) -> Task:
        return {"car": self.car}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Yard:
        return cls(int(data["seat"]), int(data["car"]))

    def copy(self) -> Yard:
        return Yard(self.seat, self.car)

    def candidates(self, state: DoubleCrossingState) -> Iterable[Action]:
        return (state.game.menu.buy_car[self.car],)

    def options(self, state: DoubleCrossingState) -> list[Action]:
        return offer_or_skip(super().options(state), state.game.menu.decline)

    def check(self, state: DoubleCrossingState, kind: int, a: int, b: int) -> Refusal | None:
        if kind == DECLINE:
            return None
        if a != self.car:
            return Refusal("double_crossing.illegal.wrong_yard")
        if not state.yard[a]:
            return Refusal("double_crossing.illegal.yard_empty")
        price = state.game.content.car_prices[a]
        return too_poor(price) if state.cash[self.seat] < price else None

    def decide(self, state: DoubleCrossingState, kind: int, a: int, b: int, events: list[Event]) -> None:
        seat = self.seat
        state.stack.pop()
        if kind == BUY_CAR:
            price = state.game.content.car_prices[a]
            to_bank(state, seat, price)
            events.append(
                Event(
                    "double_crossing.event.buy_car",
                    {"player": SEAT_REF[seat], "car": CAR_REF[a], "amount": price},
                )
            )
            gain_car(state, seat, a, events)


class Connect(Step):
    """Connections: any open contract at half price (no cars: docs/rules/double-crossing.md, "The spaces";
    see the option)."""

    __slots__ = ()
    kind = "connect"
    answers = frozenset((CONNECT, DECLINE))

    def candidates(self, state: DoubleCrossingState) -> Iterable[Action]:
        connect = state.game.menu.connect
        return [connect[k] for k, owner in enumerate(state.owner) if owner < 0]

    def options(self, state: DoubleCrossingState) -> list[Action]:
        return offer_or_skip(super().options(state), state.game.menu.decline)

    def check(self, state: DoubleCrossingState, kind: int, a: int, b: int) -> Refusal | None:
        if kind == DECLINE:
            return None
        if state.owner[a] >= 0:
            return CONTRACT_TAKEN
        price = half(state.game.content.contracts[a].price)
        if state.cash[self.seat] < price:
            return too_poor(price)
        if state.game.connections_needs_cars and not has_cars(state, self.seat, a):
            return CARS_NEEDED
        return None

    def decide(self, state: DoubleCrossingState, kind: int, a: int, b: int, events: list[Event]) -> None:
        state.stack.pop()
        if kind == CONNECT:
            price = half(state.game.content.contracts[a].price)
            take_contract(state, self.seat, a, price, events, "connect")


class DoubleCross(Step):
    """Double-Cross: duel another player for one of their contracts."""

    __slots__ = ()
    kind = "double_cross"
    answers = frozenset((DOUBLE_CROSS, DECLINE))

    def candidates(self, state: DoubleCrossingState) -> Iterable[Action]:
        double_cross = state.game.menu.double_cross
        return [double_cross[k] for k, owner in enumerate(state.owner) if owner >= 0]

    def options(self, state: DoubleCrossingState) -> list[Action]:
        return offer_or_skip(super().options(state), state.game.menu.decline)

    def check(self, state: DoubleCrossingState, kind: int, a: int, b: int) -> Refusal | None:
        if kind == DECLINE:
            return None
        owner = state.owner[a]
        return None if 0 <= owner != self.seat else Refusal("double_crossing.illegal.not_theirs")

    def decide(self, state: DoubleCrossingState, kind: int, a: int, b: int, events: list[Event]) -> None:
        seat = self.seat
        state.stack.pop()
        if kind == DECLINE:
            return
        victim = state.owner[a]
        ref = contract_ref(state, a)
        events.append(
            Event(
                "double_crossing.event.double_cross",
                {"player": SEAT_REF[seat], "target": SEAT_REF[victim], "contract": ref},
            )
        )
        if duel(state, seat, victim, events):
            state.owner[a] = seat
            events.append(
                Event("double_crossing.event.double_cross_won", {"player": SEAT_REF[seat], "contract": ref})
            )
        else:
            events.append(
                Event(
                    "double_crossing.event.double_cross_lost", {"target": SEAT_REF[victim], "contract": ref}
                )
            )


class Return(Step):
    """Dissatisfied Customer without doubles: give back one of your contracts."""

    __slots__ = ()
    kind = "return"
    answers = frozenset((RETURN,))

    def candidates(self, state: DoubleCrossingState) -> Iterable[Action]:
        give_back = state.game.menu.give_back
        return [give_back[k] for k, owner in enumerate(state.owner) if owner == self.seat]

    def check(self, state: DoubleCrossingState, kind: int, a: int, b: int) -> Refusal | None:
        return None if state.owner[a] == self.seat else NOT_YOURS

    def decide(self, state: DoubleCrossingState, kind: int, a: int, b: int, events: list[Event]) -> None:
        state.stack.pop()
        state.owner[a] = -1
        events.append(
            Event(
                "double_crossing.event.returned",
                {"player": SEAT_REF[self.seat], "contract": contract_ref(state, a)},
            )
        )

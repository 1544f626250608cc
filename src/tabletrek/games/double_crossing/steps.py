"""The steps of a turn, one class per kind: its data, how it runs, the moves that answer it, and
the one check that decides whether a move may answer it now and, if not, says why.

The turn is a stack of steps (``state.stack``, the top runs first). An automatic step (a move along
the track, a payment the payer can afford) does its work in ``run``; a decision waits for its
seat. A decision's legal moves are its ``candidates`` that pass its ``check``, and an illegal move's
reason is what ``check`` returns for it, so the two cannot disagree. A step's JSON form is the
dict ``{"k": kind, "seat": who decides, ...its fields}`` (``to_dict``/``from_dict``), the form saved
games, stored tables and the compiled engine's ``_load`` mapping use.

This module holds the steps of every turn and the payments and losses; ``offers.py`` has the
decisions a space offers, ``spaces.py`` the steps that move tokens and ``rules.py`` the roll.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from tabletrek.core.actions import Action
from tabletrek.core.events import Event, text_ref
from tabletrek.games.double_crossing.content import CAR_TYPES, ENGINEER, STOP, half
from tabletrek.games.double_crossing.effects import (
    CAR_REF,
    CARD_REF,
    SEAT_REF,
    Refusal,
    cards_available,
    contract_ref,
    draw_card,
    duel,
    from_bank,
    play_card,
    sell_car,
    to_bank,
)
from tabletrek.games.double_crossing.moves import (
    BUY_N,
    DISCARD,
    DROP,
    END,
    PASS,
    REACT,
    SELL_CAR,
    SELL_CONTRACT,
)
from tabletrek.games.double_crossing.moves import ENGINEER as USE_ENGINEER

if TYPE_CHECKING:
    from tabletrek.games.double_crossing.state import DoubleCrossingState

Task = dict[str, Any]
"""A step's JSON form."""

NO_CARD = tuple(Refusal("double_crossing.illegal.no_card", card=ref) for ref in CARD_REF)
NO_CAR = tuple(Refusal("double_crossing.illegal.no_car", car=ref) for ref in CAR_REF)
CONTRACT_TAKEN = Refusal("double_crossing.illegal.contract_taken")
CARS_NEEDED = Refusal("double_crossing.illegal.cars_needed")
NOT_YOURS = Refusal("double_crossing.illegal.not_yours")
WRONG_COMPANY = Refusal("double_crossing.illegal.wrong_company")


class Step:
    """One pending step of the turn; ``seat`` is who decides (or whom it concerns)."""

    __slots__ = ("seat",)
    kind: ClassVar[str]
    """The ``"k"`` of the JSON form, and the ``double_crossing.phase.*`` name of the decision."""
    answers: ClassVar[frozenset[int]] = frozenset()
    """The kinds of move (``moves.py``) that may answer this step."""
    automatic: ClassVar[bool] = False
    """Whether ``run`` may carry the step out without a decision."""
    always_ask: ClassVar[bool] = False
    """Asked even with a single option: asking only when a card is held would tell the table
    who holds it."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    # ----- the JSON form ----------------------------------------------------------------------------

    def fields(self) -> Task:
        """The JSON form's fields besides ``k`` and ``seat``, in their saved order."""
        return {}

    def to_dict(self) -> Task:
        return {"k": self.kind, "seat": self.seat, **self.fields()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Step:
        return cls(int(data["seat"]))

    def copy(self) -> Step:
        """An independent copy (steps with fields of their own override this)."""
        return type(self)(self.seat)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_dict()!r})"

    # ----- running and deciding ---------------------------------------------------------------------

    def run(self, state: DoubleCrossingState, events: list[Event]) -> bool:
        """An automatic step does its work (popping itself) and returns True; a decision, False."""
        return False

    def candidates(self, state: DoubleCrossingState) -> Iterable[Action]:
        """The moves worth asking ``check`` about, in the order the legal moves are listed: every
        move the check could allow (it may skip moves the check would refuse anyway)."""
        return ()

    def check(self, state: DoubleCrossingState, kind: int, a: int, b: int) -> Refusal | None:
        """Why the move ``(kind, a, b)`` (one of ``answers``) may not answer this step now; None
        when it may. The single copy of this step's rule."""
        return None

    def options(self, state: DoubleCrossingState) -> list[Action]:
        """The legal moves: the candidates the check lets through."""
        decode = state.game.decode
        check = self.check
        out = []
        for action in self.candidates(state):
            kind, a, b = decode[action.index]
            if check(state, kind, a, b) is None:
                out.append(action)
        return out

    def refusal(self, state: DoubleCrossingState, kind: int, a: int, b: int) -> Refusal:
        """Why a move that is not among the legal ones was refused."""
        if kind in self.answers:
            reason = self.check(state, kind, a, b)
            if reason is not None:
                return reason
        return Refusal(
            "double_crossing.illegal.not_now",
            player=SEAT_REF[self.seat],
            pending=text_ref(f"double_crossing.phase.{self.kind}"),
        )

    def decide(self, state: DoubleCrossingState, kind: int, a: int, b: int, events: list[Event]) -> None:
        """Carry out the legal move ``(kind, a, b)``."""
        raise NotImplementedError(type(self).__name__)


def offer_or_skip(options: list[Action], closing: Action) -> list[Action]:
    """A choice that is only asked when something is on offer: the offers and the way to decline
    them, or nothing (the step is then skipped)."""
    return [*options, closing] if options else []


GAINED_CAR = tuple(
    tuple(Event("double_crossing.event.gain_car", {"player": ref, "car": car}) for car in CAR_REF)
    for ref in SEAT_REF
)
"""A car from the yard, by [seat][car]: made once, shared like every Event."""


def gain_car(state: DoubleCrossingState, seat: int, car: int, events: list[Event]) -> None:
    """A car from the yard (if one is left) onto the rack; a 7th car is sold back."""
    if not state.yard[car]:
        events.append(
            Event("double_crossing.event.yard_empty", {"player": SEAT_REF[seat], "car": CAR_REF[car]})
        )
        return
    state.yard[car] -= 1
    state.cars[seat][car] += 1
    events.append(GAINED_CAR[seat][car])
    check_rack(state, seat)


def check_rack(state: DoubleCrossingState, seat: int) -> None:
    """Over the rack limit: the seat must sell a car before anything else happens."""
    if sum(state.cars[seat]) > state.game.content.rack_limit and not any(
        isinstance(step, Rack) and step.seat == seat for step in state.stack
    ):
        state.stack.append(Rack(seat))


# ----- the reaction window (Stop card) ---------------------------------------------------------------

PASSED = tuple(Event("double_crossing.event.pass", {"player": ref}) for ref in SEAT_REF)
"""A seat's pass on the Stop window, made once: it is asked before nearly every turn (events are
treated as immutable, so they can be shared)."""


class Window(Step):
    """Before a turn's first roll the others, in turn order, may play a Stop card on it.

    Never changed in place (the next seat asked gets a new window), so each seat's first window
    is made once per game and shared (``game.windows``): one opens every turn."""

    __slots__ = ("queue", "target")
    kind = "window"
    answers = frozenset((PASS, REACT))
    always_ask = True

    def __init__(self, seat: int, queue: list[int], target: int) -> None:
        self.seat = seat
        self.queue = queue
        """The seats asked after this one."""
        self.target = target
        """Whose turn the window is before."""

    def fields(self) -> Task:
        return {"queue": list(self.queue), "target": self.target}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Window:
        return cls(int(data["seat"]), [int(s) for s in data["queue"]], int(data["target"]))

    def copy(self) -> Window:
        return Window(self.seat, list(self.queue), self.target)

    def options(self, state: DoubleCrossingState) -> list[Action]:
        menu = state.game.menu
        # The check on a Stop card picks between the two fixed lists (this runs before every turn).
        return menu.pass_react if self.check(state, REACT, 0, 0) is None else menu.pass_only

    def check(self, state: DoubleCrossingState, kind: int, a: int, b: int) -> Refusal | None:
        return NO_CARD[STOP] if kind == REACT and not state.hands[self.seat][STOP] else None

    def decide(self, state: DoubleCrossingState, kind: int, a: int, b: int, events: list[Event]) -> None:
        seat, target = self.seat, self.target
        if kind == REACT:
            play_card(state, seat, STOP)
            events.append(
                Event("double_crossing.event.stop", {"player": SEAT_REF[seat], "target": SEAT_REF[target]})
            )
            if duel(state, seat, target, events):
                events.append(Event("double_crossing.event.stopped", {"target": SEAT_REF[target]}))
                state.stack.clear()  # the window and the target's turn: the target loses this turn
                state.hard_end = True
                return
            events.append(Event("double_crossing.event.stop_failed", {"target": SEAT_REF[target]}))
            state.stops_left -= 1
        else:
            events.append(PASSED[seat])
        if state.stops_left > 0 and self.queue:
            state.stack[-1] = Window(self.queue[0], self.queue[1:], target)
        else:
            state.stack.pop()


# ----- cards, cars and money ------------------------------------------------------------------------


BOUGHT = tuple(
    tuple(
        Event(
            "double_crossing.event.buy_cards" if n else "double_crossing.event.no_buy",
            {"player": ref, "n": n},
        )
        for n in range(7)
    )
    for ref in SEAT_REF
)
"""``BOUGHT[seat][n]``: ``n`` crew cards bought (at most a die's 6), made once and shared."""


class BuyCards(Step):
    """Buy up to ``max`` crew cards (the die's face), limited by cash and the cards left."""

    __slots__ = ("max",)
    kind = "buy_cards"
    answers = frozenset((BUY_N,))

    def __init__(self, seat: int, most: int) -> None:
        self.seat = seat
        self.max = most

    def fields(self) -> Task:
        return {"max": self.max}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BuyCards:
        return cls(int(data["seat"]), int(data["max"]))

    def copy(self) -> BuyCards:
        return BuyCards(self.seat, self.max)

    def most(self, state: DoubleCrossingState) -> int:
        price = state.game.content.card_price
        return min(self.max, state.cash[self.seat] // price, cards_available(state))

    def candidates(self, state: DoubleCrossingState) -> Iterable[Action]:
        return state.game.menu.buy_n

    def options(self, state: DoubleCrossingState) -> list[Action]:
        # The candidates the check lets through: 0 up to ``most`` cards.
        return list(state.game.menu.buy_n[: self.most(state) + 1])

    def check(self, state: DoubleCrossingState, kind: int, a: int, b: int) -> Refusal | None:
        most = self.most(state)
        return Refusal("double_crossing.illegal.buy_limit", most=most) if a > most else None

    def decide(self, state: DoubleCrossingState, kind: int, a: int, b: int, events: list[Event]) -> None:
        seat = self.seat
        state.stack.pop()
        to_bank(state, seat, a * state.game.content.card_price)
        events.append(BOUGHT[seat][a])
        for _ in range(a):
            draw_card(state, seat, events)


class Discard(Step):
    """Doubles cost a crew card (docs/rules/double-crossing.md, "A turn" 3)."""

    __slots__ = ()
    kind = "discard"
    answers = frozenset((DISCARD,))
    always_ask = True

    def candidates(self, state: DoubleCrossingState) -> Iterable[Action]:
        return state.game.menu.discard

    def check(self, state: DoubleCrossingState, kind: int, a: int, b: int) -> Refusal | None:
        return None if state.hands[self.seat][a] else NO_CARD[a]

    def decide(self, state: DoubleCrossingState, kind: int, a: int, b: int, events: list[Event]) -> None:
        seat = self.seat
        state.stack.pop()
        state.hands[seat][a] -= 1
        state.discard.append(a)
        events.append(Event("double_crossing.event.discard", {"player": SEAT_REF[seat], "card": CARD_REF[a]}))


class Drop(Step):
    """A Villain or a Derail: one car of the seat's choice is left lying on ``space``."""

    __slots__ = ("space",)
    kind = "drop"
    answers = frozenset((DROP,))

    def __init__(self, seat: int, space: int) -> None:
        self.seat = seat
        self.space = space

    def fields(self) -> Task:
        return {"space": self.space}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Drop:
        return cls(int(data["seat"]), int(data["space"]))

    def copy(self) -> Drop:
        return Drop(self.seat, self.space)

    def candidates(self, state: DoubleCrossingState) -> Iterable[Action]:
        return state.game.menu.drop

    def check(self, state: DoubleCrossingState, kind: int, a: int, b: int) -> Refusal | None:
        return None if state.cars[self.seat][a] else NO_CAR[a]

    def decide(self, state: DoubleCrossingState, kind: int, a: int, b: int, events: list[Event]) -> None:
        seat, space = self.seat, self.space
        state.stack.pop()
        state.cars[seat][a] -= 1
        state.dropped.setdefault(space, [0] * CAR_TYPES)[a] += 1
        events.append(
            Event("double_crossing.event.drop", {"player": SEAT_REF[seat], "car": CAR_REF[a], "space": space})
        )


class Rack(Step):
    """Over the rack limit: sell cars back at half price until the rack fits."""

    __slots__ = ()
    kind = "rack"
    answers = frozenset((SELL_CAR,))

    def candidates(self, state: DoubleCrossingState) -> Iterable[Action]:
        return state.game.menu.sell_car

    def check(self, state: DoubleCrossingState, kind: int, a: int, b: int) -> Refusal | None:
        return None if state.cars[self.seat][a] else NO_CAR[a]

    def decide(self, state: DoubleCrossingState, kind: int, a: int, b: int, events: list[Event]) -> None:
        seat = self.seat
        sell_car(state, seat, a, events)
        if sum(state.cars[seat]) <= state.game.content.rack_limit:
            state.stack.pop()


class Pay(Step):
    """A payment to the bank (``to`` = -1) or a player. Automatic when the payer can pay, or has
    nothing left to sell; otherwise the payer sells cars or contracts first."""

    __slots__ = ("amount", "to")
    kind = "pay"
    automatic = True
    answers = frozenset((SELL_CAR, SELL_CONTRACT))

    def __init__(self, seat: int, amount: int, to: int) -> None:
        self.seat = seat
        self.amount = amount
        self.to = to

    def fields(self) -> Task:
        return {"amount": self.amount, "to": self.to}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Pay:
        return cls(int(data["seat"]), int(data["amount"]), int(data["to"]))

    def copy(self) -> Pay:
        return Pay(self.seat, self.amount, self.to)

    def run(self, state: DoubleCrossingState, events: list[Event]) -> bool:
        seat, amount, to = self.seat, self.amount, self.to
        cash = state.cash
        if cash[seat] < amount and (any(state.cars[seat]) or seat in state.owner):
            return False  # short of cash: the payer must sell something (a decision)
        paid = min(amount, cash[seat])  # our ruling: with nothing left to sell, pay what is left
        cash[seat] -= paid
        if to < 0:
            state.bank += paid
            events.append(Event("double_crossing.event.pay_bank", {"player": SEAT_REF[seat], "amount": paid}))
        else:
            cash[to] += paid
            events.append(
                Event(
                    "double_crossing.event.pay_player",
                    {"player": SEAT_REF[seat], "amount": paid, "to": SEAT_REF[to]},
                )
            )
        state.stack.pop()
        if paid < amount:
            events.append(
                Event("double_crossing.event.broke", {"player": SEAT_REF[seat], "short": amount - paid})
            )
        return True

    def candidates(self, state: DoubleCrossingState) -> Iterable[Action]:
        menu = state.game.menu
        if self.seat not in state.owner:  # most payers short of cash hold no contract: skip the loop
            return menu.sell_car
        held = [menu.sell_contract[k] for k, owner in enumerate(state.owner) if owner == self.seat]
        return [*menu.sell_car, *held]

    def check(self, state: DoubleCrossingState, kind: int, a: int, b: int) -> Refusal | None:
        if kind == SELL_CAR:
            return None if state.cars[self.seat][a] else NO_CAR[a]
        return None if state.owner[a] == self.seat else NOT_YOURS

    def decide(self, state: DoubleCrossingState, kind: int, a: int, b: int, events: list[Event]) -> None:
        seat = self.seat
        if kind == SELL_CAR:
            sell_car(state, seat, a, events)
            return
        state.owner[a] = -1
        got = from_bank(state, seat, half(state.game.content.contracts[a].price))
        events.append(
            Event(
                "double_crossing.event.sell_contract",
                {"player": SEAT_REF[seat], "contract": contract_ref(state, a), "amount": got},
            )
        )


class End(Step):
    """The end of a turn that may be extended: play an Engineer to roll again, or end it."""

    __slots__ = ()
    kind = "end"
    answers = frozenset((USE_ENGINEER, END))
    always_ask = True

    def options(self, state: DoubleCrossingState) -> list[Action]:
        menu = state.game.menu
        return menu.engineer_end if self.check(state, USE_ENGINEER, 0, 0) is None else menu.end_only

    def check(self, state: DoubleCrossingState, kind: int, a: int, b: int) -> Refusal | None:
        return NO_CARD[ENGINEER] if kind == USE_ENGINEER and not state.hands[self.seat][ENGINEER] else None

    def decide(self, state: DoubleCrossingState, kind: int, a: int, b: int, events: list[Event]) -> None:
        seat = self.seat
        state.stack.pop()
        if kind == USE_ENGINEER:
            play_card(state, seat, ENGINEER)
            state.used_engineer = True
            state.again = True
            events.append(Event("double_crossing.event.engineer", {"player": SEAT_REF[seat]}))

"""The turn machine: a stack of pending tasks, run until someone must decide.

A task is a small JSON-safe dict ``{"k": kind, "seat": who decides, ...}``. Automatic tasks (a
move, a payment the payer can afford) run at once; decision tasks wait for their seat's action.
A decision with a single possible answer is taken automatically, except the decisions that depend
on a hidden hand (the Stop window, the Engineer at the end of a turn, the discard for doubles) and
the pre-roll choice: asking only when a card is held would tell the table who holds it. When the
stack is empty, ``_next`` continues the turn (another roll) or passes it on.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import Action
from tabletrek.core.events import Event, seat_ref, text_ref
from tabletrek.core.state import State
from tabletrek.games.double_crossing.content import BOX, CAR_SLUGS, CARD_SLUGS, CREW, Content, half
from tabletrek.games.double_crossing.moves import ROLL_CREW
from tabletrek.games.double_crossing.spaces import resolve_space

if TYPE_CHECKING:
    from tabletrek.games.double_crossing.rules import DoubleCrossing

Task = dict[str, Any]
CAR_REF = tuple(text_ref(f"double_crossing.car.{slug}") for slug in CAR_SLUGS)
CARD_REF = tuple(text_ref(f"double_crossing.card.{slug}") for slug in CARD_SLUGS)
ALWAYS_ASK = frozenset({"window", "preroll", "end", "discard"})


def space_ref(kind: str) -> dict[str, str]:
    return text_ref(f"double_crossing.space.{kind}")


class Flow(State):
    """The rules in motion; the base of ``DoubleCrossingState`` (views and JSON live there)."""

    game: DoubleCrossing
    rng: random.Random
    pos: list[int]
    cash: list[int]
    cars: list[list[int]]
    hands: list[list[int]]
    owner: list[int]
    yard: list[int]
    dropped: dict[int, list[int]]
    draw: list[int]
    discard: list[int]
    bank: int
    depot: int
    stack: list[Task]
    first: int
    turn_seat: int
    again: bool
    hard_end: bool
    engineer_ok: bool
    used_villain: bool
    used_engineer: bool
    stops_left: int
    crew_used: int
    """Railroad Crew cards played this turn (the seed allows 1-2 per turn, not per roll)."""
    winner: int | None
    ended: bool
    rounds: int
    turns: int
    landed: dict[str, int]
    played: list[int]

    # ----- small helpers --------------------------------------------------------------------------

    @property
    def content(self) -> Content:
        return self.game.content

    def contracts_of(self, seat: int) -> list[int]:
        return [k for k, o in enumerate(self.owner) if o == seat]

    def can_win(self, seat: int) -> bool:
        return self.owner.count(seat) >= self.content.contracts_to_win

    def _push(self, *tasks: Task) -> None:
        """Push tasks so that the first one given runs first."""
        self.stack.extend(reversed(tasks))

    def _die(self) -> int:
        return self.rng.randint(1, 6)

    def _from_bank(self, seat: int, amount: int) -> int:
        paid = min(amount, self.bank)  # our ruling: an empty bank pays what it has
        self.bank -= paid
        self.cash[seat] += paid
        return paid

    def _to_bank(self, seat: int, amount: int) -> None:
        self.cash[seat] -= amount
        self.bank += amount

    def _duel(self, a: int, b: int, events: list[Event]) -> bool:
        """One die each, ties re-rolled (our ruling); True when ``a`` wins."""
        while True:
            ra, rb = self._die(), self._die()
            events.append(
                Event("double_crossing.event.duel", {"a": seat_ref(a), "ra": ra, "b": seat_ref(b), "rb": rb})
            )
            if ra != rb:
                return ra > rb

    def _draw_card(self, seat: int, events: list[Event]) -> bool:
        if not self.draw and self.discard:
            self.draw, self.discard = self.discard, []
            self.rng.shuffle(self.draw)
            events.append(Event("double_crossing.event.reshuffle", {"cards": len(self.draw)}))
        if not self.draw:
            events.append(Event("double_crossing.event.no_cards", {"player": seat_ref(seat)}))
            return False
        card = self.draw.pop()
        self.hands[seat][card] += 1
        events.append(
            Event(
                "double_crossing.event.drew",
                {"player": seat_ref(seat)},
                {"card": CARD_REF[card]},
                frozenset((seat,)),
            )
        )
        return True

    def _play_card(self, seat: int, card: int, count: int = 1) -> None:
        self.hands[seat][card] -= count
        self.discard.extend([card] * count)
        self.played[card] += count

    def _gain_car(self, seat: int, car: int, events: list[Event]) -> None:
        """A car from the yard (if one is left) onto the rack; a 7th car is sold back."""
        if not self.yard[car]:
            events.append(
                Event("double_crossing.event.yard_empty", {"player": seat_ref(seat), "car": CAR_REF[car]})
            )
            return
        self.yard[car] -= 1
        self.cars[seat][car] += 1
        events.append(
            Event("double_crossing.event.gain_car", {"player": seat_ref(seat), "car": CAR_REF[car]})
        )
        self._check_rack(seat)

    def _check_rack(self, seat: int) -> None:
        if sum(self.cars[seat]) > self.content.rack_limit and not any(
            t["k"] == "rack" and t["seat"] == seat for t in self.stack
        ):
            self.stack.append({"k": "rack", "seat": seat})

    def _sell_car(self, seat: int, car: int, events: list[Event]) -> None:
        self.cars[seat][car] -= 1
        self.yard[car] += 1
        got = self._from_bank(seat, half(self.content.car_prices[car]))
        events.append(
            Event(
                "double_crossing.event.sell_car",
                {"player": seat_ref(seat), "car": CAR_REF[car], "amount": got},
            )
        )

    def _end_game(self, winner: int | None, events: list[Event]) -> None:
        self.ended = True
        self.winner = winner
        self.stack.clear()
        if winner is not None:
            events.append(
                Event(
                    "double_crossing.event.won",
                    {"player": seat_ref(winner), "contracts": self.owner.count(winner)},
                )
            )

    # ----- the loop -------------------------------------------------------------------------------

    def _run(self, events: list[Event]) -> list[Action]:
        """Advance until a seat must decide (or the game is over); return that decision's options."""
        while not self.ended:
            if not self.stack:
                self._next(events)
                continue
            task = self.stack[-1]
            auto = AUTO.get(task["k"])
            if auto is not None and auto(self, task, events):
                continue
            options = self.options(task)
            if not options:
                self.stack.pop()
            elif len(options) == 1 and task["k"] not in ALWAYS_ASK:
                self.decide(task, options[0], events)
            else:
                return options
        return []

    def _next(self, events: list[Event]) -> None:
        """The stack is empty: roll again, offer the Engineer, or pass the turn on."""
        seat = self.turn_seat
        if self.again and not self.hard_end:
            self.again = False
            self.stack.append({"k": "preroll", "seat": seat})
            events.append(Event("double_crossing.event.again", {"player": seat_ref(seat)}))
            return
        if self.engineer_ok and not self.hard_end and not self.used_engineer:
            # Asked whether or not an Engineer is held, so the prompt tells nobody about the hand.
            self.engineer_ok = False
            self.stack.append({"k": "end", "seat": seat})
            return
        n = self.game.players
        self.turn_seat = (seat + 1) % n
        self.turns += 1
        if self.turn_seat == self.first:
            self.rounds += 1
            if self.rounds > self.game.max_rounds:
                events.append(Event("double_crossing.event.max_rounds", {"rounds": self.game.max_rounds}))
                self.rounds = self.game.max_rounds
                self._end_game(None, events)
                return
        self._begin_turn(events)

    def _begin_turn(self, events: list[Event]) -> None:
        seat = self.turn_seat
        self.again = self.hard_end = self.engineer_ok = False
        self.used_villain = self.used_engineer = False
        self.stops_left = self.game.stops_per_turn
        self.crew_used = 0
        events.append(Event("double_crossing.event.turn", {"player": seat_ref(seat), "round": self.rounds}))
        self.stack.append({"k": "preroll", "seat": seat})
        n = self.game.players
        others = [(seat + i) % n for i in range(1, n)]
        if others:
            self.stack.append({"k": "window", "seat": others[0], "queue": others[1:], "target": seat})

    # ----- options of a decision ------------------------------------------------------------------

    def options(self, task: Task) -> list[Action]:
        return OPTIONS[task["k"]](self, task)

    def decide(self, task: Task, action: Action, events: list[Event]) -> None:
        kind, a, b = self.game.decode[action.index]
        DECIDE[task["k"]](self, task, kind, a, b, events)

    # ----- moving and landing ---------------------------------------------------------------------

    def _roll(self, seat: int, variant: int, events: list[Event]) -> None:
        crew = ROLL_CREW[variant]
        if crew:
            self._play_card(seat, CREW, crew)
            self.crew_used += crew
        slow, back = bool(variant & 1), bool(variant & 2)
        dice = [self._die()] if slow else [self._die(), self._die()]
        steps = sum(dice)
        events.append(
            Event(
                "double_crossing.event.roll",
                {
                    "player": seat_ref(seat),
                    "dice": "+".join(map(str, dice)),
                    "steps": steps,
                    "how": ROLL_HOW[variant],
                },
            )
        )
        self.stack.append({"k": "move", "seat": seat, "steps": steps, "back": back})
        if len(dice) == 2 and dice[0] == dice[1]:
            if dice[0] == 6:
                events.append(Event("double_crossing.event.boxcars", {"player": seat_ref(seat)}))
                self._gain_car(seat, BOX, events)
            elif sum(self.hands[seat]):
                self.stack.append({"k": "discard", "seat": seat})

    def _move(self, task: Task, events: list[Event]) -> bool:
        seat, steps, back = task["seat"], task["steps"], task["back"]
        self.stack.pop()
        size = self.content.size
        pos = self.pos[seat]
        exact = self.game.exact_return
        for i in range(steps):
            pos = 0 if pos < 0 else (pos + (-1 if back else 1)) % size
            if pos == 0 and self.can_win(seat) and (not exact or i == steps - 1):
                self.pos[seat] = 0
                self._end_game(seat, events)
                return True
        self.pos[seat] = pos
        self._land(seat, pos, True, events)
        return True

    def _teleport(self, seat: int, space: int, own: bool, events: list[Event]) -> None:
        self.pos[seat] = space
        events.append(
            Event(
                "double_crossing.event.moved",
                {
                    "player": seat_ref(seat),
                    "space": space,
                    "name": space_ref(self.content.spaces[space].kind),
                },
            )
        )
        if space == 0 and self.can_win(seat):
            self._end_game(seat, events)
            return
        self._land(seat, space, own, events)

    def _land(self, seat: int, space: int, own: bool, events: list[Event]) -> None:
        kind = self.content.spaces[space].kind
        self.landed[kind] = self.landed.get(kind, 0) + 1
        events.append(
            Event(
                "double_crossing.event.land",
                {"player": seat_ref(seat), "space": space, "name": space_ref(kind)},
            )
        )
        if own and any(p == space for o, p in enumerate(self.pos) if o != seat):
            self.again = True  # the seed: landing on an occupied space gives another turn
            events.append(Event("double_crossing.event.occupied", {"player": seat_ref(seat)}))
        self._resolve(seat, space, own, events)

    def _resolve(self, seat: int, space: int, own: bool, events: list[Event]) -> None:
        if own:
            self.engineer_ok = self.content.spaces[space].kind not in ("stop", "derail")
        resolve_space(self, seat, space, own, events)


ROLL_HOW = tuple(text_ref(f"double_crossing.roll.{i}") for i in range(4))

AutoHandler = Callable[[Flow, Task, list[Event]], bool]
OptionsFn = Callable[[Flow, Task], list[Action]]
DecideFn = Callable[[Flow, Task, int, int, int, list[Event]], None]


def _auto_pay(flow: Flow, task: Task, events: list[Event]) -> bool:
    seat, amount, to = task["seat"], task["amount"], task["to"]
    if flow.cash[seat] < amount and (sum(flow.cars[seat]) or flow.owner.count(seat)):
        return False  # short of cash: the payer must sell something (a decision)
    paid = min(amount, flow.cash[seat])  # our ruling: with nothing left to sell, pay what is left
    flow.cash[seat] -= paid
    if to < 0:
        flow.bank += paid
    else:
        flow.cash[to] += paid
    flow.stack.pop()
    args: dict[str, Any] = {"player": seat_ref(seat), "amount": paid}
    if to >= 0:
        args["to"] = seat_ref(to)
    key = "pay_player" if to >= 0 else "pay_bank"
    events.append(Event(f"double_crossing.event.{key}", args))
    if paid < amount:
        events.append(
            Event("double_crossing.event.broke", {"player": seat_ref(seat), "short": amount - paid})
        )
    return True


def _auto_move(flow: Flow, task: Task, events: list[Event]) -> bool:
    return flow._move(task, events)


AUTO: dict[str, AutoHandler] = {"pay": _auto_pay, "move": _auto_move}

from tabletrek.games.double_crossing.decisions import DECIDE, OPTIONS  # noqa: E402

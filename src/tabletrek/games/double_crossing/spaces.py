"""Tokens on the track: the move along it, landing, what each space does, and the two spaces that
move a token again (Roundhouse, Control Tower).

``own`` is False when the token was moved there by another player's Control Tower: the moved
player resolves the space, but effects on "their turn" (Roll Again, Stop, the occupied-space bonus,
turn-ending rolls) do nothing, since it is not their turn (our ruling).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import Action
from tabletrek.core.events import Event
from tabletrek.games.double_crossing.content import CAR_TYPES, PASSENGER, Space
from tabletrek.games.double_crossing.effects import SEAT_REF, Refusal, die, die_event, draw_card, end_game
from tabletrek.games.double_crossing.moves import DECLINE, GO, MOVE
from tabletrek.games.double_crossing.offers import Connect, DoubleCross, Return, Trade, Yard
from tabletrek.games.double_crossing.steps import BuyCards, Drop, Pay, Rack, Step, Task, check_rack, gain_car

if TYPE_CHECKING:
    from tabletrek.games.double_crossing.state import DoubleCrossingState

STAY_IS_DECLINE = Refusal("double_crossing.illegal.stay_is_decline")
NOT_YOURSELF = Refusal("double_crossing.illegal.not_yourself")
NOT_TOWER = Refusal("double_crossing.illegal.not_tower")
MUST_MOVE = Refusal("double_crossing.illegal.must_move")


# ----- moving and landing ---------------------------------------------------------------------------


class Move(Step):
    """A rolled move along the track (automatic): ``steps`` spaces, counter-clockwise if ``back``."""

    __slots__ = ("back", "steps")
    kind = "move"
    automatic = True

    def __init__(self, seat: int, steps: int, back: bool) -> None:
        self.seat = seat
        self.steps = steps
        self.back = back

    def fields(self) -> Task:
        return {"steps": self.steps, "back": self.back}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Move:
        return cls(int(data["seat"]), int(data["steps"]), bool(data["back"]))

    def copy(self) -> Move:
        return Move(self.seat, self.steps, self.back)

    def run(self, state: DoubleCrossingState, events: list[Event]) -> bool:
        seat, steps = self.seat, self.steps
        state.stack.pop()
        size = len(state.game.content.spaces)  # not ``content.size``: a property call every move
        start = state.pos[seat]
        step = -1 if self.back else 1
        if state.can_win(seat):
            # Passing Central Station wins (with exact_return, only on the move's last step).
            last = steps - 1 if state.game.exact_return else 0
            pos = start
            for i in range(steps):
                pos = 0 if pos < 0 else (pos + step) % size
                if pos == 0 and i >= last:
                    state.pos[seat] = 0
                    end_game(state, seat, events)
                    return True
        # A token not yet on the track enters at Central Station with its first step.
        pos = (step * (steps - 1) if start < 0 else start + step * steps) % size
        state.pos[seat] = pos
        land(state, seat, pos, True, events)
        return True


MOVES = tuple(
    tuple(tuple(Move(seat, steps, back) for steps in range(13)) for back in (False, True))
    for seat in range(len(SEAT_REF))
)
"""``MOVES[seat][back][steps]``: every move two dice can roll, made once and shared (a ``Move``
never changes: running it pops it), since one is queued for every roll."""


def teleport(state: DoubleCrossingState, seat: int, space: int, own: bool, events: list[Event]) -> None:
    """A token put straight onto ``space`` (Roundhouse, Control Tower)."""
    state.pos[seat] = space
    events.append(
        Event(
            "double_crossing.event.moved",
            {
                "player": SEAT_REF[seat],
                "space": space,
                "name": state.game.space_refs[space],
            },
        )
    )
    if space == 0 and state.can_win(seat):
        end_game(state, seat, events)
        return
    land(state, seat, space, own, events)


def land(state: DoubleCrossingState, seat: int, space: int, own: bool, events: list[Event]) -> None:
    sp = state.game.content.spaces[space]
    kind = sp.kind
    state.landed[kind] = state.landed.get(kind, 0) + 1
    events.append(state.game.land_events[seat][space])
    if own:
        if state.pos.count(space) > 1:  # someone else's token is here too
            # an occupied space gives another turn (docs/rules/double-crossing.md, "A turn")
            state.again = True
            events.append(Event("double_crossing.event.occupied", {"player": SEAT_REF[seat]}))
        state.engineer_ok = kind not in ("stop", "derail")
    steps: list[Step] = []
    lying = state.dropped.pop(space, None)
    if lying:
        # Cars left by a Villain or a Derail: the next token to stop here takes them, free.
        rack = state.cars[seat]
        for car in range(CAR_TYPES):
            rack[car] += lying[car]
        events.append(Event("double_crossing.event.pick_up", {"player": SEAT_REF[seat], "n": sum(lying)}))
        check_rack(state, seat)
    elif kind == "derail" and sum(state.cars[seat]) > 0:
        steps.append(Drop(seat, space))
    ON_LAND[kind](state, seat, sp, own, events, steps)
    if steps:
        stack = state.stack
        # A 7th car picked up above must be sold before anything else happens here.
        rack_step = stack.pop() if stack and isinstance(stack[-1], Rack) else None
        stack.extend(reversed(steps))  # the first one listed runs first
        if rack_step is not None:
            stack.append(rack_step)


# ----- what each space does ---------------------------------------------------------------------------
# Each handler adds the steps its space asks for to ``steps``, in the order they run.

Handler = Callable[["DoubleCrossingState", int, Space, bool, list[Event], list[Step]], None]


def _three_rolls(state: DoubleCrossingState, seat: int, events: list[Event]) -> bool:
    """Up to three rolls of two dice; True as soon as one shows doubles."""
    for attempt in range(1, 4):
        a, b = die(state), die(state)
        events.append(
            Event("double_crossing.event.try", {"player": SEAT_REF[seat], "n": attempt, "dice": f"{a}+{b}"})
        )
        if a == b:
            return True
    return False


def _turn_ends(state: DoubleCrossingState, own: bool) -> None:
    if own:
        state.hard_end = True


def on_corner(
    state: DoubleCrossingState, seat: int, sp: Space, own: bool, events: list[Event], steps: list[Step]
) -> None:
    """Central Station and the corners: passenger fares from every other player, then crew cards."""
    riders = state.cars[seat][PASSENGER]
    if riders:
        n = state.game.players
        fare = state.game.content.corner_fare * riders
        steps.extend(Pay((seat + i) % n, fare, seat) for i in range(1, n))
    steps.append(BuyCards(seat, die(state)))


def on_govt_contract(
    state: DoubleCrossingState, seat: int, sp: Space, own: bool, events: list[Event], steps: list[Step]
) -> None:
    steps.append(BuyCards(seat, die(state)))


def on_trade(
    state: DoubleCrossingState, seat: int, sp: Space, own: bool, events: list[Event], steps: list[Step]
) -> None:
    steps.append(Trade(seat, sp.company, 3))


def on_yard(
    state: DoubleCrossingState, seat: int, sp: Space, own: bool, events: list[Event], steps: list[Step]
) -> None:
    steps.append(Yard(seat, sp.car))


def on_train_shop(
    state: DoubleCrossingState, seat: int, sp: Space, own: bool, events: list[Event], steps: list[Step]
) -> None:
    face = die(state)
    events.append(die_event("double_crossing.event.shop_roll", seat, face))
    gain_car(state, seat, state.game.content.die_car[face - 1], events)


def on_roll_again(
    state: DoubleCrossingState, seat: int, sp: Space, own: bool, events: list[Event], steps: list[Step]
) -> None:
    if own:
        state.again = True


def on_stop(
    state: DoubleCrossingState, seat: int, sp: Space, own: bool, events: list[Event], steps: list[Step]
) -> None:
    if own:
        state.hard_end = True
        events.append(TURN_ENDS[seat])


TURN_ENDS = tuple(Event("double_crossing.event.turn_ends", {"player": ref}) for ref in SEAT_REF)
"""A Stop space ending the turn, by seat: made once and shared."""


def on_pay_taxes(
    state: DoubleCrossingState, seat: int, sp: Space, own: bool, events: list[Event], steps: list[Step]
) -> None:
    steps.append(Pay(seat, sp.amount, -1))


def on_crew_cards(
    state: DoubleCrossingState, seat: int, sp: Space, own: bool, events: list[Event], steps: list[Step]
) -> None:
    draw_card(state, seat, events)


def on_double_cross(
    state: DoubleCrossingState, seat: int, sp: Space, own: bool, events: list[Event], steps: list[Step]
) -> None:
    steps.append(DoubleCross(seat))


def on_roundhouse(
    state: DoubleCrossingState, seat: int, sp: Space, own: bool, events: list[Event], steps: list[Step]
) -> None:
    if _three_rolls(state, seat, events):
        steps.append(Roundhouse(seat, own))
    else:
        events.append(Event("double_crossing.event.no_doubles", {"player": SEAT_REF[seat]}))
        _turn_ends(state, own)


def on_control_tower(
    state: DoubleCrossingState, seat: int, sp: Space, own: bool, events: list[Event], steps: list[Step]
) -> None:
    steps.append(Tower(seat))


def on_depot(
    state: DoubleCrossingState, seat: int, sp: Space, own: bool, events: list[Event], steps: list[Step]
) -> None:
    amount = state.depot
    state.cash[seat] += amount
    refill = min(state.game.content.depot_refill, state.bank)
    state.bank -= refill
    state.depot = refill
    events.append(Event("double_crossing.event.depot", {"player": SEAT_REF[seat], "amount": amount}))


def on_dissatisfied_customer(
    state: DoubleCrossingState, seat: int, sp: Space, own: bool, events: list[Event], steps: list[Step]
) -> None:
    if seat not in state.owner:
        _turn_ends(state, own)
        events.append(Event("double_crossing.event.no_contracts", {"player": SEAT_REF[seat]}))
    elif _three_rolls(state, seat, events):
        _turn_ends(state, own)
        events.append(Event("double_crossing.event.customer_calm", {"player": SEAT_REF[seat]}))
    else:
        steps.append(Return(seat))


def on_connections(
    state: DoubleCrossingState, seat: int, sp: Space, own: bool, events: list[Event], steps: list[Step]
) -> None:
    steps.append(Connect(seat))


def on_nothing(
    state: DoubleCrossingState, seat: int, sp: Space, own: bool, events: list[Event], steps: list[Step]
) -> None:
    """The Derail's drop is asked for above, like any cars lying on a space."""


ON_LAND: dict[str, Handler] = {
    "central": on_corner,
    "corner": on_corner,
    "govt-contract": on_govt_contract,
    "trade": on_trade,
    "yard": on_yard,
    "train-shop": on_train_shop,
    "roll-again": on_roll_again,
    "stop": on_stop,
    "pay-taxes": on_pay_taxes,
    "crew-cards": on_crew_cards,
    "derail": on_nothing,
    "double-cross": on_double_cross,
    "roundhouse": on_roundhouse,
    "control-tower": on_control_tower,
    "depot": on_depot,
    "dissatisfied-customer": on_dissatisfied_customer,
    "connections": on_connections,
}
"""The board file names each space's kind; this binds the names to what they do."""


# ----- the spaces that move a token again ----------------------------------------------------------------


class Roundhouse(Step):
    """Roundhouse doubles: the seat may move its token to any space (docs/rules/double-crossing.md,
    "The spaces": it *may* move)."""

    __slots__ = ("own",)
    kind = "roundhouse"
    answers = frozenset((GO, DECLINE))

    def __init__(self, seat: int, own: bool) -> None:
        self.seat = seat
        self.own = own

    def fields(self) -> Task:
        return {"own": self.own}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Roundhouse:
        return cls(int(data["seat"]), bool(data["own"]))

    def copy(self) -> Roundhouse:
        return Roundhouse(self.seat, self.own)

    def candidates(self, state: DoubleCrossingState) -> Iterable[Action]:
        menu = state.game.menu
        return menu.go if state.game.forced_moves else [*menu.go, menu.decline]

    def check(self, state: DoubleCrossingState, kind: int, a: int, b: int) -> Refusal | None:
        if state.game.forced_moves:  # tabletrek's first reading: a compulsory move, staying put rolls again
            return MUST_MOVE if kind == DECLINE else None
        # The Roundhouse "may move" (docs/rules/double-crossing.md, "The spaces"): declining is staying,
        # so the own space is no move.
        return STAY_IS_DECLINE if kind == GO and a == state.pos[self.seat] else None

    def decide(self, state: DoubleCrossingState, kind: int, a: int, b: int, events: list[Event]) -> None:
        state.stack.pop()
        if kind == DECLINE:
            events.append(Event("double_crossing.event.stay", {"player": SEAT_REF[self.seat]}))
            return
        teleport(state, self.seat, a, self.own, events)


class Tower(Step):
    """Control Tower: the seat may move another player's token to any space."""

    __slots__ = ()
    kind = "tower"
    answers = frozenset((MOVE, DECLINE))

    def candidates(self, state: DoubleCrossingState) -> Iterable[Action]:
        menu = state.game.menu
        moves = menu.tower[self.seat]
        return moves if state.game.forced_moves else (*moves, menu.decline)

    def check(self, state: DoubleCrossingState, kind: int, a: int, b: int) -> Refusal | None:
        game = state.game
        if kind == DECLINE:
            # "May move" (可將…移至): the player may decline, unless forced_moves keeps it compulsory.
            return MUST_MOVE if game.forced_moves else None
        if a == self.seat:
            return NOT_YOURSELF
        # The seed sends the token to any space (任一方格), the Control Tower included; the option
        # tower_to_tower=false keeps tabletrek's first reading, which left the tower out.
        return NOT_TOWER if not game.tower_to_tower and b == game.tower_space else None

    def decide(self, state: DoubleCrossingState, kind: int, a: int, b: int, events: list[Event]) -> None:
        seat = self.seat
        state.stack.pop()
        if kind == DECLINE:
            events.append(Event("double_crossing.event.tower_declined", {"player": SEAT_REF[seat]}))
            return
        events.append(Event("double_crossing.event.tower", {"player": SEAT_REF[seat], "target": SEAT_REF[a]}))
        teleport(state, a, b, False, events)

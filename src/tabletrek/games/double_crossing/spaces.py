"""What each space does when a token lands on it (the seed's normal and special spaces).

``own`` is False when the token was moved there by another player's Control Tower: the moved
player resolves the space, but effects on "their turn" (Roll Again, Stop, the occupied-space bonus,
turn-ending rolls) do nothing, since it is not their turn (our ruling).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletrek.core.events import Event, seat_ref
from tabletrek.games.double_crossing.content import CAR_TYPES, PASSENGER

if TYPE_CHECKING:
    from tabletrek.games.double_crossing.flow import Flow, Task


def _three_rolls(flow: Flow, seat: int, events: list[Event]) -> bool:
    """Up to three rolls of two dice; True as soon as one shows doubles."""
    for attempt in range(1, 4):
        a, b = flow._die(), flow._die()
        events.append(
            Event("double_crossing.event.try", {"player": seat_ref(seat), "n": attempt, "dice": f"{a}+{b}"})
        )
        if a == b:
            return True
    return False


def resolve_space(flow: Flow, seat: int, space: int, own: bool, events: list[Event]) -> None:
    c = flow.content
    sp = c.spaces[space]
    kind = sp.kind
    player = seat_ref(seat)
    tasks: list[Task] = []
    lying = flow.dropped.pop(space, None)
    if lying:
        # Cars left by a Villain or a Derail: the next token to stop here takes them, free.
        for car in range(CAR_TYPES):
            flow.cars[seat][car] += lying[car]
        events.append(Event("double_crossing.event.pick_up", {"player": player, "n": sum(lying)}))
        flow._check_rack(seat)
    elif kind == "derail" and sum(flow.cars[seat]) > 0:
        tasks.append({"k": "drop", "seat": seat, "space": space})
    if kind in ("central", "corner"):
        riders = flow.cars[seat][PASSENGER]
        if riders:
            n = flow.game.players
            fare = c.corner_fare * riders
            for i in range(1, n):
                tasks.append({"k": "pay", "seat": (seat + i) % n, "amount": fare, "to": seat})
        tasks.append({"k": "buy_cards", "seat": seat, "max": flow._die()})
    elif kind == "govt-contract":
        tasks.append({"k": "buy_cards", "seat": seat, "max": flow._die()})
    elif kind == "trade":
        tasks.append({"k": "trade", "seat": seat, "company": sp.company, "left": 3})
    elif kind == "yard":
        tasks.append({"k": "yard", "seat": seat, "car": sp.car})
    elif kind == "train-shop":
        face = flow._die()
        events.append(Event("double_crossing.event.shop_roll", {"player": player, "face": face}))
        flow._gain_car(seat, c.die_car[face - 1], events)
    elif kind == "roll-again":
        if own:
            flow.again = True
    elif kind == "stop":
        if own:
            flow.hard_end = True
            events.append(Event("double_crossing.event.turn_ends", {"player": player}))
    elif kind == "pay-taxes":
        tasks.append({"k": "pay", "seat": seat, "amount": sp.amount, "to": -1})
    elif kind == "crew-cards":
        flow._draw_card(seat, events)
    elif kind == "double-cross":
        tasks.append({"k": "double_cross", "seat": seat})
    elif kind == "roundhouse":
        if _three_rolls(flow, seat, events):
            tasks.append({"k": "roundhouse", "seat": seat, "own": own})
        else:
            events.append(Event("double_crossing.event.no_doubles", {"player": player}))
            if own:
                flow.hard_end = True
    elif kind == "control-tower":
        tasks.append({"k": "tower", "seat": seat})
    elif kind == "depot":
        amount = flow.depot
        flow.cash[seat] += amount
        flow.depot = 0
        refill = min(c.depot_refill, flow.bank)
        flow.bank -= refill
        flow.depot = refill
        events.append(Event("double_crossing.event.depot", {"player": player, "amount": amount}))
    elif kind == "dissatisfied-customer":
        if not flow.owner.count(seat):
            if own:
                flow.hard_end = True
            events.append(Event("double_crossing.event.no_contracts", {"player": player}))
        elif _three_rolls(flow, seat, events):
            if own:
                flow.hard_end = True
            events.append(Event("double_crossing.event.customer_calm", {"player": player}))
        else:
            tasks.append({"k": "return", "seat": seat})
    elif kind == "connections":
        tasks.append({"k": "connect", "seat": seat})
    # A 7th car picked up above must be sold before anything else happens here.
    rack = flow.stack.pop() if flow.stack and flow.stack[-1]["k"] == "rack" else None
    flow._push(*tasks)
    if rack is not None:
        flow.stack.append(rack)

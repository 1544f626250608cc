"""Decisions: for each kind of pending task, its legal actions and what choosing one does."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletrek.core.actions import Action
from tabletrek.core.events import Event, seat_ref, text_ref
from tabletrek.games.double_crossing.content import CAR_TYPES, CARD_TYPES, CREW, ENGINEER, STOP, VILLAIN, half
from tabletrek.games.double_crossing.moves import (
    BUY_CAR,
    BUY_CARDS,
    BUY_N,
    CONNECT,
    DECLINE,
    DISCARD,
    DONE,
    DOUBLE_CROSS,
    DROP,
    END,
    GO,
    MOVE,
    PASS,
    REACT,
    RETURN,
    ROLL,
    SELL_CAR,
    SELL_CONTRACT,
    TRADE,
)
from tabletrek.games.double_crossing.moves import ENGINEER as USE_ENGINEER
from tabletrek.games.double_crossing.moves import VILLAIN as PLAY_VILLAIN

if TYPE_CHECKING:
    from collections.abc import Callable

    from tabletrek.games.double_crossing.flow import Flow, Task

    OptionsFn = Callable[[Flow, Task], list[Action]]
    DecideFn = Callable[[Flow, Task, int, int, int, list[Event]], None]


CREW_PER_TURN = 2  # the seed: Railroad Crew, 1-2 cards per turn


def contract_ref(flow: Flow, k: int) -> dict[str, str]:
    return text_ref(f"double_crossing.contract.{flow.content.contracts[k].slug}")


def has_cars(flow: Flow, seat: int, k: int) -> bool:
    return all(
        have >= need for have, need in zip(flow.cars[seat], flow.content.contracts[k].cars, strict=True)
    )


def cards_available(flow: Flow) -> int:
    return len(flow.draw) + len(flow.discard)


# ----- the reaction window (Stop card) ---------------------------------------------------------


def window_options(flow: Flow, task: Task) -> list[Action]:
    g = flow.game
    if flow.hands[task["seat"]][STOP]:
        return [g.act(PASS), g.act(REACT)]
    return [g.act(PASS)]


def window_decide(flow: Flow, task: Task, kind: int, a: int, b: int, events: list[Event]) -> None:
    seat, target = task["seat"], task["target"]
    if kind == REACT:
        flow._play_card(seat, STOP)
        events.append(
            Event("double_crossing.event.stop", {"player": seat_ref(seat), "target": seat_ref(target)})
        )
        if flow._duel(seat, target, events):
            events.append(Event("double_crossing.event.stopped", {"target": seat_ref(target)}))
            flow.stack.clear()  # the window and the target's turn: the target loses this turn
            flow.hard_end = True
            return
        events.append(Event("double_crossing.event.stop_failed", {"target": seat_ref(target)}))
        flow.stops_left -= 1
    else:
        events.append(Event("double_crossing.event.pass", {"player": seat_ref(seat)}))
    if flow.stops_left > 0 and task["queue"]:
        task["seat"] = task["queue"][0]
        task["queue"] = task["queue"][1:]
    else:
        flow.stack.pop()


# ----- before the roll ---------------------------------------------------------------------------


def crew_room(flow: Flow, seat: int) -> int:
    """Railroad Crew cards the seat may still play on this roll: 1-2 a turn (每回合可使用1~2張),
    counted over the whole turn, Roll Again included (``crew_per_roll``: per roll instead)."""
    used = 0 if flow.game.crew_per_roll else flow.crew_used
    return min(flow.hands[seat][CREW], CREW_PER_TURN - used)


def preroll_options(flow: Flow, task: Task) -> list[Action]:
    g = flow.game
    seat = task["seat"]
    hand = flow.hands[seat]
    out = [g.act(ROLL, 0)]
    room = crew_room(flow, seat)
    if room >= 1:
        out += [g.act(ROLL, 1), g.act(ROLL, 2)]
    if room >= 2:
        out.append(g.act(ROLL, 3))
    if hand[VILLAIN] and not flow.used_villain:
        for other in range(g.players):
            if other != seat and flow.pos[other] >= 0 and sum(flow.cars[other]):
                out.append(g.act(PLAY_VILLAIN, other))
    if flow.cash[seat] >= flow.content.card_price and cards_available(flow):
        out.append(g.act(BUY_CARDS))
    return out


def preroll_decide(flow: Flow, task: Task, kind: int, a: int, b: int, events: list[Event]) -> None:
    seat = task["seat"]
    if kind == ROLL:
        flow.stack.pop()
        flow.engineer_ok = False
        flow._roll(seat, a, events)
    elif kind == PLAY_VILLAIN:
        flow._play_card(seat, VILLAIN)
        flow.used_villain = True
        events.append(
            Event("double_crossing.event.villain", {"player": seat_ref(seat), "target": seat_ref(a)})
        )
        flow.stack.append({"k": "drop", "seat": a, "space": flow.pos[a]})
    else:  # buy crew cards instead of rolling
        flow.stack.pop()
        flow.engineer_ok = False
        face = flow._die()
        events.append(Event("double_crossing.event.card_roll", {"player": seat_ref(seat), "face": face}))
        flow.stack.append({"k": "buy_cards", "seat": seat, "max": face})


# ----- cards, cars and money ------------------------------------------------------------------------


def buy_cards_options(flow: Flow, task: Task) -> list[Action]:
    price = flow.content.card_price
    most = min(task["max"], flow.cash[task["seat"]] // price, cards_available(flow))
    return [flow.game.act(BUY_N, n) for n in range(most + 1)]


def buy_cards_decide(flow: Flow, task: Task, kind: int, a: int, b: int, events: list[Event]) -> None:
    seat = task["seat"]
    flow.stack.pop()
    flow._to_bank(seat, a * flow.content.card_price)
    key = "buy_cards" if a else "no_buy"
    events.append(Event(f"double_crossing.event.{key}", {"player": seat_ref(seat), "n": a}))
    for _ in range(a):
        flow._draw_card(seat, events)


def discard_options(flow: Flow, task: Task) -> list[Action]:
    hand = flow.hands[task["seat"]]
    return [flow.game.act(DISCARD, c) for c in range(CARD_TYPES) if hand[c]]


def discard_decide(flow: Flow, task: Task, kind: int, a: int, b: int, events: list[Event]) -> None:
    seat = task["seat"]
    flow.stack.pop()
    flow.hands[seat][a] -= 1
    flow.discard.append(a)
    events.append(Event("double_crossing.event.discard", {"player": seat_ref(seat), "card": _card(a)}))


def _card(card: int) -> dict[str, str]:
    from tabletrek.games.double_crossing.flow import CARD_REF

    return CARD_REF[card]


def _car(car: int) -> dict[str, str]:
    from tabletrek.games.double_crossing.flow import CAR_REF

    return CAR_REF[car]


def drop_options(flow: Flow, task: Task) -> list[Action]:
    cars = flow.cars[task["seat"]]
    return [flow.game.act(DROP, t) for t in range(CAR_TYPES) if cars[t]]


def drop_decide(flow: Flow, task: Task, kind: int, a: int, b: int, events: list[Event]) -> None:
    seat, space = task["seat"], task["space"]
    flow.stack.pop()
    flow.cars[seat][a] -= 1
    flow.dropped.setdefault(space, [0] * CAR_TYPES)[a] += 1
    events.append(
        Event("double_crossing.event.drop", {"player": seat_ref(seat), "car": _car(a), "space": space})
    )


def rack_options(flow: Flow, task: Task) -> list[Action]:
    cars = flow.cars[task["seat"]]
    return [flow.game.act(SELL_CAR, t) for t in range(CAR_TYPES) if cars[t]]


def rack_decide(flow: Flow, task: Task, kind: int, a: int, b: int, events: list[Event]) -> None:
    seat = task["seat"]
    flow._sell_car(seat, a, events)
    if sum(flow.cars[seat]) <= flow.content.rack_limit:
        flow.stack.pop()


def pay_options(flow: Flow, task: Task) -> list[Action]:
    seat = task["seat"]
    g = flow.game
    out = [g.act(SELL_CAR, t) for t in range(CAR_TYPES) if flow.cars[seat][t]]
    out += [g.act(SELL_CONTRACT, k) for k in flow.contracts_of(seat)]
    return out


def pay_decide(flow: Flow, task: Task, kind: int, a: int, b: int, events: list[Event]) -> None:
    seat = task["seat"]
    if kind == SELL_CAR:
        flow._sell_car(seat, a, events)
        return
    flow.owner[a] = -1
    got = flow._from_bank(seat, half(flow.content.contracts[a].price))
    events.append(
        Event(
            "double_crossing.event.sell_contract",
            {"player": seat_ref(seat), "contract": contract_ref(flow, a), "amount": got},
        )
    )


# ----- spaces with a choice -------------------------------------------------------------------------


def trade_options(flow: Flow, task: Task) -> list[Action]:
    seat, company = task["seat"], task["company"]
    g = flow.game
    out = [
        g.act(TRADE, k.index)
        for k in flow.content.contracts
        if k.company == company
        and flow.owner[k.index] < 0
        and flow.cash[seat] >= k.price
        and has_cars(flow, seat, k.index)
    ]
    return [*out, g.act(DONE)] if out else []


def _take_contract(flow: Flow, seat: int, k: int, price: int, events: list[Event], key: str) -> None:
    contract = flow.content.contracts[k]
    flow._to_bank(seat, price)
    if key == "trade" or flow.game.connections_needs_cars:
        for car, n in enumerate(contract.cars):
            flow.cars[seat][car] -= n
            flow.yard[car] += n
    flow.owner[k] = seat
    events.append(
        Event(
            f"double_crossing.event.{key}",
            {
                "player": seat_ref(seat),
                "contract": contract_ref(flow, k),
                "amount": price,
                "count": flow.owner.count(seat),
            },
        )
    )


def trade_decide(flow: Flow, task: Task, kind: int, a: int, b: int, events: list[Event]) -> None:
    if kind == DONE:
        flow.stack.pop()
        return
    _take_contract(flow, task["seat"], a, flow.content.contracts[a].price, events, "trade")
    task["left"] -= 1
    if task["left"] <= 0:
        flow.stack.pop()


def yard_options(flow: Flow, task: Task) -> list[Action]:
    seat, car = task["seat"], task["car"]
    if flow.yard[car] and flow.cash[seat] >= flow.content.car_prices[car]:
        return [flow.game.act(BUY_CAR, car), flow.game.act(DECLINE)]
    return []


def yard_decide(flow: Flow, task: Task, kind: int, a: int, b: int, events: list[Event]) -> None:
    seat = task["seat"]
    flow.stack.pop()
    if kind == BUY_CAR:
        price = flow.content.car_prices[a]
        flow._to_bank(seat, price)
        events.append(
            Event(
                "double_crossing.event.buy_car", {"player": seat_ref(seat), "car": _car(a), "amount": price}
            )
        )
        flow._gain_car(seat, a, events)


def connect_options(flow: Flow, task: Task) -> list[Action]:
    seat = task["seat"]
    g = flow.game
    cars = g.connections_needs_cars
    out = [
        g.act(CONNECT, k.index)
        for k in flow.content.contracts
        if flow.owner[k.index] < 0
        and flow.cash[seat] >= half(k.price)
        and (not cars or has_cars(flow, seat, k.index))
    ]
    return [*out, g.act(DECLINE)] if out else []


def connect_decide(flow: Flow, task: Task, kind: int, a: int, b: int, events: list[Event]) -> None:
    flow.stack.pop()
    if kind == CONNECT:
        _take_contract(flow, task["seat"], a, half(flow.content.contracts[a].price), events, "connect")


def double_cross_options(flow: Flow, task: Task) -> list[Action]:
    seat = task["seat"]
    g = flow.game
    out = [g.act(DOUBLE_CROSS, k) for k, o in enumerate(flow.owner) if o >= 0 and o != seat]
    return [*out, g.act(DECLINE)] if out else []


def double_cross_decide(flow: Flow, task: Task, kind: int, a: int, b: int, events: list[Event]) -> None:
    seat = task["seat"]
    flow.stack.pop()
    if kind == DECLINE:
        return
    victim = flow.owner[a]
    ref = contract_ref(flow, a)
    events.append(
        Event(
            "double_crossing.event.double_cross",
            {"player": seat_ref(seat), "target": seat_ref(victim), "contract": ref},
        )
    )
    if flow._duel(seat, victim, events):
        flow.owner[a] = seat
        events.append(
            Event("double_crossing.event.double_cross_won", {"player": seat_ref(seat), "contract": ref})
        )
    else:
        events.append(
            Event("double_crossing.event.double_cross_lost", {"target": seat_ref(victim), "contract": ref})
        )


def roundhouse_options(flow: Flow, task: Task) -> list[Action]:
    g = flow.game
    if g.forced_moves:  # tabletrek's first reading: a compulsory move, staying put rolls again
        return [g.act(GO, s) for s in range(flow.content.size)]
    # The seed's "may move" (可將…移至): declining is staying, so the own space is no move.
    here = flow.pos[task["seat"]]
    return [*(g.act(GO, s) for s in range(flow.content.size) if s != here), g.act(DECLINE)]


def roundhouse_decide(flow: Flow, task: Task, kind: int, a: int, b: int, events: list[Event]) -> None:
    flow.stack.pop()
    if kind == DECLINE:
        events.append(Event("double_crossing.event.stay", {"player": seat_ref(task["seat"])}))
        return
    flow._teleport(task["seat"], a, task["own"], events)


def tower_index(flow: Flow) -> int:
    return next(i for i, s in enumerate(flow.content.spaces) if s.kind == "control-tower")


def tower_options(flow: Flow, task: Task) -> list[Action]:
    g = flow.game
    # The seed sends the token to any space (任一方格), the Control Tower included; the option
    # tower_to_tower=false keeps tabletrek's first reading, which left the tower out.
    barred = -1 if g.tower_to_tower else tower_index(flow)
    out = [
        g.act(MOVE, other, s)
        for other in range(g.players)
        if other != task["seat"]
        for s in range(flow.content.size)
        if s != barred
    ]
    # "May move" (可將…移至): the player may decline, unless forced_moves keeps the move compulsory.
    return out if g.forced_moves else [*out, g.act(DECLINE)]


def tower_decide(flow: Flow, task: Task, kind: int, a: int, b: int, events: list[Event]) -> None:
    flow.stack.pop()
    if kind == DECLINE:
        events.append(Event("double_crossing.event.tower_declined", {"player": seat_ref(task["seat"])}))
        return
    events.append(
        Event("double_crossing.event.tower", {"player": seat_ref(task["seat"]), "target": seat_ref(a)})
    )
    flow._teleport(a, b, False, events)


def return_options(flow: Flow, task: Task) -> list[Action]:
    return [flow.game.act(RETURN, k) for k in flow.contracts_of(task["seat"])]


def return_decide(flow: Flow, task: Task, kind: int, a: int, b: int, events: list[Event]) -> None:
    flow.stack.pop()
    flow.owner[a] = -1
    events.append(
        Event(
            "double_crossing.event.returned",
            {"player": seat_ref(task["seat"]), "contract": contract_ref(flow, a)},
        )
    )


def end_options(flow: Flow, task: Task) -> list[Action]:
    end = flow.game.act(END)
    return [flow.game.act(USE_ENGINEER), end] if flow.hands[task["seat"]][ENGINEER] else [end]


def end_decide(flow: Flow, task: Task, kind: int, a: int, b: int, events: list[Event]) -> None:
    seat = task["seat"]
    flow.stack.pop()
    if kind == USE_ENGINEER:
        flow._play_card(seat, ENGINEER)
        flow.used_engineer = True
        flow.again = True
        events.append(Event("double_crossing.event.engineer", {"player": seat_ref(seat)}))


OPTIONS: dict[str, OptionsFn] = {
    "window": window_options,
    "preroll": preroll_options,
    "buy_cards": buy_cards_options,
    "discard": discard_options,
    "drop": drop_options,
    "rack": rack_options,
    "pay": pay_options,
    "trade": trade_options,
    "yard": yard_options,
    "connect": connect_options,
    "double_cross": double_cross_options,
    "roundhouse": roundhouse_options,
    "tower": tower_options,
    "return": return_options,
    "end": end_options,
}
DECIDE: dict[str, DecideFn] = {
    "window": window_decide,
    "preroll": preroll_decide,
    "buy_cards": buy_cards_decide,
    "discard": discard_decide,
    "drop": drop_decide,
    "rack": rack_decide,
    "pay": pay_decide,
    "trade": trade_decide,
    "yard": yard_decide,
    "connect": connect_decide,
    "double_cross": double_cross_decide,
    "roundhouse": roundhouse_decide,
    "tower": tower_decide,
    "return": return_decide,
    "end": end_decide,
}

"""Why a move is not legal now: the rule that forbids it, in the player's language."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletrek.core.actions import IllegalAction
from tabletrek.core.events import seat_ref, text_ref
from tabletrek.core.state import normalize_text
from tabletrek.games.double_crossing.content import CREW, ENGINEER, STOP, VILLAIN, half
from tabletrek.games.double_crossing.decisions import CREW_PER_TURN, cards_available, has_cars, tower_index
from tabletrek.games.double_crossing.moves import (
    BUY_CAR,
    BUY_CARDS,
    BUY_N,
    CONNECT,
    DOUBLE_CROSS,
    GO,
    MOVE,
    REACT,
    ROLL,
    ROLL_CREW,
    TRADE,
)
from tabletrek.games.double_crossing.moves import ENGINEER as USE_ENGINEER
from tabletrek.games.double_crossing.moves import VILLAIN as PLAY_VILLAIN

if TYPE_CHECKING:
    from tabletrek.games.double_crossing.state import DoubleCrossingState

# Which pending decision each kind of move answers.
PHASE_OF = {
    "pass": "window",
    "stop": "window",
    "roll": "preroll",
    "villain": "preroll",
    "buy cards": "preroll",
    "discard": "discard",
    "drop": "drop",
    "trade": "trade",
    "done": "trade",
    "connect": "connect",
    "double-cross": "double_cross",
    "go": "roundhouse",
    "move": "tower",
    "return": "return",
    "engineer": "end",
    "end": "end",
}


def _ill(key: str, **params: object) -> IllegalAction:
    return IllegalAction(f"double_crossing.illegal.{key}", **params)


def explain_action(state: DoubleCrossingState, text: str) -> IllegalAction:
    game = state.game
    words = normalize_text(text)
    action = game.by_text.get(words)
    if action is None:
        return _ill("unknown", action=words)
    task = state.pending
    if task is None:
        return IllegalAction("core.illegal.game_over")
    phase = task["k"]
    pending = text_ref(f"double_crossing.phase.{phase}")
    who = seat_ref(task["seat"])
    kind, a, b = game.decode[action.index]
    head = words.split()[0]
    expected = PHASE_OF.get(words if words == "buy cards" else head)
    if head == "buy" and words != "buy cards":
        expected = "buy_cards" if kind == BUY_N else "yard"
    if head == "sell":
        expected = phase if phase in ("rack", "pay") else "pay"
    if head == "decline":
        expected = phase if phase in ("yard", "connect", "double_cross", "roundhouse", "tower") else "yard"
    if expected != phase:
        return _ill("not_now", player=who, pending=pending)
    seat = task["seat"]
    hand = state.hands[seat]
    c = state.content
    if kind == REACT and not hand[STOP]:
        return _ill("no_card", card=text_ref("double_crossing.card.stop"))
    if kind == ROLL and hand[CREW] < ROLL_CREW[a]:
        return _ill("crew_needed", n=ROLL_CREW[a])
    if kind == ROLL:
        return _ill("crew_per_turn", most=CREW_PER_TURN, used=state.crew_used)
    if kind == PLAY_VILLAIN:
        if not hand[VILLAIN]:
            return _ill("no_card", card=text_ref("double_crossing.card.villain"))
        if state.used_villain:
            return _ill("one_per_turn", card=text_ref("double_crossing.card.villain"))
        if a == seat:
            return _ill("not_yourself")
        return _ill("villain_target", target=seat_ref(a))
    if kind == BUY_CARDS:
        if not cards_available(state):
            return _ill("no_cards_left")
        return _ill("too_poor", amount=c.card_price)
    if kind == BUY_N:
        return _ill("buy_limit", most=len(state.options(task)) - 1)
    if kind == USE_ENGINEER and not hand[ENGINEER]:
        return _ill("no_card", card=text_ref("double_crossing.card.engineer"))
    if kind in (TRADE, CONNECT):
        k = c.contracts[a]
        if kind == TRADE and k.company != task["company"]:
            return _ill("wrong_company")
        if state.owner[a] >= 0:
            return _ill("contract_taken")
        price = k.price if kind == TRADE else half(k.price)
        if state.cash[seat] < price:
            return _ill("too_poor", amount=price)
        if (kind == TRADE or game.connections_needs_cars) and not has_cars(state, seat, a):
            return _ill("cars_needed")
    if kind == BUY_CAR:
        if a != task["car"]:
            return _ill("wrong_yard")
        if not state.yard[a]:
            return _ill("yard_empty")
        return _ill("too_poor", amount=c.car_prices[a])
    if kind == DOUBLE_CROSS:
        return _ill("not_theirs")
    if kind == GO and a == state.pos[seat]:
        return _ill("stay_is_decline")
    if kind == MOVE and a == seat:
        return _ill("not_yourself")
    if kind == MOVE and b == tower_index(state) and not game.tower_to_tower:
        return _ill("not_tower")
    return _ill("not_now", player=who, pending=pending)

"""Double Crossing's transitions (``rules/en.md``): the deal, the turn as a stack of steps run until
someone must decide, the roll, and why an illegal move is refused.

A decision with a single possible answer is taken automatically, except the decisions that depend
on a hidden hand (the Stop window, the Engineer at the end of a turn, the discard for doubles) and
the pre-roll choice: asking only when a card is held would tell the table who holds it. When the
stack is empty, ``next_turn`` continues the turn (another roll) or passes it on.

One copy of the rules: each step's ``check`` (``steps.py``, ``offers.py``, ``spaces.py``, ``Preroll``
below) is the
only test of a move; the legal moves are the candidates it lets through, and ``explain`` reports
what it says about a refused one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.events import Event, text_ref
from tabletrek.core.rng import randint, shuffle
from tabletrek.core.state import normalize_text
from tabletrek.games.double_crossing.content import BOX, CARD_TYPES, CREW, VILLAIN
from tabletrek.games.double_crossing.effects import (
    SEAT_REF,
    Refusal,
    die,
    die_event,
    draw_card,
    end_game,
    play_card,
    too_poor,
)
from tabletrek.games.double_crossing.moves import BUY_CARDS, ROLL, ROLL_CREW
from tabletrek.games.double_crossing.moves import VILLAIN as PLAY_VILLAIN
from tabletrek.games.double_crossing.offers import Connect, DoubleCross, Return, Trade, Yard
from tabletrek.games.double_crossing.spaces import MOVES, Move, Roundhouse, Tower
from tabletrek.games.double_crossing.steps import (
    NO_CARD,
    BuyCards,
    Discard,
    Drop,
    End,
    Pay,
    Rack,
    Step,
    Window,
    gain_car,
)

if TYPE_CHECKING:
    from tabletrek.games.double_crossing.state import DoubleCrossingState

CREW_PER_TURN = 2  # Railroad Crew, 1-2 cards per turn (docs/rules/double-crossing.md, "The crew cards")
ROLL_HOW = tuple(text_ref(f"double_crossing.roll.{i}") for i in range(4))
CREW_NEEDED = tuple(Refusal("double_crossing.illegal.crew_needed", n=n) for n in range(3))
ONE_VILLAIN = Refusal("double_crossing.illegal.one_per_turn", card=text_ref("double_crossing.card.villain"))
NOT_YOURSELF = Refusal("double_crossing.illegal.not_yourself")
NO_CARDS_LEFT = Refusal("double_crossing.illegal.no_cards_left")


# ----- before the roll ---------------------------------------------------------------------------------


class Preroll(Step):
    """Before each roll: roll (slow and/or back with Railroad Crew cards), play a Villain on another
    player, or buy crew cards instead of rolling."""

    __slots__ = ()
    kind = "preroll"
    answers = frozenset((ROLL, PLAY_VILLAIN, BUY_CARDS))
    always_ask = True

    def candidates(self, state: DoubleCrossingState) -> Iterable[Action]:
        menu = state.game.menu
        return (*menu.roll, *menu.villain, menu.buy_cards)

    def options(self, state: DoubleCrossingState) -> list[Action]:
        # The candidates through the checks, one check per group of candidates that it decides
        # alike (this runs before every roll): the rolls by the crew cards they cost, the Villain's
        # card before its targets.
        menu = state.game.menu
        roll = menu.roll
        out = [roll[0]]
        if self.check_roll(state, 1) is None:
            out += (roll[1], roll[2])
            if self.check_roll(state, 2) is None:
                out.append(roll[3])
        if self.check_villain_card(state) is None:
            out += [
                act for target, act in enumerate(menu.villain) if self.check_target(state, target) is None
            ]
        if self.check_buy(state) is None:
            out.append(menu.buy_cards)
        return out

    def check(self, state: DoubleCrossingState, kind: int, a: int, b: int) -> Refusal | None:
        if kind == ROLL:
            return self.check_roll(state, ROLL_CREW[a])
        if kind == PLAY_VILLAIN:
            return self.check_villain_card(state) or self.check_target(state, a)
        return self.check_buy(state)

    def check_buy(self, state: DoubleCrossingState) -> Refusal | None:
        """Crew cards instead of a roll: only while cards are left, and with the price of one."""
        if not state.draw and not state.discard:  # ``cards_available``, asked before every roll
            return NO_CARDS_LEFT
        price = state.game.content.card_price
        return too_poor(price) if state.cash[self.seat] < price else None

    def check_roll(self, state: DoubleCrossingState, crew: int) -> Refusal | None:
        """Railroad Crew cards: 1-2 a turn (每回合可使用1~2張), counted over the whole turn, Roll
        Again included (``crew_per_roll``: per roll instead)."""
        if not crew:
            return None
        if state.hands[self.seat][CREW] < crew:
            return CREW_NEEDED[crew]
        used = 0 if state.game.crew_per_roll else state.crew_used
        if CREW_PER_TURN - used < crew:
            return Refusal("double_crossing.illegal.crew_per_turn", most=CREW_PER_TURN, used=state.crew_used)
        return None

    def check_villain_card(self, state: DoubleCrossingState) -> Refusal | None:
        if not state.hands[self.seat][VILLAIN]:
            return NO_CARD[VILLAIN]
        return ONE_VILLAIN if state.used_villain else None

    def check_target(self, state: DoubleCrossingState, target: int) -> Refusal | None:
        """The Villain's target: another player on the track with at least one car."""
        if target == self.seat:
            return NOT_YOURSELF
        if state.pos[target] < 0 or not any(state.cars[target]):
            return Refusal("double_crossing.illegal.villain_target", target=SEAT_REF[target])
        return None

    def decide(self, state: DoubleCrossingState, kind: int, a: int, b: int, events: list[Event]) -> None:
        seat = self.seat
        if kind == PLAY_VILLAIN:
            play_card(state, seat, VILLAIN)
            state.used_villain = True
            events.append(
                Event("double_crossing.event.villain", {"player": SEAT_REF[seat], "target": SEAT_REF[a]})
            )
            state.stack.append(Drop(a, state.pos[a]))
            return
        state.stack.pop()
        state.engineer_ok = False
        if kind == ROLL:
            roll(state, seat, a, events)
            return
        face = die(state)  # buying crew cards instead of rolling: the die limits the purchase
        events.append(die_event("double_crossing.event.card_roll", seat, face))
        state.stack.append(BuyCards(seat, face))


PREROLL = tuple(Preroll(seat) for seat in range(len(SEAT_REF)))
"""Each seat's pre-roll decision, made once and shared: a ``Preroll`` (like an ``End``) holds only
its seat and never changes, and one is pushed for every roll (``clone`` still copies them)."""
TURN_END = tuple(End(seat) for seat in range(len(SEAT_REF)))
"""Each seat's end-of-turn decision, shared as ``PREROLL`` is."""


@cache  # at most 6 seats x 4 variants x 6 x 7 faces: a roll's event is made once, then shared
def roll_event(seat: int, variant: int, first: int, second: int) -> Event:
    """The event of a roll (``second`` 0: one die)."""
    return Event(
        "double_crossing.event.roll",
        {
            "player": SEAT_REF[seat],
            "dice": f"{first}+{second}" if second else str(first),
            "steps": first + second,
            "how": ROLL_HOW[variant],
        },
    )


def roll(state: DoubleCrossingState, seat: int, variant: int, events: list[Event]) -> None:
    """Roll variant ``variant`` (bit 0: one die, bit 1: backwards) and queue the move."""
    crew = ROLL_CREW[variant]
    if crew:
        play_card(state, seat, CREW, crew)
        state.crew_used += crew
    first = die(state)
    second = 0 if variant & 1 else die(state)
    steps = first + second
    events.append(roll_event(seat, variant, first, second))
    state.stack.append(MOVES[seat][variant >> 1][steps])  # bit 1: backwards
    if first == second:
        if first == 6:
            events.append(Event("double_crossing.event.boxcars", {"player": SEAT_REF[seat]}))
            gain_car(state, seat, BOX, events)
        elif sum(state.hands[seat]):
            state.stack.append(Discard(seat))


# ----- the loop ------------------------------------------------------------------------------------------


def advance(state: DoubleCrossingState, events: list[Event]) -> list[Action]:
    """Run steps until a seat must decide (or the game is over); return that decision's options."""
    stack = state.stack
    decode = state.game.decode
    while not state.is_over:
        if not stack:
            next_turn(state, events)
            continue
        step = stack[-1]
        if step.automatic and step.run(state, events):
            continue
        options = step.options(state)
        if not options:
            stack.pop()
        elif step.always_ask or len(options) > 1:  # most decisions are always asked: tested first
            return options
        else:
            kind, a, b = decode[options[0].index]
            step.decide(state, kind, a, b, events)
    return []


def next_turn(state: DoubleCrossingState, events: list[Event]) -> None:
    """The stack is empty: roll again, offer the Engineer, or pass the turn on."""
    seat = state.turn_seat
    if state.again and not state.hard_end:
        state.again = False
        state.stack.append(PREROLL[seat])
        events.append(AGAIN[seat])
        return
    if state.engineer_ok and not state.hard_end and not state.used_engineer:
        # Asked whether or not an Engineer is held, so the prompt tells nobody about the hand.
        state.engineer_ok = False
        state.stack.append(TURN_END[seat])
        return
    game = state.game
    state.turn_seat = (seat + 1) % game.players
    state.turns += 1
    if state.turn_seat == state.first:
        state.rounds += 1
        if state.rounds > game.max_rounds:
            events.append(Event("double_crossing.event.max_rounds", {"rounds": game.max_rounds}))
            state.rounds = game.max_rounds
            end_game(state, None, events)
            return
    begin_turn(state, events)


AGAIN = tuple(Event("double_crossing.event.again", {"player": ref}) for ref in SEAT_REF)


@lru_cache(maxsize=4096)  # bounded: ``max_rounds`` has no ceiling
def turn_event(seat: int, round_: int) -> Event:
    """The event opening a seat's turn, shared by every game a process plays (self-play, playouts)."""
    return Event("double_crossing.event.turn", {"player": SEAT_REF[seat], "round": round_})


def begin_turn(state: DoubleCrossingState, events: list[Event]) -> None:
    seat = state.turn_seat
    state.again = state.hard_end = state.engineer_ok = False
    state.used_villain = state.used_engineer = False
    state.stops_left = state.game.stops_per_turn
    state.crew_used = 0
    events.append(turn_event(seat, state.rounds))
    state.stack.append(PREROLL[seat])
    state.stack.append(state.game.windows[seat])


# ----- the contract's moves -----------------------------------------------------------------------------


def legal_actions(state: DoubleCrossingState) -> list[Action]:
    step = state.pending_step
    return step.options(state) if step is not None else []


def explain(state: DoubleCrossingState, text: str) -> IllegalAction:
    """Why ``text`` is not a legal move now: the pending step's check on it."""
    game = state.game
    words = normalize_text(text)
    action = game.by_text.get(words)
    if action is None:
        return IllegalAction("double_crossing.illegal.unknown", action=words)
    step = state.pending_step
    if step is None:
        return IllegalAction("core.illegal.game_over")
    kind, a, b = game.decode[action.index]
    return step.refusal(state, kind, a, b).error()


# ----- the deal -------------------------------------------------------------------------------------------


def deal(state: DoubleCrossingState) -> list[Event]:
    """Money, crew cards and starting cars for everyone, the first player, the first turn."""
    game, rng = state.game, state.rng
    c = game.content
    n = game.players
    state.pos = [-1] * n
    state.cash = [c.start_money] * n
    state.depot = c.depot_refill
    state.bank = c.bank_total - c.start_money * n - c.depot_refill
    state.yard = list(c.car_counts)
    state.cars = [[0] * len(c.car_counts) for _ in range(n)]
    state.owner = [-1] * len(c.contracts)
    state.dropped = {}
    deck = [card for card in range(CARD_TYPES) for _ in range(c.crew[card])]
    shuffle(rng, deck)
    state.draw = deck
    state.discard = []
    state.hands = [[0] * CARD_TYPES for _ in range(n)]
    state.stack = []
    state.again = state.hard_end = state.engineer_ok = False
    state.used_villain = state.used_engineer = False
    state.stops_left = 0
    state.crew_used = 0
    state.winner = None
    state.is_over = False
    state.rounds = 1
    state.turns = 0
    state.landed = {}
    state.played = [0] * CARD_TYPES
    events: list[Event] = []
    for seat in range(n):
        for _ in range(c.start_cards):
            draw_card(state, seat, events)
    for seat in range(n):
        faces: list[int] = []
        while len(faces) < c.start_cars and any(state.yard):
            face = randint(rng, 1, 6)
            car = c.die_car[face - 1]
            if state.yard[car]:  # re-roll for a sold-out car (docs/rules/double-crossing.md, "Setup")
                state.yard[car] -= 1
                state.cars[seat][car] += 1
                faces.append(face)
        events.append(
            Event(
                "double_crossing.event.start_cars",
                {"player": SEAT_REF[seat], "faces": " ".join(map(str, faces))},
            )
        )
    contenders = list(range(n))
    while len(contenders) > 1:
        rolls = {s: randint(rng, 1, 6) + randint(rng, 1, 6) for s in contenders}
        best = max(rolls.values())
        for s, r in rolls.items():
            events.append(Event("double_crossing.event.first_roll", {"player": SEAT_REF[s], "total": r}))
        contenders = [s for s in contenders if rolls[s] == best]  # ties re-roll (our ruling)
    state.first = contenders[0]
    state.turn_seat = state.first
    events.append(Event("double_crossing.event.first", {"player": SEAT_REF[state.first]}))
    begin_turn(state, events)
    advance(state, events)
    return events


# ----- the JSON form of a step ----------------------------------------------------------------------------

STEP_TYPES: dict[str, type[Step]] = {
    cls.kind: cls
    for cls in (
        Window,
        Preroll,
        Move,
        BuyCards,
        Discard,
        Drop,
        Rack,
        Pay,
        Trade,
        Yard,
        Connect,
        DoubleCross,
        Roundhouse,
        Tower,
        Return,
        End,
    )
}
"""Every kind of step, by the ``"k"`` of its JSON form (used only to read that form back)."""


def step_from_dict(data: Mapping[str, Any]) -> Step:
    return STEP_TYPES[str(data["k"])].from_dict(data)

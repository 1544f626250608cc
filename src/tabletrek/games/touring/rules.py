"""Touring's transitions (``rules/en.md``): the deal, the legal moves, playing a card, the draw.

One copy of the rules: each kind of move has one check that returns None when the move is legal
and otherwise the reason it is not (``go_problem`` ... ``pass_problem``). The legal moves are the
candidates from the hand whose check says None, and ``explain`` gives an illegal move's reason
from the same check, so the moves offered and the reasons given cannot disagree.

Seats sit in turn order; with 4 or 6 players, partners share one table of piles (team of seat s
is ``s % teams``, so partners alternate around the table). Hands are lists of card codes
(``cards.py``); mileage piles are counts, because mileage cards of one value are identical.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import mul
from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.events import Event, seat_ref, text_ref
from tabletrek.core.rng import shuffle
from tabletrek.core.state import normalize_text
from tabletrek.games.touring.cards import (
    CARD_REF,
    CARD_TYPES,
    CITY,
    CODE,
    COLLISION,
    COUNTRY,
    GASOLINE,
    GO,
    GO_ACCEPTS,
    HAULED,
    M1,
    M30,
    MILEAGE,
    MILES,
    PUNCTURE,
    REMEDY_FOR,
    SLUGS,
    TARGETED,
)

if TYPE_CHECKING:
    from tabletrek.games.touring.state import TouringState

# Action index layout: plays of untargeted cards use the card code; targeted plays follow, then
# discards, then the pass (only when a hand is empty).
TARGET_BASE = CARD_TYPES
MAX_TEAMS = 5  # five players play individually (docs/rules/touring.md, "Players and cards")
VARIANTS = 3  # collision: 0 = no choice to make, 1 = take a 30, 2 = take the 15s
TAKE_AUTO, TAKE_30, TAKE_15S = range(VARIANTS)
VARIANT_WORD = ("", "30", "15s")
DISCARD_BASE = TARGET_BASE + len(TARGETED) * MAX_TEAMS * VARIANTS
PASS = DISCARD_BASE + CARD_TYPES
NUM_ACTIONS = PASS + 1
HAND_SIZE = 5
MAX_SEATS = 6


def target_index(slot: int, team: int, variant: int) -> int:
    return TARGET_BASE + (slot * MAX_TEAMS + team) * VARIANTS + variant


def decode_target(index: int) -> tuple[int, int, int]:
    """(card, team, variant) of a targeted play's index."""
    slot, rest = divmod(index - TARGET_BASE, MAX_TEAMS * VARIANTS)
    team, variant = divmod(rest, VARIANTS)
    return TARGETED[slot], team, variant


CHOICE = (TAKE_30, TAKE_15S)
NO_CHOICE = (TAKE_AUTO,)


def collision_variants(state: TouringState, team: int) -> tuple[int, ...]:
    """The collision choices against ``team``: the attacker picks only when both losses are possible."""
    speed = state.speed[team]
    miles = state.miles[team]
    if speed and speed[-1] == COUNTRY and miles[3] and miles[2] >= 2:
        return CHOICE
    return NO_CHOICE


# ----- the checks: None, or why the move is illegal --------------------------------------------------

Reason = tuple[str, dict[str, Any]]
"""Why a move is illegal: an ``IllegalAction``'s key and parameters. A plain tuple, and a shared
constant where the reason has no varying part, because the legal-move listing asks the checks
about every card in hand on every turn."""


def _per_card(key: str, **params: Any) -> tuple[Reason, ...]:
    return tuple((key, {"card": CARD_REF[card], **params}) for card in range(CARD_TYPES))


GO_ON_GO: Reason = ("touring.illegal.go_on_go", {})
GO_NEEDS_REMEDY = tuple(
    ("touring.illegal.go_needs_remedy", {"top": CARD_REF[top]}) for top in range(CARD_TYPES)
)
NO_GO: Reason = ("touring.illegal.no_go", {})
GO_FIRST: Reason = ("touring.illegal.go_first", {})
ALREADY_COUNTRY: Reason = ("touring.illegal.already_country", {})
REMEDY_MISMATCH = {
    card: ("touring.illegal.remedy_mismatch", {"card": CARD_REF[card], "needs": CARD_REF[delay]})
    for card, delay in REMEDY_FOR.items()
}
OWN_TEAM = _per_card("touring.illegal.own_team")
CITY_NEEDS_COUNTRY: Reason = ("touring.illegal.city_needs_country", {})
DELAY_NEEDS_GO = _per_card("touring.illegal.delay_needs_go")
NOT_IN_HAND = _per_card("touring.illegal.not_in_hand")
MUST_PLAY: Reason = ("touring.illegal.must_play", {})
PASS_WITH_CARDS: Reason = ("touring.illegal.pass", {})
COLLISION_CHOICE: dict[tuple[int, ...], Reason] = {
    allowed: (
        "touring.illegal.collision_choice",
        {"choices": " or ".join(VARIANT_WORD[v] for v in allowed if v) or "-"},
    )
    for allowed in (CHOICE, NO_CHOICE)
}
"""Which losses a Collision may name, by ``collision_variants``: the listing asks about every
variant of every Collision in hand, so the refusals of the ones not allowed are shared."""


def go_problem(state: TouringState, team: int, card: int) -> Reason | None:
    """Go starts the Go pile, or covers a Puncture or a remedy (docs/rules/touring.md)."""
    pile = state.go[team]
    if not pile:
        return None
    top = pile[-1]
    if top in GO_ACCEPTS:
        return None
    return GO_ON_GO if top == GO else GO_NEEDS_REMEDY[top]


def mileage_problem(state: TouringState, team: int, card: int) -> Reason | None:
    """Mileage needs Go on top of the Go pile and room in its pile (the trip is an exact set)."""
    pile = state.go[team]
    if not pile or pile[-1] != GO:
        return NO_GO
    slot = card - M1
    required = state.game.required[slot]
    if state.miles[team][slot] >= required:
        return ("touring.illegal.pile_full", {"card": CARD_REF[card], "count": required})
    return None


def country_problem(state: TouringState, team: int, card: int) -> Reason | None:
    """Country covers City Limits or starts the speed pile. Go is "the first card a player places
    in their own area" (docs/rules/touring.md, "Your piles"): an empty speed pile takes Country only
    once the Go pile holds a card, which is always a Go first (a delay needs a Go, a remedy a delay)."""
    pile = state.speed[team]
    if pile:
        return None if pile[-1] == CITY else ALREADY_COUNTRY
    if state.go[team] or state.game.country_first:
        return None
    return GO_FIRST


def remedy_problem(state: TouringState, team: int, card: int) -> Reason | None:
    """A remedy covers only its own delay."""
    pile = state.go[team]
    if pile and pile[-1] == REMEDY_FOR[card]:
        return None
    return REMEDY_MISMATCH[card]


OwnCheck = Callable[["TouringState", int, int], "Reason | None"]
OWN_CHECKS: dict[int, OwnCheck] = {
    GO: go_problem,
    **dict.fromkeys(MILEAGE, mileage_problem),
    COUNTRY: country_problem,
    GASOLINE: remedy_problem,
    HAULED: remedy_problem,
}
"""The check of each card played on the player's own piles; the other cards are attacks."""


def attack_problem(state: TouringState, team: int, card: int, victim: int, variant: int) -> Reason | None:
    """City Limits goes on an opponent in the Country; a delay on an opponent who is moving, and
    a Collision's loss is the attacker's choice only when both losses are possible."""
    if victim == team:
        return OWN_TEAM[card]
    if card == CITY:
        speed = state.speed[victim]
        return None if speed and speed[-1] == COUNTRY else CITY_NEEDS_COUNTRY
    go = state.go[victim]
    if not go or go[-1] != GO:
        return DELAY_NEEDS_GO[card]
    if card != COLLISION:
        return None
    allowed = collision_variants(state, victim)
    return None if variant in allowed else COLLISION_CHOICE[allowed]


def discard_problem(state: TouringState, plays: Sequence[Action]) -> Reason | None:
    """A player who can play (``plays``: the legal plays) must play, unless the table plays with
    ``free_discard``."""
    return MUST_PLAY if plays and not state.game.free_discard else None


def pass_problem(state: TouringState) -> Reason | None:
    """Only a player with an empty hand passes."""
    return PASS_WITH_CARDS if state.hands[state.to_act] else None


# ----- the legal moves ----------------------------------------------------------------------------

ATTACK_VARIANTS = {card: range(VARIANTS) if card == COLLISION else range(1) for card in TARGETED}
"""The variants a play of each targeted card may name (only a Collision's loss is a choice)."""
CARD_BIT = tuple(1 << card for card in range(CARD_TYPES))
KINDS = tuple(tuple(c for c in range(CARD_TYPES) if kinds & CARD_BIT[c]) for kinds in range(1 << CARD_TYPES))
"""The card codes in each set of card types (one bit per type), ascending."""
CARD_CHECK = tuple((card, OWN_CHECKS.get(card)) for card in range(CARD_TYPES))
CARD_CHECKS = tuple(tuple(CARD_CHECK[card] for card in cards) for cards in KINDS)
"""Each card of each set of card types (as ``KINDS``) with its ``OWN_CHECKS`` entry (None: an
attack), for the legal-move listing."""
DISCARD = tuple(Action(DISCARD_BASE + card, f"discard {SLUGS[card]}") for card in range(CARD_TYPES))
"""The discard of each card type: the same in every player count, so every game shares these."""
DISCARDS = tuple(tuple(DISCARD[card] for card in cards) for cards in KINDS)
"""The discards of each set of card types (as ``KINDS``), for the legal-move listing."""


def card_of(index: int) -> int:
    """The card an action index plays or discards (-1: the pass)."""
    if index == PASS:
        return -1
    if index >= DISCARD_BASE:
        return index - DISCARD_BASE
    if index >= TARGET_BASE:
        return decode_target(index)[0]
    return index


ACTION_CARD = tuple(card_of(index) for index in range(NUM_ACTIONS))
"""``card_of`` each action index: looked up, not computed, per move."""
TARGET_OF = tuple(decode_target(index) for index in range(TARGET_BASE, DISCARD_BASE))
"""``decode_target`` of each targeted play, from ``TARGET_BASE`` on: looked up, not computed, per move."""


def hand_kinds(hand: list[int]) -> int:
    """The hand's card types as a set of bits (``TouringState.held``)."""
    kinds = 0
    for card in hand:
        kinds |= CARD_BIT[card]
    return kinds


def legal_actions(state: TouringState) -> list[Action]:
    """The plays the checks allow, card by card in code order (each card on the player's own piles,
    or on each opposing table with each variant: ``Touring.attacks``); then discards; then the pass.
    One function, not one per step: it runs every move, and each call costs as much as a check."""
    game = state.game
    actions = game._actions
    team = game.team_of[state.to_act]
    attacks = game.attacks[team]
    kinds = state.held[state.to_act]
    legal: list[Action] = []
    for card, own in CARD_CHECKS[kinds]:
        if own is None:
            for victim, variant, action in attacks[card]:
                if attack_problem(state, team, card, victim, variant) is None:
                    legal.append(action)
        elif own(state, team, card) is None:
            legal.append(actions[card])
    if discard_problem(state, legal) is None:  # the list holds the plays so far
        legal += DISCARDS[kinds]
    # A player holding a card can always play or discard it, so only an empty list needs asking.
    if not legal and pass_problem(state) is None:
        legal.append(actions[PASS])
    return legal


# ----- why a move is illegal ----------------------------------------------------------------------


def explain(state: TouringState, text: str) -> IllegalAction:
    """Why ``text`` is not a legal move now: a parse error, or the reason of the move's check."""
    if state.is_over:
        return IllegalAction("core.illegal.game_over")
    words = normalize_text(text).split()
    verb = words[0] if words else ""
    if verb == "pass":
        reason = pass_problem(state)
    elif verb not in ("play", "discard"):
        reason = ("touring.illegal.unknown", {"action": text})
    elif len(words) < 2 or words[1] not in CODE:
        reason = ("touring.illegal.unknown_card", {"action": text, "cards": list(SLUGS)})
    else:
        reason = _card_move_problem(state, verb, CODE[words[1]], words[2:], text)
    if reason is None:
        return IllegalAction("core.illegal.not_legal", action=text)
    key, params = reason
    return IllegalAction(key, **params)


def _card_move_problem(
    state: TouringState, verb: str, card: int, rest: list[str], text: str
) -> Reason | None:
    """The check of ``discard CARD`` or ``play CARD [TARGET [VARIANT]]``."""
    if card not in state.hands[state.to_act]:
        return NOT_IN_HAND[card]
    if verb == "discard":
        if rest:
            return ("touring.illegal.unknown", {"action": text})
        return discard_problem(state, [a for a in state.legal_actions() if a.index < DISCARD_BASE])
    team = state.game.team_of[state.to_act]
    own = OWN_CHECKS.get(card)
    if own is not None:
        return ("touring.illegal.no_target", {"card": CARD_REF[card]}) if rest else own(state, team, card)
    return _attack_text_problem(state, team, card, rest, text)


def _attack_text_problem(
    state: TouringState, team: int, card: int, rest: list[str], text: str
) -> Reason | None:
    """The check of an attack named as ``play CARD TARGET [VARIANT]``."""
    game = state.game
    labels = {game.target_label(t): t for t in range(game.teams)}
    if not rest:
        return ("touring.illegal.need_target", {"card": CARD_REF[card]})
    if rest[0] not in labels:
        return ("touring.illegal.bad_target", {"target": rest[0], "targets": sorted(labels)})
    variant = TAKE_AUTO
    if len(rest) > 1:
        if len(rest) > 2 or rest[1] not in VARIANT_WORD[1:] or len(ATTACK_VARIANTS[card]) == 1:
            return ("touring.illegal.unknown", {"action": text})
        variant = VARIANT_WORD.index(rest[1])
    return attack_problem(state, team, card, labels[rest[0]], variant)


# ----- the deal and the moves ---------------------------------------------------------------------

SEAT = tuple(seat_ref(seat) for seat in range(MAX_SEATS))
TEAM_REF = tuple(text_ref(f"touring.team.{t + 1}") for t in range(3))  # team games: 2 or 3 teams


def _event_per_seat_and_card(key: str, *, secret: bool = False) -> tuple[tuple[Event, ...], ...]:
    if secret:
        return tuple(
            tuple(
                Event(key, {"player": SEAT[s]}, {"card": CARD_REF[c]}, frozenset((s,)))
                for c in range(CARD_TYPES)
            )
            for s in range(MAX_SEATS)
        )
    return tuple(
        tuple(Event(key, {"player": SEAT[s], "card": CARD_REF[c]}) for c in range(CARD_TYPES))
        for s in range(MAX_SEATS)
    )


# Events are immutable and most depend only on the seat and the card, so those are made once here
# rather than for every move.
PLAYED = _event_per_seat_and_card("touring.event.play")
DISCARDED = _event_per_seat_and_card("touring.event.discard")
DREW = _event_per_seat_and_card("touring.event.drew", secret=True)
PASSED = tuple(Event("touring.event.pass", {"player": SEAT[s]}) for s in range(MAX_SEATS))
SPEEDING = tuple(Event("touring.event.speeding", {"player": SEAT[s]}) for s in range(MAX_SEATS))
ATTACKED = tuple(
    tuple(
        tuple(
            tuple(
                Event("touring.event.attack", {"player": SEAT[s], "card": CARD_REF[c], "target": target})
                for target in targets
            )
            for c in range(CARD_TYPES)
        )
        for s in range(MAX_SEATS)
    )
    for targets in (SEAT, TEAM_REF)
)
"""An attack that costs no mileage, by [team game][seat][card][target]: a seat, or a team in team games."""


def deal(state: TouringState) -> None:
    """Shuffle, deal five cards each, and the first player draws (docs/rules/touring.md, "Setup")."""
    game = state.game
    deck = [card for card in range(CARD_TYPES) for _ in range(game.deck_counts[card])]
    shuffle(state.rng, deck)
    state.hands = [[deck.pop() for _ in range(HAND_SIZE)] for _ in range(game.players)]
    state.held = [hand_kinds(hand) for hand in state.hands]
    state.draw = deck
    state.discard = []
    state.go = [[] for _ in range(game.teams)]
    state.speed = [[] for _ in range(game.teams)]
    state.miles = [[0, 0, 0, 0] for _ in range(game.teams)]
    state.to_act = 0
    state.turns = 0
    state.winner = None
    state.is_over = False
    begin_turn(state, [])


def apply(state: TouringState, action: Action) -> list[Event]:
    """Carry out a legal move, then end the turn: the game is won or drawn, or the next player draws."""
    seat = state.to_act
    index = action.index
    if index == PASS:
        events = [PASSED[seat]]
    else:
        card = ACTION_CARD[index]
        hand = state.hands[seat]
        hand.remove(card)
        if card not in hand:  # the last of its type: the hand no longer holds the type
            state.held[seat] ^= CARD_BIT[card]
        if index >= DISCARD_BASE:
            state.discard.append(card)
            events = [DISCARDED[seat][card]]
        elif index >= TARGET_BASE:
            _, victim, variant = TARGET_OF[index - TARGET_BASE]
            events = [attack(state, seat, card, victim, variant)]
        else:
            events = [play_own(state, seat, card)]
    state.turns += 1
    game = state.game
    if state.is_over:
        team = game.team_of[seat]
        events.append(Event("touring.event.won", {"player": SEAT[seat], "miles": state.team_miles(team)}))
    elif state.turns >= game.max_turns:
        state.is_over = True
        events.append(Event("touring.event.max_turns", {"turns": state.turns}))
    else:
        state.to_act = (seat + 1) % game.players
        begin_turn(state, events)
    return events


def play_own(state: TouringState, seat: int, card: int) -> Event:
    team = state.game.team_of[seat]
    if M1 <= card <= M30:
        return drive(state, seat, team, card)
    if card == COUNTRY:
        state.speed[team].append(card)
    else:
        state.go[team].append(card)
    return PLAYED[seat][card]


def drive(state: TouringState, seat: int, team: int, card: int) -> Event:
    """A mileage card: a 30 under City Limits is speeding and is discarded; completing the exact
    set of the trip wins."""
    if card == M30 and state.is_limited(team):
        state.discard.append(card)
        return SPEEDING[seat]
    miles = state.miles[team]
    miles[card - M1] += 1
    if tuple(miles) == state.game.required:
        state.winner = team
        state.is_over = True
    total = sum(map(mul, miles, MILES))
    made = state.game.miles_events[seat][card - M1]
    event = made.get(total)
    if event is None:
        args = {"player": SEAT[seat], "card": CARD_REF[card], "total": total}
        event = made[total] = Event("touring.event.miles", args)
    return event


def attack(state: TouringState, seat: int, card: int, victim: int, variant: int) -> Event:
    team_games = state.game.team_games
    if card == CITY:
        state.speed[victim].append(card)
        return ATTACKED[team_games][seat][card][victim]
    state.go[victim].append(card)
    miles = state.miles[victim]
    lost = mileage_lost(card, miles, not state.is_limited(victim), variant)
    for slot in lost:
        miles[slot] -= 1
        state.discard.append(slot + M1)
    if not lost:
        return ATTACKED[team_games][seat][card][victim]
    target = TEAM_REF[victim] if team_games else SEAT[victim]
    args = {
        "player": SEAT[seat],
        "card": CARD_REF[card],
        "target": target,
        "lost": " + ".join(str(MILES[slot]) for slot in lost),
        "miles": sum(MILES[slot] for slot in lost),
    }
    return Event("touring.event.attack_loss", args)


def mileage_lost(card: int, miles: list[int], country: bool, variant: int) -> list[int]:
    """The mileage slots a delay takes from its victim: a Puncture in the Country costs a 15; a
    Collision costs a 15 in town, and in the Country a 30 or two 15s (the attacker's choice when
    both are possible)."""
    if card == PUNCTURE:
        return [2] if country and miles[2] else []
    if card != COLLISION:
        return []
    if not country:
        return [2] if miles[2] else []
    if variant == TAKE_15S or (variant == TAKE_AUTO and not miles[3]):
        return [2] * min(2, miles[2])
    return [3] if miles[3] else []


def begin_turn(state: TouringState, events: list[Event]) -> None:
    """The player to act draws one card, reshuffling when the pile is out (docs/rules/touring.md,
    "The draw pile runs out")."""
    seat = state.to_act
    if not state.draw:
        reshuffle(state, events)
        if not state.draw:
            events.append(Event("touring.event.no_draw", {"player": SEAT[seat]}))
            return
    card = state.draw.pop()
    state.hands[seat].append(card)
    state.held[seat] |= CARD_BIT[card]
    events.append(DREW[seat][card])


def reshuffle(state: TouringState, events: list[Event]) -> None:
    """The discards and the buried cards of every Go and speed pile become the new draw pile."""
    pool = state.discard
    for piles in (state.go, state.speed):
        for i, pile in enumerate(piles):
            if len(pile) > 1:
                pool.extend(pile[:-1])
                piles[i] = pile[-1:]
    state.discard = []
    shuffle(state.rng, pool)
    state.draw = pool
    events.append(Event("touring.event.reshuffle", {"cards": len(pool)}))

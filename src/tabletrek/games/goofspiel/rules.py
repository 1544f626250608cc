"""Goofspiel's transitions (``rules/en.md``): deal, bid, reveal, score.

One copy of the rules: ``bid_problem`` is the only check on a bid; the legal moves are the bids it
allows and an illegal bid's reason is what it says, so the two cannot disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletrek.core.actions import IllegalAction
from tabletrek.core.events import Event, seat_ref
from tabletrek.core.numeric import ascii_whole

if TYPE_CHECKING:
    from tabletrek.games.goofspiel.state import GoofspielState

MAX_CARDS = 13
TIES = ("discard", "carry")
"""What a tie for the highest bid does with the prize: nobody gets it, or it joins the next one."""


def bid_problem(state: GoofspielState, card: int) -> IllegalAction | None:
    """Why the seat to act may not bid ``card`` now, or None when it may."""
    seat = state.to_act
    if seat is None:
        return IllegalAction("core.illegal.game_over")
    if not 1 <= card <= state.game.cards:
        return IllegalAction("goofspiel.illegal.no_such_card", card=card, cards=state.game.cards)
    if card not in state.hands[seat]:
        return IllegalAction("goofspiel.illegal.spent", card=card)
    return None


def legal_bids(state: GoofspielState) -> list[int]:
    return [card for card in range(1, state.game.cards + 1) if bid_problem(state, card) is None]


def explain(state: GoofspielState, text: str) -> IllegalAction:
    """Why ``text`` is not a legal move now (from ``bid_problem``, the check that made the moves)."""
    word, _, rest = text.partition(" ")
    card = ascii_whole(rest.strip())
    if word != "bid" or card is None:
        return IllegalAction("goofspiel.illegal.syntax", action=text)
    return bid_problem(state, card) or IllegalAction("core.illegal.not_legal", action=text)


def draw_prize(state: GoofspielState) -> list[Event]:
    """Turn up the next prize card, at random from those left (a chance draw)."""
    pick = state.rng.randrange(len(state.prizes_left))
    state.prize = state.prizes_left.pop(pick)
    return [Event("goofspiel.event.prize", {"card": state.prize, "value": state.prize + sum(state.pot)})]


def deal(state: GoofspielState) -> list[Event]:
    cards = state.game.cards
    players = state.game.players
    state.hands = [list(range(1, cards + 1)) for _ in range(players)]
    state.prizes_left = list(range(1, cards + 1))
    state.pot = []
    state.bids = [None] * players
    state.won = [[] for _ in range(players)]
    state.rounds = []
    state.to_act = 0
    return draw_prize(state)


def bid(state: GoofspielState, card: int) -> list[Event]:
    """The seat to act bids ``card`` face down; the last bid of a round reveals and scores it."""
    seat = state.to_act
    assert seat is not None
    state.hands[seat].remove(card)
    state.bids[seat] = card
    events = [Event("goofspiel.event.bid", {"player": seat_ref(seat)}, {"card": card}, frozenset({seat}))]
    if any(b is None for b in state.bids):
        state.to_act = (seat + 1) % state.game.players
        return events
    return events + reveal(state)


def reveal(state: GoofspielState) -> list[Event]:
    bids = [b for b in state.bids if b is not None]
    assert state.prize is not None
    events = [Event("goofspiel.event.shows", {"player": seat_ref(s), "card": b}) for s, b in enumerate(bids)]
    prizes = [*state.pot, state.prize]
    value = sum(prizes)
    top = max(bids)
    winners = [s for s, b in enumerate(bids) if b == top]
    winner = winners[0] if len(winners) == 1 else None
    if winner is not None:
        state.won[winner].extend(prizes)
        state.pot = []
        events.append(Event("goofspiel.event.win", {"player": seat_ref(winner), "value": value}))
    elif state.game.carry and state.prizes_left:
        state.pot = prizes
        events.append(Event("goofspiel.event.carry", {"value": value}))
    else:
        state.pot = []
        events.append(Event("goofspiel.event.discard", {"value": value}))
    state.rounds.append({"prize": state.prize, "value": value, "bids": bids, "winner": winner})
    state.bids = [None] * state.game.players
    state.prize = None
    if not state.prizes_left:
        state.to_act = None
        return events
    state.to_act = 0
    return events + draw_prize(state)

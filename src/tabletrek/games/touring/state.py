"""A Touring game in progress: hands, the draw and discard piles, each table's piles and mileage."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import IllegalAction
from tabletrek.core.rng import copy_rng, make_rng
from tabletrek.core.state import Result, State
from tabletrek.games.touring import rules, views
from tabletrek.games.touring.cards import CARD_TYPES, CODE, COUNTRY, MILES, SLUGS

if TYPE_CHECKING:
    from tabletrek.games.touring.game import Touring


class TouringState(State):
    game: Touring
    hands: list[list[int]]
    held: list[int]
    """Each seat's card types as bits (``rules.hand_kinds`` of its hand), kept by the moves that
    change a hand: the legal-move listing reads it every move rather than looping over the hand.
    Code that sets a hand directly sets this too (``rules.hand_kinds``)."""
    draw: list[int]
    discard: list[int]
    go: list[list[int]]
    speed: list[list[int]]
    miles: list[list[int]]
    to_act: int
    turns: int
    winner: int | None
    is_over: bool = False
    """A plain attribute here, not a property as in ``State``: it is read three times a move."""

    # ----- the contract -------------------------------------------------------------------------

    @property
    def ended(self) -> bool:
        """``is_over`` under the name the saved JSON and the compiled engine's mapping use."""
        return self.is_over

    @ended.setter
    def ended(self, value: bool) -> None:
        self.is_over = value

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.to_act

    @property
    def result(self) -> Result | None:
        if not self.is_over:
            return None
        game = self.game
        scores = tuple(float(self.team_miles(game.team_of[s])) for s in range(game.players))
        if self.winner is None:
            return Result((), scores, (0.0,) * game.players, "core.end.max_turns")
        winners = game.members[self.winner]
        returns = tuple(1.0 if s in winners else -1.0 for s in range(game.players))
        return Result(winners, scores, returns, "touring.end.complete")

    # The rules' functions serve as the methods themselves: a wrapper would add a call to every move.
    _legal_actions = rules.legal_actions
    _apply = rules.apply

    def explain(self, text: str) -> IllegalAction:
        return rules.explain(self, text)

    def view(self, seat: int) -> dict[str, Any]:
        return views.seat_view(self, seat)

    def public_view(self) -> dict[str, Any]:
        return views.public_view(self)

    # ----- queries ------------------------------------------------------------------------------

    def team_miles(self, team: int) -> int:
        return sum(n * m for n, m in zip(self.miles[team], MILES, strict=True))

    def go_top(self, team: int) -> int | None:
        pile = self.go[team]
        return pile[-1] if pile else None

    def speed_top(self, team: int) -> int | None:
        pile = self.speed[team]
        return pile[-1] if pile else None

    def is_limited(self, team: int) -> bool:
        """An empty speed pile counts as City Limits."""
        pile = self.speed[team]
        return not pile or pile[-1] != COUNTRY

    def card_counts(self) -> list[int]:
        """How many of each card type are anywhere: hands, piles, draw and discard."""
        counts = [0] * CARD_TYPES
        for cards in (*self.hands, self.draw, self.discard, *self.go, *self.speed):
            for card in cards:
                counts[card] += 1
        for miles in self.miles:
            for slot, n in enumerate(miles):
                counts[slot + 1] += n
        return counts

    # ----- copies, search, serialization --------------------------------------------------------

    def clone(self) -> TouringState:
        other = TouringState.__new__(TouringState)
        self._copy_base_into(other, copy_rng(self.rng))
        other.hands = [list(h) for h in self.hands]
        other.held = list(self.held)
        other.draw = list(self.draw)
        other.discard = list(self.discard)
        other.go = [list(p) for p in self.go]
        other.speed = [list(p) for p in self.speed]
        other.miles = [list(m) for m in self.miles]
        other.to_act = self.to_act
        other.turns = self.turns
        other.winner = self.winner
        other.is_over = self.is_over
        return other

    def determinize(self, seat: int, rng: random.Random) -> TouringState:
        other = self.clone()
        other.rng = make_rng(rng.getrandbits(63))
        pool = list(self.draw)
        for s, hand in enumerate(self.hands):
            if s != seat:
                pool.extend(hand)
        rng.shuffle(pool)
        for s, hand in enumerate(self.hands):
            if s != seat:
                other.hands[s] = [pool.pop() for _ in hand]
                other.held[s] = rules.hand_kinds(other.hands[s])
        other.draw = pool
        return other

    def _dump(self) -> dict[str, Any]:
        def names(cards: list[int]) -> list[str]:
            return [SLUGS[c] for c in cards]

        return {
            "hands": [names(h) for h in self.hands],
            "draw": names(self.draw),
            "discard": names(self.discard),
            "go": [names(p) for p in self.go],
            "speed": [names(p) for p in self.speed],
            "miles": [list(m) for m in self.miles],
            "to_act": self.to_act,
            "turns": self.turns,
            "winner": self.winner,
            "ended": self.is_over,
        }

    def _load(self, data: Mapping[str, Any]) -> None:
        def codes(names: list[str]) -> list[int]:
            return [CODE[n] for n in names]

        self.hands = [codes(h) for h in data["hands"]]
        self.held = [rules.hand_kinds(h) for h in self.hands]
        self.draw = codes(data["draw"])
        self.discard = codes(data["discard"])
        self.go = [codes(p) for p in data["go"]]
        self.speed = [codes(p) for p in data["speed"]]
        self.miles = [[int(x) for x in m] for m in data["miles"]]
        self.to_act = int(data["to_act"])
        self.turns = int(data["turns"])
        self.winner = None if data["winner"] is None else int(data["winner"])
        self.is_over = bool(data["ended"])
        if len(self.hands) != self.game.players or len(self.go) != self.game.teams:
            raise ValueError("piles do not match the number of players")

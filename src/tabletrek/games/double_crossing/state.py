"""Double Crossing's state: the whole table, its copies and JSON form.

Hands are counts per crew-card type; the draw pile is a list (its order is hidden from every
view); contracts are an owner list (-1 = still at its company's Trade space). Money is whole
dollars: bank + players + Depot is always the data's total ($19.5M). The turn in progress is a
stack of steps (``steps.py``), saved as their dict form.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.events import Event
from tabletrek.core.rng import copy_rng, make_rng
from tabletrek.core.state import Result, State
from tabletrek.games.double_crossing import rules, views
from tabletrek.games.double_crossing.content import CARD_CODE, CARD_SLUGS, CARD_TYPES, Content

if TYPE_CHECKING:
    from tabletrek.games.double_crossing.game import DoubleCrossing
    from tabletrek.games.double_crossing.steps import Step, Task


class DoubleCrossingState(State):
    game: DoubleCrossing
    pos: list[int]
    """Each seat's space; -1 before its first move."""
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
    stack: list[Step]
    first: int
    turn_seat: int
    again: bool
    hard_end: bool
    engineer_ok: bool
    used_villain: bool
    used_engineer: bool
    stops_left: int
    crew_used: int
    """Railroad Crew cards played this turn (1-2 per turn, not per roll: docs/rules/double-crossing.md,
    "The crew cards")."""
    winner: int | None
    is_over: bool = False
    """A plain attribute, not a property as in ``State``: the core's contract and the turn loop read
    it several times a move (``ended`` is its name in the saved JSON)."""
    rounds: int
    turns: int
    landed: dict[str, int]
    played: list[int]

    # ----- queries ------------------------------------------------------------------------------

    @property
    def content(self) -> Content:
        return self.game.content

    def contracts_of(self, seat: int) -> list[int]:
        return [k for k, o in enumerate(self.owner) if o == seat]

    def can_win(self, seat: int) -> bool:
        return self.owner.count(seat) >= self.game.content.contracts_to_win

    @property
    def pending_step(self) -> Step | None:
        """The step waiting for a decision (None once the game is over)."""
        return self.stack[-1] if self.stack and not self.is_over else None

    @property
    def pending(self) -> Task | None:
        """The pending step's JSON form (what views and front ends show)."""
        step = self.pending_step
        return step.to_dict() if step is not None else None

    # ----- the contract -------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        if self.is_over or not self.stack:
            return None
        return self.stack[-1].seat

    @property
    def ended(self) -> bool:
        """``is_over`` under the name the saved JSON and the compiled engine's mapping use."""
        return self.is_over

    @ended.setter
    def ended(self, value: bool) -> None:
        self.is_over = value

    @property
    def result(self) -> Result | None:
        if not self.is_over:
            return None
        n = self.game.players
        scores = tuple(float(self.owner.count(s)) for s in range(n))
        if self.winner is None:
            return Result((), scores, (0.0,) * n, "double_crossing.end.max_rounds")
        returns = tuple(1.0 if s == self.winner else -1.0 for s in range(n))
        return Result((self.winner,), scores, returns, "double_crossing.end.home")

    def _legal_actions(self) -> list[Action]:
        return rules.legal_actions(self)

    def _apply(self, action: Action) -> list[Event]:
        """The pending step carries out the legal ``action``, then the turn runs on to the next
        decision (``rules.advance``)."""
        events: list[Event] = []
        kind, a, b = self.game.decode[action.index]
        self.stack[-1].decide(self, kind, a, b, events)
        # The run stops at a decision whose options it has just listed: those are the legal
        # actions, so legal_actions() need not list them again.
        self._legal = tuple(rules.advance(self, events))
        return events

    def explain(self, text: str) -> IllegalAction:
        return rules.explain(self, text)

    def view(self, seat: int) -> dict[str, Any]:
        return views.seat_view(self, seat)

    def public_view(self) -> dict[str, Any]:
        return views.public_view(self)

    # ----- conservation -------------------------------------------------------------------------

    def money_total(self) -> int:
        return self.bank + self.depot + sum(self.cash)

    def car_totals(self) -> list[int]:
        totals = list(self.yard)
        for rack in self.cars:
            for car, n in enumerate(rack):
                totals[car] += n
        for lying in self.dropped.values():
            for car, n in enumerate(lying):
                totals[car] += n
        return totals

    def card_totals(self) -> list[int]:
        totals = [0] * CARD_TYPES
        for card in (*self.draw, *self.discard):
            totals[card] += 1
        for hand in self.hands:
            for card, n in enumerate(hand):
                totals[card] += n
        return totals

    # ----- copies ---------------------------------------------------------------------------------

    def clone(self) -> DoubleCrossingState:
        other = DoubleCrossingState.__new__(DoubleCrossingState)
        self._copy_base_into(other, copy_rng(self.rng))
        other.pos = list(self.pos)
        other.cash = list(self.cash)
        other.cars = [list(r) for r in self.cars]
        other.hands = [list(h) for h in self.hands]
        other.owner = list(self.owner)
        other.yard = list(self.yard)
        other.dropped = {s: list(c) for s, c in self.dropped.items()}
        other.draw = list(self.draw)
        other.discard = list(self.discard)
        other.stack = [step.copy() for step in self.stack]
        other.landed = dict(self.landed)
        other.played = list(self.played)
        for name in SCALARS:
            setattr(other, name, getattr(self, name))
        return other

    def determinize(self, seat: int, rng: random.Random) -> DoubleCrossingState:
        """Others' hands and the draw pile re-dealt from what ``seat`` cannot see; fresh dice."""
        other = self.clone()
        other.rng = make_rng(rng.getrandbits(63))
        pool = list(self.draw)
        for s, hand in enumerate(self.hands):
            if s != seat:
                for card, n in enumerate(hand):
                    pool.extend([card] * n)
        rng.shuffle(pool)
        for s, hand in enumerate(self.hands):
            if s != seat:
                fresh = [0] * CARD_TYPES
                for _ in range(sum(hand)):
                    fresh[pool.pop()] += 1
                other.hands[s] = fresh
        other.draw = pool
        return other

    # ----- JSON -----------------------------------------------------------------------------------

    def _dump(self) -> dict[str, Any]:
        return {
            "pos": list(self.pos),
            "cash": list(self.cash),
            "cars": [list(r) for r in self.cars],
            "hands": [list(h) for h in self.hands],
            "owner": list(self.owner),
            "yard": list(self.yard),
            "dropped": {str(s): list(c) for s, c in sorted(self.dropped.items())},
            "draw": [CARD_SLUGS[c] for c in self.draw],
            "discard": [CARD_SLUGS[c] for c in self.discard],
            "bank": self.bank,
            "depot": self.depot,
            "stack": [step.to_dict() for step in self.stack],
            "first": self.first,
            "turn_seat": self.turn_seat,
            "again": self.again,
            "hard_end": self.hard_end,
            "engineer_ok": self.engineer_ok,
            "used_villain": self.used_villain,
            "used_engineer": self.used_engineer,
            "stops_left": self.stops_left,
            "crew_used": self.crew_used,
            "winner": self.winner,
            "ended": self.is_over,
            "rounds": self.rounds,
            "turns": self.turns,
            "landed": dict(sorted(self.landed.items())),
            "played": list(self.played),
        }

    def _fill(self, data: Mapping[str, Any]) -> None:
        self.pos = [int(x) for x in data["pos"]]
        self.cash = [int(x) for x in data["cash"]]
        self.cars = [[int(x) for x in r] for r in data["cars"]]
        self.hands = [[int(x) for x in h] for h in data["hands"]]
        self.owner = [int(x) for x in data["owner"]]
        self.yard = [int(x) for x in data["yard"]]
        self.dropped = {int(s): [int(x) for x in c] for s, c in data["dropped"].items()}
        self.draw = [CARD_CODE[c] for c in data["draw"]]
        self.discard = [CARD_CODE[c] for c in data["discard"]]
        self.bank = int(data["bank"])
        self.depot = int(data["depot"])
        self.stack = [rules.step_from_dict(t) for t in data["stack"]]
        self.first = int(data["first"])
        self.turn_seat = int(data["turn_seat"])
        self.again = bool(data["again"])
        self.hard_end = bool(data["hard_end"])
        self.engineer_ok = bool(data["engineer_ok"])
        self.used_villain = bool(data["used_villain"])
        self.used_engineer = bool(data["used_engineer"])
        self.stops_left = int(data["stops_left"])
        # States saved before the per-turn count existed held no count: nothing played yet.
        self.crew_used = int(data.get("crew_used", 0))
        self.winner = None if data["winner"] is None else int(data["winner"])
        self.is_over = bool(data["ended"])
        self.rounds = int(data["rounds"])
        self.turns = int(data["turns"])
        self.landed = {str(k): int(v) for k, v in data["landed"].items()}
        self.played = [int(x) for x in data["played"]]

    def _load(self, data: Mapping[str, Any]) -> None:
        self._fill(data)
        n = self.game.players
        if len(self.pos) != n or len(self.cash) != n or len(self.hands) != n or len(self.cars) != n:
            raise ValueError("the per-seat lists do not match the number of players")
        if len(self.owner) != len(self.content.contracts):
            raise ValueError("the contract list does not match the data")


SCALARS = (
    "bank",
    "depot",
    "first",
    "turn_seat",
    "again",
    "hard_end",
    "engineer_ok",
    "used_villain",
    "used_engineer",
    "stops_left",
    "crew_used",
    "winner",
    "is_over",
    "rounds",
    "turns",
)
"""The state's immutable fields, copied as they are by ``clone``."""

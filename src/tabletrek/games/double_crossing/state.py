"""Double Crossing's state: the whole table, its views, copies and JSON form.

Hands are counts per crew-card type; the draw pile is a list (its order is hidden from every
view); contracts are an owner list (-1 = still at its company's Trade space). Money is whole
dollars: bank + players + Depot is always the data's total ($19.5M).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.events import Event
from tabletrek.core.rng import copy_rng, make_rng
from tabletrek.core.state import Result
from tabletrek.games.double_crossing.content import CAR_SLUGS, CARD_CODE, CARD_SLUGS, CARD_TYPES
from tabletrek.games.double_crossing.explain import explain_action
from tabletrek.games.double_crossing.flow import Flow, Task


def _copy_task(task: Task) -> Task:
    return {k: list(v) if isinstance(v, list) else v for k, v in task.items()}


class DoubleCrossingState(Flow):
    # ----- the contract's queries -------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        if self.ended or not self.stack:
            return None
        seat: int = self.stack[-1]["seat"]
        return seat

    @property
    def is_over(self) -> bool:
        return self.ended

    @property
    def result(self) -> Result | None:
        if not self.ended:
            return None
        n = self.game.players
        scores = tuple(float(self.owner.count(s)) for s in range(n))
        if self.winner is None:
            return Result((), scores, (0.0,) * n, "double_crossing.end.max_rounds")
        returns = tuple(1.0 if s == self.winner else -1.0 for s in range(n))
        return Result((self.winner,), scores, returns, "double_crossing.end.home")

    @property
    def pending(self) -> Task | None:
        return self.stack[-1] if self.stack and not self.ended else None

    def _legal_actions(self) -> list[Action]:
        task = self.pending
        return self.options(task) if task is not None else []

    def _apply(self, action: Action) -> list[Event]:
        events: list[Event] = []
        task = self.stack[-1]
        self.decide(task, action, events)
        # The loop stops at a decision whose options it has just listed: those are the legal actions,
        # so legal_actions() need not list them again.
        self._legal = self._run(events)
        return events

    def explain(self, text: str) -> IllegalAction:
        return explain_action(self, text)

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

    # ----- views --------------------------------------------------------------------------------

    def public_view(self) -> dict[str, Any]:
        c = self.content
        result = self.result
        pending = self.pending
        contracts = [
            {"id": k.slug, "company": c.companies[k.company], "cars": _car_dict(k.cars), "price": k.price}
            for k in c.contracts
        ]
        return {
            "game": self.game.name,
            "players": self.game.players,
            "seat": None,
            "hand": None,
            "to_act": self.current_player,
            "pending": _copy_task(pending) if pending else None,
            "turn_seat": self.turn_seat,
            "first": self.first,
            "round": self.rounds,
            "turns": self.turns,
            "positions": list(self.pos),
            "cash": list(self.cash),
            "cars": [_car_dict(rack) for rack in self.cars],
            "hand_counts": [sum(h) for h in self.hands],
            "contracts": [
                [c.contracts[k].slug for k in self.contracts_of(s)] for s in range(self.game.players)
            ],
            "available": [c.contracts[k].slug for k, o in enumerate(self.owner) if o < 0],
            "contract_info": contracts,
            "yard": _car_dict(self.yard),
            "dropped": {str(space): _car_dict(cars) for space, cars in sorted(self.dropped.items())},
            "depot": self.depot,
            "bank": self.bank,
            "draw_pile": len(self.draw),
            "discard": {CARD_SLUGS[t]: self.discard.count(t) for t in range(CARD_TYPES)},
            "flags": {
                "again": self.again,
                "used_villain": self.used_villain,
                "used_engineer": self.used_engineer,
            },
            "options": dict(self.game.options),
            "over": self.ended,
            "winner": self.winner,
            "result": result.to_dict() if result else None,
        }

    def view(self, seat: int) -> dict[str, Any]:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game.players:
            raise ValueError(f"no seat {seat!r} in a {self.game.players}-player game")
        view = self.public_view()
        view["seat"] = seat
        view["hand"] = {CARD_SLUGS[t]: self.hands[seat][t] for t in range(CARD_TYPES)}
        return view

    # ----- copies ---------------------------------------------------------------------------------

    def clone(self) -> DoubleCrossingState:
        other = DoubleCrossingState.__new__(DoubleCrossingState)
        self._copy_base_into(other, copy_rng(self.rng))
        other._fill(self._dump())
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
            "stack": [_copy_task(t) for t in self.stack],
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
            "ended": self.ended,
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
        self.stack = [_copy_task(t) for t in data["stack"]]
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
        self.ended = bool(data["ended"])
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


def _car_dict(counts: tuple[int, ...] | list[int]) -> dict[str, int]:
    return {CAR_SLUGS[t]: int(n) for t, n in enumerate(counts)}

"""The state of a Mexican Train match: hands, boneyard, trains, markers, the turn, scores.

Its rules (legal moves, moves, reasons for refusals) are in rules.py; what a seat may see in views.py.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.rng import copy_rng, make_rng
from tabletrek.core.state import Result, State
from tabletrek.games.mexican_train import rules, views
from tabletrek.games.mexican_train.rules import DRAWN, FIRST, NO_TILE, PLAY

if TYPE_CHECKING:
    from tabletrek.games.mexican_train.game import MexicanTrain


class MexicanTrainState(State):
    game: MexicanTrain
    round_index: int
    engine: int  # pip value of this round's engine double
    engine_placer: int | None  # None when the engine was set aside (rotate_start)
    hands: list[list[int]]
    # showing[seat][v]: the seat's tiles that show the value v, in the hand's order (derived from
    # hands, kept for speed: the plays on a train are the offered tiles showing its open end).
    showing: list[list[list[int]]]
    boneyard: list[int]  # drawn from the end
    trains: list[list[int]]  # per train number; the last is the Mexican train
    ends: list[int]  # open end of each train (the engine value while empty)
    markers: list[bool]  # per seat: its train is public
    first_pending: list[bool]  # per seat: its first turn of the round is still to come
    open: list[int]  # trains ending in a double (derived from trains; kept for speed)
    to_act: int
    phase: int
    bonus: bool  # a double was played this turn: the same player plays again
    drawn: int  # tile drawn this turn, or NO_TILE
    run: int  # tiles played so far in a first turn
    passes: int  # consecutive passes made with the boneyard empty
    totals: list[int]
    round_scores: list[list[int]]
    # A plain attribute where the base class has a property: every move reads it a few times.
    is_over = False

    # ----- queries ------------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.to_act

    @property
    def result(self) -> Result | None:
        if not self.is_over:
            return None
        best = min(self.totals)
        winners = tuple(s for s, total in enumerate(self.totals) if total == best)
        returns = tuple(1.0 if s in winners else -1.0 for s in range(self.game.players))
        reason = "mexican_train.end.match" if self.game.num_rounds > 1 else "mexican_train.end.round"
        return Result(winners, tuple(float(t) for t in self.totals), returns, reason)

    def open_doubles(self) -> list[int]:
        """Trains whose last tile is a double (the engine itself needs no satisfying)."""
        return list(self.open)

    def _find_open(self) -> list[int]:
        is_double = self.game.tileset.is_double
        return [r for r, train in enumerate(self.trains) if train and is_double[train[-1]]]

    def hand_points(self, seat: int) -> int:
        ts = self.game.tileset
        blank = ts.double_of[0]
        return sum(self.game.double_blank_points if t == blank else ts.pips[t] for t in self.hands[seat])

    # ----- the rules (rules.py) -------------------------------------------------------------------

    # Bound as methods without a wrapper: the random playouts call these once per move.
    _legal_actions = rules.legal_actions
    _apply = rules.apply

    def parse(self, text: str) -> Action:
        if isinstance(text, str):
            text = rules.canonical(self, text)
        return super().parse(text)

    def explain(self, text: str) -> IllegalAction:
        return rules.explain(self, text)

    # ----- views, copies, serialization ----------------------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        return views.seat_view(self, seat)

    def public_view(self) -> dict[str, Any]:
        return views.public_view(self)

    def clone(self) -> MexicanTrainState:
        other = MexicanTrainState.__new__(MexicanTrainState)
        self._copy_base_into(other, copy_rng(self.rng))
        other.round_index = self.round_index
        other.engine = self.engine
        other.engine_placer = self.engine_placer
        other.hands = [list(h) for h in self.hands]
        other.showing = [[list(group) for group in seat] for seat in self.showing]
        other.boneyard = list(self.boneyard)
        other.trains = [list(line) for line in self.trains]
        other.ends = list(self.ends)
        other.open = list(self.open)
        other.markers = list(self.markers)
        other.first_pending = list(self.first_pending)
        other.to_act = self.to_act
        other.phase = self.phase
        other.bonus = self.bonus
        other.drawn = self.drawn
        other.run = self.run
        other.passes = self.passes
        other.totals = list(self.totals)
        other.round_scores = [list(r) for r in self.round_scores]
        other.is_over = self.is_over
        return other

    def determinize(self, seat: int, rng: random.Random) -> MexicanTrainState:
        """Other hands and the boneyard resampled from the tiles ``seat`` cannot see."""
        other = self.clone()
        other.rng = make_rng(rng.getrandbits(63))
        pool = list(self.boneyard)
        for s, hand in enumerate(self.hands):
            if s != seat:
                pool.extend(hand)
        pool.sort()
        rng.shuffle(pool)
        for s, hand in enumerate(self.hands):
            if s != seat:
                other.hands[s] = [pool.pop() for _ in hand]
                other.showing[s] = self.game.tileset.by_value(other.hands[s])
        other.boneyard = pool
        if self.drawn != NO_TILE and self.to_act != seat:
            other.drawn = other.hands[self.to_act][-1]  # a drawn tile is always last in its hand
        return other

    def _dump(self) -> dict[str, Any]:
        return {
            "round": self.round_index,
            "engine_placer": self.engine_placer,
            "hands": [list(h) for h in self.hands],
            "boneyard": list(self.boneyard),
            "trains": [list(t) for t in self.trains],
            "markers": list(self.markers),
            "first_pending": list(self.first_pending),
            "to_act": self.to_act,
            "phase": self.phase,
            "bonus": self.bonus,
            "drawn": self.drawn,
            "run": self.run,
            "passes": self.passes,
            "totals": list(self.totals),
            "round_scores": [list(r) for r in self.round_scores],
            "ended": self.is_over,
        }

    def _load(self, data: Mapping[str, Any]) -> None:
        game = self.game
        ts = game.tileset
        self.round_index = int(data["round"])
        if not 0 <= self.round_index < game.num_rounds:
            raise ValueError(f"round {self.round_index} is outside this match")
        self.engine = game.engine_for_round(self.round_index)
        placer = data["engine_placer"]
        self.engine_placer = None if placer is None else int(placer)
        self.hands = [[int(t) for t in h] for h in data["hands"]]
        self.showing = [ts.by_value(h) for h in self.hands]
        self.boneyard = [int(t) for t in data["boneyard"]]
        self.trains = [[int(t) for t in line] for line in data["trains"]]
        self.markers = [bool(m) for m in data["markers"]]
        self.first_pending = [bool(f) for f in data["first_pending"]]
        self.to_act = int(data["to_act"])
        self.phase = int(data["phase"])
        self.bonus = bool(data["bonus"])
        self.drawn = int(data["drawn"])
        self.run = int(data["run"])
        self.passes = int(data["passes"])
        self.totals = [int(t) for t in data["totals"]]
        self.round_scores = [[int(p) for p in r] for r in data["round_scores"]]
        self.is_over = bool(data["ended"])
        players = game.players
        if len(self.hands) != players or len(self.trains) != game.slots or len(self.markers) != players:
            raise ValueError("hands, trains or markers do not match the number of players")
        if self.phase not in (FIRST, PLAY, DRAWN) or not 0 <= self.to_act < players:
            raise ValueError("phase or seat to act out of range")
        self.ends = []
        for line in self.trains:
            end = self.engine
            for tile in line:
                end = ts.other[tile][end]
                if end < 0:
                    raise ValueError(f"train tiles do not join: {[ts.texts[t] for t in line]}")
            self.ends.append(end)
        self.open = self._find_open()
        if sorted(self.tile_places()) != [1] * ts.size:
            raise ValueError("every tile must be in exactly one place")

    def tile_places(self) -> list[int]:
        """How many places hold each tile: hands, boneyard, trains and the engine (all 1 when sound)."""
        ts = self.game.tileset
        counts = [0] * ts.size
        counts[ts.double_of[self.engine]] += 1
        for group in (*self.hands, self.boneyard, *self.trains):
            for tile in group:
                counts[tile] += 1
        return counts

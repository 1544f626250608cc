"""The state of a Mexican Train match and every rule of play (seed 002 + RULINGS.md).

A turn moves through phases: ``FIRST`` (a seat's first turn of the round: a run on its own train,
nothing else, no drawing), ``PLAY`` (one tile; again after a double) and ``DRAWN`` (after drawing
one tile because nothing could be played: play the drawn tile or pass and mark the train public).
Rounds follow one another inside the state, so a whole 13-round match is one game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.events import Event, seat_ref
from tabletrek.core.rng import copy_rng, make_rng
from tabletrek.core.state import Result, State
from tabletrek.games.mexican_train.rules import MexicanTrain

FIRST, PLAY, DRAWN = 0, 1, 2
PHASE_NAMES = ("first", "play", "drawn")
# Event keys of a play, by [train already started][own, another player's, the Mexican train].
PLAY_KEYS = tuple(
    tuple(f"mexican_train.event.{verb}_{kind}" for kind in ("own", "other", "mexican"))
    for verb in ("start", "play")
)
NO_TILE = -1


class MexicanTrainState(State):
    game: MexicanTrain
    round_index: int
    engine: int  # pip value of this round's engine double
    engine_placer: int | None  # None when the engine was set aside (rotate_start)
    hands: list[list[int]]
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
    ended: bool

    # ----- queries ------------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.ended else self.to_act

    @property
    def is_over(self) -> bool:
        return self.ended

    @property
    def result(self) -> Result | None:
        if not self.ended:
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

    def accessible(self, seat: int) -> list[int]:
        """Trains ``seat`` may play on after its first turn: its own, the Mexican, public ones."""
        markers = self.markers
        if True not in markers:
            return [seat, self.game.mexican]
        return [seat, self.game.mexican, *[s for s, marked in enumerate(markers) if marked and s != seat]]

    def must_satisfy(self) -> bool:
        """Whether an open double restricts the player to act (relaxed: not for the tile after it)."""
        return self.phase != FIRST and not (self.bonus and self.game.relaxed_doubles)

    def targets(self, seat: int) -> list[int]:
        trains = self.accessible(seat)
        if self.open and self.must_satisfy():
            doubles = self.open
            return [r for r in trains if r in doubles]
        return trains

    def hand_points(self, seat: int) -> int:
        ts = self.game.tileset
        blank = ts.double_of[0]
        return sum(self.game.double_blank_points if t == blank else ts.pips[t] for t in self.hands[seat])

    # ----- legal actions --------------------------------------------------------------------------

    def _legal_actions(self) -> list[Action]:
        game = self.game
        seat = self.to_act
        other = game.tileset.other
        rows = game.play_actions
        if self.phase == FIRST:
            end = self.ends[seat]
            run = [rows[t][seat] for t in self.hands[seat] if other[t][end] >= 0]
            if self.run == 0:
                return run or [game.pass_action]
            if game.tileset.is_double[self.trains[seat][-1]]:
                return run  # after a double the run must go on while it can
            return [*run, game.end_action]
        tiles = self.hands[seat] if self.phase == PLAY else [self.drawn]
        plays: list[Action] = []
        ends = self.ends
        for r in self.targets(seat):
            end = ends[r]
            plays += [rows[t][r] for t in tiles if other[t][end] >= 0]
        if self.phase == DRAWN:
            return [*plays, game.pass_action]
        if plays:
            return plays
        return [game.draw_action] if self.boneyard else [game.pass_action]

    # ----- applying -------------------------------------------------------------------------------

    def _apply(self, action: Action) -> list[Event]:
        game = self.game
        index = action.index
        events: list[Event] = []
        if index < game.draw_index:
            tile, train = divmod(index, game.slots)
            self._play(tile, train, events)
        elif action is game.draw_action:
            self._draw(events)
        elif action is game.pass_action:
            self._pass(events)
        else:
            events.append(Event("mexican_train.event.end_run", {"player": seat_ref(self.to_act)}))
            self._end_turn()
        return events

    def _play(self, tile: int, train: int, events: list[Event]) -> None:
        game = self.game
        ts = game.tileset
        seat = self.to_act
        hand = self.hands[seat]
        hand.remove(tile)
        line = self.trains[train]
        kind = 2 if train == game.mexican else 0 if train == seat else 1
        key = PLAY_KEYS[bool(line)][kind]
        line.append(tile)
        self.ends[train] = ts.other[tile][self.ends[train]]
        double = ts.is_double[tile]
        if double:
            self.open.append(train)
        elif train in self.open:
            self.open.remove(train)
        refs = game.seat_refs
        player = refs[seat]
        events.append(Event(key, {"player": player, "tile": ts.texts[tile], "owner": refs[train]}))
        self.passes = 0
        if train == seat and self.markers[seat]:
            self.markers[seat] = False
            events.append(Event("mexican_train.event.marker_off", {"player": player}))
        if not hand:
            self._end_round(seat, events)
            return
        if self.phase == FIRST:
            self.run += 1
            end = self.ends[seat]
            if any(ts.other[t][end] >= 0 for t in hand):
                return
            if double:
                events.append(Event("mexican_train.event.run_ends_double", {"player": player}))
            self._end_turn()
        elif double:
            self.bonus = True
            self.phase = PLAY
            self.drawn = NO_TILE
            events.append(Event("mexican_train.event.double", {"player": player, "tile": ts.texts[tile]}))
        else:
            self._end_turn()

    def _draw(self, events: list[Event]) -> None:
        seat = self.to_act
        tile = self.boneyard.pop()
        self.hands[seat].append(tile)
        self.drawn = tile
        self.phase = DRAWN
        events.append(
            Event(
                "mexican_train.event.draw",
                {"player": seat_ref(seat), "left": len(self.boneyard)},
                secret={"tile": self.game.tileset.texts[tile]},
                audience=frozenset({seat}),
            )
        )

    def _pass(self, events: list[Event]) -> None:
        seat = self.to_act
        player = seat_ref(seat)
        if self.phase == FIRST:
            events.append(Event("mexican_train.event.first_pass", {"player": player}))
        else:
            events.append(Event("mexican_train.event.pass", {"player": player}))
            if not self.markers[seat]:
                self.markers[seat] = True
                events.append(Event("mexican_train.event.marker_on", {"player": player}))
        if not self.boneyard:
            self.passes += 1
            if self.passes >= self.game.players:
                self._end_round(None, events)
                return
        self._end_turn()

    def _end_turn(self) -> None:
        seat = self.to_act
        if self.phase == FIRST:
            self.first_pending[seat] = False
        nxt = (seat + 1) % self.game.players
        self.to_act = nxt
        self.phase = FIRST if self.first_pending[nxt] else PLAY
        self.bonus = False
        self.drawn = NO_TILE
        self.run = 0

    # ----- rounds ---------------------------------------------------------------------------------

    def start_round(self, round_index: int, events: list[Event]) -> None:
        game = self.game
        ts = game.tileset
        players = game.players
        self.round_index = round_index
        self.engine = engine = game.engine_for_round(round_index)
        engine_tile = ts.double_of[engine]
        pool = list(range(ts.size))
        if game.rotate_start:
            pool.remove(engine_tile)
        self.rng.shuffle(pool)
        size = game.hand_size
        self.hands = [pool[s * size : (s + 1) * size] for s in range(players)]
        self.boneyard = pool[players * size :]
        self.trains = [[] for _ in range(game.slots)]
        self.open = []
        self.ends = [engine] * game.slots
        self.markers = [False] * players
        self.first_pending = [True] * players
        self.phase = FIRST
        self.bonus = False
        self.drawn = NO_TILE
        self.run = 0
        self.passes = 0
        engine_text = ts.texts[engine_tile]
        events.append(
            Event(
                "mexican_train.event.round_start",
                {"round": round_index + 1, "rounds": game.num_rounds, "engine": engine_text},
            )
        )
        if game.rotate_start:
            self.engine_placer = None
            self.to_act = round_index % players
            events.append(Event("mexican_train.event.engine_aside", {"engine": engine_text}))
            return
        holder = next((s for s in range(players) if engine_tile in self.hands[s]), None)
        seat = round_index % players
        while holder is None:
            # Nobody holds the engine: draw one tile each in turn order until it appears [seed].
            tile = self.boneyard.pop()
            self.hands[seat].append(tile)
            events.append(
                Event(
                    "mexican_train.event.engine_draw",
                    {"player": seat_ref(seat)},
                    secret={"tile": ts.texts[tile]},
                    audience=frozenset({seat}),
                )
            )
            if tile == engine_tile:
                holder = seat
            seat = (seat + 1) % players
        self.hands[holder].remove(engine_tile)
        self.engine_placer = holder
        self.to_act = (holder + 1) % players
        events.append(
            Event("mexican_train.event.engine", {"player": seat_ref(holder), "engine": engine_text})
        )

    def _end_round(self, out: int | None, events: list[Event]) -> None:
        game = self.game
        scores = [self.hand_points(s) for s in range(game.players)]
        self.round_scores.append(scores)
        for s, points in enumerate(scores):
            self.totals[s] += points
        if out is None:
            events.append(Event("mexican_train.event.blocked", {"round": self.round_index + 1}))
        else:
            events.append(Event("mexican_train.event.domino", {"player": seat_ref(out)}))
        for s, points in enumerate(scores):
            events.append(
                Event(
                    "mexican_train.event.score",
                    {"player": seat_ref(s), "points": points, "total": self.totals[s]},
                )
            )
        if self.round_index + 1 < game.num_rounds:
            self.start_round(self.round_index + 1, events)
            return
        self.ended = True
        result = self.result
        assert result is not None
        for s in result.winners:
            events.append(
                Event("mexican_train.event.match_end", {"player": seat_ref(s), "total": self.totals[s]})
            )

    # ----- text, explanations ---------------------------------------------------------------------

    def parse(self, text: str) -> Action:
        from tabletrek.games.mexican_train.explain import canonical

        if isinstance(text, str):
            text = canonical(self, text)
        return super().parse(text)

    def explain(self, text: str) -> IllegalAction:
        from tabletrek.games.mexican_train.explain import explain

        return explain(self, text)

    # ----- views, copies, serialization ----------------------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        from tabletrek.games.mexican_train.views import seat_view

        return seat_view(self, seat)

    def public_view(self) -> dict[str, Any]:
        from tabletrek.games.mexican_train.views import public_view

        return public_view(self)

    def clone(self) -> MexicanTrainState:
        other = MexicanTrainState.__new__(MexicanTrainState)
        self._copy_base_into(other, copy_rng(self.rng))
        other.round_index = self.round_index
        other.engine = self.engine
        other.engine_placer = self.engine_placer
        other.hands = [list(h) for h in self.hands]
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
        other.ended = self.ended
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
            "ended": self.ended,
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
        self.ended = bool(data["ended"])
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

"""Touring (1926 "Improved Edition"): the game, its state and every rule.

Seats sit in turn order; with 4 or 6 players, partners share one table of piles (team of seat s is
``s % teams``, so partners alternate around the table). Hands are lists of card codes
(``cards.py``); mileage piles are counts, because mileage cards of one value are identical.
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from typing import Any

from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.events import Event, seat_ref, text_ref
from tabletrek.core.game import BotFactory, Game
from tabletrek.core.options import OptionSpec
from tabletrek.core.rng import copy_rng, make_rng
from tabletrek.core.search import Belief, Evaluator, PairedPlayouts, RolloutPolicy, SearchSupport
from tabletrek.core.state import Result, State
from tabletrek.core.terminal import TextUI
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
    M30,
    MILES,
    PUNCTURE,
    REMEDY_FOR,
    SLUGS,
    TARGETED,
    DeckSpec,
    is_mileage,
    load_deck,
)

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

TEAM_REF = tuple(text_ref(f"touring.team.{t + 1}") for t in range(3))  # team games: 2 or 3 teams
TEAMS = {2: 2, 3: 3, 4: 2, 5: 5, 6: 3}
REDUCED_DECK = (3, 5, 6)
"""Player counts that play with the 96-card deck and the 70-mile set: the seed's 3 and 6, and 5
(our ruling: five players play individually like three)."""

_DECK: DeckSpec | None = None


def default_deck() -> DeckSpec:
    global _DECK
    if _DECK is None:
        _DECK = load_deck()
    return _DECK


class Touring(Game):
    name = "touring"
    package = "tabletrek.games.touring"
    player_counts = (2, 3, 4, 5, 6)
    default_players = 2
    searchable = True
    option_specs = (
        OptionSpec("free_discard", False, "touring.option.free_discard"),
        OptionSpec("max_turns", 2000, "touring.option.max_turns", kind=int, minimum=1),
        # Go is the first card of a player's area (the seed); records made before this option
        # existed let Country come first.
        OptionSpec("country_first", False, "touring.option.country_first", legacy=True),
    )

    def _setup(self) -> None:
        deck = default_deck()
        reduced = self.players in REDUCED_DECK
        self.teams: int = TEAMS[self.players]
        self.deck_counts: tuple[int, ...] = deck.reduced if reduced else deck.full
        self.required: tuple[int, int, int, int] = deck.required_reduced if reduced else deck.required_full
        self.goal_miles: int = sum(n * m for n, m in zip(self.required, MILES, strict=True))
        self.team_of: tuple[int, ...] = tuple(s % self.teams for s in range(self.players))
        self.members: tuple[tuple[int, ...], ...] = tuple(
            tuple(s for s in range(self.players) if s % self.teams == t) for t in range(self.teams)
        )
        self.team_games = self.players > self.teams
        self.free_discard: bool = self.options["free_discard"]
        self.max_turns: int = self.options["max_turns"]
        self.country_first: bool = self.options["country_first"]
        # Indices that name no move in this player count hold a placeholder with empty text.
        self._actions: list[Action] = [Action(i, "") for i in range(NUM_ACTIONS)]
        for card in range(CARD_TYPES):
            if card not in TARGETED:
                self._actions[card] = Action(card, f"play {SLUGS[card]}")
            self._actions[DISCARD_BASE + card] = Action(DISCARD_BASE + card, f"discard {SLUGS[card]}")
        for slot, card in enumerate(TARGETED):
            for team in range(self.teams):
                for variant in range(VARIANTS if card == COLLISION else 1):
                    index = target_index(slot, team, variant)
                    words = ["play", SLUGS[card], self.target_label(team)]
                    if variant:
                        words.append(VARIANT_WORD[variant])
                    self._actions[index] = Action(index, " ".join(words))
        self._actions[PASS] = Action(PASS, "pass")
        self._by_text = {a.text: a for a in self._actions if a.text}

    def target_label(self, team: int) -> str:
        """How action texts name an opposing table: its seat (p2) or, in team games, team (t2)."""
        return f"t{team + 1}" if self.team_games else f"p{team + 1}"

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    def action(self, index: int) -> Action:
        action = self._actions[index] if 0 <= index < NUM_ACTIONS else None
        if action is None or not action.text:
            raise ValueError(f"touring with {self.players} players has no action {index}")
        return action

    def action_by_text(self, text: str) -> Action | None:
        return self._by_text.get(text)

    def _blank_state(self) -> TouringState:
        return TouringState.__new__(TouringState)

    def _start(self, seed: int) -> TouringState:
        state = self._blank_state()
        rng = make_rng(seed)
        state._init_base(self, seed, rng)
        deck = [card for card in range(CARD_TYPES) for _ in range(self.deck_counts[card])]
        rng.shuffle(deck)
        state.hands = [[deck.pop() for _ in range(HAND_SIZE)] for _ in range(self.players)]
        state.draw = deck
        state.discard = []
        state.go = [[] for _ in range(self.teams)]
        state.speed = [[] for _ in range(self.teams)]
        state.miles = [[0, 0, 0, 0] for _ in range(self.teams)]
        state.to_act = 0
        state.turns = 0
        state.winner = None
        state.ended = False
        state._begin_turn([])
        return state

    def _bot_factories(self) -> dict[str, BotFactory]:
        from tabletrek.games.touring.bots import GreedyBot

        return {"greedy": GreedyBot}

    def rollout_policy(self) -> RolloutPolicy:
        from tabletrek.games.touring.rollout import greedy_policy  # greedy's scores, no view dicts

        return greedy_policy

    def search_defaults(self) -> dict[str, Any]:
        # Both measured in docs/research.md: with numba ("Compiled playouts", "Deeper cuts")
        # thousands of paired playouts fit in 100 ms, on two threads where there are two cores
        # (the threads change only how soon the move comes); in Python ~150 do, which the tree
        # uses best.
        if self.paired_playouts() is not None:
            threads = min(2, os.cpu_count() or 1)
            # Two players' cut playouts are scored by the value network, which stays accurate
            # nearer the move than the logistic model: cut at 40 moves, not 60 (docs/research.md,
            # "A value network for cut playouts").
            return {
                "paired": True,
                "infer": True,
                "iterations": 8000,
                "rollout_depth": 40 if self.players == 2 else 60,
                "z": 1.5,
                "threads": threads,
            }
        return {"iterations": 150, "rollout_depth": 60, "trust": 30}

    def paired_playouts(self) -> PairedPlayouts | None:
        try:
            from tabletrek.games.touring import kernel, worlds  # numba-compiled rules and greedy policy
        except ImportError:  # no numpy: the [search] extra is not installed
            return None
        return worlds.prepare if kernel.available() else None

    def search_belief(self, seat: int, seed: int) -> Belief | None:
        if self.paired_playouts() is None:
            return None
        from tabletrek.games.touring.worlds import HandBelief

        return HandBelief(seat, seed)

    def prepare_search(self) -> None:
        playouts = self.paired_playouts()
        if playouts is None:
            return
        # One belief update and one paired batch compile (or load) everything a search move runs.
        state = self.new_game(seed=0)
        mover = state.current_player
        assert mover is not None
        watcher = (mover + 1) % self.players
        belief = self.search_belief(watcher, 0)
        action = state.legal_actions()[0]
        if belief is not None:
            belief.observe(state, action)
        state.apply(action)
        depth = self.search_defaults()["rollout_depth"]
        playouts(state, watcher, belief, depth)([state.legal_actions()[0].index], [0])

    def evaluator(self) -> Evaluator:
        from tabletrek.games.touring.rollout import evaluate

        return evaluate

    def search(self) -> SearchSupport:
        paired = self.paired_playouts()
        return SearchSupport(
            defaults=self.search_defaults(),
            policy=self.rollout_policy(),
            evaluate=self.evaluator(),
            paired=paired,
            belief=self.search_belief if paired is not None else None,
            prepare=self.prepare_search,
        )

    def terminal(self) -> TextUI:
        from tabletrek.games.touring.text import TouringTextUI

        return TouringTextUI(self)


def target_index(slot: int, team: int, variant: int) -> int:
    return TARGET_BASE + (slot * MAX_TEAMS + team) * VARIANTS + variant


def decode_target(index: int) -> tuple[int, int, int]:
    """(card, team, variant) of a targeted play's index."""
    slot, rest = divmod(index - TARGET_BASE, MAX_TEAMS * VARIANTS)
    team, variant = divmod(rest, VARIANTS)
    return TARGETED[slot], team, variant


def collision_variants(state: TouringState, team: int) -> tuple[int, ...]:
    """The collision choices against ``team``: the attacker picks only when both losses are possible."""
    speed = state.speed[team]
    miles = state.miles[team]
    if speed and speed[-1] == COUNTRY and miles[3] and miles[2] >= 2:
        return (TAKE_30, TAKE_15S)
    return (TAKE_AUTO,)


class TouringState(State):
    game: Touring
    hands: list[list[int]]
    draw: list[int]
    discard: list[int]
    go: list[list[int]]
    speed: list[list[int]]
    miles: list[list[int]]
    to_act: int
    turns: int
    winner: int | None
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
        game = self.game
        scores = tuple(float(self.team_miles(game.team_of[s])) for s in range(game.players))
        if self.winner is None:
            return Result((), scores, (0.0,) * game.players, "core.end.max_turns")
        winners = game.members[self.winner]
        returns = tuple(1.0 if s in winners else -1.0 for s in range(game.players))
        return Result(winners, scores, returns, "touring.end.complete")

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

    # ----- legal actions --------------------------------------------------------------------------

    def _plays(self, cards: list[int]) -> list[Action]:
        """The plays of the distinct ``cards`` (in order) the player to act holds."""
        game = self.game
        actions = game._actions
        seat = self.to_act
        team = game.team_of[seat]
        go = self.go[team]
        go_top = go[-1] if go else None
        speed = self.speed[team]
        speed_top = speed[-1] if speed else None
        miles = self.miles[team]
        required = game.required
        plays: list[Action] = []
        for card in cards:
            if card == GO:
                if go_top is None or go_top in GO_ACCEPTS:
                    plays.append(actions[GO])
            elif card <= M30:
                slot = card - 1
                if go_top == GO and miles[slot] < required[slot]:
                    plays.append(actions[card])
            elif card == COUNTRY:
                # Go is "the first card a player places in their own area" (the seed): Country
                # starts the speed pile only once the Go pile holds a card, which is always a Go
                # first (a delay needs a Go, a remedy a delay).
                if speed_top == CITY or (speed_top is None and (go or game.country_first)):
                    plays.append(actions[COUNTRY])
            elif card in (GASOLINE, HAULED):
                if go_top == REMEDY_FOR[card]:
                    plays.append(actions[card])
            else:
                slot = TARGETED.index(card)
                for other in range(game.teams):
                    if other == team:
                        continue
                    if card == CITY:
                        pile = self.speed[other]
                        if pile and pile[-1] == COUNTRY:
                            plays.append(actions[target_index(slot, other, 0)])
                        continue
                    pile = self.go[other]
                    if not pile or pile[-1] != GO:
                        continue
                    if card == COLLISION:
                        for variant in collision_variants(self, other):
                            plays.append(actions[target_index(slot, other, variant)])
                    else:
                        plays.append(actions[target_index(slot, other, 0)])
        return plays

    def _legal_actions(self) -> list[Action]:
        hand = self.hands[self.to_act]
        if not hand:
            return [self.game._actions[PASS]]
        cards = sorted(set(hand))
        plays = self._plays(cards)
        if plays and not self.game.free_discard:
            return plays
        actions = self.game._actions
        return plays + [actions[DISCARD_BASE + card] for card in cards]

    # ----- applying -------------------------------------------------------------------------------

    def _apply(self, action: Action) -> list[Event]:
        game = self.game
        seat = self.to_act
        team = game.team_of[seat]
        index = action.index
        events: list[Event] = []
        player = seat_ref(seat)
        if index == PASS:
            events.append(Event("touring.event.pass", {"player": player}))
        elif index >= DISCARD_BASE:
            card = index - DISCARD_BASE
            self.hands[seat].remove(card)
            self.discard.append(card)
            events.append(Event("touring.event.discard", {"player": player, "card": CARD_REF[card]}))
        elif index >= TARGET_BASE:
            card, victim, variant = decode_target(index)
            self.hands[seat].remove(card)
            events.append(self._attack(seat, card, victim, variant))
        else:
            card = index
            self.hands[seat].remove(card)
            if is_mileage(card):
                slot = card - 1
                if card == M30 and self.is_limited(team):
                    self.discard.append(card)
                    events.append(Event("touring.event.speeding", {"player": player}))
                else:
                    self.miles[team][slot] += 1
                    events.append(
                        Event(
                            "touring.event.miles",
                            {"player": player, "card": CARD_REF[card], "total": self.team_miles(team)},
                        )
                    )
                    if self.miles[team] == list(game.required):
                        self.winner = team
                        self.ended = True
            elif card == COUNTRY:
                self.speed[team].append(card)
                events.append(Event("touring.event.play", {"player": player, "card": CARD_REF[card]}))
            else:
                self.go[team].append(card)
                events.append(Event("touring.event.play", {"player": player, "card": CARD_REF[card]}))
        self.turns += 1
        if self.ended:
            events.append(Event("touring.event.won", {"player": player, "miles": self.team_miles(team)}))
        elif self.turns >= game.max_turns:
            self.ended = True
            events.append(Event("touring.event.max_turns", {"turns": self.turns}))
        else:
            self.to_act = (seat + 1) % game.players
            self._begin_turn(events)
        return events

    def _attack(self, seat: int, card: int, victim: int, variant: int) -> Event:
        target = TEAM_REF[victim] if self.game.team_games else seat_ref(victim)
        args: dict[str, Any] = {"player": seat_ref(seat), "card": CARD_REF[card], "target": target}
        if card == CITY:
            self.speed[victim].append(card)
            return Event("touring.event.attack", args)
        self.go[victim].append(card)
        lost: list[int] = []
        miles = self.miles[victim]
        country = not self.is_limited(victim)
        if card == PUNCTURE:
            if country and miles[2]:
                lost.append(2)
        elif card == COLLISION:
            if not country:
                if miles[2]:
                    lost.append(2)
            elif variant == TAKE_15S or (variant == TAKE_AUTO and not miles[3]):
                lost.extend([2] * min(2, miles[2]))
            elif miles[3]:
                lost.append(3)
        for slot in lost:
            miles[slot] -= 1
            self.discard.append(slot + 1)
        if not lost:
            return Event("touring.event.attack", args)
        args["lost"] = " + ".join(str(MILES[slot]) for slot in lost)
        args["miles"] = sum(MILES[slot] for slot in lost)
        return Event("touring.event.attack_loss", args)

    def _begin_turn(self, events: list[Event]) -> None:
        """The player to act draws one card, reshuffling as the seed says when the pile is out."""
        seat = self.to_act
        if not self.draw:
            self._reshuffle(events)
        if not self.draw:
            events.append(Event("touring.event.no_draw", {"player": seat_ref(seat)}))
            return
        card = self.draw.pop()
        self.hands[seat].append(card)
        events.append(
            Event(
                "touring.event.drew", {"player": seat_ref(seat)}, {"card": CARD_REF[card]}, frozenset((seat,))
            )
        )

    def _reshuffle(self, events: list[Event]) -> None:
        pool = self.discard
        for piles in (self.go, self.speed):
            for i, pile in enumerate(piles):
                if len(pile) > 1:
                    pool.extend(pile[:-1])
                    piles[i] = pile[-1:]
        self.discard = []
        self.rng.shuffle(pool)
        self.draw = pool
        events.append(Event("touring.event.reshuffle", {"cards": len(pool)}))

    def explain(self, text: str) -> IllegalAction:
        from tabletrek.games.touring.explain import explain

        return explain(self, text)

    # ----- views ------------------------------------------------------------------------------------

    def _table(self, team: int) -> dict[str, Any]:
        game = self.game
        miles = self.miles[team]
        return {
            "team": team,
            "label": game.target_label(team),
            "seats": list(game.members[team]),
            "go": [SLUGS[c] for c in self.go[team]],
            "speed": [SLUGS[c] for c in self.speed[team]],
            "miles": {SLUGS[c]: miles[c - 1] for c in (1, 2, 3, 4)},
            "total": self.team_miles(team),
            "moving": self.go_top(team) == GO,
            "limited": self.is_limited(team),
        }

    def public_view(self) -> dict[str, Any]:
        game = self.game
        result = self.result
        return {
            "game": game.name,
            "players": game.players,
            "teams": [list(m) for m in game.members],
            "team_of": list(game.team_of),
            "seat": None,
            "team": None,
            "hand": None,
            "to_act": self.current_player,
            "turn": self.turns,
            "hand_counts": [len(h) for h in self.hands],
            "draw_pile": len(self.draw),
            "discard": [SLUGS[c] for c in self.discard],
            "tables": [self._table(t) for t in range(game.teams)],
            "required": {SLUGS[c]: game.required[c - 1] for c in (1, 2, 3, 4)},
            "goal": game.goal_miles,
            "options": dict(game.options),
            "over": self.ended,
            "result": result.to_dict() if result else None,
        }

    def view(self, seat: int) -> dict[str, Any]:
        if not 0 <= seat < self.game.players:
            raise ValueError(f"no seat {seat} in a {self.game.players}-player game")
        view = self.public_view()
        view["seat"] = seat
        view["team"] = self.game.team_of[seat]
        view["hand"] = [SLUGS[c] for c in sorted(self.hands[seat])]
        return view

    # ----- copies, search, serialization ------------------------------------------------------------

    def clone(self) -> TouringState:
        other = TouringState.__new__(TouringState)
        self._copy_base_into(other, copy_rng(self.rng))
        other.hands = [list(h) for h in self.hands]
        other.draw = list(self.draw)
        other.discard = list(self.discard)
        other.go = [list(p) for p in self.go]
        other.speed = [list(p) for p in self.speed]
        other.miles = [list(m) for m in self.miles]
        other.to_act = self.to_act
        other.turns = self.turns
        other.winner = self.winner
        other.ended = self.ended
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
            "ended": self.ended,
        }

    def _load(self, data: Mapping[str, Any]) -> None:
        def codes(names: list[str]) -> list[int]:
            return [CODE[n] for n in names]

        self.hands = [codes(h) for h in data["hands"]]
        self.draw = codes(data["draw"])
        self.discard = codes(data["discard"])
        self.go = [codes(p) for p in data["go"]]
        self.speed = [codes(p) for p in data["speed"]]
        self.miles = [[int(x) for x in m] for m in data["miles"]]
        self.to_act = int(data["to_act"])
        self.turns = int(data["turns"])
        self.winner = None if data["winner"] is None else int(data["winner"])
        self.ended = bool(data["ended"])
        if len(self.hands) != self.game.players or len(self.go) != self.game.teams:
            raise ValueError("piles do not match the number of players")

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

"""Double Crossing: the game (options, the action table, setup) — the turn machine is in flow.py.

Every move is an ``Action`` built once in ``_setup``; ``decode[index]`` gives its (kind, a, b).
"""

from __future__ import annotations

from typing import Any

from tabletrek.core.actions import Action
from tabletrek.core.events import Event, seat_ref
from tabletrek.core.game import BotFactory, Game
from tabletrek.core.options import OptionSpec
from tabletrek.core.rng import make_rng
from tabletrek.core.search import Evaluator, PairedPlayouts, SearchSupport
from tabletrek.core.terminal import TextUI
from tabletrek.games.double_crossing.content import (
    CAR_SLUGS,
    CARD_SLUGS,
    CARD_TYPES,
    Content,
    default_content,
)
from tabletrek.games.double_crossing.moves import (
    BUY_CAR,
    BUY_CARDS,
    BUY_N,
    CONNECT,
    DECLINE,
    DISCARD,
    DONE,
    DOUBLE_CROSS,
    DROP,
    END,
    ENGINEER,
    GO,
    MOVE,
    PASS,
    REACT,
    RETURN,
    ROLL,
    ROLL_WORDS,
    SELL_CAR,
    SELL_CONTRACT,
    TRADE,
    VILLAIN,
)
from tabletrek.games.double_crossing.state import DoubleCrossingState


class DoubleCrossing(Game):
    name = "double-crossing"
    package = "tabletrek.games.double_crossing"
    player_counts = (2, 3, 4, 5, 6)
    default_players = 4
    searchable = True
    option_specs = (
        OptionSpec("exact_return", False, "double_crossing.option.exact_return"),
        OptionSpec("max_rounds", 200, "double_crossing.option.max_rounds", kind=int, minimum=1),
        # The seed's Connections names no cars (docs/rules/double-crossing.md, "Changed in turn 2");
        # records made before then named this option, so they keep their value.
        OptionSpec("connections_needs_cars", False, "double_crossing.option.connections_needs_cars"),
        OptionSpec(
            "stops_per_turn", 1, "double_crossing.option.stops_per_turn", kind=int, minimum=1, maximum=5
        ),
        # Options for tabletrek's older readings; records that predate them were played that way.
        OptionSpec("crew_per_roll", False, "double_crossing.option.crew_per_roll", legacy=True),
        OptionSpec("forced_moves", False, "double_crossing.option.forced_moves", legacy=True),
        OptionSpec("tower_to_tower", True, "double_crossing.option.tower_to_tower", legacy=False),
    )

    content: Content

    def _setup(self) -> None:
        self.content = default_content()
        self.exact_return: bool = self.options["exact_return"]
        self.max_rounds: int = self.options["max_rounds"]
        self.connections_needs_cars: bool = self.options["connections_needs_cars"]
        self.stops_per_turn: int = self.options["stops_per_turn"]
        self.crew_per_roll: bool = self.options["crew_per_roll"]
        self.forced_moves: bool = self.options["forced_moves"]
        self.tower_to_tower: bool = self.options["tower_to_tower"]
        actions: list[Action] = []
        decode: list[tuple[int, int, int]] = []
        table: dict[tuple[int, int, int], Action] = {}

        def add(text: str, kind: int, a: int = 0, b: int = 0) -> None:
            action = Action(len(actions), text)
            actions.append(action)
            decode.append((kind, a, b))
            table[kind, a, b] = action

        c = self.content
        players = self.players
        add("pass", PASS)
        add("stop", REACT)
        for variant, word in enumerate(ROLL_WORDS):
            add(word, ROLL, variant)
        for seat in range(players):
            add(f"villain p{seat + 1}", VILLAIN, seat)
        add("buy cards", BUY_CARDS)
        for n in range(7):
            add(f"buy {n}", BUY_N, n)
        for card in range(CARD_TYPES):
            add(f"discard {CARD_SLUGS[card]}", DISCARD, card)
        for car, slug in enumerate(CAR_SLUGS):
            add(f"drop {slug}", DROP, car)
            add(f"sell {slug}", SELL_CAR, car)
            add(f"buy {slug}", BUY_CAR, car)
        for k in c.contracts:
            add(f"sell {k.slug}", SELL_CONTRACT, k.index)
            add(f"trade {k.slug}", TRADE, k.index)
            add(f"connect {k.slug}", CONNECT, k.index)
            add(f"double-cross {k.slug}", DOUBLE_CROSS, k.index)
            add(f"return {k.slug}", RETURN, k.index)
        add("done", DONE)
        add("decline", DECLINE)
        for space in range(c.size):
            add(f"go {space}", GO, space)
        for seat in range(players):
            for space in range(c.size):
                add(f"move p{seat + 1} {space}", MOVE, seat, space)
        add("engineer", ENGINEER)
        add("end", END)
        self.actions: tuple[Action, ...] = tuple(actions)
        self.decode: tuple[tuple[int, int, int], ...] = tuple(decode)
        self.table = table
        self.by_text = {a.text: a for a in actions}

    def act(self, kind: int, a: int = 0, b: int = 0) -> Action:
        return self.table[kind, a, b]

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def action(self, index: int) -> Action:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.actions):
            raise ValueError(f"double-crossing with {self.players} players has no action {index!r}")
        return self.actions[index]

    def _blank_state(self) -> DoubleCrossingState:
        return DoubleCrossingState.__new__(DoubleCrossingState)

    def _start(self, seed: int) -> DoubleCrossingState:
        c = self.content
        state = self._blank_state()
        rng = make_rng(seed)
        state._init_base(self, seed, rng)
        n = self.players
        state.pos = [-1] * n
        state.cash = [c.start_money] * n
        state.depot = c.depot_refill
        state.bank = c.bank_total - c.start_money * n - c.depot_refill
        state.yard = list(c.car_counts)
        state.cars = [[0] * len(CAR_SLUGS) for _ in range(n)]
        state.owner = [-1] * len(c.contracts)
        state.dropped = {}
        deck = [card for card in range(CARD_TYPES) for _ in range(c.crew[card])]
        rng.shuffle(deck)
        state.draw = deck
        state.discard = []
        state.hands = [[0] * CARD_TYPES for _ in range(n)]
        state.stack = []
        state.again = state.hard_end = state.engineer_ok = False
        state.used_villain = state.used_engineer = False
        state.stops_left = 0
        state.crew_used = 0
        state.winner = None
        state.ended = False
        state.rounds = 1
        state.turns = 0
        state.landed = {}
        state.played = [0] * CARD_TYPES
        setup: list[Event] = []
        for seat in range(n):
            for _ in range(c.start_cards):
                state._draw_card(seat, setup)
        for seat in range(n):
            faces: list[int] = []
            while len(faces) < c.start_cars and any(state.yard):
                face = rng.randint(1, 6)
                car = c.die_car[face - 1]
                if state.yard[car]:  # the seed: re-roll for a car whose yard is empty
                    state.yard[car] -= 1
                    state.cars[seat][car] += 1
                    faces.append(face)
            setup.append(
                Event(
                    "double_crossing.event.start_cars",
                    {"player": seat_ref(seat), "faces": " ".join(map(str, faces))},
                )
            )
        contenders = list(range(n))
        while len(contenders) > 1:
            rolls = {s: rng.randint(1, 6) + rng.randint(1, 6) for s in contenders}
            best = max(rolls.values())
            for s, r in rolls.items():
                setup.append(Event("double_crossing.event.first_roll", {"player": seat_ref(s), "total": r}))
            contenders = [s for s in contenders if rolls[s] == best]  # ties re-roll (our ruling)
        state.first = contenders[0]
        state.turn_seat = state.first
        setup.append(Event("double_crossing.event.first", {"player": seat_ref(state.first)}))
        state._begin_turn(setup)
        state._run(setup)
        return state

    def _bot_factories(self) -> dict[str, BotFactory]:
        from tabletrek.games.double_crossing.bots import TraderBot

        return {"trader": TraderBot}

    def search_defaults(self) -> dict[str, Any]:
        # The trader's move stands unless cut trader playouts beat it by 2.5 standard errors: 66% of
        # 160 two-player games against the trader at about 250 ms a move (docs/research.md).
        # Compiled trader playouts (playouts.py, ``compiled=true``) fit ~50 times as many in a
        # move, but are not yet shown to play at least as well at equal time, so Python's stay the
        # default (docs/notes/search-tuning.md, "Compiled playouts for Double Crossing").
        return {
            "paired": True,
            "rollout": "trader",
            "rollout_depth": 40,
            "iterations": 100,
            "z": 2.5,
            "compiled": False,
        }

    def evaluator(self) -> Evaluator:
        from tabletrek.games.double_crossing.evaluation import evaluate

        return evaluate

    def paired_playouts(self) -> PairedPlayouts | None:
        """The trader's playouts compiled (``playouts.py``), or None without numba (extra [search])."""
        try:
            from tabletrek.core.mt19937 import HAVE_NUMBA
            from tabletrek.games.double_crossing import playouts
        except ImportError:  # no numpy: the [search] extra is not installed
            return None
        return playouts.prepare if HAVE_NUMBA else None

    def prepare_search(self) -> None:
        if self.paired_playouts() is not None:
            from tabletrek.games.double_crossing.playouts import warm_up

            warm_up(self)

    def search(self) -> SearchSupport:
        return SearchSupport(
            defaults=self.search_defaults(),
            evaluate=self.evaluator(),
            paired=self.paired_playouts(),
            paired_rollout="trader",
            # The default search plays out in Python: nothing to compile before a table's first move.
            prepare=self.prepare_search if self.search_defaults().get("compiled", True) else None,
        )

    def terminal(self) -> TextUI:
        from tabletrek.games.double_crossing.text import DoubleCrossingTextUI

        return DoubleCrossingTextUI(self)

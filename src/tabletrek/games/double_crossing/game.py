"""Double Crossing: the game (options, the action table, bots, the terminal) — the transitions
are in rules.py, the state in state.py.

Every move is an ``Action`` built once in ``_setup``; ``decode[index]`` gives its (kind, a, b), and
``menu`` groups the actions as the steps offer them.
"""

from __future__ import annotations

from typing import Any

from tabletrek.core.actions import Action
from tabletrek.core.events import Event, text_ref
from tabletrek.core.game import BotFactory, Game
from tabletrek.core.numeric import is_whole
from tabletrek.core.options import OptionSpec
from tabletrek.core.rng import make_rng
from tabletrek.core.search import Evaluator, PairedPlayouts, SearchSupport, warm_up_paired
from tabletrek.core.terminal import TextUI
from tabletrek.games.double_crossing import rules
from tabletrek.games.double_crossing.bots import TraderBot
from tabletrek.games.double_crossing.content import (
    CAR_SLUGS,
    CARD_SLUGS,
    CARD_TYPES,
    Content,
    default_content,
)
from tabletrek.games.double_crossing.effects import SEAT_REF
from tabletrek.games.double_crossing.evaluation import evaluate
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
    Menu,
)
from tabletrek.games.double_crossing.state import DoubleCrossingState
from tabletrek.games.double_crossing.steps import Window
from tabletrek.games.double_crossing.text import DoubleCrossingTextUI


class DoubleCrossing(Game[DoubleCrossingState]):
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
        self.menu = Menu(self.act, players, c.size, [k.company for k in c.contracts])
        self.space_refs = tuple(text_ref(f"double_crossing.space.{sp.kind}") for sp in c.spaces)
        """The landing events' space names (shared: events are treated as immutable)."""
        self.land_events = tuple(
            tuple(
                Event("double_crossing.event.land", {"player": ref, "space": space, "name": name})
                for space, name in enumerate(self.space_refs)
            )
            for ref in SEAT_REF[:players]
        )
        """``land_events[seat][space]``: a token stopping on a space, made once (a third of the moves)."""
        self.others = tuple([(seat + i) % players for i in range(1, players)] for seat in range(players))
        """The other seats in turn order after each seat (the Stop window's queue); never changed."""
        self.windows = tuple(Window(others[0], others[1:], seat) for seat, others in enumerate(self.others))
        """``windows[seat]``: the Stop window before ``seat``'s turn, shared (a Window never changes)."""
        self.tower_space = next((i for i, sp in enumerate(c.spaces) if sp.kind == "control-tower"), -1)

    def act(self, kind: int, a: int = 0, b: int = 0) -> Action:
        return self.table[kind, a, b]

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def action(self, index: int) -> Action:
        if not is_whole(index) or not 0 <= index < len(self.actions):
            raise ValueError(f"double-crossing with {self.players} players has no action {index!r}")
        return self.actions[index]

    def _blank_state(self) -> DoubleCrossingState:
        return DoubleCrossingState.__new__(DoubleCrossingState)

    def _start(self, seed: int) -> DoubleCrossingState:
        state = self._blank_state()
        state._init_base(self, seed, make_rng(seed))
        rules.deal(state)
        return state

    def _bot_factories(self) -> dict[str, BotFactory[DoubleCrossingState]]:
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

    def evaluator(self) -> Evaluator[DoubleCrossingState]:
        return evaluate

    def paired_playouts(self) -> PairedPlayouts[DoubleCrossingState] | None:
        """The trader's playouts compiled (``playouts.py``), or None without numba (extra [search])."""
        try:
            from tabletrek.core.mt19937 import HAVE_NUMBA  # noqa: PLC0415 - extra [search] (numpy)
            from tabletrek.games.double_crossing import playouts  # noqa: PLC0415 - extra [search] (numba)
        except ImportError:  # no numpy: the [search] extra is not installed
            return None
        return playouts.prepare if HAVE_NUMBA else None

    def prepare_search(self) -> None:
        paired = self.paired_playouts()
        if paired is not None:
            warm_up_paired(self, paired, depth=4)

    def search(self) -> SearchSupport[DoubleCrossingState]:
        return SearchSupport(
            defaults=self.search_defaults(),
            evaluate=self.evaluator(),
            paired=self.paired_playouts(),
            paired_rollout="trader",
            # The default search plays out in Python: nothing to compile before a table's first move.
            prepare=self.prepare_search if self.search_defaults().get("compiled", True) else None,
        )

    def terminal(self) -> TextUI:
        return DoubleCrossingTextUI(self)

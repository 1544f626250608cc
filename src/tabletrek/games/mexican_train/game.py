"""Mexican Train: the game (options, the action table); the state is in state.py, its rules in rules.py.

Trains are numbered 0..players-1 (each seat's own train) and ``players`` (the Mexican train); in
action texts they are ``p1``…``p10`` and ``mx``. The action index of "play tile t on train r" is
``t * (players + 1) + r``; draw, pass and end follow the plays.
"""

from __future__ import annotations

from typing import Any

from tabletrek.core.actions import Action
from tabletrek.core.errors import UsageError
from tabletrek.core.events import Event, seat_ref
from tabletrek.core.game import BotFactory, Game
from tabletrek.core.numeric import is_whole
from tabletrek.core.options import OptionSpec
from tabletrek.core.rng import make_rng
from tabletrek.core.search import Evaluator, Horizon, PairedPlayouts, SearchSupport, warm_up_paired
from tabletrek.core.terminal import TextUI
from tabletrek.games.mexican_train import rules
from tabletrek.games.mexican_train.bots import GreedyBot, PlannerBot
from tabletrek.games.mexican_train.evaluation import evaluate, horizon
from tabletrek.games.mexican_train.state import MexicanTrainState
from tabletrek.games.mexican_train.text import MexicanTrainTextUI
from tabletrek.games.mexican_train.tiles import TileSet, tile_sets

MEXICAN = "mx"
SMALL_TABLE = 6  # below 6 players, double-9 (docs/rules/mexican-train.md, "Equipment and deal")


class MexicanTrain(Game[MexicanTrainState]):
    name = "mexican-train"
    package = "tabletrek.games.mexican_train"
    player_counts = (2, 3, 4, 5, 6, 7, 8, 9, 10)
    default_players = 4
    searchable = True
    option_specs = (
        # None: the set follows the player count (docs/rules/mexican-train.md); records made before turn 2
        # name 12, the old default, and keep it.
        OptionSpec(
            "set_size", None, "mexican_train.option.set_size", kind=int, choices=(12, 9), nullable=True
        ),
        OptionSpec("engine", None, "mexican_train.option.engine", kind=int, minimum=0, nullable=True),
        OptionSpec("rounds", None, "mexican_train.option.rounds", kind=int, minimum=1, nullable=True),
        OptionSpec("rotate_start", False, "mexican_train.option.rotate_start"),
        # The seed lets the tile after a double go elsewhere (docs/rules/mexican-train.md); records
        # made before turn 2 name False, the old default, and keep it.
        OptionSpec("relaxed_doubles", True, "mexican_train.option.relaxed_doubles"),
        OptionSpec("double_blank_points", 0, "mexican_train.option.double_blank_points", kind=int, minimum=0),
    )

    def _setup(self) -> None:
        sets = tile_sets()
        chosen = self.options["set_size"]
        size: int = (9 if self.players < SMALL_TABLE else 12) if chosen is None else chosen
        self.set_size: int = size
        if size not in sets:
            raise ValueError(f"mexican-train has no double-{size} set in its data")
        self.tileset: TileSet = sets[size]
        if self.players not in self.tileset.hand_sizes:
            raise UsageError(
                "mexican_train.error.set_players",
                size=size,
                allowed=sorted(self.tileset.hand_sizes),
                players=self.players,
            )
        self.hand_size: int = self.tileset.hand_sizes[self.players]
        engine = self.options["engine"]
        self.first_engine: int = size if engine is None else engine
        if self.first_engine > size:
            raise UsageError("mexican_train.error.engine_above_set", size=size, value=engine)
        rounds = self.options["rounds"]
        # The engine double descends one step a round; it cannot go below 0-0.
        self.num_rounds: int = self.first_engine + 1 if rounds is None else rounds
        if self.num_rounds > self.first_engine + 1:
            raise UsageError(
                "mexican_train.error.rounds_below_blank",
                most=self.first_engine + 1,
                engine=self.first_engine,
                value=rounds,
            )
        self.rotate_start: bool = self.options["rotate_start"]
        self.relaxed_doubles: bool = self.options["relaxed_doubles"]
        self.double_blank_points: int = self.options["double_blank_points"]
        # The most one round can score a seat: a hand of every tile, the double blank counting
        # its points instead of its zero pips (the compiled totals' width and the tensors' top).
        self.most_round_points: int = sum(self.tileset.pips) + self.double_blank_points
        self.mexican: int = self.players  # train number of the Mexican train
        # Shared, never mutated: events refer to seats with these markers.
        self.seat_refs: tuple[dict[str, int], ...] = tuple(seat_ref(s) for s in range(self.players + 1))
        self.slots: int = self.players + 1
        # Shared, never mutated, like every Event: the events that name only a seat, and the
        # audience of one seat's secrets, made once here rather than on every move.
        self.seat_events: dict[str, tuple[Event, ...]] = {
            key: tuple(Event(f"mexican_train.event.{key}", {"player": ref}) for ref in self.seat_refs)
            for key in ("pass", "first_pass", "marker_on", "marker_off", "run_ends_double", "end_run")
        }
        self.audiences: tuple[frozenset[int], ...] = tuple(frozenset((s,)) for s in range(self.players))
        ts = self.tileset
        # play_events[seat][train started][action index]: the event of that play, made on first use.
        plays = ts.size * self.slots
        self.play_events: tuple[tuple[list[Event | None], ...], ...] = tuple(
            ([None] * plays, [None] * plays) for _ in range(self.players)
        )
        self.train_names: tuple[str, ...] = (*(f"p{s + 1}" for s in range(self.players)), MEXICAN)
        # double_events[seat][tile]: a double played outside a first-turn run (the bonus play follows).
        self.double_events: tuple[dict[int, Event], ...] = tuple(
            {
                double: Event("mexican_train.event.double", {"player": ref, "tile": ts.texts[double]})
                for double in ts.double_of
            }
            for ref in self.seat_refs[: self.players]
        )
        self.play_actions: tuple[tuple[Action, ...], ...] = tuple(
            tuple(
                Action(t * self.slots + r, f"play {ts.texts[t]} {self.train_names[r]}")
                for r in range(self.slots)
            )
            for t in range(ts.size)
        )
        # train_plays[train][tile]: the play of ``tile`` on ``train`` (whichever end it joins).
        self.train_plays: tuple[tuple[Action, ...], ...] = tuple(
            tuple(self.play_actions[t][r] for t in range(ts.size)) for r in range(self.slots)
        )
        # The trains in the order the legal moves list them: one's own, the Mexican, the others by seat.
        self.train_order: tuple[tuple[int, ...], ...] = tuple(
            (s, self.mexican, *(r for r in range(self.players) if r != s)) for s in range(self.players)
        )
        base = ts.size * self.slots
        # tile_train[index]: the (tile, train) of a play's action index (a lookup, not a divmod).
        self.tile_train: tuple[tuple[int, int], ...] = tuple(divmod(i, self.slots) for i in range(base))
        self.draw_index = base  # every index below it is a tile play
        self.draw_action = Action(base, "draw")
        self.pass_action = Action(base + 1, "pass")
        self.end_action = Action(base + 2, "end")
        self._actions: list[Action] = [a for row in self.play_actions for a in row]
        self._actions += [self.draw_action, self.pass_action, self.end_action]
        self._by_text: dict[str, Action] = {a.text: a for a in self._actions}

    @property
    def num_actions(self) -> int:
        return len(self._actions)

    def action(self, index: int) -> Action:
        if not is_whole(index) or not 0 <= index < len(self._actions):
            raise ValueError(f"mexican-train with {self.players} players has no action {index!r}")
        return self._actions[index]

    def action_by_text(self, text: str) -> Action | None:
        return self._by_text.get(text)

    def engine_for_round(self, round_index: int) -> int:
        """The pip value of the engine double in round ``round_index`` (0-based)."""
        return self.first_engine - round_index

    def _blank_state(self) -> MexicanTrainState:
        return MexicanTrainState.__new__(MexicanTrainState)

    def _start(self, seed: int) -> MexicanTrainState:
        state = self._blank_state()
        state._init_base(self, seed, make_rng(seed))
        state.totals = [0] * self.players
        state.round_scores = []
        state.is_over = False
        rules.start_round(state, 0, [])
        return state

    def search_defaults(self) -> dict[str, Any]:
        # The planner's move stands unless cheap greedy playouts clearly beat it: 66% of two-player
        # rounds against the planner at about 140 ms a move (docs/research.md). Compiled
        # (playouts.py), 8,000 playouts take less time than 400 in Python and win at least as
        # often (docs/notes/search-tuning.md, "Compiled playouts for Mexican Train").
        return {
            "paired": True,
            "default": "planner",
            "rollout": "greedy",
            "iterations": 400 if self.paired_playouts() is None else 8000,
            "z": 1.5,
            "margin": True,
        }

    def search_horizon(self) -> Horizon[MexicanTrainState]:
        return horizon

    def evaluator(self) -> Evaluator[MexicanTrainState]:
        return evaluate

    def paired_playouts(self) -> PairedPlayouts[MexicanTrainState] | None:
        """Greedy's playouts compiled (``playouts.py``), or None without numba (extra [search])."""
        try:
            from tabletrek.core.mt19937 import HAVE_NUMBA  # noqa: PLC0415 - extra [search] (numpy)
            from tabletrek.games.mexican_train import playouts  # noqa: PLC0415 - extra [search] (numba)
        except ImportError:  # no numpy: the [search] extra is not installed
            return None
        return playouts.prepare if HAVE_NUMBA else None

    def prepare_search(self) -> None:
        paired = self.paired_playouts()
        if paired is not None:
            warm_up_paired(self, paired)

    def search(self) -> SearchSupport[MexicanTrainState]:
        return SearchSupport(
            defaults=self.search_defaults(),
            evaluate=self.evaluator(),
            horizon=self.search_horizon(),
            paired=self.paired_playouts(),
            paired_rollout="greedy",
            paired_margin=True,
            prepare=self.prepare_search,
        )

    def _bot_factories(self) -> dict[str, BotFactory[MexicanTrainState]]:
        return {"greedy": GreedyBot, "planner": PlannerBot}

    def terminal(self) -> TextUI:
        return MexicanTrainTextUI(self)

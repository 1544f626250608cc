"""The Game base class: rules plus options, immutable once loaded."""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from tabletrek.core.options import NO_LEGACY, OptionSpec, resolve_options
from tabletrek.core.rng import new_seed

if TYPE_CHECKING:
    from tabletrek.core.actions import Action
    from tabletrek.core.bots import Bot
    from tabletrek.core.state import State
    from tabletrek.core.terminal import TextUI

BotFactory = Callable[..., "Bot"]
RolloutPolicy = Callable[["State", random.Random], "Action"]
"""A fast playout policy for search: (a full state, an RNG) -> a legal action for the seat to act."""
Evaluator = Callable[["State", int], float]
"""A position's value for a seat in [-1, 1] (-1 a sure loss, 1 a sure win), for cut playouts."""
Horizon = Callable[["State"], int]
"""A mark of where a playout is (e.g. the round number): playouts stop when it changes."""
PlayoutRunner = Callable[[Sequence[int], Sequence[int]], Any]
"""(moves, world seeds) -> a moves x worlds array of the seat's rewards (1 win, 0 loss)."""
PairedPlayouts = Callable[["State", int, "Belief | None", "int | None"], PlayoutRunner]
"""Compiled paired playouts: (the real state, the searching seat, the seat's belief or None, a
depth or None) -> a runner for that position, which a search calls for batch after batch of
worlds (and from several threads at once) while the position is prepared only once. Each world
is a determinization for that seat dealt from its seed (following the belief, when given), each
move is played there and the fast policy plays on, to the end or for ``depth`` moves, after
which the game's evaluation scores the position; the same random numbers serve every move in
one world."""


class Belief(Protocol):
    """What a seat has learned about hidden cards from the other players' moves."""

    def observe(self, position: State, action: Action) -> None:
        """Another player made ``action`` in ``position`` (a real state: only what the seat may
        see of it may be read)."""


def logistic_value(weights: Sequence[float], features: Sequence[float]) -> float:
    """A fitted logistic model's win chance mapped to [-1, 1], the scale of an ``Evaluator``.

    The sum is clamped so a position far outside the fitted range gives ±1, not an overflow."""
    x = sum(w * f for w, f in zip(weights, features, strict=True))
    x = max(-30.0, min(30.0, x))
    return 2.0 / (1.0 + math.exp(-x)) - 1.0


class Game(ABC):
    """A game with a fixed number of players and fixed options.

    Subclasses set the class attributes and implement ``_setup``, ``num_actions``, ``action``,
    ``_start`` and ``_blank_state``. ``name`` is the registry name ("touring"); ``package`` is the
    Python package that holds the game's data, catalogs and rules text.
    """

    name: ClassVar[str]
    package: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    default_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    cooperative: ClassVar[bool] = False
    """True when all seats win or lose together (a game with no winners is then a loss, not a draw)."""
    searchable: ClassVar[bool] = False
    """True where hidden information and real choices make the generic search bot ("ismcts") worth
    offering."""

    def __init__(self, players: int | None = None, **options: Any) -> None:
        count = self.default_players if players is None else players
        if isinstance(count, bool) or not isinstance(count, int) or count not in self.player_counts:
            allowed = ", ".join(map(str, self.player_counts))
            raise ValueError(f"{self.name} is played by {allowed} players, not {players!r}")
        self.players: int = count
        self.options: Mapping[str, Any] = MappingProxyType(
            resolve_options(self.name, self.option_specs, options)
        )
        self._setup()

    @classmethod
    def recorded(cls, players: int | None, options: Mapping[str, Any]) -> Game:
        """The game a stored record or state was played under.

        Records and states name every option their game had. One that does not name an option
        was made before that option existed, under the old rule: it gets the option's ``legacy``
        value, so games recorded before a rule changed still replay exactly."""
        old = {
            spec.name: spec.legacy
            for spec in cls.option_specs
            if spec.name not in options and spec.legacy is not NO_LEGACY
        }
        return cls(players, **old, **options)

    def _setup(self) -> None:  # noqa: B027 - optional hook, most games override it
        """Precompute tables that depend on players and options."""

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """Size of the action space: every action's index lies in [0, num_actions)."""

    @abstractmethod
    def action(self, index: int) -> Action:
        """The action with this index (ValueError if there is none)."""

    @abstractmethod
    def _start(self, seed: int) -> State: ...

    @abstractmethod
    def _blank_state(self) -> State:
        """An uninitialised state for ``State.from_json`` to fill."""

    def new_game(self, seed: int | None = None) -> State:
        """A new game. The same seed gives the same game; no seed picks a random one."""
        if seed is None:
            seed = new_seed()
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        return self._start(seed)

    # ----- bots ---------------------------------------------------------------------------------

    def _bot_factories(self) -> dict[str, BotFactory]:
        """Game-specific bots: name -> factory(game, seat=, seed=, **params)."""
        return {}

    def bots(self) -> list[str]:
        generic = ["random", "ismcts"] if self.searchable else ["random"]
        return [*generic, *self._bot_factories()]

    def heuristic_bots(self) -> list[str]:
        """The bots that are cheap to run: all but the generic search bot."""
        return [name for name in self.bots() if name != "ismcts"]

    @property
    def default_bot(self) -> str:
        """The bot a seat gets when none is named: the last listed, the game's strongest heuristic."""
        return self.bots()[-1]

    def bot(self, name: str, *, seat: int, seed: int | None = None, **params: Any) -> Bot:
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat must be in 0..{self.players - 1}, not {seat!r}")
        seed = new_seed() if seed is None else seed
        if name == "random":
            from tabletrek.bots.random_bot import RandomBot

            return RandomBot(self, seat=seat, seed=seed, **params)
        if name == "ismcts" and self.searchable:
            from tabletrek.bots.ismcts import ISMCTSBot

            defaults = self.search_defaults()
            if "iterations" in params or "ms" in params:
                # A table that names a budget means that budget, not the game's default as well.
                defaults = {k: v for k, v in defaults.items() if k not in ("iterations", "ms")}
            return ISMCTSBot(self, seat=seat, seed=seed, **{**defaults, **params})
        factories = self._bot_factories()
        if name not in factories:
            raise ValueError(f"{self.name} has no bot {name!r}; it offers: {', '.join(self.bots())}")
        return factories[name](self, seat=seat, seed=seed, **params)

    def search_defaults(self) -> dict[str, Any]:
        """The search bot's parameters in this game when none are named: the setting measured to
        play best against the game's heuristic (``benchmarks/ismcts.py``). Each named parameter
        replaces its default; naming a budget (``iterations`` or ``ms``) replaces both."""
        return {}

    def rollout_policy(self) -> RolloutPolicy | None:
        """An optional fast playout policy for the search bot (None: it plays random moves or a
        named bot). It is called inside determinizations, so it may read the whole state, but it
        should decide only from what the seat to act could know."""
        return None

    def search_horizon(self) -> Horizon | None:
        """An optional point where playouts stop and the evaluator scores them: a function of the
        state whose value changes there (Mexican Train: the round number, so a playout ends with
        the round it started in). None: playouts run to the end or to ``rollout_depth``."""
        return None

    def paired_playouts(self) -> PairedPlayouts | None:
        """Optional compiled playouts for the search's paired comparison: the same sampled worlds
        and the same fast policy (``rollout_policy``) as its Python playouts, many times faster.
        None when the game has none or its accelerator is not installed."""
        return None

    def search_belief(self, seat: int, seed: int) -> Belief | None:
        """An optional belief for ``paired_playouts`` to deal its worlds from, fed the other
        players' moves by the search bot (``infer=True``). None: worlds are dealt uniformly."""
        return None

    def prepare_search(self) -> None:
        """Compile or load whatever ``paired_playouts`` runs on, so that a table's first search
        move does not wait for it (a server calls this in the background when it starts)."""
        return None

    def evaluator(self) -> Evaluator | None:
        """An optional evaluation of unfinished positions for the search bot's cut playouts
        (``rollout_depth``); None: a cut playout counts as a draw. Called inside determinizations."""
        return None

    # ----- presentation -------------------------------------------------------------------------

    def terminal(self) -> TextUI:
        """How the terminal shows this game (a generic JSON view unless the game has its own)."""
        from tabletrek.core.terminal import GenericTextUI

        return GenericTextUI()

    def rules_markdown(self, lang: str) -> str:
        from tabletrek.i18n import normalize_lang

        folder = resources.files(self.package) / "rules"
        for candidate in (normalize_lang(lang), "en"):
            page = folder / f"{candidate}.md"
            if page.is_file():
                return page.read_text(encoding="utf-8")
        raise FileNotFoundError(f"{self.name} ships no rules page")

    def title(self, lang: str) -> str:
        from tabletrek.i18n import translate

        return translate(f"{self.package.rsplit('.', 1)[-1]}.title", lang)

    @classmethod
    def options_for_lang(cls, lang: str) -> dict[str, Any]:
        """Option defaults that follow the player's language (e.g. a word pack); given options win."""
        return {}

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"<Game {self.name} players={self.players} {opts}>"

"""The Game base class: rules plus options, immutable once loaded."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from importlib import resources
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self

from tabletrek.core.bots import GENERIC_BOTS
from tabletrek.core.errors import UsageError
from tabletrek.core.generics import S
from tabletrek.core.numeric import is_integral, is_whole
from tabletrek.core.options import NO_LEGACY, OptionSpec, check_option_names, resolve_options
from tabletrek.core.rng import new_seed
from tabletrek.core.search import NO_SEARCH, SearchSupport
from tabletrek.core.spec import registered
from tabletrek.core.terminal import GenericTextUI
from tabletrek.i18n import normalize_lang, translate

if TYPE_CHECKING:
    from tabletrek.core.actions import Action
    from tabletrek.core.bots import Bot
    from tabletrek.core.terminal import TextUI

BotFactory = Callable[..., "Bot[S]"]
"""factory(game, seat=, seed=, **params) -> a bot for states ``S`` (plain ``BotFactory``: any)."""


class Game(ABC, Generic[S]):
    """A game with a fixed number of players and fixed options, whose states are ``S``.

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
        if not is_whole(count) or count not in self.player_counts:
            allowed = sorted(self.player_counts)
            raise UsageError("core.error.player_count", game=self.name, allowed=allowed, players=players)
        self.players: int = count
        self.options: Mapping[str, Any] = MappingProxyType(
            resolve_options(self.name, self.option_specs, options)
        )
        self._setup()

    @property
    def domain(self) -> str:
        """Where the game's own words are: its i18n catalog domain ("mexican_train")."""
        return self.package.rsplit(".", 1)[-1]

    @classmethod
    def recorded(cls, players: int | None, options: Mapping[str, Any]) -> Self:
        """The game a stored record or state was played under.

        Records and states name every option their game had. One that does not name an option
        was made before that option existed, under the old rule: it gets the option's ``legacy``
        value, so games recorded before a rule changed still replay exactly."""
        old = {
            spec.name: spec.legacy
            for spec in cls.option_specs
            if spec.name not in options and spec.legacy is not NO_LEGACY
        }
        return cls.with_options(players, {**old, **options})

    @classmethod
    def with_options(cls, players: int | None, options: Mapping[str, Any]) -> Self:
        """The game with options someone gave as a mapping (a command line, a record, a game
        string). Any name that is not an option of the game is refused by name, ``players``
        included: spread into ``cls(players, **options)`` it would clash with the call's own
        arguments and fail in Python's words."""
        check_option_names(cls.name, cls.option_specs, options)
        return cls(players, **options)

    @property
    def rules_version(self) -> int | None:
        """The rules version its spec declares (None for a game class no spec registers)."""
        spec = registered().get(self.name)
        return None if spec is None or spec.game_class() is not type(self) else spec.rules_version

    def data_digests(self) -> dict[str, str]:
        """Digests of the data the game read from outside the package, by the option that named
        it (a Codenames word pack from a file). A record keeps them, so that a replay where that
        data has changed is refused with the reason instead of failing at some move; the data
        shipped in the package is covered by ``rules_version``."""
        return {}

    def _setup(self) -> None:  # optional hook (not abstract): most games override it
        """Precompute tables that depend on players and options."""

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """Size of the action space: every action's index lies in [0, num_actions)."""

    @abstractmethod
    def action(self, index: int) -> Action:
        """The action with this index (ValueError if there is none)."""

    @abstractmethod
    def _start(self, seed: int) -> S: ...

    @abstractmethod
    def _blank_state(self) -> S:
        """An uninitialised state for ``State.from_json`` to fill."""

    def new_game(self, seed: int | None = None) -> S:
        """A new game. The same seed gives the same game; no seed picks a random one."""
        if seed is None:
            seed = new_seed()
        if not is_whole(seed):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        return self._start(seed)

    # ----- bots ---------------------------------------------------------------------------------

    def _bot_factories(self) -> dict[str, BotFactory[S]]:
        """Game-specific bots: name -> factory(game, seat=, seed=, **params)."""
        return {}

    def bots(self) -> list[str]:
        generic = [name for name, (_, search) in GENERIC_BOTS.items() if self.searchable or not search]
        return [*generic, *self._bot_factories()]

    def heuristic_bots(self) -> list[str]:
        """The bots that are cheap to run: all but the generic search bot."""
        return [name for name in self.bots() if name != "ismcts"]

    @property
    def default_bot(self) -> str:
        """The bot a seat gets when none is named: the last listed, the game's strongest heuristic."""
        return self.bots()[-1]

    def bot(self, name: str, *, seat: int, seed: int | None = None, **params: Any) -> Bot[S]:
        if not is_whole(seat) or not 0 <= seat < self.players:
            raise ValueError(f"seat must be in 0..{self.players - 1}, not {seat!r}")
        if seed is None:
            seed = new_seed()
        elif not is_integral(seed):  # random.Random took True, 1.5 and "x" as seeds
            raise ValueError(f"seed must be an integer, not {seed!r}")
        seed = int(seed)
        generic = GENERIC_BOTS.get(name)
        if generic is not None and (self.searchable or not generic[1]):
            return generic[0](self, seat=seat, seed=seed, **params)
        factories = self._bot_factories()
        if name not in factories:
            raise UsageError("core.error.unknown_bot", game=self.name, name=name, known=self.bots())
        return factories[name](self, seat=seat, seed=seed, **params)

    def search(self) -> SearchSupport[S]:
        """What the generic search bot may use in this game (``core.search``); nothing by default."""
        return NO_SEARCH

    # ----- presentation -------------------------------------------------------------------------

    def terminal(self) -> TextUI:
        """How the terminal shows this game (a generic JSON view unless the game has its own)."""
        return GenericTextUI()

    def rules_markdown(self, lang: str) -> str:
        folder = resources.files(self.package) / "rules"
        for candidate in (normalize_lang(lang), "en"):
            page = folder / f"{candidate}.md"
            if page.is_file():
                return page.read_text(encoding="utf-8")
        raise FileNotFoundError(f"{self.name} ships no rules page")

    def title(self, lang: str) -> str:
        return translate(f"{self.package.rsplit('.', 1)[-1]}.title", lang)

    @classmethod
    def options_for_lang(cls, lang: str) -> dict[str, Any]:
        """Option defaults that follow the player's language (e.g. a word pack); given options win."""
        return {}

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"<Game {self.name} players={self.players} {opts}>"

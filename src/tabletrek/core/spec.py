"""A game's declaration: what it is and what it offers, registered by the game itself.

Every service (CLI, web, sim, RL, OpenSpiel, benchmarks, tests) learns which games exist and what
each can do from these specs alone, never by naming a game (the pattern of OpenSpiel's
``GameType`` + ``register_game``). A spec names its parts by ``"module:attribute"`` strings so that
declaring a game costs one small import; the parts load when a service first asks for them.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabletrek.core.game import Game


WEB_FILE = re.compile(r"web/[a-z0-9][a-z0-9_-]{0,40}\.(?:js|css)")
"""A game's browser file: directly in its ``web/`` folder, a plain name (nothing a URL could bend)."""


class Information(Enum):
    PERFECT = "perfect"
    IMPERFECT = "imperfect"


class Chance(Enum):
    DETERMINISTIC = "deterministic"
    """No chance after the seeded deal either (the deal itself is chance for OpenSpiel)."""
    EXPLICIT = "explicit"
    """Random draws during play, each exposed as a chance node (OpenSpiel ``EXPLICIT_STOCHASTIC``)."""


@dataclass(frozen=True, slots=True)
class CliCommand:
    """A game's own command group: ``tabletrek <name> ...`` (a typer app at ``app``)."""

    name: str
    app: str
    help: str
    """An i18n key."""


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game. ``name`` is the registry name ("touring"); ``package`` holds its data, catalogs,
    rules pages and observation module; ``game`` is its :class:`Game` subclass as "module:Class".

    ``rules_version`` grows by one whenever a rule change makes an old record replay differently;
    ``replays`` lists the older versions this code still replays exactly (through the options'
    ``legacy`` values), so a record from any other version is refused by name, never half-replayed.
    """

    name: str
    package: str
    game: str
    rules_version: int
    information: Information
    chance: Chance
    cooperative: bool = False
    finite_actions: bool = True
    replays: tuple[int, ...] = ()
    probe: str | None = None
    """An analysis probe class ("module:Class", a ``core.analysis.Probe``); None: the generic one."""
    web_module: str | None = None
    """The game's own browser page module, a file in its package's ``web/`` folder ("web/page.js");
    None: the generic page."""
    web_style: str | None = None
    """The stylesheet of that page module, also in ``web/`` ("web/style.css"); None: none."""
    cli: tuple[CliCommand, ...] = ()
    batch: str | None = None
    """The compiled batch engine module (``rl.vector``), None when the game has none."""
    random_games: str | None = None
    """Compiled all-random games for ``simulate`` ("module:play"), None when the game has none."""
    scenarios: str | None = None
    """Rules scenarios as data, a TOML file in the package ("rules/scenarios.toml"), which the
    test suite plays for every game that names one."""
    openspiel_refusal: str | None = None
    """Why the game is not offered to OpenSpiel (None: it is)."""

    def __post_init__(self) -> None:
        for path, suffix in ((self.web_module, ".js"), (self.web_style, ".css")):
            if path is not None and not (WEB_FILE.fullmatch(path) and path.endswith(suffix)):
                raise ValueError(f"{self.name}: a web file is web/<name>{suffix}, not {path!r}")
        if self.web_style is not None and self.web_module is None:
            raise ValueError(f"{self.name}: a stylesheet without a page module would never load")

    def web_files(self) -> dict[str, str]:
        """The browser files the game ships, by the name the web serves them under ("page.js")
        -> their path in the package ("web/page.js"): the only files of a game the web serves."""
        return {path.removeprefix("web/"): path for path in (self.web_module, self.web_style) if path}

    @property
    def domain(self) -> str:
        """The game's i18n catalog domain: its package's last part ("mexican_train")."""
        return self.package.rsplit(".", 1)[-1]

    @property
    def rl_name(self) -> str:
        """The versioned environment name (PettingZoo style): "mexican_train_v1"."""
        return f"{self.domain}_v{self.rules_version}"

    def game_class(self) -> type[Game]:
        cls: type[Game] = load_attribute(self.game)
        return cls

    def accepts_version(self, version: int | None) -> bool:
        """Whether a record made under ``version`` (None: before versions were recorded, which
        the options' legacy values cover) replays exactly under this code."""
        return version is None or version == self.rules_version or version in self.replays


def load_attribute(path: str) -> Any:
    """``"package.module:attribute"`` -> the attribute (the module imported on first use)."""
    module_name, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


_SPECS: dict[str, GameSpec] = {}


def register_game(spec: GameSpec) -> GameSpec:
    """Make a game known. Registering the same name twice with a different spec is an error."""
    known = _SPECS.get(spec.name)
    if known is not None and known != spec:
        raise ValueError(f"game {spec.name!r} is already registered with a different spec")
    _SPECS[spec.name] = spec
    return spec


def registered() -> dict[str, GameSpec]:
    """The specs registered so far, by name (``core.registry`` discovers the built-in games)."""
    return dict(_SPECS)

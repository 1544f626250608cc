"""The State base class: the whole truth of one game in progress."""

from __future__ import annotations

import io
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import Console

from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.events import Event
from tabletrek.core.html import render_state_html
from tabletrek.core.numeric import is_whole
from tabletrek.core.records import GameRecord
from tabletrek.core.registry import load_recorded
from tabletrek.core.rng import rng_from_json, rng_to_json
from tabletrek.core.svg import render_svg
from tabletrek.i18n import seat_name

if TYPE_CHECKING:
    from tabletrek.core.game import Game
    from tabletrek.core.records import GameRecord
    from tabletrek.core.svg import SVG

STATE_FORMAT = 1


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended. ``reason`` is an i18n key ("touring.end.complete", "core.end.max_turns")."""

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    returns: tuple[float, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "returns": list(self.returns),
            "reason": self.reason,
        }


def normalize_text(text: str) -> str:
    return " ".join(text.lower().split())


class State(ABC):
    """A game in progress, deterministic given its seed and the actions applied.

    Subclasses implement the rules in ``_legal_actions`` and ``_apply``; this class owns the
    contract around them: text parsing, legality checks that leave the state untouched, the
    action history, and JSON round trips.
    """

    game: Game
    seed: int
    rng: random.Random
    _history: list[str]
    _legal: tuple[Action, ...] | None

    FORMAT: ClassVar[int] = STATE_FORMAT

    def _init_base(self, game: Game, seed: int, rng: random.Random) -> None:
        self.game = game
        self.seed = seed
        self.rng = rng
        self._history = []
        self._legal = None

    def _copy_base_into(self, other: State, rng: random.Random) -> None:
        other.game = self.game
        other.seed = self.seed
        other.rng = rng
        other._history = list(self._history)
        other._legal = None

    # ----- what a game implements -------------------------------------------------------------

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to act, or None once the game is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abstractmethod
    def result(self) -> Result | None:
        """None while the game goes on."""

    @abstractmethod
    def _legal_actions(self) -> list[Action]: ...

    @abstractmethod
    def _apply(self, action: Action) -> list[Event]:
        """Carry out an action already known to be legal. Must not raise."""

    @abstractmethod
    def view(self, seat: int) -> dict[str, Any]:
        """JSON-safe: everything ``seat`` may know, and nothing more."""

    @abstractmethod
    def public_view(self) -> dict[str, Any]:
        """JSON-safe: what a spectator may know."""

    @abstractmethod
    def determinize(self, seat: int, rng: random.Random) -> State:
        """A full state consistent with ``view(seat)``, hidden parts sampled from ``rng``."""

    @abstractmethod
    def clone(self) -> State: ...

    @abstractmethod
    def _dump(self) -> dict[str, Any]:
        """The game-specific part of ``to_json``."""

    @abstractmethod
    def _load(self, data: Mapping[str, Any]) -> None:
        """Fill a fresh instance from ``_dump`` output (raise KeyError/ValueError when malformed)."""

    def explain(self, text: str) -> IllegalAction:
        """Why the action ``text`` is not legal now. Games override this to name the rule."""
        return IllegalAction("core.illegal.not_legal", action=text)

    # ----- the contract -------------------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal moves in a fixed order (the order seeded games and action masks rely on).

        An immutable snapshot: the state checks ``apply`` against this same tuple, so a caller
        cannot change what is legal by editing what it was given (and no copy is made per call).
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = () if self.is_over else tuple(self._legal_actions())
        return legal

    def apply(self, action: Action | str) -> list[Event]:
        """Apply an action (or its text). An illegal one raises IllegalAction and changes nothing."""
        if self.is_over:
            raise IllegalAction("core.illegal.game_over")
        legal = self._legal or self.legal_actions()  # () only once the game is over, refused above
        # Identity first: an action is nearly always an element of the list just offered, and
        # ``action in legal`` would call the dataclass ``__eq__`` (a Python call) on every element
        # before it. Text, and equal-but-new Action objects, take the full check.
        for offered in legal:
            if offered is action:
                break
        else:
            action = self._checked(action, legal)
        self._legal = None
        self._history.append(action.text)
        return self._apply(action)

    def _checked(self, action: object, legal: tuple[Action, ...]) -> Action:
        """``action`` as a legal Action (text is parsed), or the IllegalAction saying why not."""
        if isinstance(action, str):
            return self.parse(action)
        if not isinstance(action, Action):
            raise IllegalAction("core.illegal.not_text", value=repr(action))
        if action not in legal:
            raise self.explain(action.text)
        return action

    def parse(self, text: str) -> Action:
        """The legal action whose text is ``text`` (case and spacing ignored)."""
        if not isinstance(text, str):
            raise IllegalAction("core.illegal.not_text", value=repr(text))
        wanted = normalize_text(text)
        for action in self.legal_actions():
            if action.text == wanted:
                return action
        if not wanted:
            raise IllegalAction("core.illegal.empty")
        raise self.explain(wanted)

    @property
    def history(self) -> tuple[str, ...]:
        return tuple(self._history)

    @property
    def players(self) -> int:
        return self.game.players

    def record(self) -> GameRecord:
        return GameRecord(
            game=self.game.name,
            players=self.game.players,
            options=dict(self.game.options),
            seed=self.seed,
            actions=tuple(self._history),
            rules=self.game.rules_version,
            digests=self.game.data_digests(),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.FORMAT,
            "game": self.game.name,
            "rules": self.game.rules_version,
            "players": self.game.players,
            "options": dict(self.game.options),
            "seed": self.seed,
            "history": list(self._history),
            "rng": rng_to_json(self.rng),
            "state": self._dump(),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @staticmethod
    def from_json(data: str | Mapping[str, Any]) -> State:
        """Rebuild a state from ``to_json`` output (text or the parsed dict)."""
        if isinstance(data, str):
            try:
                parsed = json.loads(data)
            except json.JSONDecodeError as exc:
                raise ValueError(f"state JSON is not valid JSON: {exc}") from None
        else:
            parsed = data
        if not isinstance(parsed, Mapping):
            raise ValueError("state JSON must be an object")
        for key in ("game", "players", "options", "seed", "history", "rng", "state"):
            if key not in parsed:
                raise ValueError(f"state JSON lacks the key {key!r}")
        if parsed.get("format") != STATE_FORMAT:
            raise ValueError(f"state JSON has format {parsed.get('format')!r}; expected {STATE_FORMAT}")
        rules = parsed.get("rules")
        if rules is not None and not is_whole(rules):
            raise ValueError(f"state JSON has rules version {rules!r}; expected a number")
        game = load_recorded(str(parsed["game"]), int(parsed["players"]), dict(parsed["options"]), rules)
        state: State = game._blank_state()
        state._init_base(game, int(parsed["seed"]), rng_from_json(parsed["rng"]))
        state._history = [str(text) for text in parsed["history"]]
        try:
            state._load(parsed["state"])
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            raise ValueError(f"state JSON for {game.name} is malformed: {exc!r}") from None
        return state

    def render(self, seat: int | None = None, lang: str = "en") -> SVG:
        """The table drawn as SVG as ``seat`` sees it (None: a spectator). Notebooks show the
        result as a drawing; scripts can write it to a ``.svg`` file."""
        return render_svg(self, seat, lang)

    def render_text(self, seat: int | None = None, lang: str = "en", width: int = 100) -> str:
        """The table as plain text, as the terminal game shows it to ``seat`` (None: a spectator)."""
        view = self.public_view() if seat is None else self.view(seat)
        console = Console(
            width=width, record=True, color_system=None, file=io.StringIO(), markup=False, emoji=False
        )
        names = [seat_name(s, lang) for s in range(self.game.players)]
        console.print(self.game.terminal().render(view, lang, names))
        return console.export_text()

    def _repr_svg_(self) -> str:
        """How Jupyter draws a state: the spectator's view as SVG."""
        return str(self.render())

    def _repr_html_(self) -> str:
        """How Jupyter shows a state: the game's own HTML renderer, else a generic one."""
        return render_state_html(self)

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.game.name} players={self.game.players} "
            f"actions={len(self._history)} to_act={self.current_player}>"
        )

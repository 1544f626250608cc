"""How a game shows itself in a terminal: a protocol the CLI calls, with a generic fallback."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

from rich.console import RenderableType
from rich.syntax import Syntax

from tabletrek.core.actions import Action


class MenuOffer(NamedTuple):
    """What a game's terminal offers a person in place of its legal list, where that list is no
    help to choose from (a clue may be any word, so the rules list only a sample): a line saying
    what is offered, then the moves with their sentences. Numbers typed at the prompt pick from
    these; any legal move may still be typed. A UI offers one through an optional
    ``offer(state, seat, lang)`` method, returning None where the legal list serves."""

    heading: str
    moves: tuple[Action, ...]
    texts: tuple[str, ...]


class TextUI(Protocol):
    def render(self, view: dict[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
        """The table as ``view``'s seat sees it (or a spectator, for a public view)."""
        ...

    def describe(self, action: Action, view: dict[str, Any], lang: str, names: Sequence[str]) -> str:
        """A move as a sentence for the menu of legal moves."""
        ...


class GenericTextUI:
    def render(self, view: dict[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
        return Syntax(json.dumps(view, ensure_ascii=False, indent=1), "json")

    def describe(self, action: Action, view: dict[str, Any], lang: str, names: Sequence[str]) -> str:
        return action.text

"""How a game shows itself in a terminal: a protocol the CLI calls, with a generic fallback."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from rich.console import RenderableType
from rich.syntax import Syntax

from tabletrek.core.actions import Action


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

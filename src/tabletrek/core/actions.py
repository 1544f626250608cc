"""Actions and the error raised for an illegal one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabletrek.core.events import render_message


@dataclass(frozen=True, slots=True)
class Action:
    """One move, identified by a stable text and an integer index.

    The text is what a player types, what a log line and a websocket message carry, and what a
    record stores; ``State.apply`` parses it back. The index lies in ``[0, game.num_actions)`` and
    is the same for the same move in every state, so it can be used for action masks.
    """

    index: int
    text: str

    def __str__(self) -> str:
        return self.text


class IllegalAction(ValueError):
    """An action that may not be taken now. The state it was offered to is unchanged.

    ``key`` and ``params`` name the reason in the i18n catalogs, so a front end can show it in the
    player's language; ``str(error)`` and ``reason`` give it in English.
    """

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        self.reason = self.message("en")
        super().__init__(self.reason)

    def message(self, lang: str) -> str:
        """The reason in ``lang``; parameters may use the event markers ($seat, $t)."""
        return render_message({"key": self.key, "args": self.params}, lang)

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "args": dict(self.params), "reason": self.reason}

"""Errors the server reports to a client: an i18n key plus arguments, rendered in the browser."""

from __future__ import annotations

from typing import Any


class WebError(Exception):
    """A refused request; ``key`` is in the ``[web.error]`` catalog (or a game's ``illegal`` table)."""

    def __init__(self, key: str, **args: Any) -> None:
        super().__init__(key)
        self.key = key
        self.args_ = args

    def to_message(self) -> dict[str, Any]:
        from tabletrek.core.events import render_message

        return {
            "type": "error",
            "key": self.key,
            "args": self.args_,
            "message": render_message({"key": self.key, "args": self.args_}, "en"),
        }

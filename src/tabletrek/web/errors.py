"""Errors the server reports to a client: an i18n key plus arguments, rendered in the browser."""

from __future__ import annotations

from typing import Any

from tabletrek.core.events import render_message

MAX_ARG = 200
"""Characters of a client's own text an error message repeats back."""


def safe_arg(value: Any) -> Any:
    """An argument as it can always be sent: an error may quote what a client sent, and that text
    may hold a lone surrogate (no UTF-8 encoder takes it) or be very long."""
    if isinstance(value, str):
        text = value.encode("utf-8", "backslashreplace").decode("utf-8")
        return text if len(text) <= MAX_ARG else text[: MAX_ARG - 1] + "…"
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, dict):  # references such as {"$seat": 1}, rendered by the browser
        return {safe_arg(k): safe_arg(v) for k, v in list(value.items())[:20]}
    if isinstance(value, (list, tuple)):
        return [safe_arg(v) for v in value[:50]]
    return safe_arg(repr(value))


def reason(key: str, **args: Any) -> dict[str, Any]:
    """Why a request was refused (the ``detail`` of ``web.error.bad_request`` and ``bad_options``) as
    a catalog reference, ``{"$t": key, "args": ...}``: the browser says it in its reader's language
    (``i18n.js``), and ``WebError.to_message``'s ``message`` in English."""
    return {"$t": key, "args": args}


class WebError(Exception):
    """A refused request; ``key`` is in the ``[web.error]`` catalog (or a game's ``illegal`` table)."""

    status = 400
    """The HTTP status it answers with where no handler says otherwise."""

    def __init__(self, key: str, **args: Any) -> None:
        super().__init__(key)
        self.key = key
        self.args_ = {name: safe_arg(value) for name, value in args.items()}

    def with_status(self, status: int) -> WebError:
        self.status = status
        return self

    def to_message(self) -> dict[str, Any]:
        try:
            text = render_message({"key": self.key, "args": self.args_}, "en")
        except (KeyError, IndexError, ValueError):  # a template naming an argument this error lacks
            text = self.key
        return {"type": "error", "key": self.key, "args": self.args_, "message": text}

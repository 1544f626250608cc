"""Refusals a user can put right: an unknown game, option or bot, an option's bad value, a player
count the game does not seat. Each is named by an i18n key (``core.error.*``), so every front end
can say it in its user's language; ``str(error)`` stays the English, as for ``IllegalAction``."""

from __future__ import annotations

from typing import Any

from tabletrek.core.actions import IllegalAction
from tabletrek.core.data import DataError
from tabletrek.core.events import render_message
from tabletrek.i18n import join_list, translate

GIVEN = "value"
"""The parameter that holds what the user gave (an option's value, a bot setting, a record's
format): shown as given, never joined as a list of names. An option given as ``[1]`` in a record
or through the library made the refusal's own message raise a TypeError instead."""


class UsageError(ValueError):
    """``key`` and ``params`` name the message in the catalogs. A list parameter is joined as the
    message's language joins a list ("2, 3, 4"; in Chinese "2、3、4"; the catalog's word for none
    when empty), except ``GIVEN``; a ``close`` parameter (the known name nearest to what was
    typed) adds the catalog's "did you mean" hint as ``{hint}``."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(self.message("en"))

    def message(self, lang: str) -> str:
        params = {k: v if k == GIVEN else said(v, lang) for k, v in self.params.items()}
        close = params.pop("close", None)
        hint = translate("core.error.did_you_mean", lang, close=close) if close is not None else ""
        return translate(self.key, lang, hint=hint, **params)

    def reference(self) -> dict[str, Any]:
        """The message as a catalog reference, ``{"$t": key, "args": ...}``, for a front end that
        says it in its own reader's language (the browser; ``core.events.render_message``): the
        parameters ``message`` shows, lists as lists (the front end joins them in its reader's
        language) and the hint and inner refusals as references of their own."""
        args = {k: given(v) if k == GIVEN else referred(v) for k, v in self.params.items() if k != "close"}
        close = self.params.get("close")
        hint = {"$t": "core.error.did_you_mean", "args": {"close": close}}
        args["hint"] = hint if close is not None else ""
        return {"$t": self.key, "args": args}


def referred(value: Any) -> Any:
    """A parameter as ``reference`` passes it on: ``said`` for a front end that translates."""
    if isinstance(value, list):
        return [str(item) for item in value] if value else {"$t": "core.error.none"}
    if isinstance(value, UsageError | DataError):
        return value.reference()
    if isinstance(value, IllegalAction):
        return {"$t": value.key, "args": dict(value.params)}
    return value


def given(value: Any) -> Any:
    """What a user gave, as ``reference`` passes it on: a text, number, bool or null as it is
    (the browser quotes a text for ``{value!r}``), anything else as Python writes it."""
    return value if value is None or isinstance(value, str | int | float) else repr(value)


def said(value: Any, lang: str) -> Any:
    """A parameter as its message shows it: a list joined, a refusal (the reason a record's move
    is illegal) in the same language."""
    if isinstance(value, list):
        return listing(value, lang)
    if isinstance(value, UsageError | IllegalAction | DataError):
        return value.message(lang)
    if isinstance(value, dict) and "$t" in value:  # a phrase from the catalogs (``data.os_reason``)
        return render_message({"key": value["$t"], "args": value.get("args", {})}, lang)
    return value


def listing(names: list[Any], lang: str) -> str:
    """Names joined for a message in ``lang``; the catalog's word for none when there are none."""
    return join_list(map(str, names), lang) if names else translate("core.error.none", lang)


def message_in(error: BaseException, lang: str) -> str:
    """An error as its user should read it: in ``lang`` where it is a ``UsageError``, an
    ``IllegalAction`` or a ``DataError`` (all keyed in the catalogs), else as raised."""
    if isinstance(error, UsageError | IllegalAction | DataError):
        return error.message(lang)
    return str(error)


class BeyondEngine(NotImplementedError):
    """A game the compiled batch engine does not hold: an option, a size or a score range it lacks.

    Raised by an engine's ``config`` before it plays, never halfway through. Code that has the
    Python rules (the reference) to fall back on catches this class only, so that a
    ``NotImplementedError`` from anywhere else stays the bug it is instead of quietly switching
    engines. A subclass of ``NotImplementedError``, which the engines raised before it existed.
    """

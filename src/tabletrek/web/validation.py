"""Every string and JSON document a client sends is checked here before it touches a table.

Strings: Unicode scalar values only (a lone surrogate is legal JSON but no database or encoder
takes it), NFKC-normalised (full-width and ligature look-alikes fold to one form, so "Ａｌｉｃｅ" and
"Alice" are one name), no control, format (bidi overrides, zero-width), private-use, unassigned
or invisible characters (``core.characters``), and a length limit counted after normalisation.

JSON: parsed with integers of at most MAX_INT_DIGITS digits (Python refuses 4,300+ digits with a
ValueError, and no field here needs more than a 63-bit seed), no NaN or Infinity (nor a number so
large it overflows to one), and at most MAX_DEPTH levels of nesting (json.loads raises
RecursionError near 1,000). Each problem is a WebError with a reason, never an exception escaping
to the server's log.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from tabletrek.core.characters import MAX_NAME, folded, is_refused
from tabletrek.core.numeric import is_whole
from tabletrek.web.errors import WebError, reason

MAX_INT_DIGITS = 20
"""Digits an integer in a client's JSON may have (2**63 has 19)."""
MAX_DEPTH = 8
"""Nesting a client's JSON may have (a table spec: spec -> seats -> seat -> params -> value)."""
MAX_NICKNAME = MAX_NAME
MAX_ACTION = 500
MAX_REF = 64
"""Characters of a message ``id`` echoed back in its ack."""

PLAIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")
"""Option values, bot names and bot setting names: ASCII words, never a path."""


# The fields a client's text is checked for, as the refusal names them to the player.
FIELDS = {
    "chat": "web.error.field.chat",
    "nickname": "web.error.field.nickname",
    "action": "web.error.field.action",
    "id": "web.error.field.id",
    "number": "web.error.field.number",
}


MAX_FIELD_NAME = 40
"""Characters of a refused field's, option's or bot setting's name repeated in its refusal."""


def shown_key(key: Any) -> str:
    """A client's field, option or setting name as a refusal repeats it: the first
    MAX_FIELD_NAME characters."""
    return str(key)[:MAX_FIELD_NAME]


def unknown_field(body: dict[str, Any], known: tuple[str, ...]) -> str | None:
    """The first field of ``body`` not in ``known``, as a refusal repeats it; None if there is none."""
    return next((shown_key(name) for name in body if name not in known), None)


def known_fields(body: dict[str, Any], known: tuple[str, ...], seat: int | None = None) -> None:
    """Refuse a body that carries a field its route does not read. Dropped without a word, a
    misspelt "option" or "seat" would make a table or a claim other than the one asked for.
    ``seat`` (counted from 1) names the seat whose entry it is."""
    name = unknown_field(body, known)
    if name is None:
        return
    args = {"name": name, "known": list(known)}
    if seat is None:
        detail = reason("web.error.detail.unknown_field", **args)
    else:
        detail = reason("web.error.detail.seat_field", seat=seat, **args)
    raise WebError("web.error.bad_request", detail=detail)


def _refuse(field: str, why: str, **args: Any) -> WebError:
    """``web.error.bad_text``: the field and why (``web.error.text.*``), both catalog references."""
    named: Any = reason(FIELDS[field]) if field in FIELDS else field
    return WebError("web.error.bad_text", field=named, reason=reason(why, **args))


def clean_text(value: Any, field: str, limit: int, *, collapse_spaces: bool = True) -> str:
    """``value`` as a checked, NFKC-normalised string of 1..``limit`` characters, or a WebError.

    With ``collapse_spaces`` every run of white space becomes one ASCII space and the ends are
    trimmed (names); without, only the ends are trimmed (move texts keep their own spacing)."""
    if not isinstance(value, str):
        raise _refuse(field, "web.error.text.not_text")
    if len(value) > 4 * limit:  # before normalising: NFKC may grow a string up to 18-fold
        raise _refuse(field, "web.error.text.too_long", limit=limit)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _refuse(field, "web.error.text.surrogate") from None
    text = folded(value)
    text = " ".join(text.split()) if collapse_spaces else text.strip()
    if not text:
        raise _refuse(field, "web.error.text.empty")
    if len(text) > limit:
        raise _refuse(field, "web.error.text.too_long", limit=limit)
    for char in text:
        if not collapse_spaces and char.isspace() and char != " ":
            raise _refuse(field, "web.error.text.line_break")
        if is_refused(char):
            raise _refuse(field, "web.error.text.character", code=f"U+{ord(char):04X}")
    return text


def nickname(value: Any) -> str | None:
    """A nickname, or None when none was given (null or an empty string)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return clean_text(value, "nickname", MAX_NICKNAME)


def action_text(value: Any) -> str:
    if not isinstance(value, str):
        raise WebError("web.error.bad_action")
    try:
        return clean_text(value, "action", MAX_ACTION, collapse_spaces=False)
    except WebError as exc:
        why = exc.args_.get("reason")
        if isinstance(why, dict) and why.get("$t") in ("web.error.text.empty", "web.error.text.too_long"):
            raise WebError("web.error.bad_action") from None
        raise


def plain_name(value: Any, field: str) -> str:
    if not isinstance(value, str) or not PLAIN_NAME.fullmatch(value):
        raise _refuse(field, "web.error.text.plain_name")
    return value


def short_ref(value: Any) -> int | str | None:
    """A message's ``id``, echoed in its ack: a small integer or a short clean string."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise WebError("web.error.bad_message")
    if isinstance(value, int):
        return value
    return clean_text(value, "id", MAX_REF)


def small_int(value: Any, field: str, low: int, high: int) -> int:
    if not is_whole(value) or not low <= value <= high:
        detail = reason("web.error.detail.whole_number", field=field, low=low, high=high)
        raise WebError("web.error.bad_request", detail=detail)
    return value


def _int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > MAX_INT_DIGITS:
        raise _refuse("number", "web.error.text.digits", limit=MAX_INT_DIGITS)
    return int(text)


def _float(text: str) -> float:
    if len(text) > 64:
        raise _refuse("number", "web.error.text.too_long", limit=64)
    number = float(text)
    if not math.isfinite(number):  # 1e400 overflows to infinity
        raise _refuse("number", "web.error.text.too_large")
    return number


def _constant(name: str) -> Any:
    raise _refuse("number", "web.error.text.not_json_number", name=name)


def _depth(value: Any, limit: int) -> None:
    # Iterative: the point is to refuse what a recursive walk would choke on.
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            raise WebError("web.error.bad_json", reason=reason("web.error.json.nested", limit=limit))
        stack.extend((child, depth + 1) for child in children)


def parse_json(raw: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """A client's JSON document, or a WebError saying what is wrong with it."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise WebError("web.error.bad_json", reason=reason("web.error.json.not_utf8")) from None
    try:
        data = json.loads(raw, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except WebError:
        raise
    except RecursionError:
        nested = reason("web.error.json.nested", limit=max_depth)
        raise WebError("web.error.bad_json", reason=nested) from None
    except json.JSONDecodeError as exc:
        where = reason("web.error.json.at", line=exc.lineno, column=exc.colno)
        raise WebError("web.error.bad_json", reason=where) from None
    except ValueError:  # raised by a parse hook of ours other than a WebError: not a document we take
        raise WebError("web.error.bad_json", reason=reason("web.error.json.invalid")) from None
    _depth(data, max_depth)
    return data

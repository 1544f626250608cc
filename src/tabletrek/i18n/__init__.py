"""Message catalogs (en, zh-Hant) for every user-facing string.

A key's first segment is its domain. The domains in ``CORE_DOMAINS`` live in this package's
``<lang>.toml``; any other domain is a game package, ``tabletrek.games.<domain>``, whose catalogs
are ``i18n/<lang>.toml`` inside it, so a new game brings its own strings. Catalogs are TOML
tables flattened to dotted keys; templates use ``str.format`` fields. Keyed catalogs (rather than
gettext's source-string ids) let the browser UI load the very same files as JSON.
"""

from __future__ import annotations

import os
import string
import tomllib
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any

LANGS: tuple[str, ...] = ("en", "zh-Hant")
DEFAULT_LANG = "en"
CORE_DOMAINS = frozenset({"core", "cli", "web"})

_ALIASES = {
    "en": "en",
    "en-us": "en",
    "en-gb": "en",
    "english": "en",
    "zh-hant": "zh-Hant",
    "zh_hant": "zh-Hant",
    "zh-tw": "zh-Hant",
    "zh_tw": "zh-Hant",
    "zh-hk": "zh-Hant",
    "zh": "zh-Hant",
    "zh-hant-tw": "zh-Hant",
}


def normalize_lang(lang: str | None) -> str:
    """Map a language tag (``zh-TW``, ``zh_Hant``, ``en_US.UTF-8`` …) to a catalog language."""
    if not lang:
        return DEFAULT_LANG
    tag = lang.split(".")[0].strip().lower()
    if tag in _ALIASES:
        return _ALIASES[tag]
    base = tag.split("-")[0].split("_")[0]
    return _ALIASES.get(base, DEFAULT_LANG)


def is_supported(lang: str) -> bool:
    return lang.split(".", maxsplit=1)[0].strip().lower() in _ALIASES


def env_lang() -> str:
    """The language asked for by TABLETREK_LANG, else English."""
    return normalize_lang(os.environ.get("TABLETREK_LANG"))


def _flatten(table: Mapping[str, Any], prefix: str, out: dict[str, str], source: str) -> None:
    for key, value in table.items():
        full = f"{prefix}.{key}" if prefix else key
        if isinstance(value, Mapping):
            _flatten(value, full, out, source)
        elif isinstance(value, str):
            out[full] = value
        else:
            raise ValueError(f"{source}: key {full!r} must be text, not {type(value).__name__}")


def catalog_package(domain: str) -> str:
    return "tabletrek.i18n" if domain in CORE_DOMAINS else f"tabletrek.games.{domain}"


@cache
def catalog(domain: str, lang: str) -> Mapping[str, str]:
    """Every message of one domain in one language, as dotted keys."""
    package = catalog_package(domain)
    try:
        root = resources.files(package)
    except ModuleNotFoundError:
        return {}
    name = f"{lang}.toml"
    resource = root / name if domain in CORE_DOMAINS else root / "i18n" / name
    if not resource.is_file():
        return {}
    source = f"{package}/{name}"
    try:
        data = tomllib.loads(resource.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{source}: not valid TOML ({exc})") from None
    flat: dict[str, str] = {}
    _flatten(data.get(domain, {}), domain, flat, source)
    return flat


def lookup(key: str, lang: str) -> str | None:
    domain = key.split(".", 1)[0]
    return catalog(domain, normalize_lang(lang)).get(key)


PLURAL_ARGS = ("count", "n", "tokens")
"""The argument that picks a message's singular form: a catalog may give ``key_one`` beside ``key``
for when it is 1 ("1 tile", not "1 tiles"); languages without plural forms repeat the message."""


def plural_key(key: str, args: dict[str, Any]) -> str:
    for name in PLURAL_ARGS:
        if name in args:
            return f"{key}_one" if args[name] == 1 else key
    return key


def translate(key: str, lang: str = DEFAULT_LANG, **args: Any) -> str:
    """The message ``key`` in ``lang`` (falling back to English), formatted with ``args``."""
    if args:
        singular = plural_key(key, args)
        if singular != key and lookup(singular, lang) is not None:
            key = singular
    template = lookup(key, lang)
    if template is None:
        template = lookup(key, DEFAULT_LANG)
    if template is None:
        return key
    if not args:
        return template
    if lang == "zh-Hant":
        return fill_chinese(template, args)
    if all(not isinstance(value, str) or value.isprintable() for value in args.values()):
        return template.format(**args)  # the common case, at str.format's speed
    return _formatter.vformat(template, (), args)


FULL_WIDTH_MARKS = frozenset("，。：；！？、（）「」『』")
"""Chinese punctuation that carries its own space: a space beside it reads as a gap."""

UNSHOWABLE = frozenset({"Cc", "Cf", "Cs"})
"""Unicode categories no message shows as they are: controls (an ESC or a C1 control starts a
command to a terminal: clear the screen, set the title, write the clipboard), format characters (a
bidi override shows a line in another order than it is written) and lone surrogates (no encoder
takes one)."""
KEPT_CONTROLS = frozenset("\n\t")


def visible(text: str) -> str:
    """``text`` with each ``UNSHOWABLE`` character, but a line break or a tab, written as its
    escape (``\\x1b``, ``\\u202e``), as ``repr`` writes it: a value a message quotes (a path from
    a folder listing, a typed setting) is shown to the reader, never run by their terminal."""
    if text.isprintable():
        return text
    return "".join(
        char.encode("unicode_escape").decode("ascii")
        if char not in KEPT_CONTROLS and unicodedata.category(char) in UNSHOWABLE
        else char
        for char in text
    )


_FILL_MARK = "\ue000"
"""What ``sides`` fills a template with: a private-use character, which no catalog holds and
``visible`` keeps as it is."""


def sides(fill: Callable[[str], str]) -> tuple[str, str]:
    """The words a message sets before and after the value it is given ("Your hand: {cards}" gives
    ("Your hand: ", "")), ``fill`` being the message with that value left open."""
    before, _, after = fill(_FILL_MARK).partition(_FILL_MARK)
    return before, after


class MessageFormatter(string.Formatter):
    """``str.format`` for messages: a text value is filled in ``visible``; ``!r`` already
    escapes what it cannot show."""

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        converted = super().convert_field(value, conversion)
        return visible(converted) if isinstance(converted, str) and conversion != "r" else converted


_formatter = MessageFormatter()


HAN_RANGES = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x3FFFF))
"""The unified ideographs, their extensions and the compatibility ideographs (i18n.js HAN)."""


def is_han(char: str) -> bool:
    """A Chinese character (the unified ideographs and their extensions), not a Latin letter,
    digit or mark."""
    code = ord(char) if len(char) == 1 else 0
    return any(low <= code <= high for low, high in HAN_RANGES)


def _tight(value_edge: str, other_side: str) -> bool:
    """Whether a template's space between a filled-in value's edge and the text on its other side
    goes: beside a full-width mark, or between two Chinese characters."""
    if value_edge in FULL_WIDTH_MARKS:
        return True
    return is_han(value_edge) and (is_han(other_side) or other_side in FULL_WIDTH_MARKS)


def fill_chinese(template: str, args: Mapping[str, Any]) -> str:
    """``template.format(**args)``, without the template's space where a filled-in value needs
    none: beside a full-width mark at the value's edge, or between Chinese characters.

    A Chinese template sets a name apart with spaces ("輪到 {player}", "{player} 放棄。"), as a
    Chinese sentence does a Latin word or a number ("輪到 Alice", "玩家1 放棄。"). A bot's seat is
    named "貪心（玩家2）", and its closing bracket already has the room a space would give
    ("貪心（玩家2）放棄。"); a Chinese name needs no space beside Chinese text ("輪到小明"). Only the
    template's own spaces go: a player's nickname or chat line is left as it was typed.
    ``web/static/js/i18n.js`` fills Chinese templates the same way."""
    pieces: list[tuple[bool, str]] = []  # (is a value, text)
    for literal, field, spec, conversion in _formatter.parse(template):
        if literal:
            pieces.append((False, literal))
        if field is None:
            continue
        if spec and "{" in spec:  # a nested field: str.format's own rules, no trimming
            return _formatter.vformat(template, (), args)
        value = _formatter.convert_field(_formatter.get_field(field, (), args)[0], conversion)
        pieces.append((True, _formatter.format_field(value, spec or "")))
    out: list[str] = []
    for i, (is_value, text) in enumerate(pieces):
        start, end = 0, len(text)
        if not is_value:
            before = pieces[i - 1][1] if i > 0 and pieces[i - 1][0] else ""
            after = pieces[i + 1][1] if i + 1 < len(pieces) and pieces[i + 1][0] else ""
            if before and text.startswith(" ") and _tight(before[-1], (text[1:] or after)[:1]):
                start = 1
            if after and text.endswith(" ") and _tight(after[0], (text[:-1] or before)[-1:]):
                end = max(start, end - 1)
        out.append(text[start:end])
    return "".join(out)


def list_separator(lang: str = DEFAULT_LANG) -> str:
    """What stands between the items of a list in running text: ", "; in Chinese "、"."""
    return translate("core.list_separator", lang)


def join_list(items: Iterable[str], lang: str = DEFAULT_LANG) -> str:
    """Items of a list in running text: "1 Box, 1 Hopper"; in Chinese "1 箱車、1 斗車"."""
    return list_separator(lang).join(items)


def aside(text: str, lang: str = DEFAULT_LANG) -> str:
    """A remark set after a name or a line: " (you)" in English, "（你）" in Chinese."""
    return translate("core.text.aside", lang, text=text)


def bot_label(game: str, bot: str, lang: str = DEFAULT_LANG) -> str:
    """A bot's name in people's words: the game's own (``<domain>.bot.<bot>``), else the one every
    game shares (``web.bot.<bot>``), else the bot's id (i18n.js botLabel says it the same way)."""
    return _bot_words("bot", game, bot, lang)


def bot_short(game: str, bot: str, lang: str = DEFAULT_LANG) -> str:
    """A bot's short name, which the seat it plays goes by ("Greedy", 「貪心」), found as
    ``bot_label`` finds its label (i18n.js botShort)."""
    return _bot_words("bot_short", game, bot, lang)


def _bot_words(kind: str, game: str, bot: str, lang: str) -> str:
    for key in (f"{game.replace('-', '_')}.{kind}.{bot}", f"web.{kind}.{bot}"):
        if lookup(key, lang) is not None or lookup(key, DEFAULT_LANG) is not None:
            return translate(key, lang)
    return bot


def seat_name(seat: int, lang: str = DEFAULT_LANG) -> str:
    return translate("core.seat", lang, n=seat + 1)


def catalog_json(domain: str, lang: str) -> dict[str, str]:
    """A whole domain for a browser: English first, overlaid by ``lang``."""
    merged = dict(catalog(domain, DEFAULT_LANG))
    merged.update(catalog(domain, normalize_lang(lang)))
    return merged

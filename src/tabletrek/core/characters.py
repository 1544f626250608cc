"""The characters text from outside may not carry: into a table (the web checks every client string
against ``REFUSED_CATEGORIES`` and ``INVISIBLE``), into a saved record, or onto a terminal, where an
ESC or a C1 control starts a command to the terminal itself (clear the screen, set the title,
write the clipboard) and a bidi override shows a name in another order than it is stored."""

from __future__ import annotations

import unicodedata
from typing import Final

TYPED_FORM: Final = "NFKC"
"""The one form typed text is read in, on the web and in the terminal: the full-width letters and
digits of a CJK input method, ligatures and superscripts fold to the plain characters they look
like, so "ｐｌａｙ ３" is "play 3" and "Ａｌｉｃｅ" is "Alice"."""

MAX_NAME: Final = 32
"""Characters a player's name may have, typed at the terminal (``--names``) or on the web (a
nickname): a longer one no longer fits a table's name column."""

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
"""Unicode general categories refused in anything a person types: controls, format characters
(bidi overrides, zero-width joiners: they make one name look like another), surrogates, private
use, unassigned."""
INVISIBLE = frozenset({0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0})
"""Characters that show nothing although Unicode calls them letters, marks or symbols: the
combining grapheme joiner, the Hangul fillers, the Khmer inherent vowels, the braille blank. A
clue, name or chat line of them looks empty, and "Alice" plus one looks like Alice."""


def folded(text: str) -> str:
    """``text`` in ``TYPED_FORM``."""
    return unicodedata.normalize(TYPED_FORM, text)


def is_refused(char: str, categories: frozenset[str] = REFUSED_CATEGORIES, *, invisible: bool = True) -> bool:
    """``char`` is in ``categories`` (or, with ``invisible``, in ``INVISIBLE``)."""
    return unicodedata.category(char) in categories or (invisible and ord(char) in INVISIBLE)


def refused_character(
    text: str, categories: frozenset[str] = REFUSED_CATEGORIES, *, invisible: bool = True
) -> str | None:
    """The first character of ``text`` that ``is_refused``, as "U+001B"; None if none."""
    for char in text:
        if is_refused(char, categories, invisible=invisible):
            return f"U+{ord(char):04X}"
    return None

"""The rules pages' Markdown, parsed the same way for the terminal and the browser.

CommonMark was made for languages that put spaces between words: a line break inside a
paragraph becomes a space. The Chinese rules pages are wrapped at about 100 columns, so every
wrapped line put a stray space between two characters of a word ("張數記 錄在"). This parser
drops such a break when both of its neighbours are full-width characters, as a Chinese reader
expects; a break next to a Latin word or a number still reads as a space.
"""

from __future__ import annotations

import unicodedata

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from tabletrek.core.linebreak import is_wide


def joins_wide(char: str) -> bool:
    """Whether ``char`` may sit against a full-width character with no space: one of them, or a
    mark Chinese shares with English (—— … “ ” · are "ambiguous" in width, not "wide")."""
    return is_wide(char) or (
        unicodedata.east_asian_width(char) == "A" and unicodedata.category(char).startswith("P")
    )


MARKS = {"em_open", "em_close", "strong_open", "strong_close", "s_open", "s_close"}
"""Emphasis tokens carry no text: the characters either side of a break may sit beyond them."""


def neighbour(children: list[Token], start: int, step: int) -> str:
    """The text character next to ``children[start]`` in direction ``step``, if any."""
    i = start + step
    # Emphasis leaves empty text tokens where its delimiters were: they hide no character either.
    while 0 <= i < len(children) and (
        children[i].type in MARKS or (children[i].type == "text" and not children[i].content)
    ):
        i += step
    if not (0 <= i < len(children)) or children[i].type not in ("text", "code_inline"):
        return ""
    content = children[i].content
    return content[-1] if step < 0 else content[0]


def join_wide_lines(state: StateCore) -> None:
    """Turn a soft line break between two full-width characters into nothing (or between one
    and a mark Chinese shares with English, as in '打出暫停卡——' at the end of a line)."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children = block.children
        for i, token in enumerate(children):
            if token.type != "softbreak":
                continue
            before, after = neighbour(children, i, -1), neighbour(children, i, 1)
            if (
                before
                and after
                and joins_wide(before)
                and joins_wide(after)
                and (is_wide(before) or is_wide(after))
            ):
                token.type = "text"
                token.tag = ""
                token.content = ""


def is_wide_mark(char: str) -> bool:
    """A full-width punctuation mark (。：、）（「): it carries its own space."""
    return is_wide(char) and unicodedata.category(char).startswith("P")


def needs_no_space(before: str, after: str) -> bool:
    """Whether Chinese sets no space between ``before`` and ``after``: after a full-width mark,
    or between two full-width characters."""
    return bool(before and after) and (is_wide_mark(before) or (is_wide(before) and is_wide(after)))


def drop_spaces_beside_emphasis(state: StateCore) -> None:
    """Drop the space a Chinese page sets beside emphasis: ``**線索。** 給線索者`` and
    ``各自為戰 *（裁定）*``. CommonMark closes ``**`` after a mark such as 。 only when a space
    or a mark follows, and opens ``*`` before （ only after one, so the pages must write that
    space; Chinese sets none there, and the reader saw ``線索。 給線索者``. The space goes only
    where it stands against the emphasis and Chinese would set none (``*裁定：* 5 人`` reads
    ``裁定：5 人``); an English page's spaces are never touched."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children = block.children
        for i, token in enumerate(children):
            if token.type != "text" or not token.content.strip(" "):
                continue
            if i > 0 and children[i - 1].type in MARKS and token.content.startswith(" "):
                rest = token.content.lstrip(" ")
                if needs_no_space(neighbour(children, i, -1), rest[0]):
                    token.content = rest
            if i + 1 < len(children) and children[i + 1].type in MARKS and token.content.endswith(" "):
                rest = token.content.rstrip(" ")
                if needs_no_space(rest[-1], neighbour(children, i, 1)):
                    token.content = rest


def cjk_line_breaks(md: MarkdownIt) -> None:
    """A markdown-it plugin: ``MarkdownIt().use(cjk_line_breaks)``."""
    md.core.ruler.push("cjk_line_breaks", join_wide_lines)
    md.core.ruler.push("cjk_emphasis_spaces", drop_spaces_beside_emphasis)


def rules_parser() -> MarkdownIt:
    """The parser for rules pages: CommonMark with tables and Chinese-friendly line breaks."""
    return MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"]).use(cjk_line_breaks)

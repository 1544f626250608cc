"""Word packs: plain text, one word a line, shipped in ``words/`` or loaded from any file.

A pack is named either by a shipped language (``"en"``, ``"zh-Hant"``) or by a path to a UTF-8
text file. Blank lines and lines starting with ``#`` are ignored. Words are stored in lower case,
because action texts are compared in lower case (``guess apple``).
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from tabletrek.core.data import DataError, os_reason, read_at_most

BOARD_SIZE = 25
SHIPPED_PACKS = ("en", "zh-Hant")
MAX_PACK_BYTES = 16 * 1024 * 1024
"""The most of a pack file read: the shipped packs are about 5 kB, and 16 MiB holds a million words."""


@dataclass(frozen=True, slots=True)
class WordPack:
    """The words of one pack and the language its clues are checked in ("en", "zh" or "other")."""

    source: str
    words: tuple[str, ...]
    language: str

    @property
    def digest(self) -> str:
        """SHA-256 of the words in order: what a game deals from, so comments, blank lines and
        case in the file do not change it."""
        return hashlib.sha256("\n".join(self.words).encode("utf-8")).hexdigest()


def pack_language(words: tuple[str, ...]) -> str:
    """English when every word is ASCII letters; Chinese when every word is CJK; else "other".

    The language decides which clue checks apply: stemming and lemmas for English, containment of
    characters for Chinese, only the language-free checks otherwise.
    """
    if all(w.isascii() and w.isalpha() for w in words):
        return "en"
    if all(all(is_cjk(ch) for ch in w) for w in words):
        return "zh"
    return "other"


def is_cjk(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith("CJK ")


def parse_pack(source: str, text: str) -> WordPack:
    words: list[str] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        raw = line.strip()
        if not raw or raw.startswith("#"):
            continue
        word = unicodedata.normalize("NFC", raw).lower()
        if len(word.split()) != 1:
            raise DataError(source, "", said="core.data.not_one_word", line=number, word=raw)
        if not all(ch.isalpha() or ch == "-" for ch in word):
            raise DataError(source, "", said="core.data.not_letters", line=number, word=raw)
        if word in seen:
            raise DataError(source, "", said="core.data.repeats", line=number, word=raw, first=seen[word])
        seen[word] = number
        words.append(word)
    if len(words) < BOARD_SIZE:
        said = "core.data.too_few_words"
        raise DataError(source, "words", said=said, whole=True, need=BOARD_SIZE, count=len(words))
    found = tuple(words)
    return WordPack(source, found, pack_language(found))


def load_pack(name: str) -> WordPack:
    """A shipped pack by language ("en", "zh-Hant") or any file by path."""
    if name in SHIPPED_PACKS:
        return _shipped_pack(name)
    path = Path(name).expanduser()
    try:
        stat = path.stat()
    except OSError as exc:
        raise DataError(str(path), "", said="core.data.pack_unreadable", reason=os_reason(exc)) from None
    # Cached per file version, so an edited pack is read again.
    return _file_pack(str(path), stat.st_mtime_ns, stat.st_size)


@cache
def _shipped_pack(name: str) -> WordPack:
    resource = resources.files("tabletrek.games.codenames_duet") / "words" / f"{name}.txt"
    source = f"tabletrek/games/codenames_duet/words/{name}.txt"
    return parse_pack(source, resource.read_text(encoding="utf-8"))


@cache
def _file_pack(path: str, _mtime: int, _size: int) -> WordPack:
    try:
        data = read_at_most(path, MAX_PACK_BYTES)
    except OSError as exc:
        raise DataError(path, "", said="core.data.pack_unreadable", reason=os_reason(exc)) from None
    if data is None:
        raise DataError(path, "", said="core.data.pack_too_large", most=MAX_PACK_BYTES // 2**20)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(path, "", said="core.data.pack_not_utf8") from None
    return parse_pack(path, text)

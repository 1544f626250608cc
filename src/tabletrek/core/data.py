"""Loading rule data (TOML) shipped in a package, with errors that name the file and key."""

from __future__ import annotations

import errno
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from tabletrek.core.events import resolve_args
from tabletrek.i18n import translate


class DataError(ValueError):
    """A rule-data file is malformed: the message names the file and the key.

    ``said`` (a ``core.data.*`` catalog key, with ``params``) names the problem where a user can
    meet it in a file of their own (a word pack, their campaign progress), so ``message(lang)``
    says it in their language; ``problem`` is then its English. Without ``said`` the message is
    English in every language: a problem with data tabletrek ships (or that a program passes to a
    loader), which only someone editing that data meets. ``line`` (a text file's line number)
    names the place in the reader's language too; ``key`` is still ``"line <n>"``. ``whole``: the
    problem is with the file as a whole, so the message names no key (``key`` is for programs)."""

    def __init__(
        self,
        source: str,
        key: str,
        problem: str = "",
        *,
        said: str | None = None,
        line: int | None = None,
        whole: bool = False,
        **params: Any,
    ) -> None:
        self.source = source
        self.whole = whole
        self.key = f"line {line}" if line is not None and not key else key
        self.said = said
        self.line = line
        self.params = params
        self.problem = self._problem("en") if said is not None else problem
        super().__init__(self.message("en"))

    def _problem(self, lang: str) -> str:
        assert self.said is not None
        return translate(self.said, lang, **resolve_args(self.params, lang, None))

    def message(self, lang: str) -> str:
        """The reference rendered in ``lang``; in English where the problem has only its English."""
        shown = lang if self.said is not None else "en"  # so is the sentence around it
        ref = self.reference()
        return translate(ref["$t"], shown, **resolve_args(ref["args"], shown, None))

    def reference(self) -> dict[str, Any]:
        """The message as a catalog reference (``{"$t": key, "args": ...}``) for a front end that
        says it in its own reader's language."""
        problem: Any = {"$t": self.said, "args": self.params} if self.said is not None else self.problem
        if self.line is not None:
            args = {"source": self.source, "line": self.line, "problem": problem}
            return {"$t": "core.data.at_line", "args": args}
        if not self.key or self.whole:
            return {"$t": "core.data.in_file", "args": {"source": self.source, "problem": problem}}
        args = {"source": self.source, "where": self.key, "problem": problem}
        return {"$t": "core.data.at_key", "args": args}


def os_reason(error: OSError) -> dict[str, Any]:
    """Why a file could not be read or written, as a catalog reference (a ``DataError`` or
    ``UsageError`` parameter): the common cases in the catalogs, any other as the system says it
    (in its own language, which is the reader's only by chance)."""
    known = {
        errno.ENOENT: "core.data.os.not_found",
        errno.EACCES: "core.data.os.no_permission",
        errno.EPERM: "core.data.os.no_permission",
        errno.EISDIR: "core.data.os.is_directory",
        errno.ENOTDIR: "core.data.os.not_directory",
        errno.EROFS: "core.data.os.read_only",
        errno.ENOSPC: "core.data.os.no_space",
        errno.ENAMETOOLONG: "core.data.os.name_too_long",
    }
    if error.errno in known:
        return {"$t": known[error.errno], "args": {}}
    return {"$t": "core.data.os.other", "args": {"reason": error.strerror or str(error)}}


def read_at_most(path: str | Path, most: int) -> bytes | None:
    """A file a user named, read up to ``most`` bytes; None when it holds more. The cap is counted
    while reading, so a file of gigabytes (or /dev/zero) is refused without filling the memory.
    Raises ``OSError`` as ``open`` does."""
    with Path(path).open("rb") as handle:
        data = handle.read(most + 1)
    return None if len(data) > most else data


def read_toml(source: str | Path, text: str | None = None) -> dict[str, Any]:
    try:
        if text is None:
            text = Path(source).read_text(encoding="utf-8")
        return tomllib.loads(text)
    except OSError as exc:
        raise DataError(str(source), "", f"cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(str(source), "", f"not valid TOML ({exc})") from None


def package_toml(package: str, relative: str) -> tuple[str, dict[str, Any]]:
    """(display name, parsed data) of a TOML file inside a package."""
    resource = resources.files(package)
    for part in relative.split("/"):
        resource = resource / part
    source = f"{package.replace('.', '/')}/{relative}"
    return source, read_toml(source, resource.read_text(encoding="utf-8"))


def need(
    data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], source: str, path: str = ""
) -> Any:
    """``data[key]``, checked to exist and to be of ``kind``."""
    full = f"{path}.{key}" if path else key
    if key not in data:
        raise DataError(source, full, "is missing")
    value = data[key]
    if (isinstance(value, bool) and kind is int) or not isinstance(value, kind):
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise DataError(source, full, f"must be {expected}, not {type(value).__name__}")
    return value


def need_count(data: Mapping[str, Any], key: str, source: str, path: str = "") -> int:
    value: int = need(data, key, int, source, path)
    if value < 0:
        raise DataError(source, f"{path}.{key}" if path else key, f"must not be negative ({value})")
    return value

"""Loading rule data (TOML) shipped in a package, with errors that name the file and key."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any


class DataError(ValueError):
    """A rule-data file is malformed: the message names the file and the key."""

    def __init__(self, source: str, key: str, problem: str) -> None:
        self.source = source
        self.key = key
        self.problem = problem
        super().__init__(f"{source}: key {key!r}: {problem}")


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

"""The ``tabletrek`` command (``app``, and ``main`` to run it), assembled in ``cli/command.py``.

It is assembled on first use, not when this package is imported: a game's own command group
(``GameSpec.cli``, e.g. Codenames Duet's campaign) imports the helpers in ``cli/common.py``, and
assembling the command loads that very module, so importing the package must not do it.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name in ("app", "main"):
        from tabletrek.cli import command  # noqa: PLC0415 - assembled on first use, see above

        return getattr(command, name)
    raise AttributeError(f"module 'tabletrek.cli' has no attribute {name!r}")

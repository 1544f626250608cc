"""The ``tabletrek`` command (``app``, and ``main`` to run it), assembled in ``cli/command.py``.

It is assembled on first use, not when this package is imported: a game's own command group
(``GameSpec.cli``, e.g. Codenames Duet's campaign) imports the helpers in ``cli/common.py``, and
assembling the command loads that very module, so importing the package must not do it.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from tabletrek.core.interrupts import Stopped, exit_status


def main() -> None:
    """Run the ``tabletrek`` command. A Ctrl-C while it is still loading (its imports take a moment)
    ends it with status 130 like a Ctrl-C at any later point, not with a traceback; a SIGTERM taken
    as Ctrl-C that reaches this far (a second one while a stopped run ends), with 143."""
    try:
        from tabletrek.cli.frame import argv_lang  # noqa: PLC0415 - assembled on first use, see above

        asked = argv_lang(sys.argv[1:])
        if asked is not None:
            # The commands' help texts are read from the catalogs as they are assembled: a --lang
            # on the command line picks their language as TABLETREK_LANG would (this process only).
            os.environ["TABLETREK_LANG"] = asked
        from tabletrek.cli import command  # noqa: PLC0415 - assembled on first use, see above

        command.main()
    except KeyboardInterrupt as stop:  # or SIGTERM taken as it: 143
        raise SystemExit(exit_status(stop.signum if isinstance(stop, Stopped) else None)) from None


def __getattr__(name: str) -> Any:
    if name == "app":
        from tabletrek.cli import command  # noqa: PLC0415 - assembled on first use, see above

        return command.app
    raise AttributeError(f"module 'tabletrek.cli' has no attribute {name!r}")

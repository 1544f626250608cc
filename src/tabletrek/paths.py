"""Where tabletrek keeps a user's files (records, profiles, the web database).

The platform's user data directory (platformdirs), unless TABLETREK_HOME points elsewhere, which
tests and portable installs use. A folder that cannot be made (a file in the way, no permission)
is a ``UsageError`` naming the folder and TABLETREK_HOME, so every command says so in its
reader's language instead of ending in a traceback.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import platformdirs

from tabletrek.core.data import os_reason
from tabletrek.core.errors import UsageError


def user_data_dir() -> Path:
    override = os.environ.get("TABLETREK_HOME")
    path = Path(override) if override else Path(platformdirs.user_data_dir("tabletrek", appauthor=False))
    return made(path)


def records_dir() -> Path:
    return made(user_data_dir() / "records")


def made(path: Path) -> Path:
    """``path``, made if it was not a folder yet."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if exc.errno in (errno.EEXIST, errno.ENOTDIR):
            raise UsageError("core.error.data_folder_file", path=str(path)) from exc
        raise UsageError("core.error.data_folder", path=str(path), reason=os_reason(exc)) from exc
    return path

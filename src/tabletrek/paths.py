"""Where tabletrek keeps a user's files (records, profiles, the web database).

The platform's user data directory (platformdirs), unless TABLETREK_HOME points elsewhere, which
tests and portable installs use.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def user_data_dir() -> Path:
    override = os.environ.get("TABLETREK_HOME")
    path = Path(override) if override else Path(platformdirs.user_data_dir("tabletrek", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def records_dir() -> Path:
    path = user_data_dir() / "records"
    path.mkdir(parents=True, exist_ok=True)
    return path

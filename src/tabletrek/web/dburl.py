"""Which database URLs the store takes, and what it says when one cannot be used.

The store runs on SQLite (a file) or PostgreSQL. A URL is checked before an engine is made, so
that a typo, another database or an in-memory SQLite database is refused with a reason the
person who typed it can act on, not met later as a server error on every request. A password in
the URL is never repeated back: messages show the URL as SQLAlchemy renders it with the password
hidden."""

from __future__ import annotations

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

from tabletrek.core.errors import UsageError
from tabletrek.paths import user_data_dir

BACKENDS = ("sqlite", "postgresql")
"""The databases the store's schema, migrations and notifications are written and tested for."""

DRIVERS = ("sqlite", "sqlite+pysqlite", "postgresql+psycopg")
"""Their drivers: Python's own sqlite3, and psycopg 3 (the [web] extra), which plain
``postgresql://`` URLs are given."""


def default_url() -> str:
    """A SQLite file in the user data directory (platformdirs, or $TABLETREK_HOME when set)."""
    return f"sqlite:///{user_data_dir() / 'web.sqlite3'}"


def normalize_url(url: str) -> str:
    """Accept plain ``postgresql://`` / ``postgres://`` URLs and use the psycopg 3 driver for them."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def checked_url(url: str) -> URL:
    """``url`` normalised and parsed, or a ``UsageError`` saying why the store cannot use it."""
    try:
        parsed = make_url(normalize_url(url))
    except (ArgumentError, ValueError):
        # not repeated back: what failed to parse may hold a password
        raise UsageError("web.serve.db_unparsed") from None
    backend = parsed.get_backend_name()
    if backend not in BACKENDS:
        raise UsageError("web.serve.db_unsupported", backend=backend)
    if parsed.drivername not in DRIVERS:
        # e.g. postgresql+psycopg2:// or +asyncpg://: a driver the [web] extra does not install
        raise UsageError("web.serve.db_driver", driver=parsed.drivername)
    if backend == "sqlite" and parsed.database in (None, "", ":memory:"):
        # each of the server's threads would get a database of its own, and all of it is lost at exit
        raise UsageError("web.serve.db_in_memory")
    return parsed


def shown(url: URL) -> str:
    """``url`` as a message may show it: the password hidden."""
    return url.render_as_string(hide_password=True)


SQLITE_REASONS = {
    "SQLITE_CANTOPEN": "web.serve.db_reason.cannot_open",
    "SQLITE_PERM": "web.serve.db_reason.cannot_open",
    "SQLITE_NOTADB": "web.serve.db_reason.not_a_database",
    "SQLITE_CORRUPT": "web.serve.db_reason.damaged",
    "SQLITE_READONLY": "web.serve.db_reason.read_only",
    "SQLITE_FULL": "web.serve.db_reason.full",
    "SQLITE_BUSY": "web.serve.db_reason.locked",
    "SQLITE_LOCKED": "web.serve.db_reason.locked",
}
"""SQLite's reasons a file fails to open as a database, by the error name sqlite3 gives (Python
3.11+): in the catalogs, so that the default store's usual failures are said in the reader's
language, not as SQLite's English in a Chinese sentence."""


def unavailable(url: URL, error: DBAPIError) -> UsageError:
    """The refusal for a database that could not be opened: SQLite's usual reasons from the
    catalogs, any other (PostgreSQL's among them) as the driver says it, on one line."""
    key = SQLITE_REASONS.get(getattr(error.orig, "sqlite_errorname", ""))
    reason: object = (
        {"$t": key, "args": {}} if key else " ".join(str(error.orig).split()) or type(error.orig).__name__
    )
    return UsageError("web.serve.db_failed", db=shown(url), reason=reason)

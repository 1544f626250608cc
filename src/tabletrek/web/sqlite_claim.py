"""One SQLite file, one server, unless every server on it reads the store every second.

A server hears of the moves another process commits only through PostgreSQL's NOTIFY or by
reading the store every second (``--sync poll``). Two servers started on one SQLite file without
polling would each show its players a table the other has moved on, and both would play the
same bots. So ``tabletrek serve`` claims the file before it opens it: exclusively when it does not
poll, shared when it does, and a claim that conflicts with another server's ends the command with
the reason.

The claim is an advisory lock (``flock``) on an empty file beside the database
(``web.sqlite3-server.lock``), never on the database itself, whose own locks SQLite manages. The
system drops it when the process ends, however it ends, so a crashed server never leaves a stale
claim; the file is left in place, because deleting it could let two servers lock two different
files of the same name. Where there is no ``flock`` (Windows), no claim is made."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from tabletrek.core.errors import UsageError
from tabletrek.web.dburl import checked_url, default_url, shown

if sys.platform != "win32":
    import fcntl

SUFFIX = "-server.lock"


def claim_path(database: str) -> Path:
    """The lock file of the SQLite file ``database``, the same whatever path names the file
    (relative, through a symbolic link)."""
    real = Path(database).resolve()
    return real.with_name(real.name + SUFFIX)


class Claim:
    """A server's claim on a SQLite file, held until ``release`` or the end of the process."""

    def __init__(self, fd: int, path: Path) -> None:
        self.fd: int | None = fd
        self.path = path

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the only descriptor drops the lock
            self.fd = None


def claim_sqlite(url: str | None, *, shared: bool) -> Claim | None:
    """Claim the SQLite file of ``url`` (None: the default store) for one server, or with
    ``shared`` for one of several servers that all poll; None for PostgreSQL, for a SQLite URI
    (``?uri=true``, whose path is not a plain file name) and where no lock can be taken (the
    store's own opening then says what is wrong with the file or its folder). A claim another
    server holds in the other way, or exclusively, is refused with a ``UsageError``."""
    parsed = checked_url(url or default_url())
    if sys.platform == "win32" or parsed.get_backend_name() != "sqlite" or parsed.query.get("uri"):
        return None
    assert parsed.database is not None  # checked_url refuses a SQLite URL without a file
    path = claim_path(parsed.database)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return None
    try:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise UsageError("web.serve.db_in_use", db=shown(parsed)) from None
    except OSError:  # a file system without locks: serve as before
        os.close(fd)
        return None
    return Claim(fd, path)

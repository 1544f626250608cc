"""Keeps numba's cached machine code in step with all the compiled modules it was built from.

Why: numba checks a cached function against the modification time of its own file only. Our
compiled functions call, and inline, functions of other modules: every engine uses
``core/mt19937.py``; ``core/batch_driver.py``'s loops are compiled against each engine's
``batch.py``; both of Touring's engines take their card rules from
``games/touring/compiled_rules.py``. After an edit to one of those, the callers' cached code would
go on playing the old rules, silently, until their own files changed.

So the first import of the compiled code (``core/mt19937.py``, which every compiled module takes
``njit`` from) compares a digest of every module that uses ``njit`` with the digest the cache was
built from; when they differ, the package's cached functions (``__pycache__/*.nbi`` and ``*.nbc``)
are deleted, and each compiles afresh on first use (seconds per engine; loads thereafter).

This covers numba's in-tree cache (``__pycache__`` beside the sources), which it uses whenever the
package folder is writable, as in a checkout, where sources get edited. A reinstall rewrites every
file, which numba's own check sees. A cache moved elsewhere with ``NUMBA_CACHE_DIR`` is not
watched: clear it after editing a compiled module.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
STAMP = "numba-sources.sha256"
"""The digest the cache was built from, in the package's own ``__pycache__``."""
COMPILED_MARK = b"njit"
"""A module whose text names ``njit`` is compiled, or holds what is: its edits count."""


def sources_digest(root: Path) -> str:
    """A digest of the path and text of every module below ``root`` that uses ``njit``."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        text = path.read_bytes()
        if COMPILED_MARK in text:
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(b"\0")
            digest.update(text)
    return digest.hexdigest()


def refresh(root: Path = PACKAGE) -> bool:
    """Deletes the compiled functions cached below ``root`` when its compiled modules changed
    since they were built; returns whether it did."""
    stamp = root / "__pycache__" / STAMP
    digest = sources_digest(root)
    try:
        if stamp.read_text(encoding="ascii") == digest:
            return False
    except (OSError, UnicodeDecodeError):
        pass  # no stamp yet (a fresh checkout, or a cache older than this module): start clean
    try:
        for pattern in ("__pycache__/*.nbi", "__pycache__/*.nbc"):
            for cached in root.rglob(pattern):
                cached.unlink(missing_ok=True)
        stamp.parent.mkdir(exist_ok=True)
        # Written aside and renamed: parallel test workers may refresh at the same moment.
        partial = stamp.with_name(f"{STAMP}.{os.getpid()}")
        partial.write_text(digest, encoding="ascii")
        os.replace(partial, stamp)
    except OSError:
        return False  # a read-only install: numba keeps its cache elsewhere (see above)
    return True

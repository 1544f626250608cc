"""What this machine lets a process use: the web server sizes its bot moves by it, and a
simulation's worker processes are held to a few for each core."""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores this process may run on (a pinned process counts only its own)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)

"""What a test run left in the repository: files git neither tracks nor ignores.

A test that runs a command in the working folder can leave its output there (an ``analyze``
test once wrote ``report.html`` into the checkout, unseen until a review); ``conftest.py``
compares these files before and after the run and fails the run when any are new.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def untracked(root: Path = ROOT) -> set[str] | None:
    """Paths under ``root`` that git neither tracks nor ignores; None where git cannot tell
    (no git, or not a checkout)."""
    try:
        done = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=all"],
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return {line[3:] for line in done.stdout.splitlines() if line.startswith("?? ")}

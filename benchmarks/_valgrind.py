"""One run of a command under valgrind: its last printed number and the instructions it executed.

Shared by ``benchmarks.python_api_instructions`` and ``benchmarks.vector_instructions``, which both
count a short and a long run and divide the difference, so start-up and imports cancel out.
"""

from __future__ import annotations

import re
import shutil
import subprocess

VALGRIND = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]


def require_valgrind() -> None:
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")


def counted(command: list[str], env: dict[str, str]) -> tuple[int, int]:
    """(the last number ``command`` printed, the instructions it executed) of one valgrind run."""
    done = subprocess.run([*VALGRIND, *command], capture_output=True, text=True, check=False, env=env)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or refs is None:
        raise SystemExit(f"valgrind run failed:\n{done.stderr[-3000:]}")
    return int(done.stdout.split()[-1]), int(refs.group(1).replace(",", ""))

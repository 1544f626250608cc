"""ruff and mypy are part of the test suite, so CI fails when either does."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def tool(name: str) -> str:
    path = Path(sys.executable).with_name(name)
    found = str(path) if path.exists() else shutil.which(name)
    if not found:
        pytest.fail(f"{name} is not installed; install the [dev] extra")
    return found


def test_ruff_check_is_clean() -> None:
    done = subprocess.run(
        [tool("ruff"), "check", "src", "tests", "benchmarks"],
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_is_clean() -> None:
    done = subprocess.run(
        [tool("ruff"), "format", "--check", "src", "tests", "benchmarks"],
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_is_clean_on_src() -> None:
    done = subprocess.run([tool("mypy")], cwd=ROOT, check=False, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr

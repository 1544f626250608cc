"""ruff and mypy are part of the test suite, so CI fails when either does."""

from __future__ import annotations

import os
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


USER_SCRIPT = """
import numpy as np
from tabletrek.rl import SingleSeatEnv, observation_tensor, vector_env
import tabletrek

env = SingleSeatEnv("touring", seat=0, opponents="greedy")
obs, info = env.reset(seed=3)
x: np.ndarray = observation_tensor(tabletrek.load("touring").new_game(seed=1), 0)
batch = vector_env("touring", "4")
"""


def test_a_users_script_is_type_checked_against_the_research_api(tmp_path: Path) -> None:
    """py.typed is shipped, so mypy --strict on a researcher's script sees our signatures: passing
    ``"4"`` as ``num_envs`` is caught. (Before, ``vector_env``, loaded lazily through the package's
    ``__getattr__``, was ``Any`` to mypy, so nothing about it was checked.)"""
    script = tmp_path / "study.py"
    script.write_text(USER_SCRIPT, encoding="utf-8")
    done = subprocess.run(
        [tool("mypy"), "--strict", "--no-incremental", "--follow-imports=silent", str(script)],
        cwd=tmp_path,
        check=False,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    out = done.stdout + done.stderr
    assert 'Argument 2 to "vector_env" has incompatible type "str"; expected "int"' in out, out
    assert out.count("error:") == 1, out

"""An edit to any compiled module clears numba's cache, so no caller runs code built from old rules."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tabletrek.core import mt19937 as mt
from tabletrek.core.compiled_cache import STAMP, refresh, sources_digest

# A package whose compiled caller inlines a compiled function of another module, as the engines do.
RULE = """
import numba

@numba.njit(cache=True, inline="always")
def points():
    return {points}
"""
CALLER = """
import numba
from pkg.rule import points

@numba.njit(cache=True)
def score():
    return points() + 100
"""
RUN = """
import sys
from pathlib import Path
from tabletrek.core.compiled_cache import refresh
if sys.argv[1] == "refresh":
    refresh(Path("pkg"))
from pkg.caller import score
print(score())
"""


def _package(root: Path, points: int) -> Path:
    pkg = root / "pkg"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "rule.py").write_text(RULE.format(points=points))
    (pkg / "caller.py").write_text(CALLER)
    return pkg


def _score(root: Path, mode: str) -> int:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), *sys.path])}
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run(
        [sys.executable, "-c", RUN, mode], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    return int(done.stdout.split()[-1])


@pytest.mark.skipif(not mt.HAVE_NUMBA, reason="numba (extra [search]) is not installed")
def test_an_edited_inlined_function_reaches_its_cached_caller(tmp_path: Path) -> None:
    stale, fresh = tmp_path / "stale", tmp_path / "fresh"
    for root in (stale, fresh):
        root.mkdir()
        _package(root, points=1)
        assert _score(root, "plain" if root is stale else "refresh") == 101
        _package(root, points=2)  # only the inlined function's module changes
    # numba alone keeps the caller's cache (its own file did not change): the old rule runs on.
    # Should a numba release check dependencies itself, this fails and compiled_cache can go.
    assert _score(stale, "plain") == 101
    assert _score(fresh, "refresh") == 102


def test_only_an_edit_to_a_compiled_module_clears_the_cache(tmp_path: Path) -> None:
    (tmp_path / "engine.py").write_text("from numba import njit\n")
    (tmp_path / "text.py").write_text("HELLO = 'hi'\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()

    def cached() -> list[Path]:
        for name in ("engine.f-1.py311.nbi", "engine.f-1.py311.0.nbc"):
            (cache / name).touch()
        return sorted(cache.glob("*.nb?"))

    files = cached()
    assert refresh(tmp_path)  # no stamp yet: whatever is cached was built from unknown sources
    assert not any(f.exists() for f in files)
    assert (cache / STAMP).read_text() == sources_digest(tmp_path)

    files = cached()
    assert not refresh(tmp_path)
    (tmp_path / "text.py").write_text("HELLO = 'hello'\n")  # no njit in it: not compiled
    assert not refresh(tmp_path)
    assert all(f.exists() for f in files)

    (tmp_path / "engine.py").write_text("from numba import njit\nX = 1\n")
    assert refresh(tmp_path)
    assert not any(f.exists() for f in files)
    assert not refresh(tmp_path)


def test_a_package_whose_cache_cannot_be_written_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "engine.py").write_text("from numba import njit\n")
    # As in a read-only install (where root would write anyway): the stamp's folder cannot be made.
    (tmp_path / "__pycache__").write_text("not a folder")
    assert not refresh(tmp_path)
    assert (tmp_path / "__pycache__").read_text() == "not a folder"

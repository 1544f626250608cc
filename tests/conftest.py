"""The whole suite's guard: a test run leaves no new file in the repository (``stray_files``)."""

from __future__ import annotations

import pytest

from tests.stray_files import untracked

BEFORE = pytest.StashKey[set[str] | None]()


def _is_worker(session: pytest.Session) -> bool:
    return hasattr(session.config, "workerinput")  # pytest-xdist: the controller checks once


def pytest_sessionstart(session: pytest.Session) -> None:
    if not _is_worker(session):
        session.config.stash[BEFORE] = untracked()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _is_worker(session):
        return
    before = session.config.stash.get(BEFORE, None)
    after = untracked()
    if before is None or after is None:
        return
    strays = sorted(after - before)
    if strays:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_sep("=", "the tests left files in the repository", red=True)
            reporter.write_line(", ".join(strays), red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED

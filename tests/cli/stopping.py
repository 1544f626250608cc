"""A real stop signal that a test process sends itself before the fourth game of a run: handled
before the next bytecode, so nothing depends on timing."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest

import tabletrek.sim.backend as backend_module


def signal_before_the_fourth_game(monkeypatch: pytest.MonkeyPatch, stop: signal.Signals) -> Iterator[None]:
    """For a fixture to ``yield from``; Ctrl+C and SIGTERM meanwhile as a terminal's command has them."""
    real = backend_module.play_spec
    played = 0

    def play_spec(*args: Any, **kwargs: Any) -> Any:
        nonlocal played
        if played == 3:
            os.kill(os.getpid(), stop)
            time.sleep(30)  # not reached: the handler raises KeyboardInterrupt first
        played += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(backend_module, "play_spec", play_spec)
    before = (
        signal.signal(signal.SIGINT, signal.default_int_handler),
        signal.signal(signal.SIGTERM, signal.SIG_DFL),
    )
    yield
    signal.signal(signal.SIGINT, before[0])
    signal.signal(signal.SIGTERM, before[1])

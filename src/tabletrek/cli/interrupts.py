"""Ctrl-C at the terminal: a press while the game is being saved waits until the record is whole.

A player may press Ctrl-C at any moment, also while the record is being written after a quit, a
finished game or an earlier Ctrl-C. The KeyboardInterrupt must not cut that write short (a truncated
record cannot be resumed), so while saving SIGINT is only noted, and the command exits 130 after.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class Presses:
    """Whether SIGINT came while it was held."""

    def __init__(self) -> None:
        self.count = 0

    def __bool__(self) -> bool:
        return self.count > 0

    def note(self, signum: int, frame: FrameType | None) -> None:
        self.count += 1


@contextmanager
def sigint_held() -> Iterator[Presses]:
    """Hold SIGINT in the block: a Ctrl-C is counted in the yielded ``Presses``, not raised.

    Only the main thread can set signal handlers (and only it gets KeyboardInterrupt), so in another
    thread this holds nothing. A handler someone else installed stays in charge.
    """
    presses = Presses()
    if threading.current_thread() is not threading.main_thread():
        yield presses
        return
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield presses
        return
    signal.signal(signal.SIGINT, presses.note)
    try:
        yield presses
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)

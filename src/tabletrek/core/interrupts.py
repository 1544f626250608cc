"""Ctrl-C that is neither lost nor cuts a write short.

- **Held** (``sigint_held``): a player may press Ctrl-C at any moment, also while the record is
  being written after a quit, a finished game or an earlier Ctrl-C. The KeyboardInterrupt must not
  cut that write short (a truncated record cannot be resumed), so while saving SIGINT is only
  noted, and the command exits 130 after.
- **Noted** (``sigint_noted``): a study run stops on Ctrl-C with the games that had finished. The
  KeyboardInterrupt is raised as usual, but Python can lose it: raised while a finalizer runs
  (``__del__``, a generator closed as it is collected) it is printed as "Exception ignored" and
  dropped, and a bot of someone's own may catch it with a bare ``except``. So each press is also
  counted, and the run looks at the count after every game.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType


class Presses:
    """How many times SIGINT came while it was held or noted."""

    def __init__(self) -> None:
        self.count = 0
        self.listening = False
        """Whether SIGINT comes here (not in another thread, nor under someone else's handler)."""

    def __bool__(self) -> bool:
        return self.count > 0

    def note(self, signum: int, frame: FrameType | None) -> None:
        self.count += 1


Handler = Callable[[int, FrameType | None], None]


@contextmanager
def _handling(handler: Callable[[Presses], Handler]) -> Iterator[Presses]:
    """SIGINT goes to ``handler(presses)`` in the block.

    Only the main thread can set signal handlers (and only it gets KeyboardInterrupt), so in another
    thread this changes nothing. A handler someone else installed stays in charge.
    """
    presses = Presses()
    if threading.current_thread() is not threading.main_thread():
        yield presses
        return
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield presses
        return
    signal.signal(signal.SIGINT, handler(presses))
    presses.listening = True
    try:
        yield presses
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@contextmanager
def sigint_held() -> Iterator[Presses]:
    """Hold SIGINT in the block: a Ctrl-C is counted in the yielded ``Presses``, not raised."""
    with _handling(lambda presses: presses.note) as presses:
        yield presses


def _note_and_raise(presses: Presses) -> Handler:
    def handler(signum: int, frame: FrameType | None) -> None:
        presses.note(signum, frame)
        raise KeyboardInterrupt

    return handler


@contextmanager
def sigint_noted() -> Iterator[Presses]:
    """Ctrl-C raises KeyboardInterrupt in the block as usual and is counted in the yielded
    ``Presses``; check it between units of work to stop where the KeyboardInterrupt was lost.
    One lost inside a finalizer is not printed either: the press is kept in the count instead."""
    with _handling(_note_and_raise) as presses:
        if not presses.listening:
            yield presses
            return
        shown = sys.unraisablehook

        def hook(unraisable: sys.UnraisableHookArgs) -> None:
            if not issubclass(unraisable.exc_type, KeyboardInterrupt):
                shown(unraisable)

        sys.unraisablehook = hook
        try:
            yield presses
        finally:
            sys.unraisablehook = shown

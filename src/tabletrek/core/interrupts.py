"""Ctrl-C (and SIGTERM, SIGHUP) that is neither lost nor cuts a write short.

- **Held** (``sigint_held``): a player may press Ctrl-C at any moment, also while the record is
  being written after a quit, a finished game or an earlier Ctrl-C. The KeyboardInterrupt must not
  cut that write short (a truncated record cannot be resumed), so while saving SIGINT is only
  noted, and the command exits 130 after.
- **Noted** (``sigint_noted``): a study run stops on Ctrl-C with the games that had finished. The
  KeyboardInterrupt is raised as usual, but Python can lose it: raised while a finalizer runs
  (``__del__``, a generator closed as it is collected) it is printed as "Exception ignored" and
  dropped, and a bot of someone's own may catch it with a bare ``except``. So each press is also
  counted, and the run looks at the count after every game.
- **Terminated as interrupted** (``sigterm_as_ctrl_c``): ``kill PID``, ``timeout`` and a batch
  scheduler's time limit send SIGTERM, a closed terminal SIGHUP; a study command then stops as on
  Ctrl-C, with the summary of the games that had finished, and a terminal game is saved, rather
  than either ending without a word.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from types import FrameType


class Presses:
    """How many times a stop signal (Ctrl-C's SIGINT, or one taken as it) came in a block."""

    def __init__(self) -> None:
        self.count = 0
        self.listening = False
        """Whether SIGINT comes here (not in another thread, nor under someone else's handler)."""
        self.held = False
        """Under ``sigint_noted``: count a press without raising (``holding``)."""
        self.last: int | None = None
        """The number of the last signal counted."""

    def __bool__(self) -> bool:
        return self.count > 0

    def note(self, signum: int, frame: FrameType | None) -> None:
        self.count += 1
        self.last = signum

    @contextmanager
    def holding(self) -> Iterator[None]:
        """Under ``sigint_noted``, a press in the block is counted, not raised: the caller looks
        at the count after it (a game being handed over is then counted and saved, or neither)."""
        self.held = True
        try:
            yield
        finally:
            self.held = False


class Stopped(KeyboardInterrupt):
    """A stop signal other than Ctrl-C, taken as it (``sigterm_as_ctrl_c``); ``signum`` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__()
        self.signum = signum


def exit_status(signum: int | None = None) -> int:
    """128 + the number of the signal that stopped the command (Ctrl-C's SIGINT when none is
    named), as a shell reports it."""
    return 128 + (signal.SIGINT if signum is None else signum)


Handler = Callable[[int, FrameType | None], None]


@contextmanager
def _handling(
    handler: Callable[[Presses], Handler],
    signum: signal.Signals = signal.SIGINT,
    usual: Handler | signal.Handlers = signal.default_int_handler,
) -> Iterator[Presses]:
    """``signum`` goes to ``handler(presses)`` in the block, if it went to ``usual`` before.

    Only the main thread can set signal handlers (and only it gets KeyboardInterrupt), so in another
    thread this changes nothing. A handler someone else installed stays in charge.
    """
    presses = Presses()
    if threading.current_thread() is not threading.main_thread():
        yield presses
        return
    if signal.getsignal(signum) is not usual:
        yield presses
        return
    signal.signal(signum, handler(presses))
    presses.listening = True
    try:
        yield presses
    finally:
        signal.signal(signum, usual)


@contextmanager
def sigint_held() -> Iterator[Presses]:
    """Hold SIGINT in the block: a Ctrl-C is counted in the yielded ``Presses``, not raised."""
    with _handling(lambda presses: presses.note) as presses:
        yield presses


def _note_and_raise(presses: Presses) -> Handler:
    def handler(signum: int, frame: FrameType | None) -> None:
        presses.note(signum, frame)
        if not presses.held:
            raise KeyboardInterrupt

    return handler


_runs: list[Presses] = []
"""The ``Presses`` of the ``sigint_noted`` blocks of the main thread, innermost last: SIGTERM
taken as Ctrl-C (``sigterm_as_ctrl_c``) counts there too, also where SIGINT is ignored."""


@contextmanager
def sigint_noted() -> Iterator[Presses]:
    """Ctrl-C raises KeyboardInterrupt in the block as usual and is counted in the yielded
    ``Presses``; check it between units of work to stop where the KeyboardInterrupt was lost.
    One lost inside a finalizer is not printed either: the press is kept in the count instead."""
    with _handling(_note_and_raise) as presses:
        if threading.current_thread() is not threading.main_thread():
            yield presses
            return
        shown = sys.unraisablehook

        def hook(unraisable: sys.UnraisableHookArgs) -> None:
            if not issubclass(unraisable.exc_type, KeyboardInterrupt):
                shown(unraisable)

        if presses.listening:  # else a lost KeyboardInterrupt is not counted here: let it show
            sys.unraisablehook = hook
        _runs.append(presses)
        try:
            yield presses
        finally:
            _runs.remove(presses)
            sys.unraisablehook = shown


def _as_ctrl_c(terms: Presses) -> Handler:
    def handler(signum: int, frame: FrameType | None) -> None:
        terms.note(signum, frame)
        if _runs:  # counted as the run's press, and held where it holds them
            run = _runs[-1]
            run.note(signum, frame)
            if run.held:
                return
        raise Stopped(signum)

    return handler


@contextmanager
def sigterm_as_ctrl_c(*also: signal.Signals) -> Iterator[Presses]:
    """SIGTERM, and each signal ``also`` names (SIGHUP: the terminal was closed), stop the block
    as Ctrl-C would, also where Ctrl-C is ignored (a command a script started with ``&``); the
    yielded ``Presses`` counts them (``last``: which came last). A signal ignored when the block
    starts (SIGHUP under ``nohup``) stays ignored."""
    with ExitStack() as stack:
        terms = stack.enter_context(_handling(_as_ctrl_c, signal.SIGTERM, signal.SIG_DFL))
        for stop in also:
            stack.enter_context(_handling(lambda _: _as_ctrl_c(terms), stop, signal.SIG_DFL))
        yield terms

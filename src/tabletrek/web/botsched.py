"""One scheduler for every bot move of a server process: a bounded number of bot computations at
once, served in turn across the addresses that created the tables, and a per-move budget the
server sets whatever a table asked for (see docs/web.md, *Bots* and the limits table).

Without it every bot move ran in a thread of its own: eight bot-only tables at the search bot's
largest budget, opened and watched by one stranger, kept every core busy, and bot moves at other
people's tables waited behind them for the CPU.

Fairness is round-robin by *owner* (the keyed hash of the address that created the table, see
store.py): when a slot frees, the owner waiting longest since its last turn goes next, and it
goes to the back of the line. One address's eight tables then get as many bot turns as another
address's one table while both wait, and a move waits for at most one move of each other waiting
owner (each of those cut to the server's budget).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from tabletrek.bots.search.settings import DEFAULT_ITERATIONS, DEFAULT_MS
from tabletrek.core.actions import Action
from tabletrek.core.bots import GENERIC_BOTS
from tabletrek.core.game import Game
from tabletrek.core.numeric import is_number
from tabletrek.core.state import State
from tabletrek.web.ratelimit import Limits

log = logging.getLogger("tabletrek.web")

T = TypeVar("T")

SWITCH_INTERVAL = 0.0005
"""Seconds a thread holding Python's interpreter lock runs before it must hand it over when
another thread waits (Python's default is 0.005). A bot thinking in Python (Double Crossing's
playouts) holds the lock against the event loop, which needs it back after every socket call: at
the default, a ping at a person's table beside 8 such bot-only tables took 560 ms at p95, at
0.0005 s 9 ms (benchmarks/web_bot_fairness.py, docs/web.md)."""


def share_the_interpreter() -> None:
    """Let the event loop get the interpreter lock back quickly from bot threads."""
    sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))


SLOW_BOT = 0.01
"""Seconds of thinking after which a bot moves in a worker thread, not on the event loop."""


class BotScheduler:
    """Runs bot moves: ``slots`` worker threads at most, handed out in turn by owner.

    Moves at tables where nobody plays (``alone``: only watched) take at most ``slots - 1`` of
    them (all of one slot on a one-core server): a person's table then finds a slot free, or
    waits for other people's tables only, however many bot-only tables anyone watches.

    A move that was measured to be quick (``inline``) runs on the event loop without a slot: it
    cannot fill the CPU (one per table per bot delay) and a thread hop costs more than it does;
    making it wait behind someone's search would only slow the table that asked for little."""

    HISTORY = 1000

    def __init__(self, slots: int) -> None:
        self.slots = max(1, int(slots))
        self.alone_slots = max(1, self.slots - 1)
        self.executor = ThreadPoolExecutor(max_workers=self.slots, thread_name_prefix="bot")
        self.busy = 0
        self.busy_alone = 0
        self._waiting: OrderedDict[str, deque[tuple[asyncio.Future[None], bool]]] = OrderedDict()
        """Owner -> its moves waiting for a slot (and whether each is at a table where nobody
        plays), oldest first; the dict's order is the turn order."""
        self.granted: list[str] = []
        """The owners slots were given to, in order (the last ``HISTORY``): what the tests read."""
        self.slow: set[tuple[str, str]] = set()
        """(game, bot) kinds seen thinking longer than SLOW_BOT: at every table, from then on."""
        self.fast: set[tuple[str, str]] = set()
        """(game, bot) kinds whose first move, timed in a thread, took under SLOW_BOT."""

    def quick(self, kind: tuple[str, str], search: bool) -> bool:
        """Whether a move of ``kind`` runs on the event loop: timed quick, never seen slow, no search."""
        return kind in self.fast and kind not in self.slow and not search

    def timed(self, kind: tuple[str, str], seconds: float, search: bool, quick: bool) -> None:
        """Learn from a move of ``kind`` that took ``seconds`` (run on the loop when ``quick``)."""
        if seconds > SLOW_BOT:
            self.slow.add(kind)
        elif not search and not quick and kind not in self.slow:
            self.fast.add(kind)

    @property
    def waiting(self) -> int:
        return sum(len(queue) for queue in self._waiting.values())

    async def run(
        self, owner: str, fn: Callable[..., T], *args: Any, inline: bool = False, alone: bool = False
    ) -> T:
        """``fn(*args)`` as ``owner``'s bot move: on the event loop when ``inline``, else in a
        worker thread once a slot is free and it is ``owner``'s turn. ``alone``: the move is at
        a table where nobody plays."""
        if inline:
            return fn(*args)
        await self._slot(owner, alone)
        loop = asyncio.get_running_loop()
        try:
            work: Future[T] = self.executor.submit(fn, *args)
        except BaseException:
            self._release(alone)
            raise
        # The slot is given back when the thread is done, not when the waiting task is: a table
        # dropped mid-move (cancelled) must not let another computation start beside its thread.
        work.add_done_callback(lambda _done: _call_soon(loop, lambda: self._release(alone)))
        return await asyncio.wrap_future(work)

    async def _slot(self, owner: str, alone: bool = False) -> None:
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(owner, deque()).append((turn, alone))
        self._grant()  # a free slot is taken at once, without a trip round the event loop
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release(alone)  # granted in the same moment it was cancelled: pass it on
            else:
                self._forget(owner, turn)
            raise

    def _take(self, owner: str, alone: bool = False) -> None:
        self.busy += 1
        self.busy_alone += alone
        self.granted.append(owner)
        if len(self.granted) > 2 * self.HISTORY:
            del self.granted[: -self.HISTORY]

    def _forget(self, owner: str, turn: asyncio.Future[None]) -> None:
        queue = self._waiting.get(owner)
        if queue is None:
            return
        for entry in queue:
            if entry[0] is turn:
                queue.remove(entry)
                break
        if not queue:
            del self._waiting[owner]

    def _release(self, alone: bool = False) -> None:
        self.busy -= 1
        self.busy_alone -= alone
        self._grant()

    def _next(self) -> tuple[str, int] | None:
        """The owner whose turn it is and its first move that may take a slot now."""
        alone_full = self.busy_alone >= self.alone_slots
        for owner, queue in self._waiting.items():
            for index, (_turn, alone) in enumerate(queue):
                if not (alone and alone_full):
                    return owner, index
        return None

    def _grant(self) -> None:
        while self.busy < self.slots:
            found = self._next()
            if found is None:
                return
            owner, index = found
            queue = self._waiting[owner]
            turn, alone = queue[index]
            del queue[index]
            if queue:
                self._waiting.move_to_end(owner)  # its next move waits for every other owner's
            else:
                del self._waiting[owner]
            if turn.cancelled():
                continue
            self._take(owner, alone)
            turn.set_result(None)

    def shutdown(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)


OVER_DEFAULT = 4
"""A search move runs at most this many times the game's own default iterations (its measured
table setting): a playout costs 200 times more in Double Crossing (Python playouts of its trader
bot) than in Touring (compiled), so one ceiling for all games either starves the one or lets the
other think for a minute. Measured on the 2-core test machine under load (docs/web.md): Touring
and Mexican Train at 10,000 iterations took at most 0.4 s a move, Double Crossing at 400 (4 x its
100) at most 3.9 s and at 10,000 up to 68 s, Goofspiel at 10,000 about 20 s. Settings that make
an iteration dearer (no compiled playouts) are held by the time ceiling instead."""


def iteration_ceiling(game: Game, most: int) -> int:
    """The most iterations a search move of ``game`` runs on the server (``most``: the limit)."""
    own = game.search().defaults.get("iterations", DEFAULT_ITERATIONS)
    return max(1, min(most, OVER_DEFAULT * int(own)))


def searches(name: str) -> bool:
    """Whether bot ``name`` is a search with a budget (ismcts): it thinks in a worker thread from
    its first move, and the server holds it to its budget. Measuring it on the event loop first
    froze every table of the server for as long as that move took (9.5 s at a Touring table
    whose creator set iterations=10000)."""
    generic = GENERIC_BOTS.get(name)
    return generic is not None and generic[1]


def timed(act: Callable[[State], Action], state: State) -> tuple[Action, float]:
    """A bot's move and the seconds it took (measured where it runs, not counting its wait)."""
    started = time.perf_counter()
    action = act(state)
    return action, time.perf_counter() - started


def server_budget(game: Game, params: dict[str, Any], limits: Limits) -> dict[str, Any]:
    """A search bot's settings held to the server's ``limits``: at most ``iteration_ceiling``
    playouts (of ``bot_iterations``), ``bot_ms`` milliseconds and ``bot_threads`` threads a
    move, whatever the table asked for. The time ceiling applies to every move, so a move whose playouts cost
    more than measured still ends; within it, a move of a seeded table stays reproducible.

    A table that names no budget plays with the game's measured defaults (or the search's own),
    so those are spelt out here before the ceiling applies: naming only ``ms`` would otherwise
    drop the game's default iterations (see ``tabletrek.bots.search_bot``)."""
    capped = dict(params)
    defaults = game.search().defaults
    iterations = iteration_ceiling(game, limits.bot_iterations)
    ms, threads = limits.bot_ms, limits.bot_threads
    if "iterations" not in capped and "ms" not in capped:
        for key in ("iterations", "ms"):
            if key in defaults:
                capped[key] = defaults[key]
        if "iterations" not in capped and "ms" not in capped:
            capped["iterations"], capped["ms"] = DEFAULT_ITERATIONS, DEFAULT_MS
    if "iterations" in capped:
        capped["iterations"] = _at_most(capped["iterations"], iterations)
    capped["ms"] = _at_most(capped.get("ms", ms), ms)
    capped["threads"] = _at_most(capped.get("threads", defaults.get("threads", 1)), threads)
    return capped


def _at_most(value: Any, ceiling: float) -> Any:
    """``value`` cut to ``ceiling``; a value that is no number is left for the bot's own check
    (which refused it when the table was created)."""
    if not is_number(value):
        return value
    return min(value, type(value)(ceiling))


def _call_soon(loop: asyncio.AbstractEventLoop, fn: Callable[[], None]) -> None:
    # a move finishing after the server stopped has no loop to give its slot back to
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(fn)

"""Bots at a live table: which seat a bot plays, the bot itself, and the task that moves them.

A bot thinks on its own copy of the game, not holding the table's lock: a search move takes
seconds in Double Crossing, plus its wait for a slot of the server's bot scheduler (botsched.py),
and meanwhile the table's page loads, chat and players' messages are answered. Its move is applied
only if the table has not moved on meanwhile (a player back at a seat a bot was playing, moves
followed from another server process); otherwise it thinks again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import Action
from tabletrek.core.bots import Bot
from tabletrek.core.errors import UsageError
from tabletrek.core.events import Event
from tabletrek.core.game import Game
from tabletrek.core.rng import derive_seed
from tabletrek.core.state import State
from tabletrek.web.botsched import BotScheduler, searches, server_budget, timed
from tabletrek.web.conns import Conn, SeatInfo
from tabletrek.web.errors import WebError
from tabletrek.web.eventlog import Step
from tabletrek.web.ratelimit import Limits
from tabletrek.web.store import TableRow

log = logging.getLogger("tabletrek.web")

YIELD_BOTS_FOR = 5.0
"""Seconds of quiet from the other process after which this one moves the table's bots again."""


def takeover_bot_name(game: Game) -> str:
    """The bot that stands in for an absent human: the game's own heuristic when it has one."""
    names = game.heuristic_bots()
    return names[1] if len(names) > 1 else names[0]


class BotSeats:
    """Mixed into LiveTable: what it needs from it is declared here."""

    id: str
    row: TableRow
    game: Game
    state: State
    log: list[Step]
    seats: list[SeatInfo]
    lock: asyncio.Lock
    archived: bool
    bots: BotScheduler
    limits: Limits
    owner: str
    bot_delay: float
    _bots: dict[int, Bot]
    _drive_task: asyncio.Task[None] | None
    _retake_task: asyncio.Task[None] | None
    _yielded_at: float | None

    if TYPE_CHECKING:

        @property
        def seq(self) -> int: ...
        def conns(self) -> list[Conn]: ...
        async def catch_up(self) -> None: ...
        async def _commit(self, seat: int, events: list[Event]) -> None: ...

    def _bot_seat_to_move(self) -> int | None:
        seat = self.state.current_player
        if seat is None:
            return None
        info = self.seats[seat]
        return seat if info.kind == "bot" or info.away else None

    def _bot(self, seat: int) -> Bot:
        bot = self._bots.get(seat)
        info = self.seats[seat]
        name = info.bot if info.kind == "bot" and info.bot else takeover_bot_name(self.game)
        if bot is None or getattr(bot, "name", name) != name:
            asked = info.params if info.kind == "bot" else {}
            seed = derive_seed(self.row.seed, "bot", seat)
            try:
                bot = self.game.bot(name, seat=seat, seed=seed, **self._budget(seat, name, asked))
            except UsageError as exc:
                # stored by an older server, before a check that now refuses them ("ms": "inf")
                log.warning(
                    "table %s: seat %d's bot settings are refused (%s): it plays with its defaults",
                    self.id,
                    seat + 1,
                    exc,
                )
                bot = self.game.bot(name, seat=seat, seed=seed, **self._budget(seat, name, {}))
            self._bots[seat] = bot
        return bot

    def _budget(self, seat: int, name: str, asked: dict[str, Any]) -> dict[str, Any]:
        """The settings a bot plays with here: a search's held to the server's budget."""
        if not searches(name):
            return asked
        params = server_budget(self.game, asked, self.limits)
        if any(key in asked and asked[key] != params[key] for key in params):
            log.info("table %s: seat %d's bot held to the budget %s", self.id, seat + 1, params)
        return params

    def _ensure_drive(self) -> None:
        if self._bot_seat_to_move() is None or self._drive_task is not None or self.archived:
            return
        if not self.conns():
            return  # nobody watches: bots wait (a table of bots alone would play to no one)
        if self._yielded_at is not None and time.monotonic() - self._yielded_at < YIELD_BOTS_FOR:
            # Another server process moves this table's bots (shared store). If it goes quiet,
            # take them back: checked once when the grace time is up, not by polling.
            if self._retake_task is None:
                self._retake_task = asyncio.create_task(self._retake_later())
            return
        self._yielded_at = None
        self._drive_task = asyncio.create_task(self._drive())

    async def _retake_later(self) -> None:
        try:
            while self._yielded_at is not None and time.monotonic() - self._yielded_at < YIELD_BOTS_FOR:
                await asyncio.sleep(YIELD_BOTS_FOR - (time.monotonic() - self._yielded_at) + 0.05)
            self._retake_task = None
            await self.catch_up()
        finally:
            self._retake_task = None

    async def _drive(self) -> None:
        try:
            while True:
                async with self.lock:
                    if self._bot_seat_to_move() is None or not self.conns() or self.archived:
                        self._drive_task = None
                        return
                if self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay)
                else:
                    await asyncio.sleep(0)
                refused: WebError | None = None
                async with self.lock:
                    seat = self._bot_seat_to_move()
                    if seat is None or not self.conns() or self.archived:
                        continue
                    live, moved = self.state, self.seq
                    seen = live.clone()
                # Think on a copy, without the lock: a search move takes seconds in Double
                # Crossing, plus its wait for a bot slot, and the table's page loads, chat and
                # sockets would wait for it all.
                action = await self._bot_move(seat, seen)
                async with self.lock:
                    if self.state is not live or self.seq != moved or self._bot_seat_to_move() != seat:
                        continue  # the table moved on meanwhile (a player back, a rebuild): think again
                    if not self.conns() or self.archived:
                        continue
                    events = self.state.apply(action)
                    try:
                        await self._commit(seat, events)
                    except WebError as exc:
                        refused = exc
                    if refused is not None and refused.key == "web.error.conflict":
                        # Another process sharing the store moved first: let it move the bots
                        # while it keeps doing so (catch_up follows its moves).
                        self._yielded_at = time.monotonic()
                        self._drive_task = None
                        return
                if refused is not None:
                    await asyncio.sleep(1.0)  # the store refused: retry later, do not spin
        except asyncio.CancelledError:
            raise
        except Exception:
            self._drive_task = None
            raise

    async def _bot_move(self, seat: int, state: State) -> Action:
        """The bot's choice, through the server's bot scheduler (botsched.py): in a worker thread
        when a slot is free and it is this table's creator's turn, unless its first move (timed
        there) was quick: it then moves on the event loop (a thread hop costs more than its
        move) until seen thinking for long. A first move is never timed on the event loop: the
        Codenames partners load their word tables then (a second), and every table would wait.

        ``state`` is the bot's own copy of the table's state: the lock is not held meanwhile."""
        try:
            bot = self._bot(seat)
            kind = (self.game.name, getattr(bot, "name", type(bot).__name__))
            search = searches(kind[1])
            quick = self.bots.quick(kind, search)
            # nobody plays here, someone only watches: it may not take people's tables' last slot
            alone = not any(info.conns for info in self.seats if info.kind == "human")
            run = self.bots.run
            action, seconds = await run(self.owner, timed, bot.act, state, inline=quick, alone=alone)
            self.bots.timed(kind, seconds, search, quick)
            return action
        except Exception:
            # a broken bot must not stall the table: log it and make a random legal move instead
            log.exception("bot for seat %s of table %s failed; moving at random", seat, self.id)
            fallback = self.game.bot("random", seat=seat, seed=derive_seed(self.row.seed, len(self.log)))
            return fallback.act(state)

"""Live tables: the authoritative game state, its seats and connections, bots and turn clocks.

One ``asyncio.Lock`` per table serialises everything that reads or changes the state (a bot
thinks on a copy taken under it). An action is applied, then committed to the store, and only then
broadcast: nobody hears of a move that a crash could lose. Each connection gets only its own
seat's ``view`` (a spectator the ``public_view``) and the events as its seat may see them.

Following other server processes is in follow.py, claiming seats in invites.py, moving the bots
in botseats.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from tabletrek.core.actions import IllegalAction
from tabletrek.core.bots import Bot
from tabletrek.core.events import Event, seat_ref
from tabletrek.core.game import Game
from tabletrek.core.registry import load_recorded
from tabletrek.core.state import State
from tabletrek.i18n import DEFAULT_LANG, bot_short, seat_name, translate
from tabletrek.web.botsched import BotScheduler
from tabletrek.web.botseats import BotSeats
from tabletrek.web.conns import Conn, SeatInfo
from tabletrek.web.errors import WebError
from tabletrek.web.eventlog import Step, for_viewer, step
from tabletrek.web.follow import FollowStore
from tabletrek.web.invites import Invites
from tabletrek.web.ratelimit import Limits
from tabletrek.web.store import Conflict, Store, TableRow, token_hash
from tabletrek.web.writer import Writer

LOG_TAIL = 400
"""Log lines sent on (re)connection; older ones are in the replay."""
log = logging.getLogger("tabletrek.web")


@functools.lru_cache(maxsize=256)
def shared_game(name: str, players: int, options: str, rules: int | None = None) -> Game:
    """One Game per (game, players, options): games are immutable, and each holds its own tables
    of actions, which 500 tables would otherwise hold 500 copies of."""
    # A stored table names every option its game had; one it predates keeps its old rule. A table
    # from rules this code cannot replay exactly is refused (ValueError), never half-replayed.
    return load_recorded(name, players, json.loads(options), rules)


def shown_name(
    domain: str, seat: int, bot: str | None, nickname: str | None, lang: str = DEFAULT_LANG
) -> str:
    """A seat's nickname, else its bot's short name and its number, else its number; in English
    ("Greedy (P2)") the table's own name, which the log, the chat and nicknames go by (i18n.js
    shownNames: the page's)."""
    own = seat_name(seat, lang)
    if nickname or not bot:
        return nickname or own
    return translate("web.ui.bot_seat", lang, bot=bot_short(domain, bot, lang), seat=own)


class LiveTable(BotSeats, FollowStore, Invites):
    def __init__(
        self,
        row: TableRow,
        store: Store,
        writer: Writer,
        executor: Executor,
        bot_delay: float,
        *,
        bots: BotScheduler,
        limits: Limits,
    ) -> None:
        self.id = row.id
        self.row = row
        self.bots = bots
        self.limits = limits
        # whose turn this table's bot moves take: its creator's address (keyed hash), else its own
        self.owner = row.creator or f"table {row.id}"
        self.store = store
        self.writer = writer
        self.executor = executor
        self.bot_delay = bot_delay
        self.game: Game = shared_game(
            row.game, row.players, json.dumps(row.options, sort_keys=True), row.rules
        )
        self.seats = [
            SeatInfo(s.seat, s.kind, s.bot, dict(s.params), s.token_hash, s.nickname, s.invite_hash)
            for s in row.seats
        ]
        self.archived = row.status == "archived"
        self.unwatched_since = time.monotonic()
        self._watched_at = 0.0
        self._sync_task: asyncio.Task[None] | None = None
        self._want: set[str] = set()
        self._incoming: list[tuple[int, str | None]] = []
        self._retake_task: asyncio.Task[None] | None = None
        self.spectators: set[Conn] = set()
        self.lock = asyncio.Lock()
        self.state: State = self.game.new_game(seed=row.seed)
        self.log: list[Step] = []
        """Per accepted action: the acting seat and its events (compact: see eventlog)."""
        self._bots: dict[int, Bot] = {}
        self._drive_task: asyncio.Task[None] | None = None
        self._clock_task: asyncio.Task[None] | None = None
        self._clock_key: tuple[int, int] | None = None
        self.deadline: float | None = None
        self._yielded_at: float | None = None
        """When another process (shared store) last moved this table's bots before us."""
        self._replay(row.actions)

    # ----- rebuilding ---------------------------------------------------------------------------

    def _replay(self, actions: list[str]) -> None:
        state = self.game.new_game(seed=self.row.seed)
        log: list[Step] = []
        for i, text in enumerate(actions):
            actor = state.current_player
            try:
                log.append(step(actor, state.apply(text)))
            except IllegalAction as exc:
                raise ValueError(f"table {self.id}: stored action {i} ({text!r}) is illegal: {exc}") from None
        self.state = state
        self.log = log

    async def _rebuild_from_store(self) -> None:
        loop = asyncio.get_running_loop()
        row = await loop.run_in_executor(self.executor, self.store.load_table, self.id)
        if row is not None:
            self.row.actions = row.actions
            self._replay(row.actions)

    # ----- queries ------------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        return len(self.log)

    @property
    def finished(self) -> bool:
        """Over, or archived: no more moves either way."""
        return self.archived or self.state.is_over

    def watched_since(self, when: float) -> bool:
        return bool(self.conns()) or self._watched_at >= when

    def names(self, lang: str = DEFAULT_LANG) -> list[str]:
        """In ``lang`` for a seat nobody named, but in English where that is another's nickname."""
        taken = {s.nickname.casefold() for s in self.seats if s.nickname}
        domain = self.game.domain
        return [
            shown_name(domain, s.seat, s.bot, None) if not s.nickname and name.casefold() in taken else name
            for s, name in ((s, shown_name(domain, s.seat, s.bot, s.nickname, lang)) for s in self.seats)
        ]

    def name_taken(self, seat: int, nickname: str) -> bool:
        """Whether another seat is already shown by this name (letter case aside): its nickname,
        or the name an unnamed seat or a bot is shown by. Two seats showing one name is one
        player speaking for another in the log and the chat."""
        wanted = nickname.casefold()
        return any(name.casefold() == wanted for other, name in enumerate(self.names()) if other != seat)

    def seat_for_token(self, token: str) -> int | None:
        digest = token_hash(token)
        for info in self.seats:
            if info.token_hash is not None and info.token_hash == digest:
                return info.seat
        return None

    # ----- messages -----------------------------------------------------------------------------

    def table_info(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game.name,
            "domain": self.game.domain,
            "players": self.game.players,
            "options": dict(self.game.options),
            "clock": self.row.clock,
            "seats": [s.public() for s in self.seats],
            "spectators": len(self.spectators),
            "over": self.state.is_over,
            "archived": self.archived,
            # practice: its only person is its creator, who may have chosen the seed
            "practice": self.row.practice,
            "public": self.row.public,
        }

    def _log_lines(self, seat: int | None, start: int) -> list[dict[str, Any]]:
        lines: list[dict[str, Any]] = []
        for index in range(start, len(self.log)):
            for entry in self.log[index][1]:
                lines.append(for_viewer(entry, seat))
        return lines

    def message_for(self, conn: Conn, start: int | None, view_cache: dict[int | None, Any]) -> dict[str, Any]:
        """The state message for one connection; ``start`` None means a full resync."""
        seat = conn.seat
        state = self.state
        if seat not in view_cache:
            view_cache[seat] = state.public_view() if seat is None else state.view(seat)
        view = view_cache[seat]
        legal: list[dict[str, str]] = []
        to_act = state.current_player
        if seat is not None and to_act == seat and not self.seats[seat].away and not self.archived:
            legal = self._legal_for(view, conn.lang)
        if start is None:
            first = max(0, len(self.log) - LOG_TAIL)
            # Show at most LOG_TAIL lines while keeping whole steps together.
            log = self._log_lines(seat, first)
        else:
            log = self._log_lines(seat, start)
        result = state.result
        return {
            "type": "state",
            "seq": len(self.log),
            "you": seat,
            "view": view,
            "legal": legal,
            "to_act": to_act,
            "over": state.is_over,
            "result": result.to_dict() if result else None,
            "table": self.table_info(),
            "names": self.names(),
            "clock": self._clock_info(),
            "log": log,
            "log_reset": start is None,
        }

    def _legal_for(self, view: dict[str, Any], lang: str) -> list[dict[str, str]]:
        actions = self.state.legal_actions()
        try:
            ui = self.game.terminal()
            names = self.names(lang)
            return [{"text": a.text, "label": ui.describe(a, view, lang, names)} for a in actions]
        except Exception:  # a game's describe is presentation only; never let it block play
            return [{"text": a.text, "label": a.text} for a in actions]

    def _clock_info(self) -> dict[str, Any] | None:
        if self.deadline is None or self._clock_key is None:
            return None
        return {"seat": self._clock_key[0], "remaining": max(0.0, self.deadline - time.monotonic())}

    def conns(self) -> list[Conn]:
        out = list(self.spectators)
        for info in self.seats:
            out.extend(info.conns)
        return out

    def broadcast(self, start: int | None) -> None:
        cache: dict[int | None, Any] = {}
        for conn in self.conns():
            conn.send(self.message_for(conn, start, cache))

    def _send_seats(self, skip: Conn | None = None) -> None:
        message = {"type": "seats", "table": self.table_info(), "names": self.names()}
        for other in self.conns():
            if other is not skip:
                other.send(message)

    def notice(self, key: str, **args: Any) -> None:
        """Tell everyone at the table something that is not a move (shown in their log)."""
        message = {"type": "notice", "key": key, "args": args}
        for conn in self.conns():
            conn.send(message)

    def _demote(self, info: SeatInfo, key: str) -> None:
        """The seat's connections watch from now on (its token changed hands)."""
        for conn in list(info.conns):
            info.conns.discard(conn)
            conn.seat = None
            self.spectators.add(conn)
            conn.send(WebError(key).to_message())
            conn.send(self.message_for(conn, None, {}))

    def _set_away(self, seat: int, away: bool, why: str) -> None:
        """A bot takes a person's seat over (``away``) or hands it back; logged and told to all."""
        info = self.seats[seat]
        if info.kind != "human" or info.away == away:
            return
        info.away = away
        if away:
            log.info("table %s: a bot takes over seat %d (%s)", self.id, seat + 1, why)
            self.notice("web.notice.bot_takes_over", seat=seat_ref(seat), why=why)
        else:
            log.info("table %s: the player takes seat %d back (%s)", self.id, seat + 1, why)
            self.notice("web.notice.player_back", seat=seat_ref(seat))

    # ----- connections --------------------------------------------------------------------------

    async def join(self, conn: Conn, token: str | None, nickname: str | None) -> None:
        if token and not self.store.is_sqlite and self.seat_for_token(token) is None:
            await self.refresh_seats()  # claimed through another server process a moment ago?
        async with self.lock:
            if not self.store.is_sqlite and not self.finished:
                await self._catch_up_locked()  # a shared store: show the moves other processes made
            seat = None
            if token:
                seat = self.seat_for_token(token)
                if seat is None:
                    raise WebError("web.error.bad_token")
            if conn.seat is not None:
                self.seats[conn.seat].conns.discard(conn)
            self.spectators.discard(conn)
            conn.seat = seat
            self._watched_at = time.time()
            if seat is None:
                self.spectators.add(conn)
            else:
                info = self.seats[seat]
                if info.conns:
                    # One live connection per seat: the newest holds it, the older one watches,
                    # and everyone at the table is told the seat was opened somewhere else.
                    self._demote(info, "web.error.seat_elsewhere")
                    log.info("table %s: seat %d opened by a second connection", self.id, seat + 1)
                    self.notice("web.notice.seat_reopened", seat=seat_ref(seat))
                info.conns.add(conn)
                if nickname and nickname != info.nickname:
                    if self.name_taken(seat, nickname):
                        # seated all the same, under the seat's own name; the page says why
                        conn.send(WebError("web.error.nickname_taken", nickname=nickname).to_message())
                    else:
                        info.nickname = nickname
                        await self._run(self.store.set_nickname, self.id, seat, nickname)
                self._set_away(seat, False, "came back")  # hand the seat back from the bot
            self._arm_clock()
            conn.send(self.message_for(conn, None, {}))
            self._send_seats(skip=conn)
            self._ensure_drive()

    def leave_conn(self, conn: Conn) -> None:
        """A dropped connection (no lock needed: only sets membership)."""
        if conn.seat is not None:
            self.seats[conn.seat].conns.discard(conn)
        self.spectators.discard(conn)
        conn.close()
        self._watched_at = time.time()
        if not self.conns():
            self.unwatched_since = time.monotonic()
        self._send_seats()

    async def leave_seat(self, conn: Conn) -> None:
        """The player leaves the table: a bot plays the seat until they come back."""
        async with self.lock:
            if conn.seat is None:
                raise WebError("web.error.spectator")
            self._set_away(conn.seat, True, "the player left")
            self._after_change(None)

    async def come_back(self, conn: Conn) -> None:
        async with self.lock:
            if conn.seat is None:
                raise WebError("web.error.spectator")
            self._set_away(conn.seat, False, "came back")
            self._after_change(None)

    async def set_nickname(self, conn: Conn, nickname: str) -> None:
        async with self.lock:
            if self.archived:
                raise WebError("web.error.archived")
            if conn.seat is None:
                raise WebError("web.error.spectator")
            if self.name_taken(conn.seat, nickname):
                raise WebError("web.error.nickname_taken", nickname=nickname)
            self.seats[conn.seat].nickname = nickname
            await self._run(self.store.set_nickname, self.id, conn.seat, nickname)
            self._after_change(None)

    # ----- acting -------------------------------------------------------------------------------

    async def act(self, conn: Conn, text: str, seq: int | None, claimed_seat: int | None) -> None:
        async with self.lock:
            seat = conn.seat
            if seat is None:
                raise WebError("web.error.spectator")
            if claimed_seat is not None and claimed_seat != seat:
                raise WebError("web.error.wrong_seat", seat=seat_ref(seat), claimed=claimed_seat)
            if self.state.is_over:
                raise WebError("core.illegal.game_over")
            if self.archived:
                raise WebError("web.error.archived")
            if seq is not None and seq != len(self.log):
                conn.send(self.message_for(conn, None, {}))  # refresh the out-of-date screen
                raise WebError("web.error.stale", seq=seq, current=len(self.log))
            to_act = self.state.current_player
            if to_act != seat:
                raise WebError(
                    "web.error.not_your_turn", player=seat_ref(to_act if to_act is not None else 0)
                )
            try:
                events = self.state.apply(text)
            except IllegalAction as exc:
                raise WebError(exc.key, **exc.params) from None
            self._set_away(seat, False, "moved")
            await self._commit(seat, events)

    async def _commit(self, seat: int, events: list[Event]) -> None:
        """Store the action just applied, then tell everyone; on a store failure, undo by rebuilding."""
        start = len(self.log)
        text = self.state.history[-1]
        status = "over" if self.state.is_over else None
        try:
            await self.writer.append((self.id, start, text, seat, status))
        except Conflict:
            await self._rebuild_from_store()
            self._after_change(None)
            raise WebError("web.error.conflict") from None
        except Exception:
            await self._rebuild_from_store()
            self._after_change(None)
            raise WebError("web.error.store") from None
        self.log.append(step(seat, events))
        self._after_change(start)

    async def _run(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self.store.is_sqlite:
            # A local SQLite commit (WAL, no fsync per commit) takes about 0.3 ms: cheaper done right
            # here than the hand-off to a thread and back, which costs more under load.
            return fn(*args)
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    def _after_change(self, start: int | None) -> None:
        """Broadcast, then arm the turn clock and let bots move. Called with the lock held."""
        self.broadcast(start)
        self._arm_clock()
        self._ensure_drive()

    # ----- turn clock ---------------------------------------------------------------------------

    def _arm_clock(self) -> None:
        clock = self.row.clock
        seat = self.state.current_player
        if (
            not clock
            or self.archived
            or seat is None
            or self.seats[seat].kind != "human"
            or self.seats[seat].away
        ):
            self._cancel_clock()
            return
        key = (seat, len(self.log))
        if key == self._clock_key:
            return
        self._cancel_clock()
        self._clock_key = key
        self.deadline = time.monotonic() + clock
        self._clock_task = asyncio.create_task(self._clock(key, clock))

    def _cancel_clock(self) -> None:
        if self._clock_task is not None and self._clock_task is not asyncio.current_task():
            self._clock_task.cancel()
        self._clock_task = None
        self._clock_key = None
        self.deadline = None

    async def _clock(self, key: tuple[int, int], seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with self.lock:
            if self._clock_key != key:
                return
            self._clock_task = None
            self._clock_key = None
            self.deadline = None
            # timed out: a bot plays until the player returns
            self._set_away(key[0], True, f"no move in {seconds:g} s")
            self._after_change(None)

    def drop(self) -> None:
        """Forgotten by the manager (nobody watches): stop its tasks; it reloads when asked for."""
        for task in (self._drive_task, self._clock_task, self._sync_task, self._retake_task):
            if task is not None:
                task.cancel()
        self._drive_task = self._clock_task = self._sync_task = self._retake_task = None

    async def close(self) -> None:
        for task in (self._drive_task, self._clock_task, self._sync_task, self._retake_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._drive_task = self._clock_task = self._sync_task = self._retake_task = None
        for conn in self.conns():
            conn.close()

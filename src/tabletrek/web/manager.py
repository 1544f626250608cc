"""The set of tables a server process holds: creating them, loading them, rebuilding them on start."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tabletrek.core.bots import settings_of
from tabletrek.core.data import DataError
from tabletrek.core.errors import UsageError, referred
from tabletrek.core.game import Game
from tabletrek.core.numeric import is_number, is_whole
from tabletrek.core.registry import game_class, games, load, load_with
from tabletrek.core.rng import new_seed
from tabletrek.web import chat, validation
from tabletrek.web.botsched import BotScheduler, share_the_interpreter
from tabletrek.web.errors import WebError, reason
from tabletrek.web.notify import Listener
from tabletrek.web.ratelimit import MAX_CLOCK, MIN_CLOCK, Limits
from tabletrek.web.store import Full, SeatRow, Store, TableRow, new_token, token_hash
from tabletrek.web.tables import LiveTable, shown_name
from tabletrek.web.writer import Writer

log = logging.getLogger("tabletrek.web")


def prepare_search() -> None:
    """Every game's search preparation; a failure is logged, the search then prepares on first use."""
    for name in games():
        try:
            prepare = load(name).search().prepare
            if prepare is not None:
                prepare()
        except Exception:
            log.exception("cannot prepare the search bot of %s", name)


MAX_BOT_NUMBER = 10_000
MAX_OPTION_NUMBER = 10_000
"""The largest number a game option with no maximum of its own takes on the server (Touring's
max_turns, Double Crossing's max_rounds): 10**19 overflowed the compiled search's 64-bit
integers, a traceback on every bot move, and made a game that never ends."""
MAX_TABLES = 5_000
"""Unfinished tables the store holds at most (memory, and a lid on a flood of table creations)."""
MAX_SEATS = 16
EVICT_AFTER = 600.0
"""Seconds an unwatched table stays in memory before it is dropped (it reloads on first access)."""


def new_table_id() -> str:
    # 96 bits: not a secret (spectator links are meant to be shared), but not enumerable either.
    return secrets.token_urlsafe(12)


def clean_nickname(value: Any) -> str | None:
    """A nickname checked by validation.nickname (kept under its old name for callers)."""
    return validation.nickname(value)


def shorten(text: str, limit: int = 400) -> str:
    """A game's error message for a browser: whole when short, else cut (some list every word)."""
    return text if len(text) <= limit else text[: limit - 1].rstrip(", ") + "…"


def refusal_detail(exc: Exception) -> Any:
    """Why a game refused its settings, for ``web.error.bad_options``: a ``UsageError`` as a catalog
    reference the browser renders in its reader's language, anything else as its own text."""
    return exc.reference() if isinstance(exc, UsageError | DataError) else shorten(str(exc))


def check_options(name: str, options: dict[str, Any]) -> None:
    """A table's options, checked against the game's option specs before the game sees them.

    Every key must be an option of the game and every value of its kind. A game may accept a
    file path in a free-text option (a word pack); on a server that would read the server's
    files for whoever asks, so a visitor may pick one of the option's ``named`` values (or, for
    an option that names none, a plain name), never a path.
    """
    specs = {spec.name: spec for spec in game_class(name).option_specs}
    for key, value in options.items():
        spec = specs.get(key)
        if spec is None:
            known = sorted(specs)
            shown = validation.shown_key(key)
            detail = reason("web.error.detail.unknown_option", name=shown, known=referred(known))
            raise WebError("web.error.bad_options", detail=detail)
        if value is None:
            continue
        kind = spec.kind
        if kind is bool:
            ok = isinstance(value, bool)
        elif kind is int:
            ok = is_whole(value)
        elif kind is float:
            ok = is_number(value)
        elif kind is str and spec.named is not None:
            ok = value in spec.named
        elif kind is str:
            ok = isinstance(value, str) and (
                spec.choices is not None or validation.PLAIN_NAME.fullmatch(value) is not None
            )
        else:
            ok = isinstance(value, (bool, int, float, str))
        if not ok:
            raise WebError("web.error.bad_options", detail=wrong_kind(key, kind, spec.named))
        if kind in (int, float) and spec.maximum is None and abs(value) > MAX_OPTION_NUMBER:
            detail = reason("web.error.detail.option_too_big", name=key, limit=MAX_OPTION_NUMBER)
            raise WebError("web.error.bad_options", detail=detail)


def wrong_kind(key: str, kind: type, named: Sequence[Any] | None) -> dict[str, Any]:
    """Why an option's value is refused: the kind of value it takes."""
    if named is not None:
        return reason("web.error.detail.option_named", name=key, names=[str(value) for value in named])
    simple = {bool: "web.error.detail.option_bool", int: "web.error.detail.option_int"}
    simple |= {float: "web.error.detail.option_float", str: "web.error.detail.option_plain"}
    if kind in simple:
        return reason(simple[kind], name=key)
    return reason("web.error.detail.option_kind", name=key, kind=kind.__name__)


check_free_text = check_options  # the old name


def check_bot_settings(params: dict[str, Any]) -> None:
    """Bot settings from a browser: short names, plain values, and no number that would let one
    table's bot think for hours (the server runs it)."""
    if len(params) > 16:
        raise WebError("web.error.bad_options", detail=reason("web.error.detail.bot_settings", limit=16))
    for key, value in params.items():
        if not isinstance(key, str) or not validation.PLAIN_NAME.fullmatch(key):
            detail = reason("web.error.detail.bot_setting_name", name=validation.shown_key(key))
            raise WebError("web.error.bad_options", detail=detail)
        if is_number(value) and abs(value) > MAX_BOT_NUMBER:
            detail = reason(
                "web.error.detail.bot_setting_too_big", name=key, value=value, limit=MAX_BOT_NUMBER
            )
            raise WebError("web.error.bad_options", detail=detail)
        if not isinstance(value, (bool, int, float, str)) or (
            isinstance(value, str) and not validation.PLAIN_NAME.fullmatch(value)
        ):
            detail = reason("web.error.detail.bot_setting_value", name=key)
            raise WebError("web.error.bad_options", detail=detail)


class Manager:
    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.6,
        poll: float | None = None,
        max_tables: int | None = None,
        limits: Limits | None = None,
        sync: str | None = None,
    ) -> None:
        self.limits = limits or Limits()
        if max_tables is not None:
            self.limits.max_tables = max_tables
        self.store = store
        self.bot_delay = bot_delay
        # SQLite allows one writer at a time: a single store thread keeps writes in order without
        # lock waits. PostgreSQL takes concurrent writers.
        self.executor = ThreadPoolExecutor(
            max_workers=1 if store.is_sqlite else 4, thread_name_prefix="store"
        )
        self.writer = Writer(store, self.executor)
        self.bots = BotScheduler(self.limits.bot_slots)
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        # How this process learns of moves other processes commit: PostgreSQL's NOTIFY, or (the
        # old way, and the fallback when asked for) reading the store every ``poll`` seconds.
        self.sync = sync or ("notify" if not store.is_sqlite else "none")
        if self.sync == "poll" and not poll:
            poll = 1.0
        self.poll = poll
        self.listener: Listener | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._last_sweep = time.time()

    async def _run(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    async def start(self) -> None:
        """Start serving at once: tables are rebuilt from their records on first access, not here
        (a store with thousands of unfinished tables would keep a restarted server from answering
        for minutes, and a table nobody comes back to need never be rebuilt)."""
        gc.collect()
        gc.freeze()
        share_the_interpreter()
        # Touring's compiled search takes seconds to compile on a new machine: do it now, not
        # on a table's first search move. A plain daemon thread, so the store's writer never waits.
        threading.Thread(target=prepare_search, name="prepare-search", daemon=True).start()
        if self.sync == "notify" and not self.store.is_sqlite:
            self.listener = Listener(self.store.url, self.on_notify, self.on_listen_gap)
            self._tasks.append(asyncio.create_task(self.listener.run()))
        if self.poll:
            self._tasks.append(asyncio.create_task(self._poll_loop(self.poll)))
        every = max(0.2, min(60.0, self.limits.idle_after / 4))
        self._tasks.append(asyncio.create_task(self._sweep_loop(every)))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        for table in list(self.tables.values()):
            await table.close()
        self.tables.clear()
        self.bots.shutdown()
        self.executor.shutdown(wait=True)

    # ----- other processes ----------------------------------------------------------------------

    def on_notify(self, payload: str) -> None:
        """A NOTIFY from the store: ``m``oves, a ``s``eat change or an ``a``rchived table."""
        kind, _, rest = payload.partition(" ")
        table_id, _, rest = rest.partition(" ")
        table = self.tables.get(table_id)
        if table is None:
            return  # not in memory here: it loads fresh from the store when asked for
        if kind == "m":
            number, _, text = rest.partition(" ")
            if number.isdigit():
                table.moves_committed(int(number), text or None)
            else:
                table.request_catch_up()
        elif kind == "s":
            table.request_seat_refresh()
        elif kind == "a":
            table.request_archive_check()

    def on_listen_gap(self) -> None:
        """The LISTEN connection was lost and is back: catch up on whatever was missed."""
        for table in list(self.tables.values()):
            table.request_seat_refresh()
            table.request_catch_up()

    async def _poll_loop(self, every: float) -> None:
        """The fallback: read the store for moves other server processes committed."""
        while True:
            await asyncio.sleep(every)
            for table in list(self.tables.values()):
                if table.conns() and not table.finished:
                    try:
                        await table.catch_up()
                    except Exception:
                        log.exception("catch-up failed for table %s", table.id)

    # ----- housekeeping -------------------------------------------------------------------------

    def sweep(self) -> int:
        """Forget tables nobody is watching: finished ones at once, unfinished ones after
        EVICT_AFTER seconds unwatched. They reload from the store when asked for."""
        now = time.monotonic()
        idle = [
            table_id
            for table_id, table in self.tables.items()
            if not table.conns()
            and not table.lock.locked()
            and (table.finished or now - table.unwatched_since > EVICT_AFTER)
        ]
        for table_id in idle:
            table = self.tables.pop(table_id)
            table.drop()
            self._loading.pop(table_id, None)
            chat.forget(table_id)
        return len(idle)

    async def archive_idle(self) -> list[str]:
        """Archive unfinished tables idle for ``limits.idle_after`` seconds (over every process
        sharing the store); a table watched here counts as touched now."""
        now = time.time()
        watched = [t.id for t in self.tables.values() if not t.finished and t.watched_since(self._last_sweep)]
        self._last_sweep = now
        await self._run(self.store.touch, watched, now)
        archived: list[str] = await self._run(self.store.archive_idle, now - self.limits.idle_after)
        for table_id in archived:
            log.info(
                "table %s archived: no move and nobody watching for %.0f s", table_id, self.limits.idle_after
            )
            table = self.tables.get(table_id)
            if table is not None:
                await table.archive()
        return archived

    async def _sweep_loop(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.archive_idle()
                self.sweep()
            except Exception:
                log.exception("sweep failed; trying again in %.0f s", every)

    # ----- tables -------------------------------------------------------------------------------

    async def get(self, table_id: str) -> LiveTable | None:
        if not isinstance(table_id, str) or not 8 <= len(table_id) <= 32:
            return None
        table = self.tables.get(table_id)
        if table is not None:
            return table
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = self.tables.get(table_id)
            if table is None:
                row = await self._run(self.store.load_table, table_id)
                if row is None:
                    self._loading.pop(table_id, None)
                    return None
                try:
                    table = self._build(row)
                except Exception:
                    # e.g. the game's rules changed so a stored move no longer replays
                    log.exception("table %s cannot be rebuilt from its record", table_id)
                    raise WebError("web.error.broken_table") from None
                self.tables[table_id] = table
                async with table.lock:
                    table._arm_clock()
        return table

    def _build(self, row: TableRow) -> LiveTable:
        return LiveTable(
            row, self.store, self.writer, self.executor, self.bot_delay, bots=self.bots, limits=self.limits
        )

    async def create(
        self, spec: Any, address: str | None = None, *, creator: str | None = None
    ) -> dict[str, Any]:
        """Create a table from a JSON request; returns the table id, the host's token, the
        creator's seat token and an invite code per other person's seat.

        ``address`` is the creating client's (stored only as Store.address_key, or ``creator``
        given as such a key already): its bots are scheduled as that address's, and it takes
        no open seat at this table."""
        if not isinstance(spec, dict):
            raise WebError("web.error.bad_request", detail=reason("web.error.detail.json_object"))
        validation.known_fields(spec, TABLE_FIELDS)
        game = requested_game(spec)
        seat_specs = spec.get("seats") or [{"kind": "human"}] + [{"kind": "bot"}] * (game.players - 1)
        if not isinstance(seat_specs, list) or len(seat_specs) != game.players:
            detail = reason("web.error.detail.seats", count=game.players)
            raise WebError("web.error.bad_request", detail=detail)
        nickname = validation.nickname(spec.get("nickname"))
        public = spec.get("public", False)
        if not isinstance(public, bool):
            raise WebError("web.error.bad_request", detail=reason("web.error.detail.public"))
        seats, token, invites = seat_rows(game, seat_specs, nickname)
        if nickname is not None and any(
            shown_name(game.domain, s.seat, s.bot, None).casefold() == nickname.casefold()
            for s in seats
            if s.token_hash is None
        ):
            # the creator would be shown by the name of another seat ("P2")
            raise WebError("web.error.nickname_taken", nickname=nickname)
        practice = sum(1 for s in seats if s.kind == "human") <= 1
        seed = table_seed(spec.get("seed"), practice)
        clock = table_clock(spec.get("clock"), practice, self.limits.clock)
        if public and not invites:
            detail = reason("web.error.detail.public_needs_invite")
            raise WebError("web.error.bad_request", detail=detail)
        host = new_token()
        now = time.time()
        if creator is None and address is not None:
            creator = self.store.address_key(address)
        row = TableRow(
            id=new_table_id(),
            game=game.name,
            players=game.players,
            options=dict(game.options),
            seed=seed,
            rules=game.rules_version,
            clock=float(clock) if clock else None,
            host_hash=token_hash(host),
            status="live",
            created=now,
            seats=seats,
            practice=practice,
            public=public,
            touched=now,
            creator=creator,
            creator_seat=next((s.seat for s in seats if s.token_hash is not None), None),
        )
        try:
            await self._run(self.store.create_table, row, self.limits.max_tables)
        except Full:
            raise WebError("web.error.full", limit=self.limits.max_tables).with_status(429) from None
        table = self._build(row)
        self.tables[row.id] = table
        async with table.lock:
            table._arm_clock()
        own = row.creator_seat
        tokens = {str(own): token} if own is not None and token is not None else {}
        return {
            "table": row.id,
            "host": host,
            "tokens": tokens,
            "invites": {str(seat): code for seat, code in invites.items()},
            "practice": practice,
            "public": public,
            "clock": row.clock,
        }


TABLE_FIELDS = ("game", "players", "options", "seats", "nickname", "public", "seed", "clock")
"""The fields of a request for a new table (docs/web.md, HTTP)."""
SEAT_FIELDS = {"human": ("kind",), "bot": ("kind", "bot", "params")}
"""The fields of each entry of its ``seats``, by kind: a person's seat is named when claimed."""


def requested_game(spec: dict[str, Any]) -> Game:
    """The game a table request names, with its player count and options checked."""
    name = spec.get("game")
    if not isinstance(name, str) or name not in games():
        raise WebError("web.error.unknown_game", game=str(name))
    players = spec.get("players")
    if players is not None:
        players = validation.small_int(players, "players", 1, MAX_SEATS)
    options = spec.get("options") or {}
    if not isinstance(options, dict):
        raise WebError("web.error.bad_request", detail=reason("web.error.detail.options_object"))
    check_options(name, options)
    try:
        return load_with(name, players, options)
    except (ValueError, TypeError) as exc:
        raise WebError("web.error.bad_options", detail=refusal_detail(exc)) from None


def seat_rows(
    game: Game, seat_specs: list[Any], nickname: str | None
) -> tuple[list[SeatRow], str | None, dict[int, str]]:
    """The seats of a new table, the creator's seat token (the first person's seat), and an
    invite code for every other person's seat."""
    seats: list[SeatRow] = []
    token: str | None = None
    invites: dict[int, str] = {}
    for seat, item in enumerate(seat_specs):
        if not isinstance(item, dict) or item.get("kind") not in ("human", "bot"):
            detail = reason("web.error.detail.seat_kind", seat=seat + 1)
            raise WebError("web.error.bad_request", detail=detail)
        validation.known_fields(item, SEAT_FIELDS[item["kind"]], seat=seat + 1)
        if item["kind"] == "bot":
            seats.append(bot_seat(game, seat, item))
        elif token is None:
            # The creator's own seat: the first person's seat.
            token = new_token()
            seats.append(SeatRow(seat, "human", None, {}, token_hash(token), nickname))
        else:
            # Another person's seat: a one-use invite; whoever claims it first gets a token
            # of their own, which the host never sees.
            code = new_token()
            invites[seat] = code
            seats.append(SeatRow(seat, "human", None, {}, None, None, invite_hash=token_hash(code)))
    return seats, token, invites


def bot_seat(game: Game, seat: int, item: dict[str, Any]) -> SeatRow:
    bot = item.get("bot") or game.default_bot
    params = item.get("params") or {}
    if not isinstance(bot, str) or bot not in game.bots() or not isinstance(params, dict):
        raise WebError("web.error.unknown_bot", bot=str(bot), bots=list(game.bots()))
    check_bot_settings(params)
    try:
        game.bot(bot, seat=seat, seed=1, **settings_of(bot, params))
    except Exception as exc:  # a bot's own check of its settings, whatever it raises
        raise WebError("web.error.bad_options", detail=refusal_detail(exc)) from None
    return SeatRow(seat, "bot", bot, params, None, None)


def table_seed(seed: Any, practice: bool) -> int:
    if seed is None:
        return new_seed()  # the operating system's CSPRNG (secrets)
    if not practice:
        # Whoever picked the seed could compute every hidden card: only where nobody else plays.
        raise WebError("web.error.seed_not_allowed")
    if not is_whole(seed) or not 0 <= seed < 2**63:
        raise WebError("web.error.bad_request", detail=reason("web.error.detail.seed"))
    return seed


def table_clock(clock: Any, practice: bool, default: float | None) -> float | None:
    """Seconds per move (None: no clock)."""
    if clock in (None, 0, "", False):
        # Every table with more than one person has a clock, so nobody can stall it for ever.
        return None if practice else (default or None)
    if not is_number(clock) or not MIN_CLOCK <= clock <= MAX_CLOCK:
        raise WebError(
            "web.error.bad_request",
            detail=reason("web.error.detail.clock", low=MIN_CLOCK, high=MAX_CLOCK),
        )
    return clock

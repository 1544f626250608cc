"""The set of tables a server process holds: creating them, loading them, rebuilding them on start."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import re
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tabletrek.core.game import Game
from tabletrek.core.registry import game_class, games, load
from tabletrek.core.rng import new_seed
from tabletrek.web.errors import WebError
from tabletrek.web.store import SeatRow, Store, TableRow, new_token, token_hash
from tabletrek.web.tables import LiveTable
from tabletrek.web.writer import Writer

log = logging.getLogger("tabletrek.web")


def prepare_search() -> None:
    """Every game's ``prepare_search``; a failure is logged, the search then prepares on first use."""
    for name in games():
        try:
            load(name).prepare_search()
        except Exception:
            log.exception("cannot prepare the search bot of %s", name)


MAX_CLOCK = 24 * 3600.0
MAX_NICKNAME = 32
SWEEP_EVERY = 60.0
MAX_BOT_NUMBER = 10_000
MAX_TABLES = 5_000
"""Unfinished tables one process holds at most (memory, and a lid on a flood of table creations)."""
PLAIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")


def new_table_id() -> str:
    # 96 bits: not a secret (spectator links are meant to be shared), but not enumerable either.
    return secrets.token_urlsafe(12)


def clean_nickname(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    text = " ".join(value.split())[:MAX_NICKNAME]
    return text or None


def shorten(text: str, limit: int = 400) -> str:
    """A game's error message for a browser: whole when short, else cut (some list every word)."""
    return text if len(text) <= limit else text[: limit - 1].rstrip(", ") + "…"


def check_free_text(name: str, options: dict[str, Any]) -> None:
    """Free-text options from a browser may only be plain names.

    A game may accept a file path in a text option (a word pack); on a server that would read
    the server's files for whoever asks, so a visitor may pick a named choice, never a path.
    """
    specs = {spec.name: spec for spec in game_class(name).option_specs}
    for key, value in options.items():
        spec = specs.get(key)
        if spec is None or spec.kind is not str or spec.choices is not None or value is None:
            continue
        if not isinstance(value, str) or not PLAIN_NAME.fullmatch(value):
            raise WebError(
                "web.error.bad_options", detail=f"option {key!r} must be a plain name, not {value!r}"
            )


def check_bot_settings(params: dict[str, Any]) -> None:
    """Bot settings from a browser: short names, plain values, and no number that would let one
    table's bot think for hours (the server runs it)."""
    for key, value in params.items():
        if not isinstance(key, str) or not PLAIN_NAME.fullmatch(key):
            raise WebError("web.error.bad_options", detail=f"bot setting {key!r} is not a plain name")
        if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) > MAX_BOT_NUMBER:
            detail = f"bot setting {key}={value} is larger than {MAX_BOT_NUMBER}"
            raise WebError("web.error.bad_options", detail=detail)
        if not isinstance(value, (bool, int, float, str)) or (isinstance(value, str) and len(value) > 64):
            raise WebError(
                "web.error.bad_options", detail=f"bot setting {key!r} must be a number, word or true/false"
            )


class Manager:
    def __init__(
        self, store: Store, *, bot_delay: float = 0.6, poll: float | None = None, max_tables: int = MAX_TABLES
    ) -> None:
        self.max_tables = max_tables
        self.store = store
        self.bot_delay = bot_delay
        # SQLite allows one writer at a time: a single store thread keeps writes in order without
        # lock waits. PostgreSQL takes concurrent writers.
        self.executor = ThreadPoolExecutor(
            max_workers=1 if store.is_sqlite else 4, thread_name_prefix="store"
        )
        self.writer = Writer(store, self.executor)
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.poll = poll
        self._poll_task: asyncio.Task[None] | None = None
        self._sweep_task: asyncio.Task[None] | None = None

    async def _run(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    async def start(self) -> None:
        """Rebuild every unfinished table from its record, so bots and clocks carry on."""
        ids = await self._run(self.store.table_ids, "live")
        for table_id in ids:
            try:
                table = await self.get(table_id)
            except Exception:
                log.exception("cannot rebuild table %s", table_id)
                continue
            if table is not None:
                async with table.lock:
                    table._arm_clock()
                    table._ensure_drive()
        # What exists now (modules, catalogs, the rebuilt tables) mostly lives as long as the
        # server: keep the collector from walking it again on every full collection.
        gc.collect()
        gc.freeze()
        # Touring's compiled search takes seconds to compile on a new machine: do it now, not
        # on a table's first search move. A plain daemon thread, so the store's writer never waits.
        threading.Thread(target=prepare_search, name="prepare-search", daemon=True).start()
        if self.poll:
            self._poll_task = asyncio.create_task(self._poll_loop(self.poll))
        self._sweep_task = asyncio.create_task(self._sweep_loop(SWEEP_EVERY))

    async def stop(self) -> None:
        for task in (self._poll_task, self._sweep_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for table in list(self.tables.values()):
            await table.close()
        self.tables.clear()
        self.executor.shutdown(wait=True)

    def sweep(self) -> int:
        """Forget finished tables nobody is watching; they reload from the store when asked for."""
        idle = [
            table_id
            for table_id, table in self.tables.items()
            if table.state.is_over and not table.conns() and not table.lock.locked()
        ]
        for table_id in idle:
            del self.tables[table_id]
            self._loading.pop(table_id, None)
        return len(idle)

    async def _sweep_loop(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            self.sweep()

    async def _poll_loop(self, every: float) -> None:
        """With a shared store, pick up moves other server processes committed."""
        while True:
            await asyncio.sleep(every)
            for table in list(self.tables.values()):
                if table.conns() and not table.state.is_over:
                    try:
                        await table.catch_up()
                    except Exception:
                        log.exception("catch-up failed for table %s", table.id)

    async def get(self, table_id: str) -> LiveTable | None:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or not 8 <= len(table_id) <= 32:
            return None
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = self.tables.get(table_id)
            if table is None:
                row = await self._run(self.store.load_table, table_id)
                if row is None:
                    return None
                try:
                    table = LiveTable(row, self.store, self.writer, self.executor, self.bot_delay)
                except Exception:
                    # e.g. the game's rules changed so a stored move no longer replays
                    log.exception("table %s cannot be rebuilt from its record", table_id)
                    raise WebError("web.error.broken_table") from None
                self.tables[table_id] = table
        return table

    async def create(self, spec: Any) -> dict[str, Any]:
        """Create a table from a JSON request; returns the table id, host token and seat tokens."""
        if not isinstance(spec, dict):
            raise WebError("web.error.bad_request", detail="a JSON object")
        live = sum(1 for t in self.tables.values() if not t.state.is_over)
        if live >= self.max_tables:
            raise WebError("web.error.full", limit=self.max_tables)
        name = spec.get("game")
        if name not in games():
            raise WebError("web.error.unknown_game", game=str(name))
        players = spec.get("players")
        options = spec.get("options") or {}
        if not isinstance(options, dict):
            raise WebError("web.error.bad_request", detail="options must be an object")
        check_free_text(name, options)
        try:
            game: Game = load(name, players=players, **options)
        except (ValueError, TypeError) as exc:
            raise WebError("web.error.bad_options", detail=shorten(str(exc))) from None
        clock = spec.get("clock")
        if clock in (None, 0, ""):
            clock = None
        elif isinstance(clock, bool) or not isinstance(clock, (int, float)) or not 1 <= clock <= MAX_CLOCK:
            raise WebError("web.error.bad_request", detail="clock must be seconds between 1 and 86400")
        seat_specs = spec.get("seats") or [{"kind": "human"}] + [{"kind": "bot"}] * (game.players - 1)
        if not isinstance(seat_specs, list) or len(seat_specs) != game.players:
            raise WebError("web.error.bad_request", detail=f"seats must list {game.players} seats")
        seats: list[SeatRow] = []
        tokens: dict[int, str] = {}
        nickname = clean_nickname(spec.get("nickname"))
        for seat, item in enumerate(seat_specs):
            if not isinstance(item, dict) or item.get("kind") not in ("human", "bot"):
                raise WebError("web.error.bad_request", detail=f"seat {seat + 1} must be a human or a bot")
            if item["kind"] == "bot":
                bot = item.get("bot") or game.default_bot
                params = item.get("params") or {}
                if bot not in game.bots() or not isinstance(params, dict):
                    raise WebError("web.error.unknown_bot", bot=str(bot), bots=", ".join(game.bots()))
                check_bot_settings(params)
                try:
                    game.bot(bot, seat=seat, seed=1, **params)
                except (ValueError, TypeError) as exc:
                    raise WebError("web.error.bad_options", detail=shorten(str(exc))) from None
                seats.append(SeatRow(seat, "bot", bot, params, None, None))
            else:
                token = new_token()
                tokens[seat] = token
                first = not any(s.kind == "human" for s in seats)
                seats.append(SeatRow(seat, "human", None, {}, token_hash(token), nickname if first else None))
        seed = spec.get("seed")
        if seed is None:
            seed = new_seed()
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise WebError("web.error.bad_request", detail="seed must be an integer in [0, 2^63)")
        host = new_token()
        row = TableRow(
            id=new_table_id(),
            game=game.name,
            players=game.players,
            options=dict(game.options),
            seed=seed,
            clock=float(clock) if clock else None,
            host_hash=token_hash(host),
            status="live",
            created=time.time(),
            seats=seats,
        )
        await self._run(self.store.create_table, row)
        table = LiveTable(row, self.store, self.writer, self.executor, self.bot_delay)
        self.tables[row.id] = table
        async with table.lock:
            table._arm_clock()
            table._ensure_drive()
        return {
            "table": row.id,
            "host": host,
            "tokens": {str(seat): token for seat, token in tokens.items()},
        }

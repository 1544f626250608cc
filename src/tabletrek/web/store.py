"""The durable store of tables, seats and actions (SQLAlchemy Core: SQLite by default, PostgreSQL by URL).

An accepted action is one row ``(table_id, seq, text)``; the primary key on ``(table_id, seq)`` makes
two server processes sharing a PostgreSQL database unable to both append action ``seq`` of one table:
the loser gets ``Conflict``, catches up and retries. Seat tokens are stored only as SHA-256 digests,
so a leaked database does not hand out seats.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy import (
    text as sql_text,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import ConnectionPoolEntry

metadata = MetaData()

tables_t = Table(
    "tt_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", String(32), nullable=False),  # text: a 63-bit seed overflows some integer columns
    Column("clock", Float, nullable=True),
    Column("host_hash", String(64), nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("created", Float, nullable=False),
)

seats_t = Table(
    "tt_seats",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # "human" or "bot"
    Column("bot", String(64), nullable=True),
    Column("params", Text, nullable=False, default="{}"),
    Column("token_hash", String(64), nullable=True, index=True),
    Column("nickname", String(64), nullable=True),
)

actions_t = Table(
    "tt_actions",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("text", Text, nullable=False),
    Column("seat", Integer, nullable=True),
    Column("at", Float, nullable=False),
)


INSERT_ACTION = insert(actions_t)
"""Built once: parameters are passed per call, so SQLAlchemy compiles it once (the hot path)."""


ActionRow = tuple[str, int, str, int | None, str | None]
"""(table id, move number, action text, seat, the table's new status or None)"""


class Conflict(Exception):
    """Another writer already stored this action number for this table."""


def new_token() -> str:
    """A seat (or host) token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class SeatRow:
    seat: int
    kind: str
    bot: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    token_hash: str | None = None
    nickname: str | None = None


@dataclass
class TableRow:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    clock: float | None
    host_hash: str
    status: str
    created: float
    seats: list[SeatRow]
    actions: list[str] = field(default_factory=list)


def default_url() -> str:
    """A SQLite file in the user data directory (platformdirs, or $TABLETREK_HOME when set)."""
    from tabletrek.paths import user_data_dir

    return f"sqlite:///{user_data_dir() / 'web.sqlite3'}"


def normalize_url(url: str) -> str:
    """Accept plain ``postgresql://`` / ``postgres://`` URLs and use the psycopg 3 driver for them."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


SCHEMA_LOCK = 0x7461626C6574  # any fixed 64-bit key; "tablet" in ASCII


class Store:
    def __init__(self, url: str | None = None) -> None:
        self.url = normalize_url(url or default_url())
        self.is_sqlite = self.url.startswith("sqlite")
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            kwargs["connect_args"] = {"timeout": 30, "check_same_thread": False}
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
            metadata.create_all(self.engine)
        else:
            # Several server processes may start at once on one database: PostgreSQL's catalog
            # rejects concurrent CREATE TABLE of the same name, so the schema is made under a lock.
            with self.engine.begin() as conn:
                conn.execute(sql_text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
                metadata.create_all(conn)

    def close(self) -> None:
        self.engine.dispose()

    # ----- writes ---------------------------------------------------------------------------------

    def create_table(self, row: TableRow) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(tables_t).values(
                    id=row.id,
                    game=row.game,
                    players=row.players,
                    options=json.dumps(row.options, sort_keys=True),
                    seed=str(row.seed),
                    clock=row.clock,
                    host_hash=row.host_hash,
                    status=row.status,
                    created=row.created,
                )
            )
            conn.execute(
                insert(seats_t),
                [
                    {
                        "table_id": row.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "bot": s.bot,
                        "params": json.dumps(s.params, sort_keys=True),
                        "token_hash": s.token_hash,
                        "nickname": s.nickname,
                    }
                    for s in row.seats
                ],
            )

    def append_action(self, table_id: str, seq: int, text: str, seat: int | None, status: str | None) -> None:
        """Commit action ``seq`` (and the table's new status when the game ended) in one transaction."""
        try:
            with self.engine.begin() as conn:
                row = {"table_id": table_id, "seq": seq, "text": text, "seat": seat, "at": time.time()}
                conn.execute(INSERT_ACTION, row)
                if status is not None:
                    conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(status=status))
        except IntegrityError:
            raise Conflict(f"table {table_id} already has action {seq}") from None

    def append_actions(self, rows: list[ActionRow]) -> list[Conflict | None]:
        """Commit many actions in one transaction (group commit); per row, None or its Conflict.

        A duplicate (another process stored that move first) fails the batch; the rows are then
        committed one by one, so only the duplicates fail."""
        try:
            with self.engine.begin() as conn:
                now = time.time()
                conn.execute(
                    INSERT_ACTION,
                    [{"table_id": r[0], "seq": r[1], "text": r[2], "seat": r[3], "at": now} for r in rows],
                )
                for r in rows:
                    if r[4] is not None:
                        conn.execute(update(tables_t).where(tables_t.c.id == r[0]).values(status=r[4]))
            return [None] * len(rows)
        except IntegrityError:
            results: list[Conflict | None] = []
            for r in rows:
                try:
                    self.append_action(*r)
                    results.append(None)
                except Conflict as exc:
                    results.append(exc)
            return results

    def set_token_hash(self, table_id: str, seat: int, digest: str) -> None:
        self._update_seat(table_id, seat, token_hash=digest)

    def set_nickname(self, table_id: str, seat: int, nickname: str) -> None:
        self._update_seat(table_id, seat, nickname=nickname)

    def _update_seat(self, table_id: str, seat: int, **values: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.seat == seat).values(**values)
            )

    # ----- reads ----------------------------------------------------------------------------------

    def actions_since(self, table_id: str, seq: int) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(actions_t.c.text)
                .where(actions_t.c.table_id == table_id, actions_t.c.seq >= seq)
                .order_by(actions_t.c.seq)
            )
            return [r[0] for r in rows]

    def load_table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
            if row is None:
                return None
            seats = conn.execute(
                select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
            ).mappings()
            actions = conn.execute(
                select(actions_t.c.text).where(actions_t.c.table_id == table_id).order_by(actions_t.c.seq)
            )
            return TableRow(
                id=row["id"],
                game=row["game"],
                players=row["players"],
                options=json.loads(row["options"]),
                seed=int(row["seed"]),
                clock=row["clock"],
                host_hash=row["host_hash"],
                status=row["status"],
                created=row["created"],
                seats=[
                    SeatRow(
                        seat=s["seat"],
                        kind=s["kind"],
                        bot=s["bot"],
                        params=json.loads(s["params"] or "{}"),
                        token_hash=s["token_hash"],
                        nickname=s["nickname"],
                    )
                    for s in seats
                ],
                actions=[a[0] for a in actions],
            )

    def table_ids(self, status: str | None = None, limit: int | None = None) -> list[str]:
        query = select(tables_t.c.id).order_by(tables_t.c.created.desc())
        if status is not None:
            query = query.where(tables_t.c.status == status)
        if limit is not None:
            query = query.limit(limit)
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    def summaries(self, limit: int = 50) -> list[dict[str, Any]]:
        """Recent tables for the lobby: id, game, players, status (no tokens)."""
        query = (
            select(tables_t.c.id, tables_t.c.game, tables_t.c.players, tables_t.c.status, tables_t.c.created)
            .order_by(tables_t.c.created.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [dict(r) for r in conn.execute(query).mappings()]


def _sqlite_pragmas(dbapi_conn: Any, _record: ConnectionPoolEntry) -> None:
    # WAL: readers never block the writer. synchronous=NORMAL in WAL mode: a committed transaction
    # survives the server process being killed (the crash the tests simulate); only an OS crash or
    # power cut may lose the last commits. TABLETREK_SQLITE_SYNC=FULL trades speed for that too.
    import os

    sync = os.environ.get("TABLETREK_SQLITE_SYNC", "NORMAL").upper()
    if sync not in ("NORMAL", "FULL", "EXTRA"):
        sync = "NORMAL"
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA synchronous={sync}")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()

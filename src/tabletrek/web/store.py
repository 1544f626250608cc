"""The durable store of tables, seats and actions (SQLAlchemy Core: SQLite by default, PostgreSQL by URL).

An accepted action is one row ``(table_id, seq, text)``; the primary key on ``(table_id, seq)`` makes
two server processes sharing a PostgreSQL database unable to both append action ``seq`` of one table:
the loser gets ``Conflict``, catches up and retries. Seat tokens are stored only as SHA-256 digests,
so a leaked database does not hand out seats; so are the one-use invite codes of unclaimed seats.

With PostgreSQL every commit of moves also sends ``NOTIFY tabletrek`` in the same transaction, so
other server processes hear of the moves the moment they are committed (see notify.py).

The module is over 600 lines: the schema and the one class that reads and writes it, kept
together so that every query sits beside the columns it reads and the migrations beside both.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
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
    func,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy import (
    text as sql_text,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.pool import ConnectionPoolEntry

from tabletrek.web.dburl import checked_url, default_url, normalize_url, unavailable

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
    # Added after the first release: MIGRATIONS adds them to older databases.
    Column("practice", Integer, nullable=False, default=0),  # 1: only its creator plays (bots else)
    Column("public", Integer, nullable=False, default=0),  # 1: listed in the lobby while seats are open
    Column("touched", Float, nullable=True),  # last move, connection or creation (idle expiry)
    Column("rules", Integer, nullable=True),  # the game's rules version; NULL: stored before versions
    Column("creator", String(64), nullable=True),  # address_key() of its creator's address, or NULL
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
    Column("invite_hash", String(64), nullable=True),  # an unclaimed seat's one-use invite code
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

address_seats_t = Table(
    "tt_address_seats",
    metadata,
    # One row per (unfinished table, client address) holding a seat there: its creator's, and each
    # open seat of a public table claimed by number. The primary key is the one-seat-per-address
    # rule itself, so it holds across restarts and across processes sharing the store.
    Column("table_id", String(32), primary_key=True),
    Column("address", String(64), primary_key=True),  # address_key(): a keyed hash, never the address
    Column("seat", Integer, nullable=True),  # NULL: the creator holds no seat (a table of bots)
)

meta_t = Table(
    "tt_meta",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)

ADDRESS_SECRET = "address_secret"
"""tt_meta's row holding the install's secret key for address_key (made once, with the schema)."""


INSERT_ACTION = insert(actions_t)
"""Built once: parameters are passed per call, so SQLAlchemy compiles it once (the hot path)."""


ActionRow = tuple[str, int, str, int | None, str | None]
"""(table id, move number, action text, seat, the table's new status or None)"""


class Conflict(Exception):
    """Another writer already stored this action number for this table."""


class Full(Exception):
    """The store already holds as many unfinished tables as allowed."""


class _Taken(Exception):
    """Inside a claim's transaction: the seat was not open, roll back."""


class AddressHolds(Exception):
    """The claiming address already holds a seat at this table (or created it)."""


MIGRATIONS = {
    "tt_tables": {
        "practice": "INTEGER NOT NULL DEFAULT 0",
        "public": "INTEGER NOT NULL DEFAULT 0",
        "touched": "FLOAT",
        "rules": "INTEGER",
        "creator": "VARCHAR(64)",
    },
    "tt_seats": {"invite_hash": "VARCHAR(64)"},
}
"""Columns newer than the first schema: added to an older database when a server opens it."""

CHANNEL = "tabletrek"
"""The PostgreSQL NOTIFY channel: payload ``m <table id> <seq> <text>`` per move, ``s <table id>`` after a
seat changed hands (claimed, reissued, renamed), ``a <table id>`` when a table was archived."""
MAX_PAYLOAD = 7900
"""Bytes of a NOTIFY payload (PostgreSQL takes under 8,000); a longer move is sent without its text."""


def move_payload(table_id: str, seq: int, text: str) -> str:
    """``m <table id> <move number> <text>``: the text lets a listener apply the move without
    reading it back from the store."""
    payload = f"m {table_id} {seq} {text}"
    return payload if len(payload.encode("utf-8")) <= MAX_PAYLOAD else f"m {table_id} {seq}"


CAP_LOCK = 0x7461626C6575  # the advisory lock that makes the count-then-insert of a table atomic


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
    invite_hash: str | None = None


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
    practice: bool = False
    public: bool = False
    touched: float | None = None
    rules: int | None = None
    """The rules version the table is played under (None: stored before tables carried one)."""
    creator: str | None = None
    """Store.address_key of the address that created the table (None: unknown, or stored before
    tables carried one); its bots are scheduled under it, and it holds no open seat there."""
    creator_seat: int | None = None
    """The creator's own seat, recorded with ``creator`` when the table is stored."""


SCHEMA_LOCK = 0x7461626C6574  # any fixed 64-bit key; "tablet" in ASCII


class Store:
    def __init__(self, url: str | None = None) -> None:
        url = url or default_url()
        parsed = checked_url(url)
        self.url = normalize_url(url)
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            kwargs["connect_args"] = {"timeout": 30, "check_same_thread": False}
        self.engine: Engine = create_engine(parsed, **kwargs)
        try:
            self._open()
        except DBAPIError as exc:
            # the driver's reason (no such folder, refused, wrong password, not a database file)
            self.engine.dispose()
            raise unavailable(parsed, exc) from exc

    def _open(self) -> None:
        """The first connection: the schema made or brought up to date, the address secret read."""
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
            with self.engine.begin() as conn:
                metadata.create_all(conn)
                _migrate(conn)
                self._secret = _address_secret(conn)
        else:
            # Several server processes may start at once on one database: PostgreSQL's catalog
            # rejects concurrent CREATE TABLE of the same name, so the schema is made under a lock.
            with self.engine.begin() as conn:
                conn.execute(sql_text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
                metadata.create_all(conn)
                _migrate(conn)
                self._secret = _address_secret(conn)

    def address_key(self, address: str) -> str:
        """The form a client address is stored in: HMAC-SHA256 under this install's secret (kept
        in the store, so every process sharing it agrees). Equal addresses match; the address
        itself cannot be read back without the secret."""
        return hmac.new(self._secret, address.encode("utf-8", "replace"), hashlib.sha256).hexdigest()

    def close(self) -> None:
        self.engine.dispose()

    # ----- writes ---------------------------------------------------------------------------------

    def create_table(self, row: TableRow, cap: int | None = None) -> None:
        """Store a new table; with ``cap``, raise ``Full`` if that many unfinished tables exist.

        Count and insert are one transaction, serialised by an advisory lock on PostgreSQL (and by
        the one store thread on SQLite), so concurrent creations cannot overshoot the cap."""
        with self.engine.begin() as conn:
            if cap is not None:
                if self.engine.dialect.name == "postgresql":
                    conn.execute(sql_text("SELECT pg_advisory_xact_lock(:key)"), {"key": CAP_LOCK})
                if self._live_count(conn) >= cap:
                    raise Full(f"{cap} unfinished tables")
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
                    practice=int(row.practice),
                    public=int(row.public),
                    touched=row.touched if row.touched is not None else row.created,
                    rules=row.rules,
                    creator=row.creator,
                )
            )
            if row.creator is not None:
                holder = {"table_id": row.id, "address": row.creator, "seat": row.creator_seat}
                conn.execute(insert(address_seats_t).values(**holder))
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
                        "invite_hash": s.invite_hash,
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
                values: dict[str, Any] = {"touched": row["at"]}
                if status is not None:
                    values["status"] = status
                    _forget_addresses(conn, [table_id])
                conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))
                self._notify(conn, [move_payload(table_id, seq, text)])
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
                _forget_addresses(conn, [r[0] for r in rows if r[4] is not None])
                moved = sorted({r[0] for r in rows})
                conn.execute(update(tables_t).where(tables_t.c.id.in_(moved)).values(touched=now))
                # In the same transaction: the others hear of the moves exactly when they commit.
                self._notify(
                    conn, [move_payload(r[0], r[1], r[2]) for r in sorted(rows, key=lambda r: r[:2])]
                )
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

    def _notify(self, conn: Any, payloads: list[str]) -> None:
        if self.engine.dialect.name != "postgresql" or not payloads:
            return
        conn.execute(
            sql_text("SELECT pg_notify(:channel, p) FROM unnest(CAST(:payloads AS text[])) AS p"),
            {"channel": CHANNEL, "payloads": payloads},
        )

    def set_token_hash(self, table_id: str, seat: int, digest: str) -> None:
        self._update_seat(table_id, seat, token_hash=digest)

    def set_nickname(self, table_id: str, seat: int, nickname: str) -> None:
        self._update_seat(table_id, seat, nickname=nickname)

    def reissue_seat(self, table_id: str, seat: int, invite_digest: str) -> None:
        """A new invite code for a seat; whoever held the seat's token holds nothing now."""
        self._update_seat(table_id, seat, token_hash=None, invite_hash=invite_digest)

    def claim_seat(
        self,
        table_id: str,
        seat: int,
        invite_digest: str | None,
        token_digest: str,
        address: str | None = None,
    ) -> bool:
        """Give ``seat`` the token ``token_digest`` if its invite is still unclaimed (and is
        ``invite_digest``, when given); one atomic update, so of two claims exactly one wins.

        With ``address`` (an address_key), the address is recorded as holding the seat in the
        same transaction; ``AddressHolds`` if it holds one at this table already (or created it),
        and then nothing changes."""
        query = update(seats_t).where(
            seats_t.c.table_id == table_id, seats_t.c.seat == seat, seats_t.c.kind == "human"
        )
        if invite_digest is None:
            query = query.where(seats_t.c.invite_hash.is_not(None))
        else:
            query = query.where(seats_t.c.invite_hash == invite_digest)
        try:
            with self.engine.begin() as conn:
                if address is not None:
                    # first: on PostgreSQL a second process's insert of the same key waits for this
                    # transaction and then fails, so two claims from one address cannot both pass
                    holder = {"table_id": table_id, "address": address, "seat": seat}
                    conn.execute(insert(address_seats_t).values(**holder))
                if conn.execute(query.values(token_hash=token_digest, invite_hash=None)).rowcount != 1:
                    raise _Taken  # rolls back the address's row too
                self._notify(conn, [f"s {table_id}"])
                return True
        except _Taken:
            return False
        except IntegrityError:
            raise AddressHolds(table_id) from None

    def set_public(self, table_id: str, public: bool) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(public=int(public)))

    def touch(self, table_ids: list[str], when: float | None = None) -> None:
        if not table_ids:
            return
        with self.engine.begin() as conn:
            conn.execute(
                update(tables_t).where(tables_t.c.id.in_(table_ids)).values(touched=when or time.time())
            )

    def archive_idle(self, before: float, limit: int = 1000) -> list[str]:
        """Archive unfinished tables untouched since ``before``: they stay stored (record and
        replay), but no longer count as live, are not rebuilt and take no more moves."""
        with self.engine.begin() as conn:
            ids = [
                r[0]
                for r in conn.execute(
                    select(tables_t.c.id)
                    .where(tables_t.c.status == "live", tables_t.c.touched < before)
                    .limit(limit)
                )
            ]
            if ids:
                conn.execute(
                    update(tables_t)
                    .where(tables_t.c.id.in_(ids), tables_t.c.status == "live", tables_t.c.touched < before)
                    .values(status="archived")
                )
                _forget_addresses(conn, ids)
                self._notify(conn, [f"a {table_id}" for table_id in ids])
            return ids

    def _live_count(self, conn: Any) -> int:
        count = conn.execute(select(func.count()).select_from(tables_t).where(tables_t.c.status == "live"))
        return int(count.scalar_one())

    def live_count(self) -> int:
        with self.engine.connect() as conn:
            return self._live_count(conn)

    def _update_seat(self, table_id: str, seat: int, **values: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.seat == seat).values(**values)
            )
            self._notify(conn, [f"s {table_id}"])

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
            seats = self._seats(conn, table_id)
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
                seats=seats,
                actions=[a[0] for a in actions],
                practice=bool(row["practice"]),
                public=bool(row["public"]),
                touched=row["touched"],
                rules=row["rules"],
                creator=row["creator"],
            )

    @staticmethod
    def _seats(conn: Any, table_id: str) -> list[SeatRow]:
        rows = conn.execute(
            select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
        ).mappings()
        return [
            SeatRow(
                seat=s["seat"],
                kind=s["kind"],
                bot=s["bot"],
                params=json.loads(s["params"] or "{}"),
                token_hash=s["token_hash"],
                nickname=s["nickname"],
                invite_hash=s["invite_hash"],
            )
            for s in rows
        ]

    def load_seats(self, table_id: str) -> list[SeatRow]:
        with self.engine.connect() as conn:
            return self._seats(conn, table_id)

    def status(self, table_id: str) -> str | None:
        with self.engine.connect() as conn:
            value = conn.execute(select(tables_t.c.status).where(tables_t.c.id == table_id)).scalar()
            return str(value) if value is not None else None

    def table_ids(self, status: str | None = None, limit: int | None = None) -> list[str]:
        query = select(tables_t.c.id).order_by(tables_t.c.created.desc())
        if status is not None:
            query = query.where(tables_t.c.status == status)
        if limit is not None:
            query = query.limit(limit)
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    def summaries(self, limit: int = 50) -> list[dict[str, Any]]:
        """The lobby's list: public unfinished tables with at least one open (unclaimed) seat,
        newest first. Private tables (the default) are never listed: only their link finds them."""
        open_seats = (
            select(seats_t.c.table_id, func.count().label("open"))
            .where(seats_t.c.kind == "human", seats_t.c.invite_hash.is_not(None))
            .group_by(seats_t.c.table_id)
            .subquery()
        )
        query = (
            select(
                tables_t.c.id,
                tables_t.c.game,
                tables_t.c.players,
                tables_t.c.status,
                tables_t.c.created,
                tables_t.c.clock,
                open_seats.c.open,
            )
            .join(open_seats, open_seats.c.table_id == tables_t.c.id)
            .where(tables_t.c.status == "live", tables_t.c.public == 1)
            .order_by(tables_t.c.created.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = [dict(r) for r in conn.execute(query).mappings()]
            for r in rows:
                r["practice"] = False  # a practice table has no seat to offer
                r["public"] = True
                r["open_seats"] = [
                    s.seat for s in self._seats(conn, r["id"]) if s.kind == "human" and s.invite_hash
                ]
            return rows


def _migrate(conn: Any) -> None:
    """Add the columns newer than a database's schema (SQLAlchemy's create_all makes only tables)."""
    inspector = inspect(conn)
    for table, columns in MIGRATIONS.items():
        have = {c["name"] for c in inspector.get_columns(table)}
        for name, ddl in columns.items():
            if name not in have:
                conn.execute(sql_text(f"ALTER TABLE {table} ADD COLUMN {name} {ddl}"))
    # tables from before idle expiry count as touched when they were created
    conn.execute(update(tables_t).where(tables_t.c.touched.is_(None)).values(touched=tables_t.c.created))


def _forget_addresses(conn: Any, table_ids: list[str]) -> None:
    """A finished or archived table takes no more claims: whose addresses sat there is forgotten."""
    if table_ids:
        conn.execute(address_seats_t.delete().where(address_seats_t.c.table_id.in_(table_ids)))


def _address_secret(conn: Any) -> bytes:
    """The install's secret for address_key, made on first use (under the schema lock on
    PostgreSQL, so processes starting together make one)."""
    query = select(meta_t.c.value).where(meta_t.c.name == ADDRESS_SECRET)
    value = conn.execute(query).scalar()
    if value is None:
        value = secrets.token_hex(32)
        conn.execute(insert(meta_t).values(name=ADDRESS_SECRET, value=value))
    return bytes.fromhex(str(value))


def _sqlite_pragmas(dbapi_conn: Any, _record: ConnectionPoolEntry) -> None:
    # WAL: readers never block the writer. synchronous=NORMAL in WAL mode: a committed transaction
    # survives the server process being killed (the crash the tests simulate); only an OS crash or
    # power cut may lose the last commits. TABLETREK_SQLITE_SYNC=FULL trades speed for that too.

    sync = os.environ.get("TABLETREK_SQLITE_SYNC", "NORMAL").upper()
    if sync not in ("NORMAL", "FULL", "EXTRA"):
        sync = "NORMAL"
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA synchronous={sync}")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()

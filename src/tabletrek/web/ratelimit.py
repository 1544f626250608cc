"""Per-client rate limits: a token bucket per client address (or per seat, for moves).

A bucket holds up to ``burst`` tokens and refills at ``rate`` a second; each request takes one.
A refused request learns how long to wait (HTTP ``Retry-After``). Buckets are kept for at most
``max_keys`` clients, least recently seen forgotten first, so a flood of addresses cannot grow
the server's memory: a forgotten client starts again with a full bucket, which is harmless.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field, fields

from tabletrek.core.errors import UsageError
from tabletrek.core.machine import usable_cores

MAX_CLOCK = 24 * 3600.0
MIN_CLOCK = 1.0
"""A turn clock's range in seconds, a table's own or the server's default (``Limits.clock``)."""


@dataclass
class Limits:
    """Every limit a server applies; ``tabletrek serve --limit NAME=VALUE`` sets one."""

    create_rate: float = 10 / 60
    """Tables one client address may create a second, on average (10 a minute)."""
    create_burst: float = 10
    create_wide_rate: float = 30 / 60
    """Tables all the addresses of one IPv6 /48 may create a second together (30 a minute): a
    /48, a free tunnel-broker allocation, holds 65,536 of the /64s the other limits count by."""
    create_wide_burst: float = 30
    join_rate: float = 1.0
    """Table connections and seat claims one client address may open a second, on average."""
    join_burst: float = 30
    http_rate: float = 20.0
    """Other API requests one client address may make a second, on average."""
    http_burst: float = 200
    max_conns: int = 64
    """WebSocket connections one client address may hold open at once."""
    ws_rate: float = 20.0
    """Messages one seat (or one spectator's connection) may send a second, on average."""
    ws_burst: float = 40
    ws_address_rate: float = 60.0
    """Messages all the WebSocket connections of one client address may send a second together:
    without it, 64 spectator connections made 64 times the per-connection rate, each message
    fanned out to every connection at the table."""
    ws_address_burst: float = 120
    max_body: int = 64 * 1024
    """Bytes of a request body (a table's settings); more is refused while it streams in."""
    body_seconds: float = 30.0
    """Seconds a request body may take to arrive (a 64 KiB body needs well under one); a body
    sent a byte at a time is answered 408 and its connection closed."""
    header_seconds: float = 10.0
    """Seconds a connection has to send a request's headers, counted from connecting or from the
    previous answer: a socket that sends nothing, or headers a line at a time, is closed."""
    max_header: int = 32 * 1024
    """Bytes of a request's headers (browsers send a few kB; nothing here uses cookies)."""
    max_http_conns: int = 64
    """HTTP connections one client address may hold open at once (WebSockets count in max_conns);
    the addresses trusted as reverse proxies (uvicorn's forwarded_allow_ips) are not capped."""
    max_message: int = 8 * 1024
    """Characters of one WebSocket message."""
    max_tables: int = 5_000
    """Unfinished tables the store holds at most (over every server process sharing it)."""
    idle_after: float = 3600.0
    """Seconds after which an unfinished table nobody moves at or watches is archived."""
    clock: float = 180.0
    """The default turn clock, in seconds a move, of every table with more than one person (0:
    none unless a table asks for one); otherwise in a table's own range, since 0.5 s would hand
    every turn to a bot."""
    max_keys: int = 100_000
    """Client addresses whose buckets are remembered."""
    bot_slots: int = field(default_factory=usable_cores)
    """Bot moves computed at once (in worker threads), over every table of the process; the
    default is the number of cores. Moves wait their turn by the address that created the table."""
    bot_ms: float = 3000.0
    """Milliseconds a search bot may think for one move, whatever its table asked for."""
    bot_iterations: int = 10_000
    """Playouts a search bot may run for one move, whatever its table asked for (see docs/web.md
    for what a move costs at this ceiling)."""
    bot_threads: int = 1
    """Threads one search bot move may use: the slots count computations, so a bot's own threads
    would take cores beyond them."""

    def set(self, name: str, value: str) -> None:
        known = {f.name: f for f in fields(self)}
        if name not in known:
            raise UsageError("web.serve.unknown_limit", name=name, known=sorted(known))
        try:
            # ASCII only: float() also reads other scripts' digits ("٣") and full-width ones
            number = float(value) if value.isascii() else math.nan
        except ValueError:
            number = math.nan
        if not number >= 0 or not math.isfinite(number):
            raise UsageError("web.serve.limit_value", name=name, value=value)
        whole = known[name].type in ("int", int)
        if whole and not number.is_integer():  # int() cut max_conns=0.5 to 0 without a word
            raise UsageError("web.serve.limit_whole", name=name, value=value)
        if name in ("bot_slots", "bot_iterations", "bot_threads", "bot_ms") and number < 1:
            raise UsageError("web.serve.limit_too_small", name=name, value=value)
        if name == "clock" and number and not MIN_CLOCK <= number <= MAX_CLOCK:
            raise UsageError("web.serve.limit_clock", value=value, low=MIN_CLOCK, high=MAX_CLOCK)
        setattr(self, name, int(number) if whole else number)


class Bucket:
    """A token bucket: ``take`` is 0 when allowed, else the seconds until the next token."""

    __slots__ = ("at", "burst", "rate", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self.tokens = self.burst
        self.at = time.monotonic()

    def take(self) -> float:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        if self.rate <= 0:
            return 3600.0
        return (1 - self.tokens) / self.rate


class Limiter:
    """One bucket per key (a client address, a seat), the least recently used forgotten first."""

    def __init__(self, rate: float, burst: float, max_keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self.buckets: OrderedDict[Hashable, Bucket] = OrderedDict()

    def take(self, key: Hashable) -> float:
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = Bucket(self.rate, self.burst)
            while len(self.buckets) > self.max_keys:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        return bucket.take()


def network_key(host: str | None) -> str | None:
    """The IPv6 /48 a client's address belongs to (None for IPv4: one address is the unit there)."""
    if not host:
        return None
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    if not isinstance(address, ipaddress.IPv6Address) or address.ipv4_mapped is not None:
        return None
    return str(ipaddress.IPv6Network((int(address) >> 80 << 80, 48)))


def client_key(host: str | None) -> str:
    """The key a client's address is limited under: IPv4 as is, IPv6 by its /64 (one subscriber
    usually holds a whole /64, and would otherwise get 2**64 fresh buckets)."""
    if not host:
        return "?"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(address) >> 64 << 64, 64)))
    return str(address)


class ConnectionCount:
    """Open HTTP connections per client address (an IPv6 client by its /64), and per IPv6 /48
    (``wide_limit``: a /48 holds 65,536 /64s); shared by every connection of one server."""

    def __init__(self, limit: int, wide_limit: int) -> None:
        self.limits = (limit, wide_limit)
        self.open: dict[str, int] = {}

    def take(self, host: str | None) -> tuple[str, ...] | None:
        """The keys a new connection from ``host`` is counted under, or None when one is full."""
        wide = network_key(host)
        keys = (client_key(host),) if wide is None else (client_key(host), wide)
        if any(self.open.get(key, 0) >= limit for key, limit in zip(keys, self.limits, strict=False)):
            return None
        for key in keys:
            self.open[key] = self.open.get(key, 0) + 1
        return keys

    def give_back(self, keys: tuple[str, ...]) -> None:
        for key in keys:
            left = self.open.get(key, 1) - 1
            if left > 0:
                self.open[key] = left
            else:
                self.open.pop(key, None)

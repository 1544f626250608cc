"""Limits on the TCP connections themselves, below the app: what uvicorn does not bound.

uvicorn waits for ever for a new connection's first request, and reads its headers for as long as
they keep coming a line at a time ("slowloris"); nothing caps the sockets one client holds. A few
thousand such sockets from one machine use up the server's file descriptors, and then nobody can
connect. So every HTTP connection here:

- must send a request's headers within ``header_seconds`` of connecting, or of its previous
  answer (a keep-alive connection waiting for the browser's next request counts again from the
  answer), and in at most ``max_header`` bytes (httptools buffers a header line whole: one socket
  sending a 77 MB line grew the server by 140 MB); otherwise it is answered 400 or closed;
- is one of at most ``max_http_conns`` from its client address (IPv6: its /64, as the rate
  limits count it), and of four times that from its IPv6 /48; the connections over that are
  closed at once. The addresses uvicorn trusts
  as reverse proxies (``forwarded_allow_ips``) are not capped: every client arrives through them.

A connection upgraded to a WebSocket leaves both: the app caps those itself (``max_conns``), and
keeps them alive with pings. Bodies are bounded in time where the app reads them (bodylimit).
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from tabletrek.web.ratelimit import ConnectionCount, Limits


def trusted_hosts(value: list[str] | str) -> Callable[[str | None], bool]:
    """Whether a peer is one of ``value``, written as uvicorn's ``forwarded_allow_ips`` is:
    addresses, networks or ``*`` (every peer), as a list or separated by commas."""
    items = [item.strip() for item in (value.split(",") if isinstance(value, str) else value)]
    if "*" in items:
        return lambda _host: True
    networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    names: set[str] = set()
    for item in filter(None, items):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            names.add(item)  # a literal such as a unix socket's name

    def trusted(host: str | None) -> bool:
        if host is None:
            return False
        if host in names:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in networks)

    return trusted


def guarded_protocol(limits: Limits, trusted: list[str] | str) -> type[HttpToolsProtocol]:
    """uvicorn's HTTP protocol (httptools) with the deadline and the per-address cap; pass it to
    ``uvicorn.run(http=...)``. ``trusted`` is uvicorn's ``forwarded_allow_ips``."""
    count = ConnectionCount(limits.max_http_conns, 4 * limits.max_http_conns)
    is_proxy = trusted_hosts(trusted)

    class GuardedHTTP(HttpToolsProtocol):
        _keys: tuple[str, ...] | None = None
        _deadline: asyncio.TimerHandle | None = None
        _header_bytes = 0
        _awaiting = False
        """Between requests: what arrives now are the next request's headers."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # uvicorn narrows it to Transport too
            super().connection_made(transport)
            host = self.client[0] if self.client else None
            if not is_proxy(host):
                keys = count.take(host)
                if keys is None:
                    transport.close()
                    return
                self._keys = keys
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._header_bytes = 0
            self._awaiting = True
            if limits.header_seconds > 0:
                self._deadline = self.loop.call_later(limits.header_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _release(self) -> None:
            self._disarm()
            if self._keys is not None:
                count.give_back(self._keys)
                self._keys = None

        def _too_slow(self) -> None:
            self._deadline = None
            # Only a connection between requests is cut: a request whose headers are complete
            # runs to its answer (its body has its own deadline where the app reads it).
            if (self.cycle is None or self.cycle.response_complete) and not self.transport.is_closing():
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            awaiting = self._awaiting
            super().data_received(data)
            if awaiting and self._awaiting and not self.transport.is_closing():
                # still no complete headers after this chunk (a chunk that completes them may
                # carry the body too, which is not counted): httptools buffers them whole
                self._header_bytes += len(data)
                if self._header_bytes > limits.max_header:
                    self._disarm()
                    self._awaiting = False
                    self.send_400_response("Request headers too large.")

        def on_headers_complete(self) -> None:
            self._disarm()
            self._awaiting = False
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
                self._arm()  # no pipelined request started: the next one's headers are due

        def handle_websocket_upgrade(self) -> None:
            self._release()
            super().handle_websocket_upgrade()

        def connection_lost(self, exc: Exception | None) -> None:
            self._release()
            super().connection_lost(exc)

    return GuardedHTTP


def protocol_options(limits: Limits) -> dict[str, Any]:
    """The ``uvicorn.run`` keyword arguments that install the guard, with the trusted proxies
    read as uvicorn reads them (``FORWARDED_ALLOW_IPS``, else this machine) and handed to it too,
    so the cap and uvicorn's X-Forwarded-For handling trust the same peers."""
    trusted = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
    return {"http": guarded_protocol(limits, trusted), "forwarded_allow_ips": trusted}

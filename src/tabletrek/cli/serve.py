"""``tabletrek serve``: run the web app (lobby, live tables, replays) with uvicorn.

Every setting is checked, the port bound and the database opened before the command says the
server is running: a busy port, a mistyped host or a database that cannot be opened ends the
command with the reason, in the reader's language, not with a traceback or a line saying the
server runs when it does not."""

from __future__ import annotations

import errno
import ipaddress
import logging
import math
import socket
from typing import Annotated

import typer

from tabletrek.cli.common import fail, help_text, tr
from tabletrek.core.data import os_reason
from tabletrek.core.errors import UsageError, message_in, said
from tabletrek.i18n import env_lang

MAX_FRAME = 1 << 20
"""WebSocket frames above this are refused by the protocol layer (the app itself reads at most 8 KiB)."""

MAX_BOT_DELAY = 60.0
"""Longer than anyone waits for a bot: a larger value is a typo (milliseconds for seconds)."""

BACKLOG = 2048
"""Connections the system queues before the server accepts them (uvicorn's own default)."""

EVERY_ADDRESS = frozenset({"0.0.0.0", "::", ""})
"""Hosts that listen on every address of this machine."""

PROBES = {socket.AF_INET: "192.0.2.1", socket.AF_INET6: "2001:db8::1"}
"""Documentation addresses (RFC 5737, RFC 3849): no machine answers them, so asking for a route to
one finds the address this machine's traffic leaves from without sending anything."""


def serve(
    host: Annotated[str, typer.Option("--host", help=help_text("web.serve.host"))] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help=help_text("web.serve.port"))] = 8000,
    db: Annotated[str | None, typer.Option("--db", help=help_text("web.serve.db"))] = None,
    bot_delay: Annotated[float, typer.Option("--bot-delay", help=help_text("web.serve.bot_delay"))] = 0.6,
    sync: Annotated[str, typer.Option("--sync", help=help_text("web.serve.sync"))] = "notify",
    limit: Annotated[list[str] | None, typer.Option("--limit", help=help_text("web.serve.limit"))] = None,
) -> None:
    import uvicorn  # noqa: PLC0415 - the [web] extra

    from tabletrek.web.app import create_app  # noqa: PLC0415 - the [web] extra
    from tabletrek.web.connguard import protocol_options  # noqa: PLC0415 - the [web] extra
    from tabletrek.web.ratelimit import Limits  # noqa: PLC0415 - the [web] extra
    from tabletrek.web.sqlite_claim import claim_sqlite  # noqa: PLC0415 - the [web] extra

    lang = env_lang()
    limits = Limits()
    for item in limit or []:
        name, _, value = item.partition("=")
        try:
            limits.set(name.strip(), value.strip())
        except ValueError as exc:
            raise typer.BadParameter(message_in(exc, lang), param_hint="--limit") from None
    if sync not in ("notify", "poll"):
        raise typer.BadParameter(tr("web.serve.bad_sync", value=sync), param_hint="--sync")
    if not 0 <= port <= 65535:
        raise typer.BadParameter(tr("web.serve.bad_port", value=port), param_hint="--port")
    if not (math.isfinite(bot_delay) and 0 <= bot_delay <= MAX_BOT_DELAY):
        raise typer.BadParameter(
            tr("web.serve.bad_bot_delay", value=bot_delay, most=int(MAX_BOT_DELAY)), param_hint="--bot-delay"
        )
    # The port first: a second server started by mistake must not open (and migrate) the database.
    # Then the claim on a SQLite file, which another server started on another port may hold.
    sock = listening_socket(host, port, lang)
    claim = None
    try:
        claim = claim_sqlite(db, shared=sync == "poll")
        app = create_app(db, bot_delay=bot_delay, limits=limits, sync=sync)
    except UsageError as exc:
        sock.close()
        if claim is not None:
            claim.release()
        raise fail(message_in(exc, lang)) from None
    # The server's own log (tables created, archived, bots taking seats over) on stderr.
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    web_log = logging.getLogger("tabletrek.web")
    web_log.addHandler(handler)
    web_log.setLevel(logging.INFO)
    web_log.propagate = False
    bound = sock.getsockname()[1]  # port 0 asks the system for a free one
    # On every address, the page is opened at the one other computers reach: the invite links the
    # table shows are made from the address the host's browser used, and "localhost" in a friend's
    # link is the friend's own computer.
    shared = network_address(host, answered_on(sock))
    url = page_url(shared or host, bound)
    typer.echo(tr("web.serve.started", url=url, db=app.state.manager.store.engine.url))
    if shared is not None:
        typer.echo(tr("web.serve.network_open", port=bound))
    elif is_loopback(host):
        typer.echo(tr("web.serve.network_only_here"))
    # No per-message deflate: views are a few kB, and compressing every frame cost more CPU than
    # anything else per move in the load benchmark.
    config = uvicorn.Config(
        app,
        host=host,
        port=bound,
        ws_max_size=MAX_FRAME,
        ws_per_message_deflate=False,
        log_level="warning",
        access_log=False,
        backlog=BACKLOG,
        # idle sockets, headers or bodies sent a byte at a time, one address holding every socket
        **protocol_options(limits),
    )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # a second Ctrl+C while shutting down, as uvicorn.run takes it
        pass
    finally:
        sock.close()
        if claim is not None:
            claim.release()
    if not server.started:
        raise typer.Exit(code=3)  # the app's start-up failed; uvicorn has logged why


def listening_socket(host: str, port: int, lang: str) -> socket.socket:
    """A socket bound to ``host``:``port`` and listening, as uvicorn would bind it, or the reason
    it cannot be (a refusal that ends the command)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        said = tr("web.serve.cannot_listen", lang, address=host_port(host, port), reason=why(exc, lang))
        raise fail(said) from None
    return sock


def why(exc: OSError, lang: str) -> str:
    """What went wrong binding, in the reader's language where it is one of the usual causes."""
    if isinstance(exc, socket.gaierror):
        return tr("web.serve.no_such_host", lang)
    known = {
        errno.EADDRINUSE: "web.serve.port_in_use",
        errno.EACCES: "web.serve.port_denied",
        errno.EADDRNOTAVAIL: "web.serve.not_this_host",
    }
    key = known.get(exc.errno or 0)
    return tr(key, lang) if key else said(os_reason(exc), lang)


def page_url(host: str, port: int) -> str:
    """The lobby's address for a browser on this machine."""
    shown = "localhost" if host == "127.0.0.1" or host in EVERY_ADDRESS else host
    return f"http://{host_port(shown, port)}/"


def is_loopback(host: str) -> bool:
    """Whether only this machine can reach ``host``."""
    # One trailing dot is the same name written fully qualified; table-parts.js strips the same
    name = host.lower().removesuffix(".")
    if name == "localhost" or name.endswith(".localhost"):  # RFC 6761: always this machine
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    # ::ffff:127.0.0.1 is 127.0.0.1 reached over IPv6; Python 3.11 does not call it loopback
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    return (mapped or address).is_loopback


def network_address(host: str, families: tuple[socket.AddressFamily, ...]) -> str | None:
    """The address other computers on the network reach this one at, for a server listening on
    every address (``host`` 0.0.0.0 or ::) in ``families``, the first that has one: the address
    its route out leaves from. None for any other host, or when this machine has no route out but
    its loopback."""
    if host not in EVERY_ADDRESS:
        return None
    for family in families:
        try:
            found = ipaddress.ip_address(route_source(family, PROBES[family]))
        except (OSError, ValueError):
            continue
        if not (found.is_loopback or found.is_link_local or found.is_unspecified):
            return str(found)
    return None


def answered_on(sock: socket.socket) -> tuple[socket.AddressFamily, ...]:
    """The address families a listening socket answers, IPv4 first: an IPv6 socket on :: takes
    IPv4 too unless the system says otherwise (bindv6only), and people know their IPv4 address."""
    if sock.family != socket.AF_INET6:
        return (socket.AF_INET,)
    if sock.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY):
        return (socket.AF_INET6,)
    return (socket.AF_INET, socket.AF_INET6)


def route_source(family: socket.AddressFamily, probe: str) -> str:
    """This machine's address that traffic to ``probe`` would leave from (OSError: no route)."""
    with socket.socket(family, socket.SOCK_DGRAM) as udp:
        udp.connect((probe, 9))  # UDP: a route is chosen, nothing is sent
        return str(udp.getsockname()[0])


def host_port(host: str, port: int) -> str:
    """``host:port``, an IPv6 address in brackets (``[::1]:8000``)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"

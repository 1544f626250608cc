"""The ASGI app: lobby and table pages, a small JSON API, and one WebSocket per seat or spectator.

The routes live beside what they serve: ``pages`` (pages, the games, their rules, data, catalogs
and own browser files), ``table_routes`` (the tables' API), ``sockets`` (the WebSocket); the
``guard`` limits them all. This module wires them together."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tabletrek.web.guard import Guard
from tabletrek.web.lobby import api_game_bots
from tabletrek.web.manager import Manager
from tabletrek.web.missing import HANDLERS
from tabletrek.web.pages import (
    STATIC,
    UI_PREFIX,
    api_data,
    api_games,
    api_i18n,
    api_rules,
    game_file,
    page,
)
from tabletrek.web.ratelimit import Limits
from tabletrek.web.sockets import Sockets
from tabletrek.web.store import Store
from tabletrek.web.table_routes import TableRoutes


def create_app(
    db: str | None = None,
    *,
    bot_delay: float = 0.6,
    poll: float | None = None,
    max_tables: int | None = None,
    limits: Limits | None = None,
    sync: str | None = None,
) -> Starlette:
    """The app; ``db`` is a SQLAlchemy URL (None: SQLite in the user data directory).

    ``sync`` is how server processes sharing a PostgreSQL store hear of each other's moves:
    ``notify`` (LISTEN/NOTIFY, the default there) or ``poll`` (read the store every ``poll``
    seconds, the fallback)."""
    limits = limits or Limits()
    if max_tables is not None:
        limits.max_tables = max_tables
    store = Store(db)
    manager = Manager(store, bot_delay=bot_delay, poll=poll, limits=limits, sync=sync)
    guard = Guard(limits)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await manager.start()
        try:
            yield
        finally:
            await manager.stop()
            store.close()

    routes = [
        *page_routes(guard),
        *TableRoutes(manager, store, guard).routes(),
        WebSocketRoute("/ws/{table}", Sockets(manager, guard).endpoint),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(SecurityHeaders)],
        exception_handlers=HANDLERS,
    )
    app.state.manager = manager
    return app


async def no_icon(_request: Request) -> Response:
    return Response(status_code=204)


def page_routes(guard: Guard) -> list[BaseRoute]:
    limited = guard.limited
    return [
        Route("/", page("lobby")),
        Route("/t/{table}", page("table")),
        Route("/replay/{table}", page("replay")),
        Route("/rules/{game}", page("rules")),
        Route("/favicon.ico", no_icon),
        # a game's own page module and stylesheet, as its spec declares them
        Route(UI_PREFIX + "/{game}/{file}", game_file),
        Route("/api/games", limited(api_games)),
        Route("/api/games/{game}/rules", limited(api_rules)),
        Route("/api/games/{game}/bots", limited(api_game_bots)),
        Route("/api/games/{game}/data/{file}", limited(api_data)),
        Route("/api/i18n/{lang}", limited(api_i18n)),
    ]


SECURITY_HEADERS = [
    # pages load only this server's own scripts, styles, images and sockets; nothing embeds them
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """Adds SECURITY_HEADERS to every HTTP response (a plain ASGI middleware: WebSockets pass)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)

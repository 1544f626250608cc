"""The ASGI app: lobby and table pages, a small JSON API, and one WebSocket per seat or spectator."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import re
import time
import tomllib
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from tabletrek.core.game import Game
from tabletrek.core.registry import game_class, games, load, spec
from tabletrek.i18n import LANGS, catalog_json, normalize_lang
from tabletrek.web import chat, validation
from tabletrek.web.bodylimit import read_body
from tabletrek.web.conns import Conn
from tabletrek.web.errors import WebError
from tabletrek.web.lobby import api_game_bots
from tabletrek.web.manager import Manager
from tabletrek.web.ratelimit import Limiter, Limits, client_key
from tabletrek.web.rematch import rematch
from tabletrek.web.replay import replay_steps, replay_view, viewer_for
from tabletrek.web.store import Store
from tabletrek.web.tables import LiveTable

MAX_MESSAGE = Limits.max_message
"""Largest client message the app reads (action texts and clues are short)."""
MAX_BODY = Limits.max_body
MAX_ACTION = validation.MAX_ACTION
MAX_STEP = 10**7
FULL_RETRY = 60
"""Seconds a client is told to wait when the server holds as many tables as it may."""
DATA_NAME = re.compile(r"[a-z0-9_-]{1,40}")

log = logging.getLogger("tabletrek.web")

STATIC = Path(str(resources.files("tabletrek.web") / "static"))


def error_response(exc: WebError, status: int = 400, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(exc.to_message(), status_code=status, headers=headers)


class Limited(WebError):
    """A client over one of its rate limits: HTTP 429 with Retry-After."""

    def __init__(self, wait: float) -> None:
        super().__init__("web.error.too_many", seconds=max(1, math.ceil(wait)))
        self.wait = wait

    def response(self) -> JSONResponse:
        return error_response(self, 429, {"Retry-After": str(max(1, math.ceil(self.wait)))})


def playable_games() -> list[dict[str, Any]]:
    """Every registered game that loads; one still being written must not take the lobby down."""
    out: list[dict[str, Any]] = []
    for name in games():
        try:
            out.append(game_info(name, load(name)))
        except Exception:
            log.exception("game %s does not load; it is left out of the lobby", name)
    return out


def has_own_ui(name: str) -> bool:
    """Whether the game's spec names its own page module (static/games/...); others (and names
    that are no game) get the generic."""
    try:
        module = spec(name).web_module
    except ValueError:
        return False
    return module is not None and (STATIC / module).is_file()


def domain_of(name: str) -> str:
    """A game's catalog domain: its package's last part (as its spec says)."""
    try:
        return spec(name).domain
    except Exception:
        return name.replace("-", "_")


def game_info(name: str, game: Game) -> dict[str, Any]:
    return {
        "name": name,
        "domain": game.package.rsplit(".", 1)[-1],
        "player_counts": list(game.player_counts),
        "default_players": game.default_players,
        "bots": game.bots(),
        "options": [
            {
                "name": o.name,
                "default": o.default,
                "help": o.help,
                "kind": o.kind.__name__,
                "choices": list(o.choices) if o.choices is not None else None,
                "minimum": o.minimum,
                "maximum": o.maximum,
                "nullable": o.nullable,
            }
            for o in game.option_specs
        ],
    }


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
    create_limit = Limiter(limits.create_rate, limits.create_burst, limits.max_keys)
    join_limit = Limiter(limits.join_rate, limits.join_burst, limits.max_keys)
    http_limit = Limiter(limits.http_rate, limits.http_burst, limits.max_keys)
    ws_limit = Limiter(limits.ws_rate, limits.ws_burst, limits.max_keys)

    def client_of(request: Request | WebSocket) -> str:
        return client_key(request.client.host if request.client else None)

    def check(limiter: Limiter, key: object) -> None:
        wait = limiter.take(key)
        if wait > 0:
            raise Limited(wait)

    def limited(handler: Any, *limiters: Limiter) -> Any:
        """``handler`` behind the per-address limits; any WebError it raises becomes its answer."""

        async def wrapped(request: Request) -> Response:
            try:
                address = client_of(request)
                check(http_limit, address)
                for limiter in limiters:
                    check(limiter, address)
                response: Response = await handler(request)
                return response
            except Limited as exc:
                return exc.response()
            except WebError as exc:
                headers = None
                if exc.status == 413:
                    # a refused body is not read to its end: the connection cannot carry another
                    headers = {"Connection": "close"}
                elif exc.status == 429:
                    headers = {"Retry-After": str(FULL_RETRY)}
                return error_response(exc, exc.status, headers)

        return wrapped

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await manager.start()
        try:
            yield
        finally:
            await manager.stop()
            store.close()

    def page(name: str) -> Any:
        async def handler(_request: Request) -> Response:
            return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

        return handler

    async def api_games(_request: Request) -> Response:
        return JSONResponse({"games": playable_games(), "langs": list(LANGS)})

    async def api_rules(request: Request) -> Response:
        name = request.path_params["game"]
        if name not in games():
            return error_response(WebError("web.error.unknown_game", game=name), 404)

        lang = normalize_lang(request.query_params.get("lang"))
        try:
            text = load(name).rules_markdown(lang)
        except FileNotFoundError:
            return error_response(WebError("web.error.no_rules", game=name), 404)
        html = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
        return JSONResponse({"game": name, "lang": lang, "html": html})

    async def api_data(request: Request) -> Response:
        """A game's rule data file (``data/<name>.toml``) as JSON, e.g. a board for the UI to draw.

        Game-agnostic: rule data is public and shipped as files ("data, not code")."""
        name = request.path_params["game"]
        file = request.path_params["file"]
        if name not in games() or not DATA_NAME.fullmatch(file):
            return error_response(WebError("web.error.no_data", game=name, file=file), 404)
        resource = resources.files(game_class(name).package) / "data" / f"{file}.toml"
        if not resource.is_file():
            return error_response(WebError("web.error.no_data", game=name, file=file), 404)
        return JSONResponse(tomllib.loads(resource.read_text(encoding="utf-8")))

    async def api_i18n(request: Request) -> Response:
        lang = normalize_lang(request.path_params["lang"])
        wanted = request.query_params.get("domains", "core,web").split(",")
        known = {"core", "web", *(domain_of(n) for n in games())}
        merged: dict[str, str] = {}
        for domain in wanted:
            if domain in known:
                merged.update(catalog_json(domain, lang))
        return JSONResponse({"lang": lang, "messages": merged})

    async def body_json(request: Request) -> Any:
        body = await read_body(request, limits.max_body)
        if not body:
            return {}
        return validation.parse_json(body)

    async def api_tables_list(_request: Request) -> Response:
        rows = await asyncio.get_running_loop().run_in_executor(manager.executor, store.summaries, 50)
        return JSONResponse({"tables": rows})

    async def api_tables_create(request: Request) -> Response:
        check(create_limit, client_of(request))
        spec = await body_json(request)
        created = await manager.create(spec)
        log.info(
            "table %s created (%s)", created["table"], "practice" if created["practice"] else "with invites"
        )
        return JSONResponse(created, status_code=201)

    async def api_tables(request: Request) -> Response:
        if request.method == "POST":
            return await api_tables_create(request)
        return await api_tables_list(request)

    async def find(request: Request) -> LiveTable:
        table = await manager.get(request.path_params["table"])
        if table is None:
            raise WebError("web.error.no_table")
        return table

    async def api_table(request: Request) -> Response:
        try:
            table = await find(request)
        except WebError as exc:
            return error_response(exc, 404)
        async with table.lock:  # never show a move that is not committed yet
            info = table.table_info()
        return JSONResponse({**info, "ui": has_own_ui(table.game.name)})

    async def api_record(request: Request) -> Response:
        try:
            table = await find(request)
        except WebError as exc:
            return error_response(exc, 404)
        async with table.lock:  # never show a move that is not committed yet
            if not table.finished:
                # seed + actions would reveal every hidden card of a running game
                return error_response(WebError("web.error.replay_running"), 403)
            meta: dict[str, Any] = {"names": table.names(), "practice": table.row.practice}
            if table.archived:
                meta["archived"] = True
            record = table.state.record().with_meta(**meta).to_dict()
        return JSONResponse(record)

    async def api_replay(request: Request) -> Response:
        try:
            table = await find(request)
        except WebError as exc:
            return error_response(exc, 404)
        token = request.headers.get("x-seat-token")
        try:
            async with table.lock:
                viewer = viewer_for(table, request.query_params.get("viewer", "public"), token)
                if "step" not in request.path_params:
                    return JSONResponse(replay_steps(table, viewer))
                history = table.state.history  # an immutable snapshot: replay it without the lock
            step = path_int(request.path_params["step"], MAX_STEP)
            views = await asyncio.to_thread(replay_view, table.game, table.row.seed, history, viewer, step)
            return JSONResponse(views)
        except WebError as exc:
            return error_response(exc, 403)

    async def api_invite(request: Request) -> Response:
        try:
            table = await find(request)
        except WebError as exc:
            return error_response(exc, 404)
        seat = path_int(request.path_params["seat"], 1000)
        try:
            code = await table.new_invite(request.headers.get("x-host-token"), seat)
        except WebError as exc:
            return error_response(exc, 403)
        # "token" is the old name of the field, kept for pages that still read it
        return JSONResponse({"seat": seat, "invite": code, "token": code})

    async def api_claim(request: Request) -> Response:
        """Claim a person's seat with its invite code (or, at a public table, an open seat by
        number): the answer holds a fresh seat token only this client knows."""
        try:
            table = await find(request)
        except WebError as exc:
            return error_response(exc, 404)
        body = await body_json(request)
        if not isinstance(body, dict):
            raise WebError("web.error.bad_request", detail="a JSON object")
        invite, seat = body.get("invite"), body.get("seat")
        if invite is not None and (not isinstance(invite, str) or not 8 <= len(invite) <= 64):
            raise WebError("web.error.invite_spent")
        if invite is None:
            if seat is None:
                raise WebError("web.error.bad_request", detail="an invite code or a seat number")
            seat = validation.small_int(seat, "seat", 0, len(table.seats) - 1)
        try:
            claimed, token = await table.claim(invite, seat if invite is None else None)
        except WebError as exc:
            return error_response(
                exc, 409 if exc.key in ("web.error.invite_spent", "web.error.seat_taken") else 403
            )
        return JSONResponse({"table": table.id, "seat": claimed, "token": token})

    async def api_public(request: Request) -> Response:
        """The host lists the table in the lobby (while it has open seats), or takes it off."""
        try:
            table = await find(request)
        except WebError as exc:
            return error_response(exc, 404)
        body = await body_json(request)
        if not isinstance(body, dict) or not isinstance(body.get("public"), bool):
            raise WebError("web.error.bad_request", detail='{"public": true or false}')
        try:
            await table.set_public(request.headers.get("x-host-token"), body["public"])
        except WebError as exc:
            return error_response(exc, 403 if exc.key == "web.error.not_host" else 400)
        return JSONResponse({"table": table.id, "public": body["public"]})

    open_conns: dict[str, int] = {}

    async def api_rematch(request: Request) -> Response:
        try:
            table = await find(request)
        except WebError as exc:
            return error_response(exc, 404)
        try:
            made = await rematch(
                manager, table, request.headers.get("x-seat-token"), request.headers.get("x-host-token")
            )
        except WebError as exc:
            return error_response(exc, 403)
        return JSONResponse(made, status_code=201)

    async def ws_table(websocket: WebSocket) -> None:
        address = client_of(websocket)
        wait = join_limit.take(address)
        if wait > 0 or open_conns.get(address, 0) >= limits.max_conns:
            await websocket.accept()
            await websocket.send_text(json.dumps(Limited(wait or 10).to_message()))
            await websocket.close(code=4429)
            return
        open_conns[address] = open_conns.get(address, 0) + 1
        try:
            await serve_socket(websocket)
        finally:
            left = open_conns.get(address, 1) - 1
            if left > 0:
                open_conns[address] = left
            else:
                open_conns.pop(address, None)

    async def serve_socket(websocket: WebSocket) -> None:
        try:
            table = await manager.get(websocket.path_params["table"])
            if table is None:
                raise WebError("web.error.no_table")
        except WebError as exc:
            await websocket.accept()
            await websocket.send_text(json.dumps(exc.to_message()))
            await websocket.close(code=4404)
            return
        await websocket.accept()
        conn = Conn()
        sender = asyncio.create_task(send_loop(websocket, conn))
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = (message.get("bytes") or b"").decode("utf-8", "replace")
                try:
                    # per seat (every connection of one seat shares it), else per connection
                    key = ("seat", table.id, conn.seat) if conn.seat is not None else ("conn", id(conn))
                    if ws_limit.take(key) > 0:
                        raise WebError("web.error.too_fast", rate=limits.ws_rate)
                    await handle(table, conn, raw, limits.max_message)
                except WebError as exc:
                    conn.send(exc.to_message())
                if conn.closed:
                    break
        except WebSocketDisconnect:
            pass
        finally:
            table.leave_conn(conn)
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(sender, timeout=2)
            if websocket.application_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await websocket.close()

    routes = [
        Route("/", page("index.html")),
        Route("/t/{table}", page("table.html")),
        Route("/replay/{table}", page("replay.html")),
        Route("/rules/{game}", page("rules.html")),
        Route("/favicon.ico", lambda _request: Response(status_code=204)),
        Route("/api/games", limited(api_games)),
        Route("/api/games/{game}/rules", limited(api_rules)),
        Route("/api/games/{game}/bots", limited(api_game_bots)),
        Route("/api/games/{game}/data/{file}", limited(api_data)),
        Route("/api/i18n/{lang}", limited(api_i18n)),
        Route("/api/tables", limited(api_tables), methods=["GET", "POST"]),
        Route("/api/tables/{table}", limited(api_table)),
        Route("/api/tables/{table}/record", limited(api_record)),
        Route("/api/tables/{table}/claim", limited(api_claim, join_limit), methods=["POST"]),
        Route("/api/tables/{table}/public", limited(api_public), methods=["POST"]),
        Route("/api/tables/{table}/seats/{seat}/invite", limited(api_invite), methods=["POST"]),
        # a rematch creates a table: limited like creating one
        Route("/api/tables/{table}/rematch", limited(api_rematch, create_limit), methods=["POST"]),
        Route("/api/tables/{table}/replay", limited(api_replay)),
        Route("/api/tables/{table}/replay/{step}", limited(api_replay)),
        WebSocketRoute("/ws/{table}", ws_table),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(SecurityHeaders)])
    app.state.manager = manager
    return app


def path_int(text: str, limit: int) -> int:
    """A number in a URL path: digits only, at most ``limit`` (Starlette's own converter hands
    Python int() 5,000 digits, which raises)."""
    if not text.isdigit() or len(text) > 9 or int(text) > limit:
        raise WebError("web.error.bad_request", detail="not a number in range")
    return int(text)


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


async def send_loop(websocket: WebSocket, conn: Conn) -> None:
    while True:
        text = await conn.queue.get()
        if text is None:
            # closed by us (e.g. a client too slow to read its messages): end the socket too, so
            # the receiving side stops waiting on it
            if websocket.application_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await websocket.close(code=1013)
            return
        try:
            await websocket.send_text(text)
        except Exception:
            conn.close()
            return


def language(value: Any) -> str:
    return normalize_lang(value[:32] if isinstance(value, str) else None)


async def handle(table: LiveTable, conn: Conn, raw: str, max_message: int = MAX_MESSAGE) -> None:
    """One client message. Anything malformed is a WebError and changes nothing."""
    if len(raw) > max_message:
        raise WebError("web.error.too_big", limit=max_message)
    data = validation.parse_json(raw)
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise WebError("web.error.bad_message")
    kind = data["type"]
    ref = validation.short_ref(data.get("id"))
    if kind == "hello":
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or len(token) > 128):
            raise WebError("web.error.bad_token")
        conn.lang = language(data.get("lang"))
        await table.join(conn, token or None, validation.nickname(data.get("nickname")))
        await chat.send_history(table, conn)
    elif kind == "act":
        text = validation.action_text(data.get("action"))
        seq = data.get("seq")
        if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
            raise WebError("web.error.bad_message")
        seat = data.get("seat")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise WebError("web.error.bad_message")
        started = time.perf_counter()
        await table.act(conn, text, seq, seat)
        # ms from reading the move to queuing the ack (after the commit), for load measurements
        server_ms = round((time.perf_counter() - started) * 1000, 3)
        conn.send({"type": "ack", "id": ref, "seq": table.seq, "ms": server_ms})
    elif kind == "lang":
        conn.lang = language(data.get("lang"))
        async with table.lock:
            conn.send(table.message_for(conn, None, {}))
    elif kind == "nick":
        nickname = validation.nickname(data.get("nickname"))
        if nickname is None:
            raise WebError("web.error.bad_message")
        await table.set_nickname(conn, nickname)
    elif kind == "leave":
        await table.leave_seat(conn)
    elif kind == "back":
        await table.come_back(conn)
    elif kind == "chat":
        await chat.post(table, conn, data.get("text"))
    elif kind == "ping":
        conn.send({"type": "pong", "id": ref})
    else:
        raise WebError("web.error.bad_message")

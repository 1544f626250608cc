"""The ASGI app: lobby and table pages, a small JSON API, and one WebSocket per seat or spectator."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
import tomllib
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from tabletrek.core.game import Game
from tabletrek.core.registry import game_class, games, load
from tabletrek.i18n import LANGS, catalog_json, normalize_lang
from tabletrek.web import chat
from tabletrek.web.errors import WebError
from tabletrek.web.lobby import api_game_bots
from tabletrek.web.manager import MAX_TABLES, Manager, clean_nickname
from tabletrek.web.rematch import rematch
from tabletrek.web.replay import replay_steps, replay_view, viewer_for
from tabletrek.web.store import Store
from tabletrek.web.tables import Conn, LiveTable

MAX_MESSAGE = 8 * 1024
"""Largest client message the app reads (action texts and clues are short)."""
MAX_BODY = 64 * 1024
MAX_ACTION = 500
DATA_NAME = re.compile(r"[a-z0-9_-]{1,40}")

log = logging.getLogger("tabletrek.web")

STATIC = Path(str(resources.files("tabletrek.web") / "static"))


def error_response(exc: WebError, status: int = 400) -> JSONResponse:
    return JSONResponse(exc.to_message(), status_code=status)


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
    """Whether the game ships its own page module (static/games/<name>.js); others get the generic."""
    return (STATIC / "games" / f"{name}.js").is_file()


def domain_of(name: str) -> str:
    """A game's catalog domain: its package's last part ("mexican-train" -> "mexican_train")."""
    try:
        return game_class(name).package.rsplit(".", 1)[-1]
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
    db: str | None = None, *, bot_delay: float = 0.6, poll: float | None = None, max_tables: int = MAX_TABLES
) -> Starlette:
    """The app; ``db`` is a SQLAlchemy URL (None: SQLite in the user data directory)."""
    store = Store(db)
    if poll is None and not store.is_sqlite:
        poll = 1.0  # a shared PostgreSQL store: other processes may move at our tables
    manager = Manager(store, bot_delay=bot_delay, poll=poll, max_tables=max_tables)

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
        from markdown_it import MarkdownIt

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

    async def api_tables(request: Request) -> Response:
        if request.method == "POST":
            body = await request.body()
            if len(body) > MAX_BODY:
                return error_response(WebError("web.error.too_big", limit=MAX_BODY), 413)
            try:
                spec = json.loads(body)
            except (json.JSONDecodeError, UnicodeDecodeError):
                return error_response(WebError("web.error.bad_json"))
            try:
                created = await manager.create(spec)
            except WebError as exc:
                return error_response(exc)
            return JSONResponse(created, status_code=201)
        rows = await asyncio.get_running_loop().run_in_executor(manager.executor, store.summaries, 50)
        return JSONResponse({"tables": rows})

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
            if not table.state.is_over:
                # seed + actions would reveal every hidden card of a running game
                return error_response(WebError("web.error.replay_running"), 403)
            record = table.state.record().with_meta(names=table.names()).to_dict()
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
            step = int(request.path_params["step"])
            views = await asyncio.to_thread(replay_view, table.game, table.row.seed, history, viewer, step)
            return JSONResponse(views)
        except WebError as exc:
            return error_response(exc, 403)

    async def api_invite(request: Request) -> Response:
        try:
            table = await find(request)
        except WebError as exc:
            return error_response(exc, 404)
        try:
            token = await table.new_invite(request.headers.get("x-host-token"), request.path_params["seat"])
        except WebError as exc:
            return error_response(exc, 403)
        return JSONResponse({"seat": request.path_params["seat"], "token": token})

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
        bucket = Bucket(RATE, BURST)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = (message.get("bytes") or b"").decode("utf-8", "replace")
                try:
                    if not bucket.take():
                        raise WebError("web.error.too_fast", rate=RATE)
                    await handle(table, conn, raw)
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
        Route("/api/games", api_games),
        Route("/api/games/{game}/rules", api_rules),
        Route("/api/games/{game}/bots", api_game_bots),
        Route("/api/games/{game}/data/{file}", api_data),
        Route("/api/i18n/{lang}", api_i18n),
        Route("/api/tables", api_tables, methods=["GET", "POST"]),
        Route("/api/tables/{table}", api_table),
        Route("/api/tables/{table}/record", api_record),
        Route("/api/tables/{table}/seats/{seat:int}/invite", api_invite, methods=["POST"]),
        Route("/api/tables/{table}/rematch", api_rematch, methods=["POST"]),
        Route("/api/tables/{table}/replay", api_replay),
        Route("/api/tables/{table}/replay/{step:int}", api_replay),
        WebSocketRoute("/ws/{table}", ws_table),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(SecurityHeaders)])
    app.state.manager = manager
    return app


RATE, BURST = 20.0, 40.0
"""Messages per second a connection may send on average, and in a burst; more get an error."""


class Bucket:
    """A token bucket: ``take`` is False while a client sends faster than ``rate`` per second."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


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


async def handle(table: LiveTable, conn: Conn, raw: str) -> None:
    """One client message. Anything malformed is a WebError and changes nothing."""
    if len(raw) > MAX_MESSAGE:
        raise WebError("web.error.too_big", limit=MAX_MESSAGE)
    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        raise WebError("web.error.bad_json") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise WebError("web.error.bad_message")
    kind = data["type"]
    ref = data.get("id")
    if kind == "hello":
        token = data.get("token")
        if token is not None and not isinstance(token, str):
            raise WebError("web.error.bad_token")
        lang = data.get("lang")
        conn.lang = normalize_lang(lang if isinstance(lang, str) else None)
        await table.join(conn, token or None, clean_nickname(data.get("nickname")))
        await chat.send_history(table, conn)
    elif kind == "act":
        text = data.get("action")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_ACTION:
            raise WebError("web.error.bad_action")
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
        lang = data.get("lang")
        conn.lang = normalize_lang(lang if isinstance(lang, str) else None)
        async with table.lock:
            conn.send(table.message_for(conn, None, {}))
    elif kind == "nick":
        nickname = clean_nickname(data.get("nickname"))
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

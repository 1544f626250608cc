"""The tables' HTTP API: list and create, a table's info, record and replay, invites, claims,
listing in the lobby, rematches. Each handler answers one route; the Guard limits them all."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tabletrek.core.numeric import ascii_whole
from tabletrek.web import validation
from tabletrek.web.bodylimit import read_body
from tabletrek.web.errors import WebError, reason
from tabletrek.web.guard import Guard, client_of, error_response
from tabletrek.web.manager import Manager
from tabletrek.web.pages import own_ui
from tabletrek.web.rematch import rematch
from tabletrek.web.replay import replay_steps, replay_view, viewer_for
from tabletrek.web.store import Store
from tabletrek.web.tables import LiveTable

MAX_STEP = 10**7
CLAIM_CONFLICTS = ("web.error.invite_spent", "web.error.seat_taken")
"""Claim refusals that are a conflict with another claim (409), not a missing right (403)."""

log = logging.getLogger("tabletrek.web")


def path_int(text: str, limit: int) -> int:
    """A number in a URL path: ASCII digits only, at most ``limit`` (Starlette's own int converter
    would hand int() 5,000 digits, which raises)."""
    value = ascii_whole(text)
    if value is None or value > limit:
        raise WebError("web.error.bad_request", detail=reason("web.error.detail.path_number"))
    return value


class NoTable(WebError):
    """The table in the path does not exist (404)."""

    status = 404

    def __init__(self) -> None:
        super().__init__("web.error.no_table")


class TableRoutes:
    def __init__(self, manager: Manager, store: Store, guard: Guard) -> None:
        self.manager = manager
        self.store = store
        self.guard = guard

    def routes(self) -> list[Route]:
        limited, guard = self.guard.limited, self.guard
        return [
            Route("/api/tables", limited(self.tables), methods=["GET", "POST"]),
            Route("/api/tables/{table}", limited(self.table)),
            Route("/api/tables/{table}/record", limited(self.record)),
            Route("/api/tables/{table}/claim", limited(self.claim, guard.join), methods=["POST"]),
            Route("/api/tables/{table}/public", limited(self.public), methods=["POST"]),
            Route("/api/tables/{table}/seats/{seat}/invite", limited(self.invite), methods=["POST"]),
            # a rematch creates a table: limited like creating one (Guard.check_create, in the handler)
            Route("/api/tables/{table}/rematch", limited(self.rematch), methods=["POST"]),
            Route("/api/tables/{table}/replay", limited(self.replay)),
            Route("/api/tables/{table}/replay/{step}", limited(self.replay)),
        ]

    async def body_json(self, request: Request) -> Any:
        limits = self.guard.limits
        body = await read_body(request, limits.max_body, limits.body_seconds or None)
        if not body:
            return {}
        return validation.parse_json(body)

    async def find(self, request: Request) -> LiveTable:
        try:
            table = await self.manager.get(request.path_params["table"])
        except WebError as exc:  # a stored table whose record no longer replays
            raise exc.with_status(404) from None
        if table is None:
            raise NoTable()
        return table

    async def tables(self, request: Request) -> Response:
        if request.method == "POST":
            return await self.create(request)
        rows = await asyncio.get_running_loop().run_in_executor(
            self.manager.executor, self.store.summaries, 50
        )
        return JSONResponse({"tables": rows})

    async def create(self, request: Request) -> Response:
        address = client_of(request)
        self.guard.check_create(request)
        # the creator's address holds no open seat of its own table, and its bots are its share
        created = await self.manager.create(await self.body_json(request), address)
        log.info(
            "table %s created (%s)", created["table"], "practice" if created["practice"] else "with invites"
        )
        return JSONResponse(created, status_code=201)

    async def table(self, request: Request) -> Response:
        table = await self.find(request)
        async with table.lock:  # never show a move that is not committed yet
            info = table.table_info()
        return JSONResponse({**info, "ui": own_ui(table.game.name)})

    async def record(self, request: Request) -> Response:
        table = await self.find(request)
        async with table.lock:  # never show a move that is not committed yet
            if not table.finished:
                # seed + actions would reveal every hidden card of a running game
                return error_response(WebError("web.error.replay_running"), 403)
            meta: dict[str, Any] = {"names": table.names(), "practice": table.row.practice}
            if table.archived:
                meta["archived"] = True
            record = table.state.record().with_meta(**meta).to_dict()
        return JSONResponse(record)

    async def replay(self, request: Request) -> Response:
        table = await self.find(request)
        token = request.headers.get("x-seat-token")
        try:
            async with table.lock:
                viewer = viewer_for(table, request.query_params.get("viewer", "public"), token)
                if "step" not in request.path_params:
                    return JSONResponse(replay_steps(table, viewer))
                history = table.state.history  # an immutable snapshot: replay it without the lock
            step = path_int(request.path_params["step"], MAX_STEP)
            views = await asyncio.to_thread(
                replay_view, table.game, table.row.seed, history, viewer, step, table.row.id
            )
            return JSONResponse(views)
        except WebError as exc:
            return error_response(exc, 403)

    async def invite(self, request: Request) -> Response:
        table = await self.find(request)
        seat = path_int(request.path_params["seat"], 1000)
        try:
            code = await table.new_invite(request.headers.get("x-host-token"), seat)
        except WebError as exc:
            return error_response(exc, 403)
        # "token" is the old name of the field, kept for pages that still read it
        return JSONResponse({"seat": seat, "invite": code, "token": code})

    async def claim(self, request: Request) -> Response:
        """Claim a person's seat with its invite code (or, at a public table, an open seat by
        number): the answer holds a fresh seat token only this client knows."""
        table = await self.find(request)
        invite, seat = claim_request(await self.body_json(request), len(table.seats))
        try:
            claimed, token = await table.claim(invite, seat, client_of(request))
        except WebError as exc:
            return error_response(exc, 409 if exc.key in CLAIM_CONFLICTS else 403)
        return JSONResponse({"table": table.id, "seat": claimed, "token": token})

    async def public(self, request: Request) -> Response:
        """The host lists the table in the lobby (while it has open seats), or takes it off."""
        table = await self.find(request)
        body = await self.body_json(request)
        if isinstance(body, dict):
            validation.known_fields(body, ("public",))  # "pubic" is named, not called missing
        if not isinstance(body, dict) or not isinstance(body.get("public"), bool):
            raise WebError("web.error.bad_request", detail=reason("web.error.detail.public"))
        try:
            await table.set_public(request.headers.get("x-host-token"), body["public"])
        except WebError as exc:
            return error_response(exc, 403 if exc.key == "web.error.not_host" else 400)
        return JSONResponse({"table": table.id, "public": body["public"]})

    async def rematch(self, request: Request) -> Response:
        self.guard.check_create(request)
        table = await self.find(request)
        try:
            made = await rematch(
                self.manager, table, request.headers.get("x-seat-token"), request.headers.get("x-host-token")
            )
        except WebError as exc:
            return error_response(exc, 403)
        return JSONResponse(made, status_code=201)


def claim_request(body: Any, seats: int) -> tuple[str | None, int | None]:
    """(invite code, None) or (None, seat number) from a claim's body; anything else is refused."""
    if not isinstance(body, dict):
        raise WebError("web.error.bad_request", detail=reason("web.error.detail.json_object"))
    validation.known_fields(body, ("invite", "seat"))
    invite, seat = body.get("invite"), body.get("seat")
    if invite is not None and seat is not None:
        # which one the client meant is a guess either way
        raise WebError("web.error.bad_request", detail=reason("web.error.detail.invite_and_seat"))
    if invite is not None:
        if not isinstance(invite, str) or not 8 <= len(invite) <= 64:
            raise WebError("web.error.invite_spent")
        return invite, None
    if seat is None:
        raise WebError("web.error.bad_request", detail=reason("web.error.detail.invite_or_seat"))
    return None, validation.small_int(seat, "seat", 0, seats - 1)

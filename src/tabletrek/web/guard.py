"""Per-address rate limits in front of the HTTP handlers, and errors as JSON answers."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket

from tabletrek.web.errors import WebError
from tabletrek.web.ratelimit import Limiter, Limits, client_key, network_key

FULL_RETRY = 60
"""Seconds a client is told to wait when the server holds as many tables as it may."""

Handler = Callable[[Request], Awaitable[Response]]


def error_response(exc: WebError, status: int = 400, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(exc.to_message(), status_code=status, headers=headers)


class Limited(WebError):
    """A client over one of its rate limits: HTTP 429 with Retry-After."""

    def __init__(self, wait: float) -> None:
        super().__init__("web.error.too_many", seconds=max(1, math.ceil(wait)))
        self.wait = wait

    def response(self) -> JSONResponse:
        return error_response(self, 429, {"Retry-After": str(max(1, math.ceil(self.wait)))})


def client_of(request: Request | WebSocket) -> str:
    return client_key(request.client.host if request.client else None)


def refusal(exc: WebError) -> JSONResponse:
    """A WebError a handler let through, answered with the status it carries."""
    headers = None
    if exc.status in (408, 413):
        # a refused body is not read to its end: the connection cannot carry another
        headers = {"Connection": "close"}
    elif exc.status == 429:
        headers = {"Retry-After": str(FULL_RETRY)}
    return error_response(exc, exc.status, headers)


class Guard:
    """The server's limiters: every HTTP request, table creations, seat claims and joins, and
    WebSocket messages, each a token bucket per client address (or seat)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.create = Limiter(limits.create_rate, limits.create_burst, limits.max_keys)
        self.create_wide = Limiter(limits.create_wide_rate, limits.create_wide_burst, limits.max_keys)
        self.join = Limiter(limits.join_rate, limits.join_burst, limits.max_keys)
        self.http = Limiter(limits.http_rate, limits.http_burst, limits.max_keys)
        self.ws = Limiter(limits.ws_rate, limits.ws_burst, limits.max_keys)
        self.ws_address = Limiter(limits.ws_address_rate, limits.ws_address_burst, limits.max_keys)

    @staticmethod
    def check(limiter: Limiter, key: object) -> None:
        wait = limiter.take(key)
        if wait > 0:
            raise Limited(wait)

    def check_create(self, request: Request) -> None:
        """A table creation (or rematch): limited per address, and per IPv6 /48 as well."""
        self.check(self.create, client_of(request))
        network = network_key(request.client.host if request.client else None)
        if network is not None:
            self.check(self.create_wide, network)

    def limited(self, handler: Handler, *limiters: Limiter) -> Handler:
        """``handler`` behind the per-address limits; any WebError it raises becomes its answer."""

        async def wrapped(request: Request) -> Response:
            try:
                address = client_of(request)
                self.check(self.http, address)
                for limiter in limiters:
                    self.check(limiter, address)
                return await handler(request)
            except Limited as exc:
                return exc.response()
            except WebError as exc:
                return refusal(exc)

        return wrapped

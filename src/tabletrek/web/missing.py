"""Addresses the server does not serve, answered in the form the asker reads.

Starlette answers an unknown address (or a method a route does not take) with plain text. Under
``/api/`` a client reads JSON, so it gets the API's own refusal, with a key it can look up. A
person who mistyped a page's address gets the app's page saying so in their language, with a
way on to the lobby. A missing script or stylesheet stays plain text: no person reads it."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from tabletrek.web.errors import WebError
from tabletrek.web.guard import error_response
from tabletrek.web.pages import UI_PREFIX, page

ASSETS = ("/static/", UI_PREFIX + "/")
"""Where the files pages load live: a miss there is a file's, not a reader's."""
missing_page = page("missing", status=404)


async def unserved(request: Request, exc: Exception) -> Response:
    """The answer to a 404 or 405 that no route gave itself."""
    if not isinstance(exc, HTTPException):  # Starlette routes only its own kind here
        raise exc
    path = request.url.path
    if path.startswith("/api/"):
        if exc.status_code == 405:
            allowed = (exc.headers or {}).get("Allow", "")
            refusal = WebError("web.error.bad_method", allowed=allowed)
            return error_response(refusal, 405, {"Allow": allowed})
        return error_response(WebError("web.error.no_route"), exc.status_code)
    if exc.status_code == 404 and request.method in ("GET", "HEAD") and not path.startswith(ASSETS):
        return await missing_page(request)
    return PlainTextResponse(exc.detail, status_code=exc.status_code, headers=exc.headers)


HANDLERS = {404: unserved, 405: unserved}
"""Starlette's ``exception_handlers`` for the statuses it raises when no route answers."""

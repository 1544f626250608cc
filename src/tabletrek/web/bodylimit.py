"""Request bodies read with a limit that holds while they stream in.

``await request.body()`` buffers the whole body before anyone can check its size: a 300 MB POST
held 600 MB of memory. Here a declared ``Content-Length`` over the limit is refused before a byte
is read, and a chunked body is counted chunk by chunk and refused as soon as it passes the limit.
"""

from __future__ import annotations

from starlette.requests import Request

from tabletrek.web.errors import WebError


class TooBig(WebError):
    status = 413

    def __init__(self, limit: int) -> None:
        super().__init__("web.error.too_big", limit=limit)


async def read_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit() or len(declared) > 15:
            raise WebError("web.error.bad_request", detail="Content-Length must be a number of bytes")
        if int(declared) > limit:
            raise TooBig(limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooBig(limit)
        chunks.append(chunk)
    return b"".join(chunks)

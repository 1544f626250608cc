"""Request bodies read with a limit that holds while they stream in, in bounded time.

``await request.body()`` buffers the whole body before anyone can check its size: a 300 MB POST
held 600 MB of memory. Here a declared ``Content-Length`` over the limit is refused before a byte
is read, and a chunked body is counted chunk by chunk and refused as soon as it passes the limit.
A body that trickles in (a byte a second would hold a request for hours) is cut off after
``seconds``, and a client that leaves in the middle of its body is a refusal, not an exception
with a traceback in the log.
"""

from __future__ import annotations

import asyncio

from starlette.requests import ClientDisconnect, Request

from tabletrek.core.numeric import ascii_whole
from tabletrek.web.errors import WebError, reason


class TooBig(WebError):
    status = 413

    def __init__(self, limit: int) -> None:
        super().__init__("web.error.too_big", limit=limit)


class TooSlow(WebError):
    status = 408

    def __init__(self, seconds: float) -> None:
        super().__init__("web.error.too_slow", seconds=round(seconds, 1))


async def read_body(request: Request, limit: int, seconds: float | None = None) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None:
        length = ascii_whole(declared, 15)
        if length is None:
            raise WebError("web.error.bad_request", detail=reason("web.error.detail.content_length"))
        if length > limit:
            raise TooBig(limit)
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise TooBig(limit)
                chunks.append(chunk)
    except TimeoutError:
        raise TooSlow(seconds or 0) from None
    except ClientDisconnect:
        # nobody is left to read the answer; this only keeps the exception out of the log
        raise WebError("web.error.bad_request", detail=reason("web.error.detail.body_ended")) from None
    return b"".join(chunks)

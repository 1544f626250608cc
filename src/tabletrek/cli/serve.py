"""``tabletrek serve``: run the web app (lobby, live tables, replays) with uvicorn."""

from __future__ import annotations

import logging
from typing import Annotated

import typer

from tabletrek.cli.common import help_text, tr
from tabletrek.core.errors import message_in
from tabletrek.i18n import env_lang

MAX_FRAME = 1 << 20
"""WebSocket frames above this are refused by the protocol layer (the app itself reads at most 8 KiB)."""


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
    from tabletrek.web.store import default_url  # noqa: PLC0415 - the [web] extra

    limits = Limits()
    for item in limit or []:
        name, _, value = item.partition("=")
        try:
            limits.set(name.strip(), value.strip())
        except ValueError as exc:
            raise typer.BadParameter(message_in(exc, env_lang()), param_hint="--limit") from None
    if sync not in ("notify", "poll"):
        raise typer.BadParameter(tr("web.serve.bad_sync", value=sync), param_hint="--sync")
    # The server's own log (tables created, archived, bots taking seats over) on stderr.
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    web_log = logging.getLogger("tabletrek.web")
    web_log.addHandler(handler)
    web_log.setLevel(logging.INFO)
    web_log.propagate = False
    url = db or default_url()
    app = create_app(url, bot_delay=bot_delay, limits=limits, sync=sync)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    typer.echo(tr("web.serve.started", url=f"http://{shown}:{port}/", db=app.state.manager.store.engine.url))
    # No per-message deflate: views are a few kB, and compressing every frame cost more CPU than
    # anything else per move in the load benchmark.
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=MAX_FRAME,
        ws_per_message_deflate=False,
        log_level="warning",
        access_log=False,
        # idle sockets, headers or bodies sent a byte at a time, one address holding every socket
        **protocol_options(limits),
    )

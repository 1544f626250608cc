"""The browser front end: an ASGI app serving the lobby, live tables over WebSockets, and replays.

``create_app(db_url)`` builds the app; ``tabletrek serve`` runs it with uvicorn. The server only uses
the core contract (load, new_game, apply, view, public_view, events, records, bots), so every
registered game is playable here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.applications import Starlette


def create_app(db: str | None = None, **kwargs: Any) -> Starlette:
    from tabletrek.web.app import create_app as build  # noqa: PLC0415 - the [web] extra, loaded when a server is asked for

    return build(db, **kwargs)


__all__ = ["create_app"]

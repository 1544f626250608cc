"""Lobby helpers: which bots a game offers with the options a player has picked.

Some bots work only with some options (the Codenames AI partner has word tables for the English
pack only), so the lobby asks before offering them: only choices that work are offered.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tabletrek.core.registry import games, load_with
from tabletrek.web import validation
from tabletrek.web.errors import WebError, reason
from tabletrek.web.manager import MAX_SEATS, check_options, refusal_detail

MAX_OPTIONS = 2000
"""Longest options query the lobby sends (a handful of short settings)."""


def _error(exc: WebError, status: int = 400) -> JSONResponse:
    return JSONResponse(exc.to_message(), status_code=status)


async def api_game_bots(request: Request) -> Response:
    """GET /api/games/{game}/bots?options={json}: the bots and default bot for those options."""
    name = request.path_params["game"]
    if name not in games():
        return _error(WebError("web.error.unknown_game", game=name), 404)
    raw = request.query_params.get("options", "{}")
    if len(raw) > MAX_OPTIONS:
        return _error(WebError("web.error.too_big", limit=MAX_OPTIONS), 413)
    try:
        # the same checks as a table's settings: depth, number sizes, option kinds, players
        options: Any = validation.parse_json(raw)
    except WebError as exc:
        return _error(exc)
    if not isinstance(options, dict):
        return _error(WebError("web.error.bad_request", detail=reason("web.error.detail.options_object")))
    players = options.pop("players", None)
    try:
        if players is not None:
            players = validation.small_int(players, "players", 1, MAX_SEATS)
        check_options(name, options)
        game = load_with(name, players, options)
    except WebError as exc:
        return _error(exc)
    except (ValueError, TypeError) as exc:
        return _error(WebError("web.error.bad_options", detail=refusal_detail(exc)))
    return JSONResponse({"game": name, "bots": game.bots(), "default": game.default_bot})

"""The pages, and what the server says about its games: the list, rules, data files, catalogs,
and each game's own browser files (found through its spec, never by a game's name)."""

from __future__ import annotations

import logging
import os
import re
import tomllib
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.staticfiles import StaticFiles

from tabletrek.core.game import Game
from tabletrek.core.markdown import rules_parser
from tabletrek.core.registry import game_class, games, load, spec
from tabletrek.i18n import LANGS, catalog_json, normalize_lang, translate
from tabletrek.web.errors import WebError
from tabletrek.web.guard import error_response

DATA_NAME = re.compile(r"[a-z0-9_-]{1,40}")
STATIC = Path(str(resources.files("tabletrek.web") / "static"))
UI_PREFIX = "/ui"
"""Where a game's own browser files are served: ``/ui/<game>/<file>``."""

log = logging.getLogger("tabletrek.web")

# Serves the site's own files; its file_response gives a game's files the same validators
# (ETag, Last-Modified, 304 on a revalidation) and content types as every other static file.
static_files = StaticFiles(directory=STATIC)


def shell(script: str) -> str:
    """A page's HTML: every page is the same header and empty ``main``, drawn by the one module
    ``static/js/<script>.js``."""
    return (STATIC / "page.html").read_text(encoding="utf-8").replace("{script}", script)


def page(script: str, status: int = 200) -> Callable[[Request], Awaitable[Response]]:
    """The handler for the page ``static/js/<script>.js`` draws."""
    html = shell(script)

    async def handler(_request: Request) -> Response:
        return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-cache"})

    return handler


def playable_games() -> list[dict[str, Any]]:
    """Every registered game that loads; one still being written must not take the lobby down."""
    out: list[dict[str, Any]] = []
    for name in games():
        try:
            out.append(game_info(name, load(name)))
        except Exception:
            log.exception("game %s does not load; it is left out of the lobby", name)
    return out


def game_info(name: str, game: Game) -> dict[str, Any]:
    return {
        "name": name,
        "domain": game.domain,
        "player_counts": list(game.player_counts),
        "default_players": game.default_players,
        "bots": game.bots(),
        "options": [
            {
                "name": o.name,
                "default": o.default,
                "help": o.help,
                "kind": o.kind.__name__,
                "choices": list(o.choices or o.named or ()) or None,
                "minimum": o.minimum,
                "maximum": o.maximum,
                "nullable": o.nullable,
            }
            for o in game.option_specs
        ],
        # Defaults that follow the reader's language (Codenames' word pack), as the terminal's
        # --lang gives them: a Chinese lobby offered English words by default.
        "lang_defaults": {lang: type(game).options_for_lang(lang) for lang in LANGS},
    }


def game_file_path(name: str, file: str) -> Path | None:
    """The file ``file`` of game ``name``'s browser UI, if its spec declares it and it exists;
    anything else (a game not registered, a file the spec does not name) is None."""
    if name not in games():
        return None
    declared = spec(name)
    path = declared.web_files().get(file)
    if path is None:
        return None
    found = Path(str(resources.files(declared.package) / path))
    return found if found.is_file() else None


def own_ui(name: str) -> dict[str, str | None] | None:
    """Where the browser loads game ``name``'s own page module and stylesheet; None when the game
    has none (or a file it declares is missing), so it gets the generic page."""
    try:
        declared = spec(name)
    except ValueError:
        return None
    files = declared.web_files()
    if declared.web_module is None or not all(game_file_path(name, file) for file in files):
        return None
    url = {path: f"{UI_PREFIX}/{name}/{file}" for file, path in files.items()}
    return {"module": url[declared.web_module], "style": url.get(declared.web_style or "")}


def has_own_ui(name: str) -> bool:
    return own_ui(name) is not None


async def game_file(request: Request) -> Response:
    """GET /ui/{game}/{file}: one file a game's spec declares for its browser UI."""
    name, file = request.path_params["game"], request.path_params["file"]
    path = game_file_path(name, file)
    if path is None:
        return error_response(WebError("web.error.no_ui_file", game=name, file=file), 404)
    return static_files.file_response(path, os.stat(path), request.scope)


def domain_of(name: str) -> str:
    """A game's catalog domain: its package's last part (as its spec says)."""
    try:
        return spec(name).domain
    except Exception:
        return name.replace("-", "_")


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
    html = rules_parser().render(text)
    # the game's name in the reader's language, for the tab's title (the page loads no game catalog)
    title = translate(f"{domain_of(name)}.title", lang)
    return JSONResponse({"game": name, "lang": lang, "title": title, "html": html})


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

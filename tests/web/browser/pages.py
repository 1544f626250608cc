"""What several browser test files do on a page: open the lobby in a language, wait for a turn."""

from __future__ import annotations

import re
from typing import Any

import httpx

from ..helpers import ServerProcess

LOBBY_TITLE = {"en": "New table", "zh-Hant": "開新桌"}
TIMEOUT = 15_000
"""How long a page waits for anything, in milliseconds: a page under CI load answers within it."""


def open_lobby(server: ServerProcess, page: Any, lang: str, game: str | None = None) -> None:
    """The lobby in ``lang``, once it has redrawn in it, with ``game`` picked.

    The switch is used only when the lobby is in the other language: picking the language it is
    already in redraws it all the same (Playwright fires "change" regardless), and nothing on the
    page says when that second drawing lands, so a click made meanwhile is lost with the form it
    was made on (CI-sized runs, 5 Dec 2026: an Advanced section opened, then drawn closed)."""
    page.goto(f"{server.url}/")
    page.wait_for_selector("#lang")  # the header comes with the first drawing of the form
    if page.input_value("#lang") != lang:
        page.select_option("#lang", lang)
    page.wait_for_selector(f"h1:has-text('{LOBBY_TITLE[lang]}')")
    if game is not None:
        page.select_option("#game", game)


def urls_with(fragment: str, *, then: str = "") -> re.Pattern[str]:
    """What ``page.route`` should match: URLs holding ``fragment`` (followed by the regular
    expression ``then``).

    A pattern, not a Python function. Playwright's driver matches a pattern itself and lets every
    other request through at once; a function makes it hand *every* request of the page to this
    test's Python process and wait for its answer, for requests the test never meant to touch.
    Four CI runs (3 to 6 Dec 2026, never here) left a lobby's GET /api/tables unanswered after a
    language switch in a test routed by a function."""
    return re.compile(re.escape(fragment) + then)


def games_in_lobby(server: ServerProcess) -> list[str]:
    return [g["name"] for g in httpx.get(f"{server.url}/api/games").json()["games"]]


def wait_my_turn(page: Any) -> int | None:
    """The move number once it is this page's turn, or None when the game ended first."""
    page.wait_for_selector("body[data-mine='1'], body[data-over='1']")
    if page.get_attribute("body", "data-over") == "1":
        return None
    return int(page.get_attribute("body", "data-seq"))

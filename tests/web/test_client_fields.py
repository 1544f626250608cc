"""The pages send only fields the server reads: it refuses any other (docs/web.md), so a field
added to a page's message but not to the server's list would break that page. Leaving a seat,
coming back and renaming are not clicked by the browser tests, so this reads the page scripts."""

from __future__ import annotations

import re
from pathlib import Path

from tabletrek.web.manager import SEAT_FIELDS, TABLE_FIELDS
from tabletrek.web.sockets import HANDLERS

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "tabletrek"
SCRIPTS = sorted(PACKAGE.rglob("*.js"))
LOBBY = PACKAGE / "web" / "static" / "js" / "lobby.js"

# An object literal with no nested braces, as every message the pages send is written.
SENT = re.compile(r"\bsend\(\{([^{}]*)\}\)")
TYPE = re.compile(r'type:\s*"(\w+)"')


def literal_keys(body: str) -> set[str]:
    """The keys of an object literal's text, shorthand (``{ text }``) included."""
    return {part.split(":", 1)[0].strip() for part in body.split(",") if part.strip()}


def test_every_socket_message_a_page_sends_has_only_fields_its_handler_reads() -> None:
    seen: set[str] = set()
    for script in SCRIPTS:
        for body in SENT.findall(script.read_text(encoding="utf-8")):
            kind = TYPE.search(body)
            assert kind is not None, f"{script.name}: a message without a literal type: {body}"
            handler = HANDLERS.get(kind.group(1))
            assert handler is not None, f"{script.name}: no handler for {kind.group(1)!r}"
            unread = literal_keys(body) - {"type", "id", *handler[1]}
            assert not unread, f"{script.name}: {kind.group(1)!r} sends {sorted(unread)}"
            seen.add(kind.group(1))
    # the reading found the messages the table page sends; a pattern that matched nothing fails
    assert seen == {"hello", "act", "lang", "nick", "leave", "back", "chat"}


def test_the_lobby_asks_for_a_table_with_only_fields_the_server_reads() -> None:
    source = LOBBY.read_text(encoding="utf-8")
    spec = re.search(r"const spec = \{([^{}]*)\};", source)
    assert spec is not None
    fields = literal_keys(spec.group(1)) | set(re.findall(r"\bspec\.(\w+) = ", source))
    assert fields == {"game", "players", "options", "seats", "nickname", "clock", "public", "seed"}
    assert fields <= set(TABLE_FIELDS)
    seats = [literal_keys(body) for body in re.findall(r"spec\.seats\.push\(\{([^{}]*)\}\)", source)]
    assert seats == [{"kind"}, {"kind", "bot", "params"}]
    assert seats[0] <= set(SEAT_FIELDS["human"]) and seats[1] <= set(SEAT_FIELDS["bot"])

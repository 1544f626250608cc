"""Hostile and broken input for the web server: WebSocket messages and HTTP requests, seeded.

Used by test_fuzz.py against a real server. Each generator mixes well-formed messages (so games
move and the handlers' deeper paths run) with every kind of malformed one: bad JSON, nesting
2,000 deep, integers of 5,000 digits, NaN, lone surrogates and other refused characters in every
field, wrong types, unknown fields and types, oversized texts and binary frames.
"""

from __future__ import annotations

import json
import random
from typing import Any

SURROGATE = '"\\ud800"'
JUNK_TEXTS = [
    "",
    " ",
    "\u202eevil",
    "a\u200bb",
    "\x00",
    "\n\t",
    "🂡" * 40,
    "走" * 600,
    "Ａｌｉｃｅ",
    "x" * 9000,
    "../../etc/passwd",
    "<script>alert(1)</script>",
    "%ED%A0%80",
    "\ufffe",
    "\U0010ffff",
    "play",
    "play go",
    "discard 3",
    "pass",
]
BOT_OPTIONS = [
    "",
    "%7B%7D",
    "%7B%22word_pack%22%3A%22zh-Hant%22%7D",
    "%7B%22players%22%3A" + "9" * 5000 + "%7D",
    "%5B" * 2000,
    "%7B%22word_pack%22%3A%22..%2F..%2Fetc%2Fpasswd%22%7D",
    "%7B%22a%22%3A%22%5Cud800%22%7D",
    "NaN",
    "x" * 3000,
]
TYPES = [
    "hello",
    "act",
    "lang",
    "nick",
    "leave",
    "back",
    "ping",
    "launch",
    "chat",
    "chat",
    "",
    "HELLO",
    "act ",
]


def junk_value(rng: random.Random, depth: int = 0) -> Any:
    choice = rng.randrange(12)
    if choice == 0:
        return None
    if choice == 1:
        return rng.choice([True, False])
    if choice == 2:
        return rng.choice([0, -1, 1, 2**31, 2**63, -(2**63), 10**19])
    if choice == 3:
        return rng.choice([0.5, -0.0, 1e308, 1e-308])
    if choice in (4, 5, 6):
        return rng.choice(JUNK_TEXTS)
    if choice == 7 and depth < 3:
        return [junk_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if choice == 8 and depth < 3:
        return {rng.choice(["type", "a", "token", "seat"]): junk_value(rng, depth + 1) for _ in range(3)}
    return rng.choice(JUNK_TEXTS)


def raw_junk(rng: random.Random) -> str | bytes:
    """A message that is not valid JSON, or valid JSON no parser should take whole."""
    choice = rng.randrange(14)
    if choice == 0:
        return "[" * 2000 + "]" * 2000
    if choice == 1:
        return '{"type": "act", "seq": ' + "9" * 5000 + "}"
    if choice == 2:
        return '{"type": "act", "action": "play go", "seq": NaN}'
    if choice == 3:
        return '{"type": "hello", "nickname": ' + SURROGATE + ', "token": ' + SURROGATE + "}"
    if choice == 4:
        return '{"type": "act", "action": ' + SURROGATE + ', "id": ' + SURROGATE + "}"
    if choice == 5:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if choice == 6:
        return '{"type": "hello"'
    if choice == 7:
        return '{"type": "act", "action": "' + "a" * 9000 + '"}'
    if choice == 8:
        return '{"type": "lang", "lang": ' + SURROGATE + "}"
    if choice == 11:
        return '{"type": "chat", "text": "a' + SURROGATE[1:-1] + 'b"}'
    if choice == 12:
        return '{"type": "chat", "text": "' + "走" * 5000 + '"}'
    if choice == 9:
        return '{"type": 1e999}'
    if choice == 10:
        return '{"' + SURROGATE[1:-1] + '": 1, "type": "ping"}'
    return json.dumps([{"type": "ping"}] * 3)


def ws_message(rng: random.Random, legal: list[str], seq: int, tokens: list[str]) -> str | bytes:
    """One WebSocket message: a legal move when there is one (a third of the time), else a
    well-formed message with a broken field, else raw junk."""
    roll = rng.random()
    if legal and roll < 0.3:
        return json.dumps({"type": "act", "action": rng.choice(legal), "seq": seq, "id": rng.randrange(1000)})
    if roll < 0.75:
        kind = rng.choice(TYPES)
        message: dict[str, Any] = {"type": kind}
        for field in rng.sample(
            ["action", "seq", "seat", "id", "token", "nickname", "lang", "text", "extra"], 3
        ):
            message[field] = junk_value(rng)
        if kind == "chat" and rng.random() < 0.5:
            message["text"] = junk_value(rng)  # chat's own field, always there half the time
        if kind == "hello" and rng.random() < 0.5:
            message["token"] = rng.choice(tokens)
        if kind == "act" and legal and rng.random() < 0.5:
            message["action"] = rng.choice(legal)
        return json.dumps(message, ensure_ascii=rng.random() < 0.5)
    return raw_junk(rng)


def http_request(rng: random.Random, tables: list[str], hosts: list[str]) -> dict[str, Any]:
    """One HTTP request (method, path, headers, body) against the API and pages."""
    table = rng.choice([*tables, "x", "A" * 40, "%ED%A0%80abcdefgh", "../../../etc", "a" * 12])
    lang = rng.choice(["en", "zh-Hant", "xx", "%ED%A0%80"])
    viewer = rng.choice(["public", "all", "0", "1", "9", "-1", "x", "9" * 5000])
    paths = [
        "/",
        f"/t/{table}",
        f"/replay/{table}",
        "/rules/touring",
        "/api/games",
        f"/api/games/{rng.choice(['touring', 'nope', 'codenames-duet', '..'])}/rules",
        f"/api/games/touring/data/{rng.choice(['board', 'x' * 50, '..%2F..%2Fpyproject', 'BOARD'])}",
        f"/api/i18n/{lang}?domains=core,web,{rng.choice(['touring', 'zzz'])}",
        "/api/tables",
        f"/api/tables/{table}",
        f"/api/tables/{table}/record",
        f"/api/tables/{table}/replay?viewer={viewer}",
        f"/api/tables/{table}/replay/{rng.choice(['0', '1', '99999999', '9' * 5000, '-1', 'x'])}?viewer=0",
        f"/api/tables/{table}/claim",
        f"/api/tables/{table}/public",
        f"/api/tables/{table}/seats/{rng.choice(['0', '1', '7', '9' * 5000, 'x'])}/invite",
        f"/api/tables/{table}/rematch",
        f"/api/games/{rng.choice(['touring', 'nope', 'codenames-duet'])}/bots?options="
        + rng.choice(BOT_OPTIONS),
        "/static/js/table.js",
        f"/ui/{rng.choice(['touring', 'nope', '..'])}/"
        + rng.choice(["page.js", "style.css", "..", "spec.py", "%2E%2E%2Fspec.py"]),
        "/static/../../pyproject.toml",
        "/favicon.ico",
        # addresses no route serves: the API's JSON refusal, the app's 404 page
        "/api/" + rng.choice(["nope", "tables/x/y/z", "%ED%A0%80", "x" * 3000, "games/touring/rules/more"]),
        "/" + rng.choice(["nope", "t", "x" * 3000, "%ED%A0%80", "rules/touring/more"]),
    ]
    path = rng.choice(paths)
    method = rng.choice(["GET", "GET", "GET", "POST", "POST", "POST", "PUT", "DELETE", "HEAD"])
    headers: dict[str, bytes] = {}
    if rng.random() < 0.3:
        headers["x-host-token"] = rng.choice([*hosts, "x" * 200, "", "\u00e9"]).encode("utf-8")
    if rng.random() < 0.2:
        headers["x-seat-token"] = rng.choice(["", "A" * 43, "\u00ff"]).encode("utf-8")
    body: bytes | None = None
    if method in ("POST", "PUT", "PATCH"):
        roll = rng.random()
        if roll < 0.4:
            spec: Any = {
                "game": rng.choice(["touring", "codenames-duet", "mexican-train", "double-crossing", "nope"]),
                "players": junk_value(rng) if rng.random() < 0.3 else 2,
            }
            for field in rng.sample(
                ["seats", "options", "seed", "clock", "nickname", "public", "invite", "seat"], 3
            ):
                spec[field] = junk_value(rng)
            body = json.dumps(spec).encode()
        elif roll < 0.8:
            raw = raw_junk(rng)
            body = raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogatepass")
        else:
            body = json.dumps(junk_value(rng)).encode()
        headers["content-type"] = rng.choice([b"application/json", b"text/plain", b"multipart/form-data"])
    return {"method": method, "url": path, "headers": headers, "content": body}

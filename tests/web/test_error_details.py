"""Why a request was refused (``web.error.bad_request`` / ``bad_options``'s ``detail``) is a
catalog reference the reader's language renders; the English ``message`` reads as before."""

from __future__ import annotations

import ast
import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest
from starlette.requests import ClientDisconnect
from starlette.testclient import TestClient

from tabletrek.core.events import render_message
from tabletrek.web.bodylimit import read_body
from tabletrek.web.errors import WebError

from .helpers import create_table, expect_error, hello, send

WEB = Path(__file__).resolve().parents[2] / "src" / "tabletrek" / "web"

Ask = Callable[[TestClient], Any]


def post_table(**spec: Any) -> Ask:
    return lambda client: client.post("/api/tables", json={"game": "touring", "players": 2, **spec})


def human_table(client: TestClient) -> dict[str, Any]:
    return create_table(client, seats=[{"kind": "human"}, {"kind": "human"}])


def practice_table(client: TestClient) -> dict[str, Any]:
    return create_table(client)


def set_public(body: Any, maker: Callable[[TestClient], dict[str, Any]] = human_table) -> Ask:
    def ask(client: TestClient) -> Any:
        made = maker(client)
        headers = {"x-host-token": made["host"]}
        return client.post(f"/api/tables/{made['table']}/public", json=body, headers=headers)

    return ask


def claim(body: Any) -> Ask:
    def ask(client: TestClient) -> Any:
        return client.post(f"/api/tables/{human_table(client)['table']}/claim", json=body)

    return ask


def invite(seat: str) -> Ask:
    def ask(client: TestClient) -> Any:
        made = practice_table(client)
        headers = {"x-host-token": made["host"]}
        return client.post(f"/api/tables/{made['table']}/seats/{seat}/invite", headers=headers)

    return ask


def replay(path: str, viewer: str = "public") -> Ask:
    def ask(client: TestClient) -> Any:
        table = practice_table(client)["table"]
        return client.get(f"/api/tables/{table}/replay{path}", params={"viewer": viewer})

    return ask


def bots(options: str) -> Ask:
    return lambda client: client.get("/api/games/touring/bots", params={"options": options})


def raw_post(content: bytes, length: str) -> Ask:
    headers = {"content-type": "application/json", "content-length": length}
    return lambda client: client.post("/api/tables", content=content, headers=headers)


BOT = {"kind": "bot", "bot": "random"}

# (request, the reason's key, its English as the API said it before, a piece of its Chinese)
CASES: list[tuple[str, Ask, str, str, str]] = [
    ("not an object", lambda c: c.post("/api/tables", json=[1]), "json_object", "a JSON object", "JSON 物件"),
    ("seat count", post_table(seats=[{"kind": "human"}]), "seats", "seats must list 2 seats", "2 個座位"),
    (
        "seat kind",
        post_table(seats=[{"kind": "human"}, {"kind": "x"}]),
        "seat_kind",
        "seat 2 must be a human or a bot",
        "座位 2",
    ),
    (
        "public kind",
        post_table(public="yes"),
        "public",
        "public must be true or false",
        "必須是 true 或 false",
    ),
    (
        "public, alone",
        post_table(public=True),
        "public_needs_invite",
        "only a table with a seat for another person can be public",
        "才能公開",
    ),
    (
        "options kind",
        post_table(options=[1]),
        "options_object",
        "options must be an object",
        "必須是一個物件",
    ),
    ("seed", post_table(seed=-1), "seed", "seed must be an integer in [0, 2^63)", "之間的整數"),
    (
        "clock",
        post_table(clock=-3, seed=None),
        "clock",
        "clock must be seconds between 1 and 86400",
        "1 到 86400 之間的秒數",
    ),
    (
        "players",
        post_table(players=99),
        "whole_number",
        "players must be a whole number from 1 to 16",
        "players 必須是 1 到 16 之間的整數",
    ),
    (
        "unknown option",
        post_table(options={"colour": 1}),
        "unknown_option",
        "no option 'colour' (options: ",
        "沒有選項 'colour'（現有選項：",
    ),
    (
        "option kind",
        post_table(options={"max_turns": "x"}),
        "option_int",
        "option 'max_turns' must be int",
        "必須是整數",
    ),
    (
        "option size",
        post_table(options={"max_turns": 10**19}),
        "option_too_big",
        "option 'max_turns' must be at most 10000 on this server",
        "最多只能是 10000",
    ),
    (
        "bot settings",
        post_table(seats=[{"kind": "human"}, {**BOT, "params": {f"k{i}": 1 for i in range(17)}}]),
        "bot_settings",
        "at most 16 bot settings",
        "最多 16 項",
    ),
    (
        "bot setting name",
        post_table(seats=[{"kind": "human"}, {**BOT, "params": {"a/b": 1}}]),
        "bot_setting_name",
        "bot setting 'a/b' is not a plain name",
        "不是單純的名稱",
    ),
    (
        "bot setting size",
        post_table(seats=[{"kind": "human"}, {**BOT, "params": {"go": 10**9}}]),
        "bot_setting_too_big",
        "bot setting go=1000000000 is larger than 10000",
        "超過 10000",
    ),
    (
        "bot setting value",
        post_table(seats=[{"kind": "human"}, {**BOT, "params": {"go": [1]}}]),
        "bot_setting_value",
        "bot setting 'go' must be a number, word or true/false",
        "必須是數字、單字",
    ),
    ("lobby options", bots("[1]"), "options_object", "options must be an object", "必須是一個物件"),
    ("public body", set_public({"public": "yes"}), "public", "public must be true or false", "true 或 false"),
    (
        "nothing to offer",
        set_public({"public": True}, practice_table),
        "no_open_seat",
        "this table has no open seat to offer",
        "沒有可以提供的空位",
    ),
    ("claim body", claim([1]), "json_object", "a JSON object", "JSON 物件"),
    ("claim what", claim({}), "invite_or_seat", "an invite code or a seat number", "邀請碼或座位號碼"),
    (
        "claim both",
        claim({"invite": "a" * 32, "seat": 1}),
        "invite_and_seat",
        "an invite code or a seat number, not both",
        "只能給一個",
    ),
    # A field no route reads is named, never dropped: a misspelt one would change what is made.
    (
        "table field",
        post_table(option={"free_discard": True}),
        "unknown_field",
        "no field 'option' here (fields: game, players, options, seats, nickname, public, seed, clock)",
        "這裡沒有欄位 'option'（可用欄位：game、players",
    ),
    (
        "person's seat field",
        post_table(seats=[{"kind": "human", "nickname": "Ann"}, BOT]),
        "seat_field",
        "seat 1 has no field 'nickname' (fields: kind)",
        "座位 1 沒有欄位 'nickname'（可用欄位：kind）",
    ),
    (
        "bot's seat field",
        post_table(seats=[{"kind": "human"}, {**BOT, "level": 3}]),
        "seat_field",
        "seat 2 has no field 'level' (fields: kind, bot, params)",
        "座位 2 沒有欄位 'level'",
    ),
    (
        "public field",
        set_public({"public": True, "seat": 1}),
        "unknown_field",
        "no field 'seat' here (fields: public)",
        "'seat'",
    ),
    (
        "public misspelt",
        set_public({"pubic": True}),
        "unknown_field",
        "no field 'pubic' here (fields: public)",
        "'pubic'",
    ),
    (
        "claim field",
        claim({"invite": "a" * 32, "nickname": "Ann"}),
        "unknown_field",
        "no field 'nickname' here (fields: invite, seat)",
        "可用欄位：invite、seat",
    ),
    ("invite a bot", invite("1"), "no_person_seat", "no seat of a person with that number", "真人座位"),
    ("path number", invite("x"), "path_number", "not a number in range", "超出範圍"),
    ("viewer", replay("", "nobody"), "viewer", "viewer must be public, all or a seat number", "觀看者"),
    ("no seat", replay("", "7"), "no_seat", "no such seat", "沒有這個座位"),
    ("no step", replay("/999"), "no_step", "no such step", "沒有這一步"),
    (
        "content length",
        raw_post(b"{}", "two"),
        "content_length",
        "Content-Length must be a number of bytes",
        "位元組數",
    ),
]


@pytest.mark.parametrize(("name", "ask", "key", "english", "chinese"), CASES, ids=[c[0] for c in CASES])
def test_a_refused_request_says_why_in_the_readers_language(
    client: TestClient, name: str, ask: Ask, key: str, english: str, chinese: str
) -> None:
    answer = ask(client)
    assert 400 <= answer.status_code < 500, (name, answer.text)
    message = answer.json()
    assert message["key"] in {"web.error.bad_request", "web.error.bad_options"}, answer.text
    detail = message["args"]["detail"]
    assert detail["$t"] == f"web.error.detail.{key}", detail
    said = render_message(message, "en")
    assert english in said and said == message["message"]
    zh = render_message(message, "zh-Hant")
    assert chinese in zh, zh
    assert not any(word in zh for word in ("must", "such", "request", "settings", "{"))


def test_an_unknown_field_is_named_short_and_escaped_and_nothing_is_made(client: TestClient) -> None:
    # A field's name is the client's text: the refusal repeats at most 40 characters of it, with
    # bidi overrides and controls escaped, and the table is not made.
    name = "\u202e\x00" + "x" * 5000
    people = [{"kind": "human"}, {"kind": "human"}]
    spec = {"game": "touring", "players": 2, "seats": people, "public": True, name: 1}
    answer = client.post("/api/tables", json=spec)
    assert answer.status_code == 400
    message = answer.json()
    assert message["args"]["detail"]["args"]["name"] == name[:40]
    said = message["message"]
    assert "'\\u202e\\x00" + "x" * 38 + "'" in said and len(said) < 250, said
    assert "\u202e" not in said and "\x00" not in said
    assert client.get("/api/tables").json()["tables"] == []  # without the stray field, it is listed
    del spec[name]
    assert client.post("/api/tables", json=spec).status_code == 201
    assert len(client.get("/api/tables").json()["tables"]) == 1


@pytest.mark.parametrize(
    ("where", "key"),
    [("options", "web.error.detail.unknown_option"), ("params", "web.error.detail.bot_setting_name")],
)
def test_a_refused_option_or_bot_setting_name_is_repeated_short(
    client: TestClient, where: str, key: str
) -> None:
    name = "x" * 5000
    spec: dict[str, Any] = {"game": "touring", "players": 2}
    if where == "options":
        spec["options"] = {name: 1}
    else:
        spec["seats"] = [{"kind": "human"}, {**BOT, "params": {name: 1}}]
    message = client.post("/api/tables", json=spec).json()
    assert message["args"]["detail"] == {
        "$t": key,
        "args": {**message["args"]["detail"]["args"], "name": "x" * 40},
    }
    assert len(message["message"]) < 250, message["message"]


def test_a_body_that_ends_early_says_so() -> None:
    class Gone:
        headers: ClassVar[dict[str, str]] = {}

        async def stream(self) -> AsyncIterator[bytes]:
            yield b"{"
            raise ClientDisconnect

    with pytest.raises(WebError) as caught:
        asyncio.run(read_body(Gone(), 1000))  # type: ignore[arg-type]  # the two members read_body uses
    message = caught.value.to_message()
    assert message["args"]["detail"]["$t"] == "web.error.detail.body_ended"
    assert message["message"] == "The request is not valid: the body ended early."
    assert "請求內容提早結束" in render_message(message, "zh-Hant")


def test_one_seat_is_one_seat() -> None:
    message = {
        "key": "web.error.bad_request",
        "args": {"detail": {"$t": "web.error.detail.seats", "args": {}}},
    }
    message["args"]["detail"]["args"] = {"count": 1}
    assert render_message(message, "en").endswith("seats must list 1 seat.")
    message["args"]["detail"]["args"] = {"count": 3}
    assert render_message(message, "en").endswith("seats must list 3 seats.")


def english_details(source: str) -> list[int]:
    """Lines where a ``detail=`` (or a ``detail`` variable) is given plain text, not ``reason(...)``
    or a game's ``refusal_detail``."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        values: list[ast.expr] = []
        if isinstance(node, ast.Call):
            values = [kw.value for kw in node.keywords if kw.arg == "detail"]
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "detail" for t in node.targets
        ):
            values = [node.value]
        for value in values:
            allowed = isinstance(value, ast.Name) or (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Name)
                and value.func.id in {"reason", "refusal_detail", "wrong_kind"}
            )
            if not allowed:
                lines.append(value.lineno)
    return lines


def test_no_english_detail_is_left_in_the_web_code() -> None:
    found = {
        path.name: lines for path in sorted(WEB.glob("*.py")) if (lines := english_details(path.read_text()))
    }
    assert found == {}


def test_the_detail_scan_finds_plain_text() -> None:
    old = (
        'raise WebError("web.error.bad_request", detail="no such step")\n'
        'raise WebError("web.error.bad_options", detail=f"option {key!r} must be {wanted}")\n'
        'detail = f"bot setting {key}={value} is larger than {MAX_BOT_NUMBER}"\n'
        'raise WebError("web.error.bad_request", detail=reason("web.error.detail.no_step"))\n'
    )
    assert sorted(english_details(old)) == [1, 2, 3]


@pytest.mark.parametrize(
    ("text", "english", "chinese"),
    [
        (
            "x" * 201,
            "The chat is refused: longer than 200 characters.",
            "聊天訊息不被接受：超過 200 個字元。",
        ),
        ("bell\u0007", "The chat is refused: character U+0007 is not allowed.", "不能使用字元 U+0007"),
        (42, "The chat is refused: not text.", "聊天訊息不被接受：不是文字。"),
    ],
)
def test_a_refused_chat_line_says_why_in_the_readers_language(
    client: TestClient, text: Any, english: str, chinese: str
) -> None:
    table = create_table(client, seats=[{"kind": "human"}, {"kind": "human"}])
    with client.websocket_connect(f"/ws/{table['table']}") as ws:
        hello(ws, table["tokens"]["0"])
        send(ws, {"type": "chat", "text": text})
        error = expect_error(ws)
    assert error["key"] == "web.error.bad_text" and error["message"] == english
    assert render_message(error, "en") == english
    assert chinese in render_message(error, "zh-Hant")


def test_a_message_that_is_not_json_says_where_in_the_readers_language(client: TestClient) -> None:
    answer = client.post("/api/tables", content=b'{"game": }', headers={"content-type": "application/json"})
    message = answer.json()
    assert answer.status_code == 400 and message["key"] == "web.error.bad_json"
    assert message["message"] == "The message is not valid JSON (line 1, column 10)."
    assert render_message(message, "zh-Hant") == "訊息不是正確的 JSON（第 1 行第 10 欄）。"
    deep = client.post("/api/tables", json={"game": [[[[[[[[[[1]]]]]]]]]]})
    assert "巢狀超過 8 層" in render_message(deep.json(), "zh-Hant")


def test_options_that_cannot_go_together_say_why_in_the_readers_language(client: TestClient) -> None:
    # Before: the game's English ValueError was the detail, so a Chinese page read
    # "這些設定無法使用：option 'engine' of mexican-train must be at most 9 with a double-9 set".
    spec = {"game": "mexican-train", "players": 3, "options": {"set_size": 9, "engine": 12}}
    answer = client.post("/api/tables", json=spec)
    assert answer.status_code == 400, answer.text
    message = answer.json()
    assert message["args"]["detail"]["$t"] == "mexican_train.error.engine_above_set"
    assert "must be at most 9 with a double-9 set, not 12" in render_message(message, "en")
    zh = render_message(message, "zh-Hant")
    assert "最多只能是 9，而不是 12" in zh and "must" not in zh, zh


@pytest.mark.parametrize(
    ("params", "key"), [({"seed": 3}, "bot_table_given"), ({"rollout": "random"}, "paired_rollout")]
)
def test_a_bot_setting_python_refused_is_refused_by_name(
    client: TestClient, params: dict[str, Any], key: str
) -> None:
    # Before: {"seed": 3} came back as "These settings do not work: tabletrek.core.game.Game.bot()
    # got multiple values for keyword argument 'seed'", and a paired search told to play out at
    # random as an English sentence in every language.
    answer = post_table(seats=[{"kind": "human"}, {"kind": "bot", "bot": "ismcts", "params": params}])(client)
    assert answer.status_code == 400, answer.text
    message = answer.json()
    assert message["args"]["detail"]["$t"] == f"core.error.{key}"
    assert "Game.bot" not in answer.text and "keyword argument" not in answer.text
    zh = render_message(message, "zh-Hant")
    assert "電腦玩家" in zh and not any(word in zh for word in ("cannot", "policy", "name one")), zh

"""The JSON API: games, catalogs, rules, creating tables, and what a running game keeps private."""

from __future__ import annotations

from pathlib import Path

from pytest import MonkeyPatch
from starlette.testclient import TestClient

import tabletrek
from tabletrek.core.events import render_message
from tabletrek.web.app import create_app
from tabletrek.web.pages import has_own_ui
from tabletrek.web.store import default_url

from .helpers import create_table


def test_games_lists_touring_with_bots_and_options(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    touring = games["touring"]
    assert touring["player_counts"] == [2, 3, 4, 5, 6]
    assert "random" in touring["bots"] and "greedy" in touring["bots"]
    assert {o["name"] for o in touring["options"]} >= {"free_discard", "max_turns"}


def test_catalogs_are_served_per_language(client: TestClient) -> None:
    en = client.get("/api/i18n/en?domains=core,web,touring").json()["messages"]
    zh = client.get("/api/i18n/zh-TW?domains=web,touring").json()
    assert en["web.ui.your_turn"] == "Your turn."
    assert zh["lang"] == "zh-Hant"
    assert zh["messages"]["web.ui.your_turn"] == "輪到你了。"
    assert zh["messages"]["touring.card.go"] != en["touring.card.go"]


def test_rules_page_is_html_from_the_games_markdown(client: TestClient) -> None:
    for lang in ("en", "zh-Hant"):
        response = client.get(f"/api/games/touring/rules?lang={lang}")
        try:
            markdown = tabletrek.load("touring").rules_markdown(lang)
        except FileNotFoundError:  # the rules page is written by the game's author
            assert response.status_code == 404
            assert response.json()["key"] == "web.error.no_rules"
            continue
        heading = next(line for line in markdown.splitlines() if line.startswith("#")).lstrip("# ").strip()
        assert response.status_code == 200
        assert heading.split()[0] in response.json()["html"]
        # the game's name in that language, for the page's title
        assert response.json()["title"] == {"en": "Touring", "zh-Hant": "公路旅行"}[lang]
    assert client.get("/api/games/nope/rules").status_code == 404


def test_pages_are_served(client: TestClient) -> None:
    for path in ("/", "/t/abcdefgh12", "/replay/abcdefgh12", "/rules/touring"):
        response = client.get(path)
        assert response.status_code == 200
        assert '<script type="module"' in response.text
    assert client.get("/static/js/generic.js").status_code == 200


def test_create_table_returns_a_long_token_per_human_seat(client: TestClient) -> None:
    created = create_table(client, seats=[{"kind": "human"}, {"kind": "human"}])
    tokens = created["tokens"]
    assert set(tokens) == {"0", "1"}
    for token in tokens.values():
        assert len(token) >= 32  # 24 random bytes, base64: 192 bits
    assert tokens["0"] != tokens["1"]
    info = client.get(f"/api/tables/{created['table']}").json()
    assert [s["kind"] for s in info["seats"]] == ["human", "human"]
    assert "token" not in str(info).lower().replace("tokens", "")


def test_bad_table_requests_say_why(client: TestClient) -> None:
    def error(body: object) -> dict[str, object]:
        response = client.post("/api/tables", json=body)
        assert response.status_code == 400
        result: dict[str, object] = response.json()
        return result

    assert error({"game": "chess"})["key"] == "web.error.unknown_game"
    bad = error({"game": "touring", "players": 7})
    assert bad["key"] == "web.error.bad_options" and "7" in str(bad["args"])
    assert error({"game": "touring", "options": {"colour": 1}})["key"] == "web.error.bad_options"
    assert error({"game": "touring", "seats": [{"kind": "human"}]})["key"] == "web.error.bad_request"
    unknown = error({"game": "touring", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "genius"}]})
    assert unknown["key"] == "web.error.unknown_bot"
    assert error({"game": "touring", "clock": -3})["key"] == "web.error.bad_request"
    response = client.post("/api/tables", content=b"{nope", headers={"content-type": "application/json"})
    assert response.json()["key"] == "web.error.bad_json"
    huge = client.post("/api/tables", content=b"[" + b"1," * 50_000 + b"1]")
    assert huge.status_code == 413


def test_a_games_refusal_of_its_settings_reads_in_the_readers_language(client: TestClient) -> None:
    """The game's own reason travels as a catalog reference (``$t`` with its arguments), so the
    browser renders it in its reader's language, not the server's English."""
    response = client.post("/api/tables", json={"game": "touring", "players": 7})
    assert response.status_code == 400
    message = response.json()
    detail = message["args"]["detail"]
    assert detail["$t"] == "core.error.player_count" and detail["args"]["players"] == 7
    english = render_message(message, "en")
    chinese = render_message(message, "zh-Hant")
    assert "7" in english and "touring" in english.lower() and english == message["message"]
    assert "7" in chinese and chinese != english and any("\u4e00" <= ch <= "\u9fff" for ch in chinese)
    # Options go through the game's own check too: a bad value names the option in either language.
    bots = client.get("/api/games/touring/bots", params={"options": '{"max_turns": 0}'})
    assert bots.status_code == 400, bots.text
    detail = bots.json()["args"]["detail"]
    assert detail["$t"].startswith("core.error.option_") and detail["args"]["name"] == "max_turns"
    assert "max_turns" in render_message(bots.json(), "zh-Hant")


def test_record_and_full_replay_stay_closed_while_the_game_runs(client: TestClient) -> None:
    created = create_table(client, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    table = created["table"]
    assert client.get(f"/api/tables/{table}/record").status_code == 403
    assert client.get(f"/api/tables/{table}/replay?viewer=all").json()["key"] == "web.error.replay_running"
    # a seat's own view needs that seat's token
    assert client.get(f"/api/tables/{table}/replay?viewer=0").status_code == 403
    own = client.get(
        f"/api/tables/{table}/replay/0?viewer=0", headers={"x-seat-token": created["tokens"]["0"]}
    )
    assert own.status_code == 200
    assert own.json()["views"]["0"]["hand"]
    public = client.get(f"/api/tables/{table}/replay/0?viewer=public").json()
    assert public["views"]["public"]["hand"] is None


def test_unknown_table(client: TestClient) -> None:
    assert client.get("/api/tables/doesnotexist").status_code == 404


def test_free_text_options_cannot_name_server_files(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    checked = []
    for name, info in games.items():
        for option in info["options"]:
            if option["kind"] != "str":
                continue
            checked.append(option["name"])
            # every text option once; the word pack, which takes a path off the server, three ways
            paths = ("/etc/passwd", "../../secret.txt", "words.txt")
            for value in paths if option["name"] == "word_pack" else paths[1:2]:
                body = {"game": name, "options": {option["name"]: value}}
                response = client.post("/api/tables", json=body)
                assert response.status_code == 400
                assert response.json()["key"] == "web.error.bad_options"
                reason = render_message(response.json(), "en")
                assert "plain name" in reason or "one of" in reason
    # the word pack is the free-text option that takes a path outside the server
    assert "word_pack" in checked
    # and the lobby gets its named packs as a list to choose from
    pack = next(o for o in games["codenames-duet"]["options"] if o["name"] == "word_pack")
    assert pack["choices"] == ["en", "zh-Hant"]
    # a named choice still works, e.g. the Chinese word pack
    if "codenames-duet" in games:
        humans = [{"kind": "human"}, {"kind": "human"}]
        body = {"game": "codenames-duet", "options": {"word_pack": "zh-Hant"}, "seats": humans}
        ok = client.post("/api/tables", json=body)
        assert ok.status_code == 201


def test_the_default_store_is_sqlite_in_the_user_data_directory(
    tmp_path: Path, monkeypatch: MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLETREK_HOME", str(tmp_path))
    assert default_url() == f"sqlite:///{tmp_path / 'web.sqlite3'}"
    with TestClient(create_app(None, bot_delay=0)) as client:
        create_table(client)
    assert (tmp_path / "web.sqlite3").is_file()


def test_a_bot_seat_takes_its_level_as_settings(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "ismcts", "params": {"iterations": 5}}]
    created = create_table(client, seats=seats)
    assert client.get(f"/api/tables/{created['table']}").json()["seats"][1]["bot"] == "ismcts"
    seats[1]["params"] = {"depth": 3}
    response = client.post("/api/tables", json={"game": "touring", "seats": seats})
    assert response.status_code == 400
    assert response.json()["key"] == "web.error.bad_options"
    for lang in ("en", "zh-Hant"):
        assert "depth" in render_message(response.json(), lang)


def test_bot_settings_cannot_make_a_bot_think_for_hours(client: TestClient) -> None:
    for params in ({"iterations": 10**9}, {"ms": 1e12}, {"x" * 40: 1}, {"iterations": [1, 2]}):
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "ismcts", "params": params}]
        response = client.post("/api/tables", json={"game": "touring", "seats": seats})
        assert response.status_code == 400 and response.json()["key"] == "web.error.bad_options", params


def test_pages_carry_a_content_security_policy(client: TestClient) -> None:
    headers = client.get("/").headers
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


def test_a_server_caps_its_unfinished_tables(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0, max_tables=2)) as client:
        create_table(client, seats=[{"kind": "human"}, {"kind": "human"}])
        create_table(client, seats=[{"kind": "human"}, {"kind": "human"}])
        response = client.post("/api/tables", json={"game": "touring"})
        assert response.status_code == 429 and int(response.headers["retry-after"]) > 0
        assert response.json() == {**response.json(), "key": "web.error.full", "args": {"limit": 2}}


def test_a_table_says_whether_its_game_has_its_own_page_module(client: TestClient) -> None:
    created = create_table(client)
    ui = client.get(f"/api/tables/{created['table']}").json()["ui"]
    assert ui == {"module": "/ui/touring/page.js", "style": "/ui/touring/style.css"}
    assert has_own_ui("touring") and has_own_ui("double-crossing")
    assert not has_own_ui("a-fifth-game")  # served by the generic page module


def test_a_seat_nobody_named_is_called_in_the_readers_language() -> None:
    # Before: a Chinese reader saw 'P1' and 'greedy (P2)' in the seats, the log and the moves
    # ('對 greedy (P2) 打出 穿刺'), where the terminal says 玩家1 and 玩家2.
    from types import SimpleNamespace
    from typing import cast

    from tabletrek.web.tables import LiveTable, shown_name

    assert shown_name("touring", 0, None, None, "zh-Hant") == "玩家1"
    assert shown_name("touring", 0, None, "小明", "zh-Hant") == "小明"
    seats = [
        SimpleNamespace(seat=0, bot=None, nickname="玩家2"),  # a nickname that is another seat's Chinese name
        SimpleNamespace(seat=1, bot=None, nickname=None),
        SimpleNamespace(seat=2, bot="random", nickname=None),
    ]
    table = SimpleNamespace(seats=seats, game=SimpleNamespace(domain="touring"))
    live = cast(LiveTable, table)  # names() reads only the seats and the game's catalog domain
    assert LiveTable.names(live, "zh-Hant") == ["玩家2", "P2", "隨機（玩家3）"]
    assert LiveTable.names(live) == ["玩家2", "P2", "Random (P3)"]


def test_a_bot_seat_goes_by_the_bots_short_name_in_both_languages() -> None:
    # Before: a bot's seat was its id, in Chinese too: 'trader（玩家2）放棄。', 'ismcts (P3)',
    # 'codenames-guess (P2)', beside the seat list's '電腦：商人（買賣契約）'.
    from types import SimpleNamespace
    from typing import cast

    from tabletrek.i18n import bot_short
    from tabletrek.web.tables import LiveTable, shown_name

    assert shown_name("touring", 1, "greedy", None) == "Greedy (P2)"
    assert shown_name("touring", 1, "greedy", None, "zh-Hant") == "貪心（玩家2）"
    assert shown_name("double_crossing", 2, "trader", None, "zh-Hant") == "商人（玩家3）"
    assert shown_name("double_crossing", 2, "ismcts", None) == "Thinker (P3)"  # a bot every game has
    assert shown_name("codenames_duet", 1, "codenames-guess", None, "zh-Hant") == "AI 搭檔（玩家2）"
    assert shown_name("codenames_duet", 1, "codenames-guess", "Kim") == "Kim"  # a nickname wins
    assert bot_short("touring", "a-new-bot", "zh-Hant") == "a-new-bot"  # no name yet: its id
    seats = [
        SimpleNamespace(seat=0, bot=None, nickname="貪心（玩家2）"),  # a person named like the bot's seat
        SimpleNamespace(seat=1, bot="greedy", nickname=None),
    ]
    live = cast(LiveTable, SimpleNamespace(seats=seats, game=SimpleNamespace(domain="mexican_train")))
    # the bot keeps the table's own name where its Chinese one is taken, so two seats never read alike
    assert LiveTable.names(live, "zh-Hant") == ["貪心（玩家2）", "Greedy (P2)"]


def test_a_creator_cannot_take_a_bot_seats_name(client: TestClient) -> None:
    spec = {"game": "touring", "players": 2, "nickname": "greedy (p2)"}
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    refused = client.post("/api/tables", json={**spec, "seats": seats})
    assert refused.status_code == 400 and refused.json()["key"] == "web.error.nickname_taken"
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    assert client.post("/api/tables", json={**spec, "seats": seats}).status_code == 201

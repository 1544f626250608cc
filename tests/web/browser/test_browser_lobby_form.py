"""The lobby's form in a real headless Chromium keeps what the reader set by hand when it redraws.

It redraws on a change of language, of player count and of game. Before, each redraw put every
field back to its default and closed the Advanced section: a seed, a clock, a bot's settings typed
in English were gone on switching to 繁體中文. Fields the reader left alone still take the new
drawing's defaults, so Codenames' word pack follows the language until someone picks one.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tabletrek.core.bots import parse_bot_spec

from ..helpers import SIZES, ServerProcess, assert_axe_clean
from .pages import LOBBY_TITLE, games_in_lobby, open_lobby

pytestmark = pytest.mark.browser


def switch_language(page: Any, lang: str) -> None:
    """Pick ``lang`` and wait for the lobby drawn in it."""
    page.select_option("#lang", lang)
    page.wait_for_selector(f"h1:has-text('{LOBBY_TITLE[lang]}')")


def advanced_open(page: Any) -> bool:
    return bool(page.evaluate("document.querySelector('#advanced').open"))


def set_up_mexican_train(page: Any) -> None:
    """A four-player Mexican Train table set up by hand in every part of the form."""
    page.select_option("#players", "4")
    page.select_option("#seat1", "human")
    page.select_option("#seat3", "bot:ismcts")
    page.select_option("select[name=level3]", "strong")
    page.select_option("#opt_set_size", json.dumps(9))
    page.fill("#opt_rounds", "3")
    page.uncheck("#opt_relaxed_doubles")
    page.fill("#clock", "90")
    page.check("#public")
    page.click("#advanced summary")
    page.fill("input[name=params3]", "c=0.7")
    page.fill("#seed", "42")


def assert_mexican_train_kept(page: Any) -> None:
    assert page.input_value("#game") == "mexican-train"
    assert page.input_value("#players") == "4"
    assert [page.input_value(f"#seat{s}") for s in range(4)] == [
        "human",
        "human",
        "bot:planner",
        "bot:ismcts",
    ]
    assert page.input_value("select[name=level3]") == "strong"
    assert page.is_visible("select[name=level3]") and not page.is_visible("select[name=level2]")
    assert json.loads(page.input_value("#opt_set_size")) == 9
    assert page.input_value("#opt_rounds") == "3"
    assert not page.is_checked("#opt_relaxed_doubles")
    assert page.input_value("#clock") == "90"
    assert page.is_checked("#public")
    assert advanced_open(page)
    assert page.input_value("input[name=params3]") == "c=0.7"
    assert page.input_value("#seed") == "42"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("first", "second"), [("en", "zh-Hant"), ("zh-Hant", "en")], ids=["to-zh", "to-en"])
def test_a_change_of_language_keeps_every_field_set_by_hand(
    server: ServerProcess, page: Any, first: str, second: str, size: str
) -> None:
    page.set_viewport_size(SIZES[size])
    open_lobby(server, page, first, "mexican-train")
    set_up_mexican_train(page)
    assert_mexican_train_kept(page)  # the set-up itself took (seat 2 keeps the game's default bot)
    switch_language(page, second)
    assert_mexican_train_kept(page)
    assert_axe_clean(page, f"lobby redrawn in {second} with Advanced open ({size})")
    switch_language(page, first)  # kept twice over: a kept field still counts as set by hand
    assert_mexican_train_kept(page)
    assert_axe_clean(page, f"lobby redrawn in {first} with Advanced open ({size})")


def test_the_kept_fields_are_what_the_table_is_created_with(server: ServerProcess, page: Any) -> None:
    # One person and three bots: a practice table, the only kind the server lets choose a seed.
    open_lobby(server, page, "en", "mexican-train")
    page.select_option("#players", "4")
    page.select_option("#seat1", "bot:ismcts")
    page.select_option("#seat3", "bot:ismcts")
    page.select_option("select[name=level3]", "quick")
    page.fill("#opt_rounds", "2")
    page.fill("#clock", "120")
    page.click("#advanced summary")
    page.fill("input[name=params1]", "iterations=5")
    page.fill("#seed", "7")
    switch_language(page, "zh-Hant")
    with page.expect_request(lambda r: r.url.endswith("/api/tables") and r.method == "POST") as sent:
        page.click("#create-table")
    spec = sent.value.post_data_json
    assert spec["game"] == "mexican-train" and spec["players"] == 4
    assert spec["options"]["rounds"] == 2
    assert spec["clock"] == 120 and spec["seed"] == 7
    assert spec["seats"][0] == {"kind": "human"}
    assert spec["seats"][1] == {"kind": "bot", "bot": "ismcts", "params": {"iterations": 5}}
    assert spec["seats"][3] == {"kind": "bot", "bot": "ismcts", "params": {"iterations": 100}}
    page.wait_for_selector("#board, #hand, .mt-summary")  # the server took it and the table opened


def test_the_word_pack_follows_the_language_until_one_is_picked(server: ServerProcess, page: Any) -> None:
    if "codenames-duet" not in games_in_lobby(server):
        pytest.skip("Codenames Duet does not load in this tree")
    open_lobby(server, page, "en", "codenames-duet")
    page.fill("#opt_tokens", "7")
    switch_language(page, "zh-Hant")
    assert json.loads(page.input_value("#opt_word_pack")) == "zh-Hant"  # left alone: it follows
    assert page.input_value("#opt_tokens") == "7"
    switch_language(page, "en")
    assert json.loads(page.input_value("#opt_word_pack")) == "en"
    page.select_option("#opt_word_pack", json.dumps("zh-Hant"))  # picked: it stays
    switch_language(page, "zh-Hant")
    switch_language(page, "en")
    assert json.loads(page.input_value("#opt_word_pack")) == "zh-Hant"
    assert page.input_value("#opt_tokens") == "7"


def test_a_new_player_count_keeps_the_options_and_the_seats_that_remain(
    server: ServerProcess, page: Any
) -> None:
    open_lobby(server, page, "en", "mexican-train")
    set_up_mexican_train(page)
    page.select_option("#players", "3")
    assert [page.input_value(f"#seat{s}") for s in range(3)] == ["human", "human", "bot:planner"]
    assert page.locator("#seat3").count() == 0
    assert page.input_value("#opt_rounds") == "3"
    assert not page.is_checked("#opt_relaxed_doubles")
    assert page.input_value("#clock") == "90" and page.is_checked("#public")
    assert advanced_open(page) and page.input_value("#seed") == "42"


def test_another_game_keeps_only_what_every_table_has(server: ServerProcess, page: Any) -> None:
    open_lobby(server, page, "en", "mexican-train")
    set_up_mexican_train(page)
    page.select_option("#game", "touring")
    assert page.input_value("#players") == "2"  # Touring's own default, not Mexican Train's four
    assert page.input_value("#seat1") == "bot:greedy"
    assert page.input_value("input[name=params1]") == ""
    assert page.input_value("#opt_max_turns") == "2000"
    assert page.input_value("#clock") == "90" and page.is_checked("#public")
    assert advanced_open(page) and page.input_value("#seed") == "42"


def boxes_and_names(page: Any) -> list[tuple[str, dict[str, float], dict[str, float]]]:
    """(id, box, name) for each checkbox of the form: its rectangle and its label text's."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('form input[type=checkbox]')].map((box) => {
                 const label = document.querySelector(`label[for="${box.id}"] .optname`);
                 const name = label.getBoundingClientRect();
                 const own = box.getBoundingClientRect();
                 return [box.id, {top: own.top, height: own.height}, {top: name.top, height: name.height}];
               })"""
        )
    )


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_each_checkbox_sits_on_the_line_of_its_name(server: ServerProcess, page: Any, lang: str) -> None:
    # Before: the fields' 2.2rem minimum height made each checkbox a box taller than its line, drawn
    # at its top, so the name sat half a line below the box it names (Codenames' options, "public").
    open_lobby(server, page, lang, "codenames-duet")
    found = boxes_and_names(page)
    assert {box_id for box_id, _box, _name in found} >= {"opt_zero_clues", "opt_relaxed_clues", "public"}
    for box_id, box, name in found:
        assert box["height"] <= name["height"] * 1.3, box_id
        middle, name_middle = box["top"] + box["height"] / 2, name["top"] + name["height"] / 2
        assert abs(middle - name_middle) <= name["height"] / 4, box_id


SETTINGS = [
    "paired=no",
    "compiled=OFF",
    "margin=yes",
    "infer=On",
    "iterations=400",
    "c=0.7",
    "rollout=greedy",
]


def test_the_settings_box_reads_a_bots_settings_as_the_terminal_does(
    server: ServerProcess, page: Any
) -> None:
    # Before: the box sent "no" and "off" as words, which the search read as on; the terminal's
    # --bots ismcts:paired=no has always meant off.
    open_lobby(server, page, "en")
    typed = page.evaluate(
        """async (text) => {
          const { parseSettings } = await import("/static/js/lobby.js");
          return parseSettings(text);
        }""",
        " ".join(SETTINGS),
    )
    assert typed == parse_bot_spec("ismcts:" + ";".join(SETTINGS))[1]
    assert typed["paired"] is False and typed["compiled"] is False and typed["margin"] is True


def refusal_shown(page: Any) -> str:
    """Create the table as the form stands; the refusal the lobby shows."""
    page.click("#create-table")
    page.wait_for_selector("#create-error:not(:empty)")
    return str(page.locator("#create-error").inner_text())


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("lang", "said"), [("zh-Hant", "最多只能是 9，而不是 12"), ("en", "at most 9 with a double-9 set")]
)
def test_options_that_cannot_go_together_are_refused_in_the_readers_language(
    server: ServerProcess, page: Any, lang: str, said: str, size: str
) -> None:
    # Before: the game's English sentence stood inside the Chinese refusal ("這些設定無法使用：
    # option 'engine' of mexican-train must be at most 9 with a double-9 set").
    page.set_viewport_size(SIZES[size])
    open_lobby(server, page, lang, "mexican-train")
    page.select_option("#opt_set_size", json.dumps(9))
    page.fill("#opt_engine", "12")
    shown = refusal_shown(page)
    assert said in shown, shown
    assert lang == "en" or not any(word in shown for word in ("must", "engine double", "set")), shown
    assert_axe_clean(page, f"lobby refusing a table's options ({lang}, {size})")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("lang", "said"), [("zh-Hant", "不能給 ismcts 電腦玩家設定 seed"), ("en", "cannot be given seed")]
)
def test_a_bots_own_seed_is_refused_in_the_readers_language(
    server: ServerProcess, page: Any, lang: str, said: str, size: str
) -> None:
    # Before: "These settings do not work: tabletrek.core.game.Game.bot() got multiple values for
    # keyword argument 'seed'", in either language.
    page.set_viewport_size(SIZES[size])
    open_lobby(server, page, lang, "touring")
    page.select_option("#seat1", "bot:ismcts")
    page.click("#advanced summary")
    page.fill("input[name=params1]", "seed=3")
    shown = refusal_shown(page)
    assert said in shown and "Game.bot" not in shown, shown
    assert_axe_clean(page, f"lobby refusing a bot's seed ({lang}, {size})")

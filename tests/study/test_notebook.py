"""States render themselves in Jupyter (``_repr_svg_``, ``_repr_html_``) and for scripts (``render``)."""

from __future__ import annotations

import re
import sys
import types
import xml.etree.ElementTree as ET

import pytest

import tabletrek
from tabletrek.core.html import value_html


@pytest.mark.parametrize("name", ["touring", "mexican-train", "double-crossing", "codenames-duet"])
def test_every_game_renders_its_public_view(name: str) -> None:
    state = tabletrek.load(name).new_game(seed=2)
    page = state._repr_html_()
    assert page.startswith("<div") and name in page
    assert value_html(state.public_view()) in page, "the spectator's view, nothing hidden"
    assert "to act" in page


def test_finished_game_shows_the_result() -> None:
    game = tabletrek.load("touring")
    state = game.new_game(seed=4)
    bots = [game.bot("greedy", seat=s, seed=s) for s in range(2)]
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(state))
    page = state._repr_html_()
    assert "winners: p" in page and "legal:" not in page


def test_a_game_may_bring_its_own_renderer(monkeypatch: pytest.MonkeyPatch) -> None:
    state = tabletrek.load("touring").new_game(seed=1)
    module = types.ModuleType(f"{state.game.package}.html")
    module.render_html = lambda s: f"<svg>{len(s.history)}</svg>"
    monkeypatch.setitem(sys.modules, module.__name__, module)
    assert state._repr_html_() == "<svg>0</svg>"


def test_values_are_escaped_and_long_lists_cut() -> None:
    out = value_html({"a<b": ["<x>"] * 100})
    assert "&lt;x&gt;" in out and "a&lt;b" in out and "(+40)" in out


SVG_NS = "{http://www.w3.org/2000/svg}"


def played(name: str, moves: int, players: int = 2) -> tabletrek.State:
    game = tabletrek.load(name, players=players)
    state = game.new_game(seed=3)
    for i in range(moves):
        if state.is_over:
            break
        seat = state.current_player
        assert seat is not None
        state.apply(game.bot("random", seat=seat, seed=i).act(state))
    return state


@pytest.mark.parametrize("name", ["touring", "mexican-train", "double-crossing", "codenames-duet"])
@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_every_game_draws_itself_as_svg(name: str, lang: str) -> None:
    state = played(name, 20, players=3)
    for seat in (None, *range(state.game.players)):
        svg = state.render(seat, lang=lang)
        root = ET.fromstring(svg)  # well-formed XML, or this raises
        assert root.tag == f"{SVG_NS}svg" and float(root.get("height", "0")) > 100
        texts = [t.text or "" for t in root.iter(f"{SVG_NS}text")]
        assert any(state.game.title(lang) in t for t in texts)
        assert len(list(root.iter(f"{SVG_NS}rect"))) > 10, "a drawing, not just a caption"
    assert ET.fromstring(state._repr_svg_()) is not None
    assert state.render(0)._repr_svg_() == str(state.render(0))


@pytest.mark.parametrize("name", ["touring", "mexican-train", "double-crossing", "codenames-duet"])
def test_chinese_drawings_take_full_width_punctuation_and_counted_words(name: str) -> None:
    # Before: Double Crossing's drawing said '車輛: 箱車 1, 客車 0' and a space's title '7: 交易'
    # (an ASCII colon and comma in Chinese; in English 'cars: box 1, passenger 0').
    state = played(name, 20, players=3)
    for seat in (None, *range(state.game.players)):
        root = ET.fromstring(str(state.render(seat, lang="zh-Hant")))
        said = [t.text or "" for t in root.iter(f"{SVG_NS}text")] + [
            t.text or "" for t in root.iter(f"{SVG_NS}title")
        ]
        assert not [t for t in said if re.search(r"[\u4e00-\u9fff\d][:,] ", t)], said
    if name == "double-crossing":
        english = [t.text or "" for t in ET.fromstring(str(state.render(0, lang="en"))).iter(f"{SVG_NS}text")]
        cars = [t for t in english if t.startswith("cars: ")]
        assert cars and all(re.fullmatch(r"cars: (-|\d+ [a-z ]+?s?(, \d+ [a-z ]+)*)", t) for t in cars), cars


@pytest.mark.parametrize(
    ("lang", "team", "over"),
    [
        ("zh-Hant", "玩家1、玩家3", "遊戲結束——勝者：玩家1、玩家3"),
        ("en", "P1, P3", "game over — won by P1, P3"),
    ],
)
def test_a_drawing_lists_a_team_and_its_win_in_the_readers_way(lang: str, team: str, over: str) -> None:
    # Before, in Chinese: a team '玩家1, 玩家3' and the status line '遊戲結束 — 勝者：玩家1, 玩家3'.
    game = tabletrek.load("touring", players=4)
    state = game.new_game(seed=2)
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.apply(game.bot("greedy", seat=seat, seed=len(state.history)).act(state))
    assert state.result is not None and list(state.result.winners) == [0, 2]
    said = [t.text or "" for t in ET.fromstring(str(state.render(None, lang=lang))).iter(f"{SVG_NS}text")]
    assert team in said and any(text.endswith(over) for text in said), said


def test_a_seat_sees_its_hand_and_a_spectator_does_not() -> None:
    state = played("touring", 4)
    hand = state.view(0)["hand"]
    seat_view = state.render(0)
    spectator = state.render(None)
    from tabletrek.i18n import translate

    label = translate("core.svg.hand", "en")
    assert f">{label}<" in seat_view and f">{label}<" not in spectator
    assert all(translate(f"touring.card.{c}", "en") in seat_view for c in hand)
    duet = played("codenames-duet", 2)
    green = "#2e9e44"
    assert green in duet.render(0) and green not in duet.render(None), "only a seat sees its key"


def test_render_text_is_the_terminal_table_and_bad_seats_are_refused() -> None:
    state = played("mexican-train", 6)
    text = state.render_text(0)
    assert "Round 1" in text and "\x1b" not in text
    with pytest.raises(ValueError, match="no seat"):
        state.render(7)


def test_html_repr_shows_the_drawing() -> None:
    state = played("double-crossing", 5)
    page = state._repr_html_()
    assert "<svg" in page and page.index("<svg") < page.index("<details")

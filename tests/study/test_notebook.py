"""States render themselves in Jupyter (``_repr_html_``)."""

from __future__ import annotations

import sys
import types

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
    module.render_html = lambda s: f"<svg>{len(s.history)}</svg>"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    assert state._repr_html_() == "<svg>0</svg>"


def test_values_are_escaped_and_long_lists_cut() -> None:
    out = value_html({"a<b": ["<x>"] * 100})
    assert "&lt;x&gt;" in out and "a&lt;b" in out and "(+40)" in out

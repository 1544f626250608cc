"""The terminal's own words in Chinese take full-width punctuation, as the catalogs' do: what a
game's text UI puts together (a label and its colon, a remark in brackets, a list of names)."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from rich.console import Console

import tabletrek
from tabletrek.i18n import seat_name, translate

from ..test_i18n import HALF_WIDTH_IN_CHINESE


def screens(name: str, players: int, lang: str) -> list[str]:
    """Every line the game's terminal UI draws, at every tenth state of two random games: the
    table as the seat to act and the public see it, the compact turn and its parts where the game
    has them, and the moves."""
    game = tabletrek.load(name, players=players)
    ui: Any = game.terminal()
    names = [seat_name(s, lang) + (translate("cli.play.you", lang) if s == 0 else "") for s in range(players)]
    lines: list[str] = []
    for seed in range(2):
        state, rng = game.new_game(seed=seed), random.Random(seed)
        for step in range(200):
            if state.is_over:
                break
            if step % 10 == 0:
                seat = state.current_player
                views = [state.public_view()] + ([] if seat is None else [state.view(seat)])
                out = io.StringIO()
                console = Console(file=out, width=100, color_system=None)
                for view in views:
                    console.print(ui.render(view, lang, names))
                    if hasattr(ui, "compact"):
                        console.print(ui.compact(view, lang, names), *ui.details(view, lang, names).values())
                    for action in state.legal_actions()[:20]:
                        console.print(ui.describe(action, view, lang, names))
                lines += out.getvalue().splitlines()
            state.apply(rng.choice(state.legal_actions()))
    return lines


def fewest_and_most(name: str) -> list[int]:
    counts = tabletrek.load(name).player_counts
    return sorted({min(counts), max(counts)})


GAMES = [(name, n) for name in sorted(tabletrek.games()) for n in fewest_and_most(name)]


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_chinese_terminal_takes_full_width_punctuation(name: str, players: int) -> None:
    # Before: Touring drew '玩家1（你）: 6 張', '你的手牌: …', '空  (停止)' and a team as
    # '第 1 隊（玩家1, 玩家3）'; Mexican Train '輪到玩家1 (已抽牌)', '你的手牌（10 張，76 點）: …'.
    wrong = sorted(
        {line.strip() for line in screens(name, players, "zh-Hant") if HALF_WIDTH_IN_CHINESE.search(line)}
    )
    assert wrong == [], "\n".join(wrong[:8])


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_an_english_terminal_keeps_its_own_punctuation(name: str, players: int) -> None:
    lines = screens(name, players, "en")
    assert lines and not [line for line in lines if any(mark in line for mark in "（）：、")]

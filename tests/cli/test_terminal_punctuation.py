"""The terminal's own words in Chinese take full-width punctuation, as the catalogs' do: what a
game's text UI puts together (a label and its colon, a remark in brackets, a list of names)."""

from __future__ import annotations

import functools
import io
import random
import re
from typing import Any

import pytest
from rich.console import Console

import tabletrek
from tabletrek.cli.seat_names import seat_names
from tabletrek.i18n import translate

from ..test_i18n import HALF_WIDTH_IN_CHINESE


@functools.cache
def screens(name: str, players: int, lang: str, width: int = 100) -> tuple[str, ...]:
    """Every line the game's terminal UI draws, at every tenth state of two random games: the
    table as the seat to act and the public see it, the compact turn and its parts where the game
    has them, and the moves."""
    game = tabletrek.load(name, players=players)
    ui: Any = game.terminal()
    names = seat_names(name, players, [0], {}, lang)
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
                console = Console(file=out, width=width, color_system=None)
                for view in views:
                    console.print(ui.render(view, lang, names))
                    if hasattr(ui, "compact"):
                        console.print(ui.compact(view, lang, names), *ui.details(view, lang, names).values())
                    for action in state.legal_actions()[:20]:
                        console.print(ui.describe(action, view, lang, names))
                lines += out.getvalue().splitlines()
            state.apply(rng.choice(state.legal_actions()))
    return tuple(lines)


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


ENGLISH_LIST_COMMA = re.compile(r"(?<![A-Za-z]), (?=[\u4e00-\u9fff])")
"""An English list's ", " before a Chinese word, not after an English one ("Go, Stop" is English)."""


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_chinese_terminal_lists_with_its_own_separator(name: str, players: int) -> None:
    # Before: Goofspiel's last round read '出價：玩家1 5, 玩家2 3' in Chinese.
    wrong = sorted(
        {line.strip() for line in screens(name, players, "zh-Hant") if ENGLISH_LIST_COMMA.search(line)}
    )
    assert wrong == [], "\n".join(wrong[:8])
    assert ENGLISH_LIST_COMMA.search("出價：玩家1 5, 玩家2 3") and not ENGLISH_LIST_COMMA.search(
        "Go, Stop、玩家"
    )


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_an_english_terminal_keeps_its_own_punctuation(name: str, players: int) -> None:
    lines = screens(name, players, "en")
    assert lines and not [line for line in lines if any(mark in line for mark in "（）：、")]


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_chinese_terminal_of_80_columns_cuts_nothing_the_english_one_keeps(name: str, players: int) -> None:
    # Before: at 80 columns Touring's table cut its Chinese cells short ('啟動卡（Go）…' for
    # '啟動卡（Go）（行駛中）', '第 1 隊（玩家1（ …' for a team and its members) and Double
    # Crossing's contracts ('港灣鋼鐵第1 …'), where the English cells fit: rich breaks lines only
    # at spaces, and a Chinese cell has none. Mexican Train leaves out the middle of a long train
    # in both languages alike.
    cut = {
        lang: sum("…" in line for line in screens(name, players, lang, width=80))
        for lang in ("en", "zh-Hant")
    }
    assert cut["zh-Hant"] == cut["en"], cut


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_touring_team_keeps_its_name_on_one_line(lang: str) -> None:
    # Before, at 80 columns: '第 1' on one line and '隊（玩家1（ …' on the next.
    headings = {
        line.split("│")[1].strip() for line in screens("touring", 6, lang, width=80) if line.count("│") > 2
    }
    for team in (1, 2, 3):
        assert translate(f"touring.team.{team}", lang) in headings, sorted(headings)[:6]

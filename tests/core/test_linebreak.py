"""Where the terminal ends a line (tabletrek.core.linebreak)."""

from __future__ import annotations

import io
import subprocess
import sys
from itertools import pairwise

import pytest
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from tabletrek.core.linebreak import LineBreakingConsole, Wrapped, break_offsets, divide, flow, wrapped


def lines(renderable: object, width: int) -> list[str]:
    out = io.StringIO()
    LineBreakingConsole(file=out, width=width, color_system=None).print(renderable)
    return [line.rstrip() for line in out.getvalue().splitlines()]


def set_lines(plain: str, width: int) -> list[str]:
    bounds = [0, *divide(plain, width), len(plain)]
    return [plain[a:b].rstrip() for a, b in pairwise(bounds)]


@pytest.mark.parametrize(
    ("plain", "never"),
    [
        ("玩家1（你）、玩家3（貪心）", "、"),  # a list's separator ends a line, never opens one
        ("遊戲結束。下一局", "。"),
        ("解除限速卡（Country）", "）"),
        ("輪到玩家6：打出暫停卡", "："),
    ],
)
def test_a_closing_mark_never_opens_a_line(plain: str, never: str) -> None:
    for at in break_offsets(plain):
        assert plain[at] != never, (plain, at)


def test_an_opening_bracket_never_ends_a_line() -> None:
    plain = "你的任務卡（A 方）：綠色"
    assert all(plain[at - 1] != "（" for at in break_offsets(plain))


def test_a_number_stays_with_the_chinese_word_beside_it() -> None:
    # UAX #14 would let 玩家 and 3, or 15 and 哩, part; the tailoring keeps them together
    assert break_offsets("玩家3") == (1,)  # 玩 and 家 may part; 家 and 3 may not
    assert break_offsets("15哩") == ()
    assert break_offsets("第3隊") == ()


def test_chinese_breaks_between_characters_and_english_between_words() -> None:
    assert set(break_offsets("遊戲結束")) == {1, 2, 3}
    assert break_offsets("City Limits") == (5,)
    assert set_lines("解除限速卡（Country）", 12) == ["解除限速卡", "（Country）"]
    assert set_lines("限速卡（City Limits）", 14) == ["限速卡（City", "Limits）"]


def test_a_path_in_a_chinese_sentence_stays_whole() -> None:
    # UAX #14 alone would break after each "/"; a path cut in two cannot be copied
    path = "/home/玩家/.local/share/tabletrek/records/touring-20261206-233414-7.json"
    sentence = f"遊戲紀錄已儲存至 {path}（可用 tabletrek replay 檔案 重播）。"
    got = lines(wrapped(sentence), 80)
    assert any(path in line for line in got), got
    assert break_offsets("[12|11] boxcar+1") == (8,)


def test_a_word_wider_than_the_line_is_folded_at_its_last_fitting_character() -> None:
    assert set_lines("Supercalifragilistic", 8) == ["Supercal", "ifragili", "stic"]
    assert set_lines("遊戲", 1) == ["遊", "戲"]  # a wide character alone still gets its own line


def test_a_flow_breaks_between_entries_and_keeps_each_whole() -> None:
    mileage = flow(["1: 0/8", "3: 0/4", "15: 0/2", "30: 0/2"])
    assert lines(mileage, 14) == ["1: 0/8  3: 0/4", "15: 0/2", "30: 0/2"]
    assert lines(mileage, 40) == ["1: 0/8  3: 0/4  15: 0/2  30: 0/2"]
    # rich alone breaks at the last space that fits, inside an entry
    out = io.StringIO()
    Console(file=out, width=14, color_system=None).print(Text("1: 0/8  3: 0/4  15: 0/2  30: 0/2"))
    assert out.getvalue().splitlines()[1].rstrip() == "15: 0/2  30:"


def test_a_separator_never_opens_a_line_and_ends_the_line_instead() -> None:
    header = flow(["Round 1/10", "engine [9|9]", "boneyard 12", "P1 (you) to play"], " · ")
    got = lines(header, 30)
    assert got == ["Round 1/10 · engine [9|9] ·", "boneyard 12 · P1 (you) to play"]
    assert not any(line.startswith("·") for line in lines(header, 40))


def test_an_entry_wider_than_the_line_fills_the_line_before_it() -> None:
    # the last entry must break anyway, so it starts where the line has room
    text = flow(["Round 1", "P1 (you) to play (played a double: plays again)"], " · ")
    assert lines(text, 30) == ["Round 1 · P1 (you) to play", "(played a double: plays again)"]


def test_lead_and_tail_break_as_their_language_allows() -> None:
    hand = flow(["啟動卡（Go）", "1哩（1 Miles）", "碰撞（Collision）"], lead="你的手牌：", tail="（抽到）")
    got = lines(hand, 30)
    assert got == ["你的手牌：啟動卡（Go）", "1哩（1 Miles）", "碰撞（Collision）（抽到）"]


def test_measure_asks_for_the_widest_entry_at_least() -> None:
    console = Console(width=80)
    mileage = flow(["1: 0/8", "3: 0/4", "15: 0/2", "30: 0/2"])
    assert Measurement.get(console, console.options, mileage) == Measurement(7, 32)
    # a Chinese cell can shrink to its widest unbreakable run, not its whole length
    cell = wrapped("解除限速卡（Country）")
    assert Measurement.get(console, console.options, cell) == Measurement(11, 21)


def test_a_table_cell_keeps_its_entries_and_styles() -> None:
    table = Table()
    table.add_column("Mileage")
    table.add_row(flow([Text("1: 8/8", style="green"), "15: 0/2", "30: 0/2"]))
    out = io.StringIO()
    Console(file=out, width=14, color_system="truecolor", force_terminal=True).print(table)
    plain = Text.from_ansi(out.getvalue()).plain
    assert "15: 0/2" in plain and "30: 0/2" in plain
    assert "\x1b[32m1: 8/8" in out.getvalue()  # the green stays on its entry


def test_wrapped_keeps_a_texts_styles_and_newlines() -> None:
    source = Text("第 1 隊\n玩家1（你）、玩家3", style="bold")
    source.stylize("red", 0, 5)
    copy = Wrapped.of(source)
    assert copy.plain == source.plain and copy.style == "bold" and copy.spans == source.spans
    assert lines(copy, 13) == ["第 1 隊", "玩家1（你）、", "玩家3"]
    # at 12 "玩家1（你）、" (13) does not fit: the aside goes down with its 、 rather than leave
    # the 、 to open a line (Chinese may part any two characters, so 玩 and 家 part too)
    assert lines(copy, 12) == ["第 1 隊", "玩家1", "（你）、玩", "家3"]


def test_the_cli_console_sets_plain_strings_by_the_same_rules() -> None:
    prompt = "你的行動（輸入編號或文字；輸入 help 查看指令）"
    plain = io.StringIO()
    Console(file=plain, width=24, color_system=None).print(prompt)
    assert plain.getvalue().splitlines()[1].startswith("；")  # rich alone: cut where the edge is
    out = io.StringIO()
    console = LineBreakingConsole(file=out, width=24, color_system=None)
    assert isinstance(console.render_str("遊戲紀錄"), Wrapped)
    console.print(prompt)
    assert out.getvalue().splitlines() == ["你的行動（輸入編號或文", "字；輸入 help 查看指令）"]
    out.truncate(0)
    out.seek(0)
    console.print("遊戲", "結束。", style="bold")  # several at once: joined, then set
    assert out.getvalue() == "遊戲 結束。\n"


def test_loading_a_game_or_setting_english_does_not_import_uniseg() -> None:
    # uniseg's import takes ~10 ms beside tabletrek's own: a program that only plays the games
    # (a simulation, an RL loop's workers) or a terminal in English need not pay it
    code = (
        "import sys, tabletrek\n"
        "from tabletrek.core.linebreak import divide\n"
        "for name in tabletrek.games(): tabletrek.load(name)\n"
        "divide('Your hand: 1 Mile  1 Mile  Collision', 12)\n"
        "print('uniseg' in sys.modules)\n"
        "divide('你的手牌：啟動卡（Go）', 12)\n"
        "print('uniseg' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]

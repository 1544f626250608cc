"""One name for one thing in Chinese: the terminal, the browser, the drawings and the rules pages.

Before: the browser's tooltips and lobby spoke another vocabulary than the terminal and the rules
pages (the seed's names). Touring's Go card was 通行 in a tooltip and 啟動卡 everywhere else,
Country 鄉間 beside 解除限速卡, miles 里 beside 哩; Double Crossing's Villain was 惡棍 in the
browser and 惡徒 in the terminal, Stop 'Stop 卡' beside 暫停, contracts 合約 beside the seed's
契約; Codenames' lobby and page said 提示, 密碼卡, 夥伴 and 驟死 for the clue, the key card,
the partner and sudden death (the terminal and rules page: 線索, 任務卡, 搭檔, 無線索猜測); the
drawings called Codenames' agents 特工 (the game: 特務) and the Mexican train 墨西哥列車
(the game's own name: 墨西哥快車); a move was 動作 in Mexican Train and 行動 in the other games.
"""

from __future__ import annotations

from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "tabletrek"

# The other name someone might reach for -> the name the seed and the rules pages use.
EVERYWHERE = {
    "動作": "行動",
    "里程": "哩程",
    "特工": "特務",
    "墨西哥列車": "墨西哥快車",
}
PER_GAME = {
    "codenames_duet": {
        "密碼卡": "任務卡",
        "驟死": "無線索猜測",
        "夥伴": "搭檔",
        "詞語": "字詞",
        "給提示": "給線索",
        "提示詞": "線索字詞",
        "提示順序": "線索順序",
        "零提示": "數字 0 的線索",
        "寬鬆提示": "放寬線索",
    },
    "touring": {
        "通行": "啟動卡",
        "鄉間": "解除限速卡",
        "市區": "限速卡",
        "爆胎": "穿刺",
        "拖吊": "拖運",
        "沒油": "汽油耗盡",
        "車禍": "碰撞",
        "速度堆": "速度區",
    },
    "mexican_train": {
        "雙號牌": "雙點牌",
        "引擎": "車站",
        "雙 12": "雙十二",
        "雙 9": "雙九",
        "起手": "先出",
    },
    "double_crossing": {
        "合約": "契約",
        "車廂": "車輛",
        "惡棍": "惡徒",
        "鐵路工人": "鐵路員",
        "Stop": "暫停卡",
        "轉角車站": "角落車站",
        "轉乘站": "連接格",
        "工作牌": "人員卡",
        "車場": "車廠",
        "倉庫": "補給站",
        "火車頭": "機車",
    },
}
# The shared catalog speaks for every game (its drawings' labels, the web's Stop preference).
SHARED = SRC / "i18n" / "zh-Hant.toml"


def chinese_texts(game: str | None) -> list[Path]:
    if game is None:
        return [
            SHARED,
            *sorted((SRC / "games").glob("*/i18n/zh-Hant.toml")),
            *sorted((SRC / "games").glob("*/rules/zh-Hant.md")),
        ]
    folder = SRC / "games" / game
    return [folder / "i18n" / "zh-Hant.toml", folder / "rules" / "zh-Hant.md", SHARED]


def offenders(paths: list[Path], words: dict[str, str]) -> list[str]:
    found = []
    for path in paths:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("#"):
                continue  # a catalog's comments are for translators
            found += [
                f"{path.relative_to(SRC)}:{number}: {word} (say {right})"
                for word, right in words.items()
                if word in line
            ]
    return found


def test_one_word_for_a_move_and_the_shared_terms() -> None:
    assert offenders(chinese_texts(None), EVERYWHERE) == []


@pytest.mark.parametrize("game", sorted(PER_GAME))
def test_a_game_names_its_cards_and_spaces_as_its_rules_page_does(game: str) -> None:
    assert offenders(chinese_texts(game), PER_GAME[game]) == []

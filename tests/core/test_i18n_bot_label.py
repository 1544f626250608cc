"""A bot's name in people's words, for the terminal (the browser's i18n.js botLabel says it the same way)."""

from tabletrek.i18n import bot_label


def test_a_games_own_bot_then_a_shared_one_then_the_id() -> None:
    assert bot_label("touring", "greedy", "en") == "Greedy (best move now)"
    assert bot_label("touring", "greedy", "zh-Hant") == "貪心（選眼前最好的一步）"
    assert bot_label("mexican-train", "planner", "zh-Hant") == "規劃（規劃整手牌）"  # the id's hyphen
    assert bot_label("double-crossing", "ismcts", "en") == "Thinker (searches ahead)"  # every game's
    assert bot_label("touring", "no-such-bot", "zh-Hant") == "no-such-bot"

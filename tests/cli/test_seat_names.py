"""A record's seat names, replayed or resumed in the other language: a seat nobody named is named
in the reader's language; what a person typed stays as typed (the commands: tests/cli/test_cli.py)."""

from __future__ import annotations

from tabletrek.cli.seat_names import in_language, recorded_bots, seat_names


def test_the_names_tabletrek_gives_turn_to_the_readers_language_and_typed_ones_stay() -> None:
    bots = {1: "greedy", 2: "ismcts:iterations=50", 3: "greedy"}
    english = seat_names("touring", 4, [0], bots, "en")
    assert english == ["P1 (you)", "P2 (Greedy)", "P3 (Thinker)", "P4 (Greedy)"]
    chinese = ["玩家1（你）", "玩家2（貪心）", "玩家3（深思）", "玩家4（貪心）"]
    assert in_language(english, "touring", bots, "zh-Hant") == chinese
    assert in_language(chinese, "touring", bots, "en") == english
    assert in_language(english, "touring", bots, "en") == english
    typed = seat_names("touring", 4, [0], bots, "en", ["Ann", "Bo", "P1", "玩家4"])
    assert typed == ["Ann", "Bo (Greedy)", "P1 (Thinker)", "玩家4 (Greedy)"]
    # a typed name is kept; only the bot's short name after it changes language
    assert in_language(typed, "touring", bots, "zh-Hant") == [
        "Ann",
        "Bo（貪心）",
        "P1（深思）",
        "玩家4（貪心）",
    ]
    # two people at one screen have no "(you)"; a name in no known form stays as it is
    assert in_language(["P1", "P2", "Cy (Greedy)"], "touring", {2: "greedy"}, "zh-Hant") == [
        "玩家1",
        "玩家2",
        "Cy（貪心）",
    ]
    assert in_language(["P2 (Random)"], "touring", {0: "greedy"}, "zh-Hant") == ["P2 (Random)"]


def test_a_records_bots_are_read_by_seat_number_only() -> None:
    assert recorded_bots({"bots": {"1": "greedy", "x": "random", "٣": "random", "-1": "g"}}) == {1: "greedy"}
    assert recorded_bots({"bots": ["greedy"]}) == {} and recorded_bots({}) == {}

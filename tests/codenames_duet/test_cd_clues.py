"""Clue validation: every rejection with its reason, and valid clues left alone."""

from __future__ import annotations

import pytest

from tabletrek.games.codenames_duet.clues import clue_problem, number_problem

BOARD = ["horseshoe", "mouse", "run", "happiness", "nation", "fire", "teacher", "giant", "star"]


def problem(word: str, relaxed: bool = False, board: list[str] = BOARD, language: str = "en") -> str | None:
    found = clue_problem(word, board, language, relaxed)
    return None if found is None else found[0].rsplit(".", 1)[-1]


@pytest.mark.parametrize(
    ("clue", "reason"),
    [
        ("mouse", "visible"),
        ("MOUSE", "visible"),  # the board rules come first, whatever the case
        ("NASA", "abbreviation"),
        ("mice", "form"),  # irregular plural, found by the lemmatizer
        ("running", "form"),  # inflection, found by the stemmer
        ("ran", "form"),  # irregular past tense
        ("happy", "form"),  # derivation sharing the Snowball stem
        ("national", "form"),
        ("fires", "form"),
        ("horse", "part_of"),  # front of a visible compound
        ("shoe", "part_of"),  # back of a visible compound
        ("campfire", "contains"),  # a compound holding a visible word
        ("firefly", "contains"),
        ("ice cream", "not_one_word"),
        ("ice-cream", "compound"),
        ("u.n", "abbreviation"),
        ("Paris", "proper_noun"),
        ("r2d2", "mixed"),
        ("wow!", "symbols"),
        ("", "empty"),
    ],
)
def test_rejections_name_their_reason(clue: str, reason: str) -> None:
    assert problem(clue) == reason


@pytest.mark.parametrize("clue", ["ocean", "ant", "cat", "stare", "7", "teach", "farm", "saddle"])
def test_valid_clues(clue: str) -> None:
    # "ant" in "giant" and "cat" are no compounds: the leftovers "gi" and "" are not words.
    assert problem(clue) is None


def test_relaxed_loosens_the_shape_rules_only() -> None:
    for clue in ("Paris", "NASA", "ice-cream", "new york", "r2d2", "o'clock"):
        assert problem(clue, relaxed=True) is None
    assert problem("one two three four", relaxed=True) == "too_many_words"
    assert problem("mice", relaxed=True) == "form"
    assert problem("hot-horse", relaxed=True) == "part_of"
    assert problem("mouse trap", relaxed=True) == "contains"
    assert problem("fire-fly", relaxed=True) == "contains"


def test_chinese_compounds_by_containment() -> None:
    board = ["火車", "蘋果", "海洋"]
    assert problem("火", board=board, language="zh") == "part_of"
    assert problem("火車站", board=board, language="zh") == "contains"
    assert problem("海洋", board=board, language="zh") == "visible"
    assert problem("鯨魚", board=board, language="zh") is None


def test_covered_words_no_longer_block_clues() -> None:
    assert problem("mouse", board=[w for w in BOARD if w != "mouse"]) is None


def test_number_range() -> None:
    assert number_problem(3, 1, 9) is None
    assert number_problem(0, 1, 9) == ("codenames_duet.clue.number_range", {"number": 0, "low": 1, "high": 9})
    assert number_problem(10, 0, 9) is not None


def test_board_rules_come_before_the_writing_rules() -> None:
    assert problem("Mouse") == "visible"
    assert problem("MICE") == "form"
    assert problem("Horse") == "part_of"

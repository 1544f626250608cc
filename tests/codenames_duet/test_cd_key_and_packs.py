"""The key table is exact for every generated key; word packs load, and bad packs are named."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import tabletrek
from tabletrek.core.data import DataError
from tabletrek.games.codenames_duet.key import (
    AGENTS,
    ASSASSIN,
    BYSTANDER,
    GREEN,
    PAIR_COUNTS,
    draw_key,
    pair_counts,
    sample_partner_side,
)
from tabletrek.games.codenames_duet.words import load_pack, parse_pack

from .positions import GREENS_A, position, turn


def test_the_table_is_the_rulings_table() -> None:
    assert PAIR_COUNTS == {
        (GREEN, GREEN): 3,
        (GREEN, BYSTANDER): 5,
        (BYSTANDER, GREEN): 5,
        (GREEN, ASSASSIN): 1,
        (ASSASSIN, GREEN): 1,
        (ASSASSIN, ASSASSIN): 1,
        (ASSASSIN, BYSTANDER): 1,
        (BYSTANDER, ASSASSIN): 1,
        (BYSTANDER, BYSTANDER): 7,
    }
    assert AGENTS == 15


def test_every_generated_key_follows_the_table_exactly() -> None:
    game = tabletrek.load("codenames-duet")
    layouts = set()
    for seed in range(400):
        state = game.new_game(seed=seed)
        key = state.key
        assert pair_counts(key) == PAIR_COUNTS
        for side in key:
            assert (side.count(GREEN), side.count(BYSTANDER), side.count(ASSASSIN)) == (9, 13, 3)
        layouts.add(tuple(map(tuple, key)))
    assert len(layouts) == 400  # and the cells are shuffled


def test_partner_sampling_keeps_the_table_and_what_is_known() -> None:
    rng = random.Random(1)
    for _ in range(200):
        key = draw_key(rng)
        fixed = {c: key[1][c] for c in rng.sample(range(25), 6)}
        partner = sample_partner_side(key[0], 0, fixed, rng)
        assert pair_counts([key[0], partner]) == PAIR_COUNTS
        assert all(partner[c] == kind for c, kind in fixed.items())
        mine = sample_partner_side(key[1], 1, {}, rng)
        assert pair_counts([mine, key[1]]) == PAIR_COUNTS


def test_shipped_packs() -> None:
    english = load_pack("en")
    assert len(english.words) >= 400 and english.language == "en"
    assert all(w.isascii() and w.isalpha() and w.islower() for w in english.words)
    chinese = load_pack("zh-Hant")
    assert len(chinese.words) >= 400 and chinese.language == "zh"
    assert all(2 <= len(w) <= 4 for w in chinese.words)
    assert len(set(chinese.words)) == len(chinese.words)


def test_chinese_game() -> None:
    state = tabletrek.load("codenames-duet", word_pack="zh-Hant").new_game(seed=2)
    words = state.view(0)["words"]
    assert all(w in load_pack("zh-Hant").words for w in words)
    state.apply(state.legal_actions()[0])
    state.apply(f"guess {words[0]}")


def test_a_pack_loads_from_any_file(tmp_path: Path) -> None:
    path = tmp_path / "animals.txt"
    words = [f"word{chr(97 + i)}{chr(97 + j)}" for i in range(6) for j in range(6)]
    path.write_text("# my pack\n\n" + "\n".join(w.upper() for w in words) + "\n", encoding="utf-8")
    game = tabletrek.load("codenames-duet", word_pack=str(path))
    state = game.new_game(seed=1)
    assert set(state.view(0)["words"]) <= set(words)
    assert game.pack.language == "en"  # ASCII letters: checked as English
    assert tabletrek.State.from_json(state.to_json()).to_json() == state.to_json()


@pytest.mark.parametrize(
    ("text", "key", "problem"),
    [
        ("ice cream\n" + "\n".join(f"w{'x' * i}" for i in range(30)), "line 1", "not a single word"),
        ("apple\napple\n" + "\n".join(f"w{'x' * i}" for i in range(30)), "line 2", "repeats line 1"),
        ("app1e\n" + "\n".join(f"w{'x' * i}" for i in range(30)), "line 1", "other than letters"),
        ("one\ntwo\n", "words", "at least 25"),
    ],
)
def test_malformed_packs_name_file_and_line(text: str, key: str, problem: str) -> None:
    with pytest.raises(DataError) as err:
        parse_pack("my.txt", text)
    assert err.value.source == "my.txt" and err.value.key == key and problem in err.value.problem


def test_missing_pack_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="cannot read"):
        tabletrek.load("codenames-duet", word_pack=str(tmp_path / "none.txt"))


def test_determinize_samples_the_partners_key_uniformly() -> None:
    state = position()
    turn(state, [18])  # A clues, B finds a bystander on A's key
    turn(state, [8])  # B clues, A finds B's agent at 8
    rng = random.Random(5)
    counts = dict.fromkeys((GREEN, BYSTANDER, ASSASSIN), 0)
    samples = 1500
    unknown = list(GREENS_A)  # none of A's agents has been touched in B's direction
    for _ in range(samples):
        other = state.determinize(0, rng)
        assert other.key[1][8] == GREEN and other.key[0] == state.key[0]
        for c in unknown:
            counts[other.key[1][c]] += 1
    total = samples * len(unknown)
    # A's 9 agents carry, on B's side, 3 agents, 5 bystanders and 1 assassin.
    assert abs(counts[GREEN] / total - 3 / 9) < 0.03
    assert abs(counts[BYSTANDER] / total - 5 / 9) < 0.03
    assert abs(counts[ASSASSIN] / total - 1 / 9) < 0.02

"""A record of a game dealt from a word-pack file names the file and keeps its words' digest, so a
replay where the file has changed is refused before the deal, with the reason, instead of
failing at some move (or dealing another game)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tabletrek
from tabletrek.cli import app
from tabletrek.core.errors import UsageError
from tabletrek.core.records import GameRecord, iter_replay, replay
from tabletrek.core.state import State

WORDS = [
    "anchor", "bridge", "castle", "desert", "engine", "forest", "garden", "harbor", "island",
    "jungle", "kettle", "ladder", "market", "needle", "orchid", "palace", "quarry", "rocket",
    "saddle", "temple", "tunnel", "valley", "wagon", "window", "yacht", "zipper", "beacon",
    "canyon", "dragon", "falcon",
]  # fmt: skip
CJK = re.compile(r"[\u4e00-\u9fff]")


def played(pack: Path, moves: int = 6) -> State:
    game = tabletrek.load("codenames-duet", word_pack=str(pack))
    state = game.new_game(seed=11)
    for i in range(moves):
        seat = state.current_player
        if seat is None:  # a random guess may find the assassin
            break
        state.apply(game.bot("random", seat=seat, seed=i).act(state))
    assert state.history
    return state


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return path


def test_the_record_keeps_the_digest_of_the_words_and_replays(pack: Path) -> None:
    state = played(pack)
    record = GameRecord.from_json(state.record().to_json())
    expected = hashlib.sha256("\n".join(WORDS).encode("utf-8")).hexdigest()
    assert record.digests == {"word_pack": expected}
    assert record.options["word_pack"] == str(pack)
    assert replay(record).to_json() == state.to_json()
    # what the game deals from is the words: comments, blank lines and case may change
    pack.write_text("# my pack\n\n" + "\n".join(w.upper() for w in WORDS) + "\n", encoding="utf-8")
    assert replay(record).to_json() == state.to_json()


@pytest.mark.parametrize(
    "edit",
    [
        lambda words: [*words, "harness"],  # one more word: the same seed deals another board
        lambda words: [words[1], words[0], *words[2:]],  # the same words in another order
        lambda words: [*words[:-1], "lantern"],  # one word replaced
    ],
)
def test_a_changed_pack_is_refused_before_the_deal(
    pack: Path, edit: Callable[[list[str]], list[str]]
) -> None:
    record = played(pack).record()
    pack.write_text("\n".join(edit(WORDS)) + "\n", encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        next(iter_replay(record))
    assert caught.value.key == "core.error.record_data_changed"
    english = caught.value.message("en")
    assert english.startswith(f"the record's word_pack ('{pack}') has changed since the game was played")
    chinese = caught.value.message("zh-Hant")
    assert CJK.search(chinese) and str(pack) in chinese and "has changed" not in chinese


def test_a_shipped_pack_and_other_games_write_records_as_before() -> None:
    for game in (tabletrek.load("codenames-duet"), tabletrek.load("codenames-duet", word_pack="zh-Hant")):
        assert "digests" not in game.new_game(seed=1).record().to_dict()
    assert "digests" not in tabletrek.load("touring").new_game(seed=1).record().to_dict()


def test_a_digest_of_no_option_of_the_record_is_refused() -> None:
    record = tabletrek.load("touring").new_game(seed=1).record().to_dict()
    with pytest.raises(UsageError) as caught:
        GameRecord.from_dict({**record, "digests": {"word_pack": "0" * 64}}, "r.json")
    assert caught.value.key == "core.error.record_digests"


def test_a_record_from_before_digests_replays_as_it_did(pack: Path) -> None:
    state = played(pack)
    old = state.record().to_dict()
    del old["digests"]
    assert replay(old).to_json() == state.to_json()


def test_the_terminal_names_the_changed_pack_without_a_traceback(pack: Path, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    played(pack).record().save(path)
    pack.write_text("\n".join(reversed(WORDS)) + "\n", encoding="utf-8")
    runner = CliRunner()
    for lang, said in (("en", "has changed since the game was played"), ("zh-Hant", "改動過")):
        shown = runner.invoke(app, ["replay", str(path), "--all", "--no-step", "--lang", lang])
        assert shown.exit_code == 2, shown.output
        assert said in shown.output and "Traceback" not in shown.output

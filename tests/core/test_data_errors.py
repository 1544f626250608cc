"""A data file a user gives (a Codenames word pack, their campaign progress) that is malformed is
refused in the reader's language, in the terminal and as a catalog reference for the browser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tabletrek.cli import app
from tabletrek.core.data import DataError, read_at_most
from tabletrek.core.errors import message_in
from tabletrek.core.events import render_message
from tabletrek.games.codenames_duet.campaign import load_progress, progress_path
from tabletrek.games.codenames_duet.words import MAX_PACK_BYTES, load_pack, parse_pack

FILLER = "\n".join(f"w{'x' * i}" for i in range(30))


def is_chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def pack_error(text: str) -> DataError:
    with pytest.raises(DataError) as caught:
        parse_pack("my.txt", text)
    return caught.value


@pytest.mark.parametrize(
    ("text", "english", "chinese"),
    [
        ("ice cream\n" + FILLER, "my.txt: key 'line 1': 'ice cream' is not a single word", "my.txt 第 1 行"),
        ("apple\napple\n" + FILLER, "my.txt: key 'line 2': 'apple' repeats line 1", "與第 1 行重複"),
        ("app1e\n" + FILLER, "my.txt: key 'line 1': 'app1e' holds characters other than letters", "字母以外"),
        ("one\ntwo\n", "my.txt: a pack needs at least 25 words, this one has 2", "只有 2 個"),
    ],
)
def test_a_malformed_word_pack_is_refused_in_both_languages(text: str, english: str, chinese: str) -> None:
    error = pack_error(text)
    assert str(error).startswith(english) and error.message("en") == str(error)
    said = message_in(error, "zh-Hant")
    assert chinese in said and is_chinese(said)
    assert not any(word in said for word in ("key", "line", "word", "pack"))


def test_an_unreadable_word_pack_says_why_in_the_readers_language(tmp_path: Path) -> None:
    with pytest.raises(DataError) as missing:
        load_pack(str(tmp_path / "none.txt"))
    assert "cannot read the word pack (No such file or directory)" in str(missing.value)
    assert "無法讀取詞庫（找不到這個檔案或資料夾）" in missing.value.message("zh-Hant")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(DataError) as garbled:
        load_pack(str(binary))
    assert garbled.value.message("en").endswith("a word pack must be UTF-8 text")
    assert garbled.value.message("zh-Hant").endswith("詞庫必須是 UTF-8 文字")


def test_a_word_pack_far_larger_than_any_list_of_words_is_refused_while_it_is_read(tmp_path: Path) -> None:
    """Before: the whole file was read first, so ``-o word_pack=/dev/zero`` filled the memory."""
    big = tmp_path / "big.txt"
    with big.open("wb") as handle:  # sparse: 16 MiB and one byte, no disk used
        handle.truncate(MAX_PACK_BYTES + 1)
    for path in (big, Path("/dev/zero")):
        with pytest.raises(DataError) as caught:
            load_pack(str(path))
        english = f"{path}: a word pack is a list of words, not a file of more than 16 MiB"
        assert caught.value.message("en") == english
        assert caught.value.message("zh-Hant") == f"{path}：詞庫是一份字詞清單，不會是超過 16 MiB 的檔案"
    just_words = tmp_path / "words.txt"
    just_words.write_text("\n".join(f"word{'x' * (i % 40)}{chr(97 + i % 26)}" for i in range(400)))
    assert read_at_most(just_words, just_words.stat().st_size) == just_words.read_bytes()
    assert read_at_most(just_words, just_words.stat().st_size - 1) is None


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_the_reference_renders_as_the_message(lang: str) -> None:
    """The browser's rendering of the reference (``$t``) reads as the terminal's message."""
    for error in (pack_error("apple\napple\n" + FILLER), pack_error("one\n")):
        reference = error.reference()
        rendered = render_message({"key": reference["$t"], "args": reference["args"]}, lang)
        assert rendered == error.message(lang)


def test_shipped_data_problems_stay_english() -> None:
    """A problem with data tabletrek ships has no ``said`` key: its message is English whatever the
    reader's language (only someone editing the data meets it)."""
    error = DataError("data/deck.toml", "deck.go", "must be int, not str")
    assert error.message("zh-Hant") == error.message("en") == str(error)
    assert str(error) == "data/deck.toml: key 'deck.go': must be int, not str"


@pytest.mark.parametrize(
    ("content", "english", "chinese"),
    [
        (b"{not json", "not valid JSON (line 1, column 2)", "不是有效的 JSON（第 1 行第 2 欄）"),
        (b'{"missions": {"prague": 3}}', "must give each city its attempts", "每個城市的嘗試次數"),
        (b"\xff\xfe", "is not UTF-8 text", "不是 UTF-8 文字"),
    ],
)
def test_broken_campaign_progress_is_refused_in_both_languages(
    tmp_path: Path, content: bytes, english: str, chinese: str
) -> None:
    path = progress_path(tmp_path, "bob")
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    with pytest.raises(DataError) as caught:
        load_progress(tmp_path, "bob")
    assert english in str(caught.value) and "bob.json" in str(caught.value)
    said = caught.value.message("zh-Hant")
    assert chinese in said and "bob.json" in said


def test_the_terminal_says_a_broken_pack_and_progress_in_chinese(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pack = tmp_path / "pack.txt"
    pack.write_text("apple\napple\n", encoding="utf-8")
    runner = CliRunner()
    zh = {"TABLETREK_LANG": "zh-Hant", "COLUMNS": "200"}
    played = runner.invoke(
        app, ["play", "codenames-duet", "-o", f"word_pack={pack}", "-b", "random,random"], env=zh
    )
    assert played.exit_code == 2 and "與第 1 行重複" in played.output and "repeats" not in played.output
    monkeypatch.setenv("TABLETREK_HOME", str(tmp_path))
    broken = progress_path(tmp_path, "bob")
    broken.parent.mkdir(parents=True)
    broken.write_text(json.dumps({"missions": []}), encoding="utf-8")
    shown = runner.invoke(app, ["campaign", "map", "--profile", "bob"], env=zh)
    assert shown.exit_code == 2 and "任務進度必須" in shown.output and "campaign progress" not in shown.output

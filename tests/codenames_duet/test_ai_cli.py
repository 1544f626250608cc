"""The AI's defaults at the command line: simulate pairs the AI with itself, hint names its targets."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tabletrek.cli import app

runner = CliRunner()
MENU_LINE = re.compile(r"^\s+(\d)\s+(.+?)\s+\((clue .+)\)$")
"""A numbered line of the terminal's menu: number, sentence, typed text."""


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TABLETREK_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "160")
    return tmp_path / "home"


# Chinese with itself won 3 of these 6 when written (its two tables are set for a partner who reads
# differently); a random partner wins none.
@pytest.mark.parametrize(("lang", "least"), [("en", 4), ("zh-Hant", 3)])
def test_simulate_without_bots_pairs_the_ai_with_itself(lang: str, least: int) -> None:
    args = ["simulate", "codenames-duet", "-n", "6", "--seed", "2", "--json"]
    if lang != "en":
        args += ["-o", f"word_pack={lang}"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output[result.output.index("{") :])
    assert {b["bot"] for b in summary["bots"]} == {"codenames-guess"}
    # A random partner wins no game with the AI; the AI with itself wins most.
    assert summary["seats"][0]["wins"] >= least, summary


@pytest.mark.parametrize(
    ("lang", "meant", "giver"),
    [
        ("en", "meant for", "AI partner (gives clues) would play: "),
        ("zh-Hant", "想提示的是", "AI 搭檔（給線索）會選擇："),
    ],
)
def test_terminal_hint_names_the_clues_targets(
    lang: str, meant: str, giver: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tabletrek.cli.common import console

    # wide enough that the hint is one line: a console made in a test worker may be 80 wide
    monkeypatch.setattr(console, "_width", 200)
    args = ["play", "codenames-duet", "--seed", "5", "--lang", lang]
    result = runner.invoke(app, args, input="hint\nquit\n")
    assert result.exit_code == 0, result.output
    # the clue menu's lines name their targets too; the hint is the line that is no menu line
    line = next(line for line in result.output.splitlines() if meant in line and not MENU_LINE.match(line))
    # Before: a clue was hinted by "the codenames-guess bot" (the default bot's id), in both languages
    assert giver in line and "codenames-guess" not in line
    number = int(re.findall(r"\d+", line.split(meant)[0])[-1])
    targets = line.split(meant)[1].strip(" ：").replace("、", ",").split(",")
    assert len([t for t in targets if t.strip()]) == number


@pytest.mark.parametrize(
    ("lang", "heading", "meant"),
    [
        ("en", "Clues your AI partner would give", "meant for"),
        ("zh-Hant", "AI 搭檔會給的線索", "想提示的是"),
    ],
)
def test_the_clue_menu_offers_the_ai_clues_and_a_number_gives_one(
    lang: str, heading: str, meant: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tabletrek.cli.common import console

    monkeypatch.setattr(console, "_width", 200)
    saved = tmp_path / "game.json"
    args = ["play", "codenames-duet", "--seed", "5", "--lang", lang, "--save", str(saved)]
    if lang != "en":
        args += ["-o", f"word_pack={lang}"]
    result = runner.invoke(app, args, input="hint\n2\nquit\n")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    at = next(i for i, line in enumerate(lines) if heading in line)
    menu = [m for m in (MENU_LINE.match(line) for line in lines[at + 1 : at + 4]) if m]
    # Before: six random pack words with random numbers ("Clue 'vulture' for 8"), meant for nothing
    assert [m.group(1) for m in menu] == ["1", "2", "3"]
    aims = []
    for m in menu:
        number = int(m.group(3).split()[-1])
        targets = m.group(2).split(meant)[1].strip(" ：").replace("、", ",").split(",")
        assert len([t for t in targets if t.strip()]) == number, m.group(0)
        aims.append(frozenset(t.strip() for t in targets))
    assert len(set(aims)) == 3  # three aims, not one clue and its synonyms
    hinted = next(
        line for line in lines if meant in line and heading not in line and not MENU_LINE.match(line)
    )
    assert menu[0].group(2) in hinted  # the first suggestion is the clue `hint` names
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record["actions"][0] == menu[1].group(3)  # "2" gave the second suggestion


def test_without_the_ai_the_clue_menu_says_how_to_type_a_clue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tabletrek.cli.common import console

    monkeypatch.setattr(console, "_width", 200)
    # made-up words no embedding table holds: the AI refuses the pack, so nothing can be suggested
    words = [a + b + c + "o" for a in "qxzv" for b in "qxzv" for c in "kpt"][:30]
    pack = tmp_path / "pack.txt"
    pack.write_text("\n".join(words), encoding="utf-8")
    saved = tmp_path / "game.json"
    args = ["play", "codenames-duet", "--seed", "1", "-o", f"word_pack={pack}", "--bots", "random"]
    result = runner.invoke(app, [*args, "--save", str(saved)], input="1\nclue river 2\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Type your clue: clue <word> <number>" in result.output
    assert not any(MENU_LINE.match(line) for line in result.output.splitlines())  # no random words
    assert "Traceback" not in result.output
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record["actions"][0] == "clue river 2"  # "1" was refused as a clue, the typed one taken

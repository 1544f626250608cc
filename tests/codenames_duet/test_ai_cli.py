"""The AI's defaults at the command line: simulate pairs the AI with itself, hint names its targets."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tabletrek.cli import app

runner = CliRunner()


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
    line = next(line for line in result.output.splitlines() if meant in line)
    # Before: a clue was hinted by "the codenames-guess bot" (the default bot's id), in both languages
    assert giver in line and "codenames-guess" not in line
    number = int(re.findall(r"\d+", line.split(meant)[0])[-1])
    targets = line.split(meant)[1].strip(" ：").replace("、", ",").split(",")
    assert len([t for t in targets if t.strip()]) == number

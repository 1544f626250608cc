"""The tabletrek command: play, simulate, replay, rules, games."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tabletrek import GameRecord
from tabletrek.cli import app
from tabletrek.games.touring.text import TouringTextUI

runner = CliRunner()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TABLETREK_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "120")
    return tmp_path / "home"


def saved_records(home: Path) -> list[Path]:
    return sorted((home / "records").glob("*.json"))


def test_play_a_whole_game_against_a_bot_sees_only_its_own_hand(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[dict[str, Any]] = []
    original = TouringTextUI.render

    def spy(self: TouringTextUI, view: dict[str, Any], lang: str, names: Any) -> Any:
        seen.append(view)
        return original(self, view, lang, names)

    monkeypatch.setattr(TouringTextUI, "render", spy)
    answers = "help\nrules\nlog\nhint\n99\nfly away\n" + "1\n" * 3000
    result = runner.invoke(app, ["play", "touring", "--bots", "greedy", "--seed", "3"], input=answers)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Welcome to Touring" in out
    assert "Your hand" in out
    assert "ask the strongest bot" in out  # help
    assert "Players and cards" in out  # rules
    assert "Greedy (best move now) would play: " in out
    assert "Choose a number from 1 to" in out
    assert "is not a Touring move" in out
    assert "Game over" in out
    assert seen and all(view["seat"] in (0, None) for view in seen)
    assert all(view["hand"] is None for view in seen if view["seat"] is None)
    records = saved_records(home)
    assert len(records) == 1
    record = GameRecord.load(records[0])
    assert record.game == "touring" and record.seed == 3


def test_play_in_chinese_and_quit_saves_the_record(home: Path) -> None:
    result = runner.invoke(app, ["play", "touring", "--lang", "zh-Hant", "--seed", "1"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "歡迎來到公路旅行" in result.output
    assert "你的手牌" in result.output
    assert len(saved_records(home)) == 1


BOT_SEATS = {"en": ["P2 (Trader)", "P3 (Thinker)"], "zh-Hant": ["玩家2（商人）", "玩家3（深思）"]}


@pytest.mark.parametrize(("lang", "names"), BOT_SEATS.items())
def test_a_bots_seat_goes_by_the_bots_short_name(home: Path, lang: str, names: list[str]) -> None:
    # Before: '玩家2 (trader)' and '玩家3 (ismcts)': the bot's id, in ASCII brackets in Chinese.
    args = ["play", "double-crossing", "-p", "3", "--bots", "trader,ismcts", "--lang", lang, "--seed", "7"]
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 0, result.output
    assert all(name in result.output for name in names), result.output
    assert "(trader)" not in result.output and "(ismcts)" not in result.output
    [record] = saved_records(home)
    assert json.loads(record.read_text(encoding="utf-8"))["meta"]["names"][1:] == names


def test_hot_seat_hides_the_screen_between_players(home: Path) -> None:
    result = runner.invoke(
        app,
        ["play", "touring", "--seat", "1", "--seat", "2", "--seed", "2", "--names", "Ann,Bo"],
        input="1\n" * 6,
    )
    assert result.exit_code == 0, result.output
    assert "Pass the screen to Bo" in result.output


@pytest.mark.parametrize("typed", ["1\n", "1\n\n"])
def test_hot_seat_input_ending_at_the_hand_over_saves_the_game(home: Path, typed: str) -> None:
    # before: input ending at the hand-over's wait for Enter ("1\n": Ann moves, then nothing)
    # met click's "Aborted!", exit status 1 and no record of the move; ending at Bo's prompt
    # after it ("1\n\n") saved the game, as it still does
    args = ["play", "touring", "--seat", "1", "--seat", "2", "--seed", "2", "--names", "Ann,Bo"]
    result = runner.invoke(app, args, input=typed)
    assert result.exit_code == 0, result.output
    assert "Pass the screen to Bo" in result.output and "Aborted" not in result.output
    # the prompt the input ended at ends its line: the next message starts one of its own
    assert "\nThe game record was saved to" in result.output, result.output[-300:]
    [record] = saved_records(home)
    assert len(json.loads(record.read_text(encoding="utf-8"))["actions"]) == 1


def test_watch_bots_only(home: Path) -> None:
    result = runner.invoke(app, ["play", "touring", "--bots", "greedy,random", "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output


@pytest.mark.parametrize(
    ("players", "lang", "said"),
    [
        (4, "zh-Hant", "贏家：玩家1（貪心）、玩家3（貪心）——以規定的哩程卡組合完成旅程。"),
        (4, "en", "Won by P1 (Greedy), P3 (Greedy) — completed the trip"),
        (2, "en", "Won by P1 (Greedy) — completed the trip"),
    ],
)
def test_the_winners_are_named_as_a_list_in_the_readers_way(players: int, lang: str, said: str) -> None:
    # Before: '贏家：玩家1（貪心）, 玩家3（貪心）——…' and 'Winner: P1 (Greedy), P3 (Greedy) — …'
    # (one 'Winner' for two).
    bots = ",".join(["greedy"] * players)
    result = runner.invoke(
        app, ["play", "touring", "-p", str(players), "--bots", bots, "--seed", "2", "--lang", lang]
    )
    assert result.exit_code == 0, result.output
    assert said in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "touring", "--players", "7"], "2, 3, 4, 5, 6 players"),
        (["play", "touring", "--bots", "clever"], "no bot 'clever'"),
        (["play", "touring", "--seat", "3"], "Seat 3 does not exist"),
        (["play", "touring", "-o", "speed"], "key=value"),
        (["play", "touring", "-o", "warp=1"], "unknown option 'warp'"),
        (["play", "touring", "--lang", "klingon"], "Unknown language"),
    ],
)
def test_bad_arguments_say_why(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code != 0
    assert message in " ".join(result.output.split())


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "touring", "-n", "3", "--bots", "greedy,random"],
        ["tournament", "touring", "-n", "1", "--bots", "greedy,random"],
        ["analyze", "touring", "-n", "2", "--bots", "greedy,random"],
        ["simulate", "touring", "-n", "3", "--bots", "greedy,zzz"],
    ],
    ids=["simulate", "tournament", "analyze", "refused"],
)
def test_output_to_a_file_has_no_blank_line_from_the_progress_bar(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Out of a terminal the bar draws nothing; rich's still ended it with an empty line, at the
    top of a saved summary or under a refusal."""
    monkeypatch.chdir(tmp_path)  # analyze writes report.html here
    result = runner.invoke(app, [*command, "--lang", "en"])
    assert result.output.strip(), result.output
    assert not result.output.startswith("\n"), repr(result.output[:80])
    assert not result.output.endswith("\n\n"), repr(result.output[-80:])


def test_simulate_prints_a_summary_and_json(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "touring", "-n", "30", "--bots", "greedy,random", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "95% interval" in result.output and "Wins by seat" in result.output
    as_json = runner.invoke(
        app,
        [
            "simulate",
            "touring",
            "-n",
            "30",
            "--bots",
            "greedy,random",
            "--seed",
            "1",
            "--jobs",
            "2",
            "--json",
            "--records",
            str(tmp_path / "recs"),
        ],
    )
    assert as_json.exit_code == 0, as_json.output
    summary = json.loads(as_json.output)
    assert summary["games"] == 30
    assert sum(b["wins"] for b in summary["bots"]) + summary["draws"] == 30
    assert len(list((tmp_path / "recs").glob("*.json"))) == 30


def touring_record(folder: Path) -> Path:
    """The record of one seeded Touring game (greedy against random), saved by simulate."""
    args = ["simulate", "touring", "-n", "1", "-b", "greedy,random", "--seed", "5", "--records", str(folder)]
    assert runner.invoke(app, args).exit_code == 0
    [path] = list(folder.glob("*.json"))
    return path


def test_replay_steps_through_a_record(tmp_path: Path) -> None:
    path = touring_record(tmp_path)
    stepped = runner.invoke(app, ["replay", str(path), "--seat", "1"], input="\n\nb\n5\ne\nq\n")
    assert stepped.exit_code == 0, stepped.output
    assert "Move 5 of" in stepped.output
    whole = runner.invoke(app, ["replay", str(path), "--all", "--no-step", "--lang", "zh-Hant"])
    assert whole.exit_code == 0, whole.output
    assert "完成旅程" in whole.output


def test_replay_ends_its_prompt_line_when_the_input_ends(tmp_path: Path) -> None:
    # before: "… q: quit " was the last thing printed, and the shell's prompt followed on its line
    result = runner.invoke(app, ["replay", str(touring_record(tmp_path))], input="\n")
    assert result.exit_code == 0, result.output
    assert result.output.endswith("q: quit \n"), result.output[-80:]


def test_a_game_played_in_english_is_replayed_and_resumed_with_chinese_names(tmp_path: Path) -> None:
    # Before: a Chinese replay of a game saved in English said 'P1 (Greedy)' throughout, and a
    # game resumed in Chinese 'P1 (you)', beside '第 1 隊' and '抽牌堆'.
    done = tmp_path / "done.json"
    bots = ["-b", "greedy,greedy,greedy,greedy"]
    played = runner.invoke(app, ["play", "touring", "-p", "4", *bots, "--seed", "2", "--save", str(done)])
    assert played.exit_code == 0, played.output
    assert json.loads(done.read_text("utf-8"))["meta"]["names"][0] == "P1 (Greedy)"
    replayed = runner.invoke(app, ["replay", str(done), "--all", "--no-step", "--lang", "zh-Hant"])
    assert replayed.exit_code == 0, replayed.output
    assert "玩家1（貪心）" in replayed.output and "P1 (Greedy)" not in replayed.output
    halfway = tmp_path / "halfway.json"
    started = runner.invoke(
        app, ["play", "touring", "--seed", "3", "--save", str(halfway)], input="1\nquit\n"
    )
    assert started.exit_code == 0, started.output
    resumed = runner.invoke(app, ["play", "--resume", str(halfway), "--lang", "zh-Hant"], input="quit\n")
    assert resumed.exit_code == 0, resumed.output
    assert "玩家1（你）" in resumed.output and "玩家2（貪心）" in resumed.output
    assert "P1 (you)" not in resumed.output and "(Greedy)" not in resumed.output


def test_replay_heads_each_step_with_the_move_in_the_readers_words(tmp_path: Path) -> None:
    # Before: a Chinese replay's step was headed by the bare record text ('roll', 'discard 1').
    path = touring_record(tmp_path)
    stepped = runner.invoke(app, ["replay", str(path), "--lang", "zh-Hant"], input="\n\n\nq\n")
    assert stepped.exit_code == 0, stepped.output
    titles = [line for line in stepped.output.splitlines() if line.startswith("╭")]
    assert len(titles) == 3, stepped.output
    described = re.compile(r"[\u4e00-\u9fff].* \((play|discard) [a-z0-9 -]+\)")
    assert all(described.search(line) for line in titles), titles


def test_replay_of_a_malformed_record_names_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"game": "touring", "players": 2, "options": {}, "seed": 1}')
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "broken.json" in result.output and "'actions'" in result.output


def test_rules_in_both_languages() -> None:
    english = runner.invoke(app, ["rules", "touring", "--raw"])
    assert english.exit_code == 0 and "Speeding" in english.output
    chinese = runner.invoke(app, ["rules", "touring", "--lang", "zh-Hant", "--raw"])
    assert chinese.exit_code == 0 and "超速" in chinese.output


def test_games_lists_touring() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert "touring" in result.output and "greedy" in result.output


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_games_shows_every_option_text_in_full_on_a_narrow_terminal(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: the options were a fifth column, and at 100 columns the Chinese texts were cut
    # after a few characters with '…' ('字詞包：'en'（英…'), the game titles too.
    from tabletrek.cli.common import console
    from tabletrek.cli.games_cmd import as_typed
    from tabletrek.core.registry import game_class, games
    from tabletrek.i18n import translate

    # the console's own field: undoing a set of the ``width`` property would pin the width read
    # at that moment on the shared console for every later test of the worker
    monkeypatch.setattr(console, "_width", 80)
    result = runner.invoke(app, ["games", "--lang", lang])
    assert result.exit_code == 0
    assert "…" not in result.output

    def squeezed(text: str) -> str:
        return "".join(ch for ch in text if not ch.isspace() and ch not in "│┃")

    shown = squeezed(result.output)
    for name in games():
        cls = game_class(name)
        assert squeezed(cls(None).title(lang)) in shown
        for spec in cls.option_specs:
            typed = as_typed(spec.default)
            assert squeezed(f"{spec.name}{typed}{translate(spec.help, lang)}") in shown, spec.name
    # Before: defaults were Python's repr (None, False, 'en'), not what one types after -o name=
    cells = {cell.strip() for line in result.output.splitlines() for cell in line.split("│")}
    assert {"None", "False", "True", "'en'"}.isdisjoint(cells) and {"none", "false", "en"} <= cells


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
@pytest.mark.parametrize("width", [56, 60, 66, 80, 100])
def test_games_never_parts_an_id_and_lists_bots_as_the_language_does(
    lang: str, width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before, at 60 columns in both languages: rich narrowed the widest columns, and the table
    # read 'double-crossin' over 'g' and 'codenames-gues' over 's', ids one has to type; the
    # bots were joined with ', ' in Chinese too.
    from tabletrek.cli.common import console
    from tabletrek.core.registry import game_class, games

    monkeypatch.setattr(console, "_width", width)  # the console's own field (see above)
    result = runner.invoke(app, ["games", "--lang", lang])
    assert result.exit_code == 0
    table = result.output.split("└")[0].splitlines()
    rows = [[cell.strip() for cell in line.split("│")[1:-1]] for line in table if line.startswith("│")]
    assert max(map(len, table)) <= width
    named = [row[0] for row in rows if row[0]]
    assert named == games()
    mark = "、" if lang == "zh-Hant" else ","
    listed: dict[str, list[str]] = {}
    game = ""
    for row in rows:
        game = row[0] or game
        listed.setdefault(game, []).extend(part.strip() for part in row[3].split(mark) if part.strip())
    for name in games():
        assert listed[name] == game_class(name)(None).bots(), (name, listed[name])
    assert lang == "en" or not any(", " in row[3] for row in rows)


@pytest.mark.parametrize(
    ("spec", "lang", "said"),
    [
        # Before: Python's TypeError ("got multiple values for keyword argument 'seed'")
        ("greedy:seed=3", "en", "cannot be given seed"),
        ("greedy:seed=3", "zh-Hant", "不能給 greedy 電腦玩家設定 seed"),
        # Before: the UsageError itself, uncaught, as a traceback
        ("greedy:x", "en", "bot parameter 'x' in 'greedy:x' must be written key=value"),
        ("greedy:=3", "zh-Hant", "'=3'"),
    ],
)
def test_a_bot_spec_the_bot_cannot_take_is_refused_without_a_traceback(
    home: Path, spec: str, lang: str, said: str
) -> None:
    result = runner.invoke(app, ["play", "touring", "--bots", spec, "--lang", lang], input="quit\n")
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.exception
    assert said in result.output and "Traceback" not in result.output and "Error" not in result.output


def test_games_shows_defaults_as_one_types_them_and_they_read_back() -> None:
    from tabletrek.cli.games_cmd import as_typed
    from tabletrek.core.options import parse_option_value
    from tabletrek.core.registry import game_class, games

    for name in games():
        for spec in game_class(name).option_specs:
            assert parse_option_value(as_typed(spec.default)) == spec.default, (name, spec.name)
    assert (as_typed(None), as_typed(False), as_typed(True), as_typed("en"), as_typed(3)) == (
        "none",
        "false",
        "true",
        "en",
        "3",
    )


def test_tournament_explains_its_ratings_at_any_table_size() -> None:
    # Before: the note explaining mu, sigma and the ordinal came only with two players, and said
    # 'ordinal' to a Chinese reader whose column is 保守評分; the head-to-head grid's title was
    # wrapped to the narrow grid ('…贏過欄上電腦玩' / '家的局數').
    three = runner.invoke(
        app, ["tournament", "touring", "-p", "3", "-b", "random,greedy", "-n", "3", "--lang", "zh-Hant"]
    )
    assert three.exit_code == 0, three.output
    # (the note may wrap at any width: compared without the line breaks and spaces)
    assert "保守評分=mu−3·sigma" in "".join(three.output.split()) and "ordinal" not in three.output
    two = runner.invoke(
        app, ["tournament", "touring", "-p", "2", "-b", "random,greedy", "-n", "2", "--lang", "zh-Hant"]
    )
    assert two.exit_code == 0, two.output
    assert "對戰成績：列上的電腦玩家贏過欄上電腦玩家的局數（欄以名次標示）" in two.output.splitlines()
    # and its heading names the game and the format in Chinese, not 'touring：2 局，round-robin'
    assert "公路旅行：2 局，循環賽" in two.output
    simulated = runner.invoke(app, ["simulate", "touring", "-n", "2", "--lang", "zh-Hant"])
    assert "公路旅行：2 局" in simulated.output, simulated.output


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_path_holding_a_terminal_command_is_named_not_run(lang: str, tmp_path: Path) -> None:
    # Before: `tabletrek replay *` over a downloaded file named 'x<ESC>[2J.json' cleared the
    # screen from inside the refusal that named it.
    path = tmp_path / "x\x1b[2J.json"
    path.write_text("{}", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), "--no-step", "--lang", lang])
    assert result.exit_code == 2
    assert "\x1b" not in result.output and "x\\x1b[2J.json" in result.output.replace("\n", "")


@pytest.mark.parametrize(
    ("lang", "missing", "in_the_way"),
    [
        ("en", "No such file or directory", "Not a directory."),
        ("zh-Hant", "找不到這個檔案或資料夾", "路徑中有一段不是資料夾。"),
    ],
)
def test_the_systems_reason_is_said_in_the_readers_language(
    lang: str, missing: str, in_the_way: str, tmp_path: Path
) -> None:
    # Before: a Chinese reader got the system's English ('無法讀取（No such file or directory）'),
    # and a file where --out's folder should be read 'File exists'.
    gone = runner.invoke(app, ["replay", str(tmp_path / "gone.json"), "--lang", lang])
    assert gone.exit_code == 2 and missing in gone.output
    blocker = tmp_path / "notes.txt"
    blocker.write_text("mine", encoding="utf-8")
    args = ["analyze", "touring", "-n", "1", "--out", str(blocker / "r.html"), "--lang", lang]
    out = runner.invoke(app, args)
    assert out.exit_code == 2 and in_the_way in out.output.replace("\n", "")
    assert "File exists" not in out.output and blocker.read_text(encoding="utf-8") == "mine"
    if lang == "zh-Hant":
        assert "No such file" not in gone.output


def test_simulate_and_analyze_seat_every_bot_they_name_or_refuse(tmp_path: Path) -> None:
    """Three bots at a table of two: the third never played and the summary left it out without
    a word. Now refused; and the default of a game with more cheap bots than seats is its strongest."""
    refused = runner.invoke(app, ["simulate", "touring", "-n", "2", "--bots", "random,greedy,greedy:go=120"])
    assert refused.exit_code == 2, refused.output
    assert "3 bots for a table of 2" in " ".join(refused.output.split())
    chinese = runner.invoke(
        app,
        [
            "analyze",
            "touring",
            "-n",
            "2",
            "--bots",
            "a,b,c",
            "--out",
            str(tmp_path / "r.html"),
            "--lang",
            "zh-Hant",
        ],
    )
    assert chinese.exit_code == 2 and "一桌只有 2 個座位" in " ".join(chinese.output.split()), chinese.output
    default = runner.invoke(
        app, ["simulate", "mexican-train", "-p", "2", "-n", "2", "-o", "rounds=1", "--json"]
    )
    assert default.exit_code == 0, default.output
    assert [b["bot"] for b in json.loads(default.output)["bots"]] == ["greedy", "planner"]

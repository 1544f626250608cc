"""The core contract, game-agnostic: registry, records, events, options, errors."""

from __future__ import annotations

import contextlib
import json
import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

import tabletrek
from tabletrek import GameRecord, IllegalAction, State
from tabletrek.cli import app
from tabletrek.core.events import OMNISCIENT, Event, seat_ref, text_ref
from tabletrek.core.options import OptionSpec, parse_option_value, resolve_options


def test_games_lists_registered_games_sorted() -> None:
    names = tabletrek.games()
    assert "touring" in names
    assert names == sorted(names)


@pytest.mark.parametrize("name", tabletrek.games())
def test_every_game_honours_the_basic_contract(name: str) -> None:
    game = tabletrek.load(name)
    state = game.new_game(seed=1)
    assert state.current_player is not None and not state.is_over and state.result is None
    legal = state.legal_actions()
    assert legal
    for action in legal:
        assert 0 <= action.index < game.num_actions
        # A free-text action (a Codenames clue) cannot be rebuilt from its index alone.
        with contextlib.suppress(ValueError):
            assert game.action(action.index) == action
    json.dumps(state.view(state.current_player))
    json.dumps(state.public_view())
    assert "random" in game.bots()
    events = state.apply(legal[0].text)
    for event in events:
        json.dumps(event.for_viewer(None))
    assert tabletrek.replay(state.record()).to_json() == state.to_json()
    assert State.from_json(state.to_json()).to_json() == state.to_json()


@pytest.mark.parametrize("name", tabletrek.games())
def test_legal_actions_is_a_snapshot_a_caller_cannot_change(name: str) -> None:
    # The state checks ``apply`` against the very tuple it hands out (no copy per call), so the
    # result must be immutable, and a caller's own list made from it must not reach the state.
    state = tabletrek.load(name).new_game(seed=3)
    legal = state.legal_actions()
    assert isinstance(legal, tuple) and state.legal_actions() is legal
    mine = list(legal)
    mine.clear()
    assert state.legal_actions() == legal and len(legal) > 0
    state.apply(legal[-1])
    after = state.legal_actions()
    assert isinstance(after, tuple) and after is not legal
    while not state.is_over:
        state.apply(state.legal_actions()[0])
        if len(state.history) > 2000:  # a game without an end would otherwise hang the test
            break
    assert state.is_over and state.legal_actions() == ()


def test_state_from_json_reports_malformed_input() -> None:
    with pytest.raises(ValueError, match="not valid JSON"):
        State.from_json("{nope")
    with pytest.raises(ValueError, match="lacks the key 'rng'"):
        State.from_json(
            {
                "format": 1,
                "game": "touring",
                "players": 2,
                "options": {},
                "seed": 1,
                "history": [],
                "state": {},
            }
        )
    good = json.loads(tabletrek.load("touring").new_game(seed=1).to_json())
    good["state"]["hands"] = "garbage"
    with pytest.raises(ValueError, match="malformed"):
        State.from_json(good)


def test_record_round_trip_and_save(tmp_path: Path) -> None:
    state = tabletrek.load("touring", players=3).new_game(seed=8)
    for _ in range(5):
        state.apply(state.legal_actions()[0])
    record = state.record().with_meta(names=["a", "b", "c"])
    path = record.save(tmp_path / "r.json")
    loaded = GameRecord.load(path)
    assert loaded == record
    assert tabletrek.replay(loaded).to_json() == state.to_json()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('{"game": "touring", "players": 2, "options": {}, "seed": 1}', "missing key 'actions'"),
        ('{"game": "touring", "players": "2", "options": {}, "seed": 1, "actions": []}', "key 'players'"),
        ('{"game": "touring", "players": 2, "options": {}, "seed": 1, "actions": [3]}', "actions\\[0\\]"),
        ('{"format": 9, "game": "touring", "players": 2, "options": {}, "seed": 1, "actions": []}', "format"),
    ],
)
def test_malformed_record_files_name_the_file_and_key(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=message) as info:
        GameRecord.load(path)
    assert str(path) in str(info.value)


def test_missing_record_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read"):
        GameRecord.load(tmp_path / "nowhere.json")


def test_replaying_an_impossible_record_says_which_move() -> None:
    record = GameRecord("touring", 2, {}, 1, ("play go", "play 30", "play 30", "fly"))
    with pytest.raises(ValueError, match=r"record action \d+ \('.*'\) is illegal here"):
        tabletrek.replay(record)


def test_illegal_action_carries_key_params_and_both_languages() -> None:
    state = tabletrek.load("touring").new_game(seed=1)
    with pytest.raises(IllegalAction) as info:
        state.apply("play 45")
    error = info.value
    assert error.key == "touring.illegal.unknown_card"
    assert "does not name a card" in error.reason
    assert "沒有指明卡牌" in error.message("zh-Hant")
    assert error.to_dict()["key"] == error.key


def _refusal(state: Any, move: str) -> IllegalAction:
    before = state.to_json()
    with pytest.raises(IllegalAction) as caught:
        state.apply(move)
    assert state.to_json() == before
    return caught.value


def test_a_rules_refusal_lists_as_its_readers_language_does() -> None:
    # Before: the rules joined their lists before they knew the reader, so a Chinese player
    # read '卡牌有：go, 1, 3, 15' and '火車有 p1, p2, p3, mx'; the browser got the joined text.
    from tests.mexican_train.positions import position

    touring = tabletrek.load("touring").new_game(seed=1)
    mexican = position([["12-6", "6-9"], ["1-1"], ["2-2"]])
    opened = position([["5-5", "5-8", "7-12"], ["3-3"], ["4-4"]], trains={0: ["12-5"]}, relaxed_doubles=False)
    opened.apply("play 5-5 p1")
    cases = [
        (touring, "play 45", "cards", "Cards: go, 1, 3, 15, 30,", "卡牌有：go、1、3、15、30、"),
        (mexican, "play 6-12", "trains", "one of p1, mx.", "p1、mx 之一"),
        (mexican, "play 6-12 p9", "trains", "trains are p1, p2, p3, mx (", "火車有 p1、p2、p3、mx（"),
        (opened, "play 7-12 mx", "trains", "A double is open on p1:", "p1 上有未解決的雙點牌"),
    ]
    for state, move, listed, english, chinese in cases:
        refusal = _refusal(state, move)
        assert isinstance(refusal.params[listed], list), move  # a list until it is said
        assert english in str(refusal), str(refusal)
        said = refusal.message("zh-Hant")
        assert chinese in said and ", " not in said, said
    # an attack's target: the tables a card may go to
    state = tabletrek.load("touring", players=3).new_game(seed=0)
    rng = random.Random(0)
    while not any(a.text.startswith("play puncture") for a in state.legal_actions()):
        state.apply(rng.choice(state.legal_actions()))
    refusal = _refusal(state, "play puncture zz")
    assert refusal.key == "touring.illegal.bad_target"
    assert "choose one of p1, p2, p3." in str(refusal)
    assert "請從 p1、p2、p3 中選擇" in refusal.message("zh-Hant")


def test_apply_rejects_non_text_non_action() -> None:
    state = tabletrek.load("touring").new_game(seed=1)
    with pytest.raises(IllegalAction, match="must be text or an Action"):
        state.apply(42)
    with pytest.raises(IllegalAction, match="Say which move"):
        state.apply("   ")


def test_event_redaction_per_viewer() -> None:
    event = Event(
        "touring.event.drew", {"player": seat_ref(1)}, {"card": text_ref("touring.card.go")}, frozenset({1})
    )
    assert event.for_viewer(0) == {"key": "touring.event.drew", "args": {"player": {"$seat": 1}}}
    assert event.for_viewer(None)["key"] == "touring.event.drew"
    assert event.for_viewer(1)["args"]["card"] == {"$t": "touring.card.go"}
    assert event.render(1, "en") == "P2 drew Go."
    assert event.render(OMNISCIENT, "zh-Hant") == "玩家2 抽到啟動卡（Go）。"
    assert event.render(0, "en", ["Ann", "Bo"]) == "Bo drew a card."


def test_option_specs() -> None:
    specs = (
        OptionSpec("rounds", 13, "x", kind=int, minimum=1, maximum=13),
        OptionSpec("order", "alternate", "x", kind=str, choices=("alternate", "two_one")),
    )
    assert resolve_options("g", specs, {}) == {"rounds": 13, "order": "alternate"}
    with pytest.raises(ValueError, match="at most 13"):
        resolve_options("g", specs, {"rounds": 14})
    with pytest.raises(ValueError, match="one of 'alternate', 'two_one'"):
        resolve_options("g", specs, {"order": "random"})
    assert parse_option_value("true") is True and parse_option_value("12") == 12
    assert parse_option_value("1.5") == 1.5 and parse_option_value("two_one") == "two_one"


def test_new_game_without_seed_picks_one_and_records_it() -> None:
    game = tabletrek.load("touring")
    state = game.new_game()
    assert isinstance(state.seed, int)
    assert game.new_game(seed=state.seed).to_json() == state.to_json()
    with pytest.raises(ValueError, match="seed must be an integer"):
        game.new_game(seed="x")


def test_a_command_line_number_is_read_from_ascii_digits_only() -> None:
    # Before: int() read "٣" as 3 and "１２" as 12, so --option max_turns=٣ played a 3-move game
    # while a typed move, the web and a record's JSON all refuse such digits.
    for text in ("٣", "１２", "²", "1.５"):
        assert parse_option_value(text) == text
    assert parse_option_value("12") == 12 and parse_option_value("-1.5") == -1.5
    result = CliRunner().invoke(app, ["simulate", "touring", "-n", "1", "-o", "max_turns=٣"])
    assert result.exit_code == 2 and "must be an integer, not '٣'" in result.output


def test_a_bot_takes_a_whole_seat_and_a_whole_seed() -> None:
    game = tabletrek.load("touring")
    for seat in (True, 1.0, "1"):  # before: True was taken as seat 1
        with pytest.raises(ValueError, match=r"seat must be in 0\.\.1"):
            game.bot("random", seat=seat)
    for seed in (True, 1.5, "x"):  # before: random.Random took each as a seed
        with pytest.raises(ValueError, match="seed must be an integer"):
            game.bot("random", seat=0, seed=seed)

    def moves(seed: Any) -> list[str]:
        state = game.new_game(seed=3)
        bots = [game.bot("random", seat=s, seed=seed) for s in range(game.players)]
        played: list[str] = []
        while not state.is_over and len(played) < 30:
            seat = state.current_player
            assert seat is not None
            played.append(bots[seat].act(state).text)
            state.apply(played[-1])
        return played

    # numpy's integers, from research code, are seeds too, and play as the same int
    assert moves(np.int64(7)) == moves(7) != moves(8)


def test_bot_specs_carry_parameters() -> None:
    from tabletrek.core.bots import make_bot, parse_bot_spec

    assert parse_bot_spec("greedy") == ("greedy", {})
    assert parse_bot_spec("greedy:go=120;remedy=1.5") == ("greedy", {"go": 120, "remedy": 1.5})
    with pytest.raises(ValueError, match="must be written key=value"):
        parse_bot_spec("greedy:go")
    bot = make_bot(tabletrek.load("touring"), "greedy:go=120", seat=1, seed=2)
    assert bot.seat == 1 and bot.w.go == 120.0


# Digits that str.isdigit() takes: int() reads the first two as 3 and raises on the third, and
# int() raises on any run of more than 4,300 digits.
OTHER_DIGITS = ("\u0663", "\U0001d7d1", "\u00b2")
LONG_NUMBER = "9" * 5000


def number_variants(text: str) -> list[str]:
    """``text`` with every number in it written in other digits, or 5,000 digits long."""
    if not re.search(r"[0-9]", text):
        return []
    variants = [
        "".join(digit if ch.isascii() and ch.isdigit() else ch for ch in text) for digit in OTHER_DIGITS
    ]
    return [*variants, re.sub(r"[0-9]+", LONG_NUMBER, text)]


@pytest.mark.parametrize("name", tabletrek.games())
def test_a_number_in_other_digits_is_refused_as_illegal_and_changes_nothing(name: str) -> None:
    # Every rules module reads numbers out of typed moves ("play 3-5", "clue river 2", "bid 4"),
    # and a typed move may come from anyone: the only error it may raise is IllegalAction.
    rng = random.Random(7)
    game = tabletrek.load(name)
    tried = 0
    for seed in range(6):
        state = game.new_game(seed=seed)
        while not state.is_over and len(state.history) < 400:
            before = state.to_json()
            for action in state.legal_actions():
                for text in number_variants(action.text):
                    with pytest.raises(IllegalAction):
                        state.apply(text)
                    tried += 1
            assert state.to_json() == before
            state.apply(rng.choice(state.legal_actions()))
    assert tried > 100

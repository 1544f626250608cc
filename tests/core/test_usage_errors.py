"""A refusal of a name or value the user gave is said in the user's language: ``UsageError`` keeps
the English ``str()`` the library always gave and names its message in the catalogs."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from typer.testing import CliRunner

import tabletrek
from tabletrek.cli import app
from tabletrek.core import records
from tabletrek.core.actions import IllegalAction
from tabletrek.core.bots import make_bot, parse_bot_spec
from tabletrek.core.errors import UsageError, message_in
from tabletrek.core.events import resolve_args
from tabletrek.core.options import OptionSpec
from tabletrek.core.records import MAX_RECORD_BYTES, GameRecord, iter_replay
from tabletrek.sim import simulate
from tabletrek.sim.backend import Backend, connect_ray
from tabletrek.sim.runner import seat_bots
from tabletrek.sim.tournament import Ratings, tournament

CJK = re.compile(r"[\u4e00-\u9fff]")


def without(modules: list[str], call: Callable[[], Any]) -> Callable[[], Any]:
    """``call`` as on a machine where ``modules`` are not installed (their extra left out)."""

    def run() -> Any:
        with patch.dict(sys.modules, dict.fromkeys(modules)):
            return call()

    return run


def duet_bot(name: str, **params: Any) -> Callable[[], Any]:
    """Making one of Codenames Duet's AI partners with these knobs."""
    return lambda: tabletrek.load("codenames-duet").bot(name, seat=0, **params)


def ismcts(**params: Any) -> Callable[[], Any]:
    """Making Touring's search bot with these settings."""
    return lambda: tabletrek.load("touring").bot("ismcts", seat=0, **params)


REFUSALS: dict[str, tuple[Callable[[], Any], str]] = {
    "unknown_game": (
        lambda: tabletrek.load("tourin"),
        f"unknown game 'tourin' (known games: {', '.join(tabletrek.games())}); did you mean 'touring'?",
    ),
    "unknown_option": (
        lambda: tabletrek.load("touring", free_discrd=True),
        "unknown option 'free_discrd' for touring (known options: country_first, free_discard,"
        " max_turns); did you mean 'free_discard'?",
    ),
    "option_bool": (
        lambda: tabletrek.load("touring", free_discard=3),
        "option 'free_discard' of touring must be true or false, not 3",
    ),
    "option_int": (
        lambda: tabletrek.load("touring", max_turns="x"),
        "option 'max_turns' of touring must be an integer, not 'x'",
    ),
    "option_number": (
        lambda: OptionSpec("speed", 1.0, "x", kind=float).check("g", "fast"),
        "option 'speed' of g must be a number, not 'fast'",
    ),
    "option_type": (
        lambda: OptionSpec("pack", "en", "x", kind=str).check("g", 5),
        "option 'pack' of g must be a str, not 5",
    ),
    "option_choice": (
        lambda: OptionSpec("size", 9, "x", kind=int, choices=(9, 12)).check("g", 10),
        "option 'size' of g must be one of 9, 12, not 10",
    ),
    "option_min": (
        lambda: tabletrek.load("touring", max_turns=0),
        "option 'max_turns' of touring must be at least 1, not 0",
    ),
    "option_max": (
        lambda: OptionSpec("n", 1, "x", kind=int, maximum=4).check("g", 5),
        "option 'n' of g must be at most 4, not 5",
    ),
    "player_count": (
        lambda: tabletrek.load("touring", players=9),
        "touring is played by 2, 3, 4, 5, 6 players, not 9",
    ),
    "unknown_bot": (
        lambda: tabletrek.load("touring").bot("genius", seat=0),
        "touring has no bot 'genius'; it offers: random, ismcts, greedy",
    ),
    "bot_param_form": (
        lambda: parse_bot_spec("ismcts:iterations"),
        "bot parameter 'iterations' in 'ismcts:iterations' must be written key=value",
    ),
    "bot_no_params": (
        lambda: tabletrek.load("touring").bot("random", seat=0, speed=1),
        "the random bot takes no parameters, not speed",
    ),
    "bot_unknown_params": (
        ismcts(depth=3),
        "the ismcts bot has no parameter depth; it has: c, compiled, default, infer, iterations, margin,"
        " ms, paired, rollout, rollout_depth, threads, trust, z",
    ),
    "param_positive_int": (
        ismcts(iterations=0),
        "iterations must be a positive integer, not 0",
    ),
    "param_number": (
        ismcts(iterations="abc"),
        "iterations must be a number, not 'abc'",
    ),
    "param_finite": (
        ismcts(ms="inf"),  # float() reads the word: a move that would never end
        "ms must be a finite number, not 'inf'",
    ),
    "param_whole": (
        ismcts(iterations=2.7),  # int() read it as 2
        "iterations must be a whole number, not 2.7",
    ),
    "param_flag": (
        ismcts(paired="no"),  # bool() reads every word as on
        "paired must be true or false, not 'no'",
    ),
    "param_range": (
        duet_bot("codenames-clue", max_number=10),
        "max_number must be from 1 to 9, not 10",
    ),
    "noise_draws": (
        duet_bot("codenames-clue", samples=10_000, shortlist=10_000),  # 21 GB before: killed
        "samples × shortlist must be at most 250000, not 10000 × 10000",
    ),
    "param_models": (
        duet_bot("codenames-clue", models=5),  # before: TypeError, 'int' object is not iterable
        "models names word models, one or several, such as 'glove,e5', not 5",
    ),
    "param_model": (
        duet_bot("codenames-guess", models="glove,word2vec"),  # before: made, then every move failed
        # the shipped models, then any a test of the evaluation loaded into the same process
        "models names no word model 'word2vec'; the models are: e5, minilm, l3, mpnet, glove…",
    ),
    "param_positive": (
        ismcts(ms=0),
        "ms must be positive, not 0",
    ),
    "param_non_negative": (
        ismcts(c=-1),
        "c must not be negative, not -1",
    ),
    "param_non_negative_int": (
        ismcts(trust=-1),
        "trust must be a non-negative integer, not -1",
    ),
    "param_choice": (
        lambda: tabletrek.load("codenames-duet").bot("codenames-clue", seat=0, difficulty="impossible"),
        "difficulty must be one of easy, normal, hard, not 'impossible'",
    ),
    "rollout_bot": (
        ismcts(rollout="ismcts"),
        "rollout must be auto, random or another bot of touring: random, greedy",  # not itself
    ),
    "default_bot": (
        ismcts(default="genius"),
        "default must be another bot of touring: random, greedy",
    ),
    # Both were Python's own errors: English in a Chinese terminal and page, and for the second
    # a traceback ("got multiple values for keyword argument 'seed'").
    "paired_rollout": (
        ismcts(rollout="random"),
        "paired=true plays its playouts with a policy, not at random: name one of touring's bots as"
        " rollout (greedy), or set paired=false",
    ),
    "bot_table_given": (
        lambda: make_bot(tabletrek.load("touring"), "greedy:seed=3;seat=1", seat=0),
        "the greedy bot cannot be given seat, seed: a bot's seat and seed come from the table it sits at",
    ),
    "games_positive": (lambda: simulate("touring", 0, ["greedy"]), "the number of games must be at least 1"),
    "jobs_positive": (lambda: Backend(jobs=0), "jobs must be at least 1"),
    "batch_positive": (lambda: Backend(batch_size=0), "the batch size must be at least 1"),
    "bots_needed": (lambda: seat_bots([], 2, 0), "name at least one bot"),
    "bots_over_seats": (
        lambda: simulate("touring", 1, ["greedy", "random", "greedy:go=120"]),
        "3 bots for a table of 2: each game seats 2, so the others would never play; name at most 2,"
        " or compare them in a tournament",
    ),
    "ray_extra": (
        without(["ray"], lambda: connect_ray("auto")),
        "the Ray backend needs the [scale] extra: pip install 'tabletrek[scale]'",
    ),
    "ratings_extra": (
        without(["openskill", "openskill.models"], lambda: Ratings(["a", "b"])),
        "ratings need openskill: pip install 'tabletrek[study]'",
    ),
    "tournament_format": (
        lambda: tournament("touring", ["greedy", "random"], 1, fmt="knockout"),
        "format must be one of round-robin, swiss, not 'knockout'",
    ),
    "tournament_bots": (
        lambda: tournament("touring", ["greedy", "greedy"], 1),
        "name at least two different bots, each once",
    ),
    "swiss_rounds": (
        lambda: tournament("touring", ["greedy", "random"], 1, fmt="swiss", rounds=0),
        "a Swiss tournament needs at least one round",
    ),
}


@pytest.mark.parametrize("key", sorted(REFUSALS))
def test_a_refusal_is_english_by_default_and_chinese_when_asked(key: str) -> None:
    refuse, english = REFUSALS[key]
    with pytest.raises(UsageError) as caught:
        refuse()
    assert caught.value.key == f"core.error.{key}"
    # the library's message, as callers have always read it; "…": what follows depends on the run
    assert (
        str(caught.value).startswith(english[:-1]) if english.endswith("…") else str(caught.value) == english
    )
    assert isinstance(caught.value, ValueError)
    chinese = message_in(caught.value, "zh-Hant")
    assert CJK.search(chinese) and chinese != english
    english_words = (
        "unknown",
        "must",
        "did you mean",
        "offers",
        "played by",
        "takes no",
        "has no",
        "another bot",
    )
    for word in english_words:
        assert word not in chinese, chinese


@pytest.mark.parametrize("key", sorted(REFUSALS))
def test_a_refusals_reference_reads_as_its_message(key: str) -> None:
    """The browser renders ``reference()`` (the web's settings refusals); the terminal shows
    ``message()``: both must say the same in either language."""
    refuse, _english = REFUSALS[key]
    with pytest.raises(UsageError) as caught:
        refuse()
    bare = UsageError("core.error.unknown_option", name="x", game="g", known=[], close=None)
    for error in (caught.value, bare):  # ``bare``: no close match, nothing known
        for lang in ("en", "zh-Hant"):
            shown = resolve_args({"reason": error.reference()}, lang, None)["reason"]
            assert shown == error.message(lang)


def test_an_empty_listing_says_none_in_the_language() -> None:
    error = UsageError("core.error.unknown_option", name="x", game="g", known=[], close=None)
    assert str(error) == "unknown option 'x' for g (known options: none)"
    assert "無" in error.message("zh-Hant")


def test_the_cli_says_a_refusal_in_the_chosen_language() -> None:
    runner = CliRunner()
    english = runner.invoke(app, ["simulate", "touring", "-n", "1", "-o", "free_discrd=true"])
    assert english.exit_code == 2 and "did you mean 'free_discard'" in english.output
    chinese = runner.invoke(app, ["simulate", "tourin", "-n", "1", "--lang", "zh-Hant"])
    assert chinese.exit_code == 2
    assert "沒有名為 'tourin' 的遊戲" in chinese.output and "unknown game" not in chinese.output
    bots = runner.invoke(app, ["simulate", "touring", "-n", "1", "-b", "greedy,genius", "--lang", "zh-Hant"])
    assert bots.exit_code == 2 and "沒有名為 'genius' 的電腦玩家" in bots.output


RECORD_REFUSALS: dict[str, tuple[str, str]] = {
    "record_json": (
        "{not json",
        "r.json: not valid JSON (Expecting property name enclosed in double quotes:",
    ),
    "record_not_object": ("[1, 2]", "r.json: a record must be a JSON object"),
    "record_missing": ('{"actions": []}', "r.json: missing key 'game'"),
    "record_need_text": ('{"actions": [], "game": 3}', "r.json: key 'game' must be text"),
    "record_need_whole": (
        '{"actions": [], "game": "touring", "players": null}',
        "r.json: key 'players' must be a",
    ),
    "record_need_list": ('{"actions": {}}', "r.json: key 'actions' must be a list"),
    "record_need_object": (
        '{"actions": [], "game": "t", "players": 2, "options": []}',
        "r.json: key 'options' must",
    ),
    "record_format": ('{"format": 99, "actions": []}', "r.json: key 'format' is 99; this version reads"),
    "record_action_text": ('{"actions": [1]}', "r.json: key 'actions[0]' must be text"),
    "record_rules": ('{"actions": [], "rules": "new"}', "r.json: key 'rules' must be a rules version number"),
    "record_meta": ('{"actions": [], "meta": []}', "r.json: key 'meta' must be an object"),
    "record_digests": (
        '{"actions": [], "digests": {"word_pack": 3}}',
        "r.json: key 'digests' must map options of the record to text",
    ),
    "record_character": (
        '{"game": "touring", "players": 2, "options": {}, "seed": 1, "actions": [],'
        ' "meta": {"names": ["A\\u001b[2J"]}}',
        "r.json: key 'meta.names[0]' holds the character U+001B, which a record may not carry",
    ),
}


@pytest.mark.parametrize("key", sorted(RECORD_REFUSALS))
def test_a_broken_record_file_is_refused_in_the_readers_language(key: str, tmp_path: Path) -> None:
    text, english = RECORD_REFUSALS[key]
    path = tmp_path / "r.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        GameRecord.load(path)
    assert caught.value.key == f"core.error.{key}"
    assert str(caught.value).replace(str(tmp_path) + "/", "").startswith(english)
    chinese = message_in(caught.value, "zh-Hant")
    assert CJK.search(chinese) and str(path) in chinese and "must" not in chinese


@pytest.mark.parametrize(
    ("where", "char"),
    [
        ("game", "\u202e"),  # a bidi override: shows the name in another order than it is stored
        ("actions", "\u009b"),  # C1's CSI: a terminal command without an ESC
        ("meta", "\x1b"),  # ESC: starts a terminal command (clear, title, clipboard)
        ("meta-key", "\x07"),
        ("options", "\ud800"),  # a lone surrogate: no encoder takes it
    ],
)
def test_a_record_carrying_what_no_terminal_should_show_is_refused(where: str, char: str) -> None:
    data: dict[str, Any] = {"game": "touring", "players": 2, "options": {}, "seed": 1, "actions": ["draw"]}
    if where == "game":
        data["game"] = f"tour{char}ing"
    elif where == "actions":
        data["actions"] = ["draw", f"play{char}2J"]
    elif where == "meta":
        data["meta"] = {"names": ["Ann", {"nick": f"Bo{char}]0;owned"}]}
    elif where == "meta-key":
        data["meta"] = {f"note{char}": 1}
    else:
        data["options"] = {"free_discard": f"yes{char}"}
    with pytest.raises(UsageError) as caught:
        GameRecord.from_json(json.dumps(data), "r.json")
    assert caught.value.key == "core.error.record_character"
    named = {"game": "'game'", "actions": "'actions[1]'", "meta": "'meta.names[1].nick'"}
    assert named.get(where, "") in str(caught.value) and f"U+{ord(char):04X}" in str(caught.value)
    assert char not in str(caught.value)  # the message shows the character's code, never the character


def test_a_record_may_keep_private_use_and_chinese_names() -> None:
    data = {
        "game": "touring",
        "players": 2,
        "options": {},
        "seed": 1,
        "actions": [],
        "meta": {"names": ["小明", "\ue000"]},
    }
    assert GameRecord.from_json(json.dumps(data)).meta["names"] == ["小明", "\ue000"]


@pytest.mark.parametrize("value", ["[" * 5000 + "]" * 5000, "9" * 5000])
def test_a_record_nested_too_deep_or_with_a_huge_number_is_refused(value: str) -> None:
    head = '{"game": "touring", "players": 2, "options": {}, "seed": 1, "actions": [], "meta": {"x": '
    text = head + value + "}}"
    with pytest.raises(UsageError) as caught:
        GameRecord.from_json(text, "r.json")
    assert caught.value.key == "core.error.record_json"


def test_a_record_whose_move_is_illegal_names_the_rules_reason_in_the_same_language(tmp_path: Path) -> None:
    record = GameRecord("touring", 2, {}, 5, ("no such move",))
    with pytest.raises(UsageError) as caught:
        list(iter_replay(record))
    english, chinese = str(caught.value), message_in(caught.value, "zh-Hant")
    reason = caught.value.params["reason"]
    assert isinstance(reason, IllegalAction)
    assert english == f"record action 0 ('no such move') is illegal here: {reason.reason}"
    assert reason.message("zh-Hant") in chinese and CJK.search(chinese) and "illegal" not in chinese
    for path in (tmp_path / "missing.json", tmp_path):  # a file that is not there; a directory
        with pytest.raises(UsageError, match="cannot read") as unreadable:
            GameRecord.load(path)
        assert "無法讀取" in message_in(unreadable.value, "zh-Hant")


@pytest.mark.parametrize(
    ("make", "key"),
    [
        (ismcts(ms=float("inf")), "param_finite"),
        (ismcts(ms="nan"), "param_finite"),
        (ismcts(ms=10**400), "param_finite"),
        (ismcts(c=float("nan")), "param_finite"),
        (ismcts(z="-Infinity"), "param_finite"),
        (ismcts(iterations=float("inf")), "param_finite"),
        (ismcts(ms=True), "param_number"),
        (ismcts(iterations="٣"), "param_number"),  # before: float() and int() read it as 3
        (ismcts(ms="１２"), "param_number"),
        (lambda: tabletrek.load("touring").bot("greedy", seat=0, go="inf"), "param_finite"),
        (lambda: tabletrek.load("touring").bot("greedy", seat=0, go=False), "param_number"),
        (duet_bot("codenames-clue", sigma="nan"), "param_finite"),
        (duet_bot("codenames-guess", cap="-inf"), "param_finite"),
        (duet_bot("codenames-clue", samples="many"), "param_number"),
    ],
)
def test_a_bot_setting_that_is_no_finite_number_is_refused_by_name(make: Callable[[], Any], key: str) -> None:
    # Before: each was read with float() or int(), which take "inf", "nan" and True: a search
    # told to think for "inf" ms never ended its move, and a NaN knob made nonsense moves.
    with pytest.raises(UsageError) as caught:
        make()
    assert caught.value.key == f"core.error.{key}"


@pytest.mark.parametrize(
    ("name", "params", "key"),
    [
        ("codenames-clue", {"vocab_cut": 0}, "param_positive_int"),  # each made the first move fail
        ("codenames-clue", {"vocab_cut": -1}, "param_positive_int"),
        ("codenames-clue", {"noise": 1.0, "shortlist": -3}, "param_positive_int"),
        ("codenames-clue", {"noise": 1.0, "samples": 0}, "param_positive_int"),
        ("codenames-clue", {"adapt": 1.0, "adapt_temperature": 0}, "param_positive"),
        ("codenames-guess", {"temperature": 0.0}, "param_positive"),
        ("codenames-guess", {"vocab_cut": 0}, "param_positive_int"),
        ("codenames-clue", {"samples": 1000, "shortlist": 251}, "noise_draws"),
    ],
)
def test_a_codenames_knob_the_partner_cannot_play_with_is_refused_when_it_is_made(
    name: str, params: dict[str, Any], key: str
) -> None:
    with pytest.raises(UsageError) as caught:
        duet_bot(name, **params)()
    assert caught.value.key == f"core.error.{key}"


@pytest.mark.parametrize(
    "params",
    [
        {"models": "nope"},
        {"giver_models": "../../etc/passwd"},
        {"guesser_models": ["glove", "Glove"]},
        {"models": [1]},  # before: read as the model '1'
        {"models": " , "},
        {"models": ()},
        {"giver_models": None},
    ],
    ids=repr,
)
def test_a_codenames_partner_naming_a_word_model_it_lacks_is_refused_when_it_is_made(
    params: dict[str, Any],
) -> None:
    # Before: a model name the tables lack was taken, and every move of the bot then failed with
    # "no AI table for model"; on the web that is a random move and a traceback each turn.
    with pytest.raises(UsageError) as caught:
        duet_bot("codenames-clue", **params)()
    assert caught.value.key in ("core.error.param_models", "core.error.param_model")
    assert caught.value.params["name"] == next(iter(params))


def test_a_codenames_partner_plays_with_the_word_models_it_is_given() -> None:
    game = tabletrek.load("codenames-duet")
    state = game.new_game(seed=5)
    for models in ("glove", "glove, e5", ["mpnet", "l3"]):
        bot = game.bot("codenames-clue", seat=state.current_player or 0, models=models)
        assert bot.giver.knobs.models == tuple(
            m.strip() for m in (models.split(",") if isinstance(models, str) else models)
        )
        assert state.clone().apply(bot.act(state))
    chinese = tabletrek.load("codenames-duet", word_pack="zh-Hant")
    assert chinese.bot("codenames-clue", seat=0, giver_models="e5").giver.knobs.models == ("e5",)


@pytest.mark.parametrize(
    "make",
    [
        lambda: tabletrek.load("mexican-train", rounds=[1]),
        lambda: tabletrek.load("touring", free_discard=["yes", "no"]),
        lambda: tabletrek.load("double-crossing", players=3, max_rounds={"a": 1}),
        ismcts(ms=[1]),
        duet_bot("codenames-clue", difficulty=["easy"]),  # before: TypeError, unhashable type
    ],
)
def test_a_value_given_as_a_list_or_mapping_is_quoted_as_given(make: Callable[[], Any]) -> None:
    # Before: a refusal joined any list parameter as names, so a list of numbers as the value
    # made the refusal's own message raise TypeError ("sequence item 0: expected str instance")
    # and a list of words was shown as if it were one word.
    with pytest.raises(UsageError) as caught:
        make()
    given = caught.value.params["value"]
    assert repr(given) in str(caught.value) and repr(given) in caught.value.message("zh-Hant")
    assert caught.value.reference()["args"]["value"] == repr(given)


def test_a_record_whose_option_is_a_list_is_refused_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    record = {"game": "mexican-train", "players": 2, "options": {"rounds": [1]}, "seed": 1, "actions": []}
    path.write_text(json.dumps(record), encoding="utf-8")
    shown = CliRunner().invoke(app, ["replay", str(path), "--lang", "zh-Hant"], input="q\n")
    assert shown.exit_code == 2, shown.output
    assert "必須是整數，而不是 [1]" in shown.output and "Traceback" not in shown.output
    odd_format = {**record, "format": [1]}
    path.write_text(json.dumps(odd_format), encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        GameRecord.load(path)
    assert caught.value.key == "core.error.record_format" and "is [1];" in str(caught.value)


def test_a_codenames_partner_at_the_noise_limit_still_plays() -> None:
    game = tabletrek.load("codenames-duet")
    bot = game.bot("codenames-clue", seat=0, noise=1.0, samples=1000, shortlist=250)
    state = game.new_game(seed=3)
    assert state.apply(bot.act(state))


def test_a_codenames_ai_knob_is_a_number_and_its_language_follows_the_pack() -> None:
    # Before: "language" was a knob like the others, so a table could name one the pack is not
    # in, and the bot failed at its first move instead of when it was made.
    with pytest.raises(UsageError) as caught:
        tabletrek.load("codenames-duet").bot("codenames-clue", seat=0, language="zh-Hant")
    assert caught.value.key == "core.error.bot_unknown_params"
    assert "language" not in caught.value.params["known"]
    bot = tabletrek.load("codenames-duet").bot("codenames-clue", seat=0, samples="40", sigma=0.5)
    assert bot.giver.knobs.samples == 40 and bot.giver.knobs.sigma == 0.5


def test_a_whole_number_setting_takes_a_whole_value_and_refuses_a_fraction() -> None:
    # Before: int() cut a fraction without a word (iterations=2.7 searched 2 iterations), and
    # "2.0" was refused as no number although 2.0 was taken.
    for value in (2.7, "2.5", 0.5):
        with pytest.raises(UsageError) as caught:
            ismcts(iterations=value)()
        assert caught.value.key == "core.error.param_whole"
    with pytest.raises(UsageError) as caught:
        duet_bot("codenames-clue", samples=40.5)()
    assert caught.value.key == "core.error.param_whole"
    for value in (2, 2.0, "2", "2.0"):
        assert ismcts(iterations=value)().settings.iterations == 2
    assert duet_bot("codenames-clue", samples="40.0")().giver.knobs.samples == 40


@pytest.mark.parametrize("name", ["margin", "paired", "compiled", "infer"])
def test_a_search_flag_is_true_or_false_and_nothing_read_as_either(name: str) -> None:
    # Before: each was read with bool(), so "false", "no" and "off" from a client turned it on.
    for value in ("false", "no", "off", "true", 0, 1, None, [False]):
        with pytest.raises(UsageError) as caught:
            ismcts(**{name: value})()
        assert caught.value.key == "core.error.param_flag" and caught.value.params["name"] == name
    for value in (True, False):
        assert getattr(ismcts(**{name: value})().settings, name) is value


def test_a_greedy_weight_that_is_not_a_number_is_refused_by_name() -> None:
    """Before: Python's own "could not convert string to float: 'abc'" reached the player."""
    with pytest.raises(UsageError) as caught:
        tabletrek.load("touring").bot("greedy", seat=0, go="abc")
    assert str(caught.value) == "go must be a number, not 'abc'"
    assert message_in(caught.value, "zh-Hant") == "go 必須是數字，而不是 'abc'"


def test_a_file_far_larger_than_any_record_is_refused_while_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: the whole file was read first, so ``tabletrek replay /dev/zero`` filled the memory
    until the process died (a MemoryError traceback under a memory limit)."""
    big = tmp_path / "big.json"
    with big.open("wb") as handle:  # sparse: 64 MiB and one byte of zeros, no disk used
        handle.truncate(MAX_RECORD_BYTES + 1)
    for path in (big, Path("/dev/zero")):
        with pytest.raises(UsageError) as caught:
            GameRecord.load(path)
        assert str(caught.value) == f"{path}: more than 64 MiB, far more than any game record"
        assert message_in(caught.value, "zh-Hant") == f"{path}：超過 64 MiB，遠大於任何遊戲紀錄"
    monkeypatch.setattr(records, "MAX_RECORD_BYTES", 1000)
    at_the_cap = tmp_path / "at_the_cap.json"
    at_the_cap.write_text(" " * 998 + "[]")  # a file of exactly the cap is read, and parsed
    with pytest.raises(UsageError, match="a record must be a JSON object"):
        GameRecord.load(at_the_cap)
    at_the_cap.write_text(" " * 999 + "[]")
    with pytest.raises(UsageError, match="more than 0 MiB"):
        GameRecord.load(at_the_cap)


def test_a_refusals_list_is_joined_as_its_language_joins_one() -> None:
    # Before: '玩家人數可以是 2, 3, 4, 5, 6' and '現有選項：country_first, free_discard', a
    # Chinese sentence listing with English commas, in the terminal and in the browser alike.
    with pytest.raises(UsageError) as caught:
        tabletrek.load("touring", players=9)
    assert str(caught.value) == "touring is played by 2, 3, 4, 5, 6 players, not 9"
    assert "2、3、4、5、6" in caught.value.message("zh-Hant")
    # the browser gets the list itself and joins it in its reader's language (i18n.js)
    assert caught.value.reference()["args"]["allowed"] == ["2", "3", "4", "5", "6"]
    for lang in ("en", "zh-Hant"):
        shown = resolve_args({"reason": caught.value.reference()}, lang, None)["reason"]
        assert shown == caught.value.message(lang)
    with pytest.raises(UsageError) as caught:
        tabletrek.load("codenames-duet", clue_order="both")
    assert "'alternate'、'two_one'" in caught.value.message("zh-Hant")
    assert "'alternate', 'two_one'" in str(caught.value)

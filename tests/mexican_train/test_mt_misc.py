"""Parsing, explanations, catalogs, data errors, the terminal UI, the chain search and the bots."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from rich.console import Console

import tabletrek
from tabletrek import IllegalAction
from tabletrek.core import registry
from tabletrek.core.data import DataError
from tabletrek.games.mexican_train.chain import best_chain
from tabletrek.games.mexican_train.tiles import parse_sets, tile_sets
from tabletrek.i18n import catalog

from .positions import position, texts

PACKAGE = Path(tabletrek.__file__).parent / "games" / "mexican_train"


def test_registered_with_its_bots():
    # tabletrek.games (the function) is shadowed by the tabletrek.games package once a game is
    # imported (reported to the lead), so ask the registry directly.
    assert "mexican-train" in registry.games()
    game = tabletrek.load("mexican-train")
    assert game.players == 4 and game.bots() == ["random", "ismcts", "greedy", "planner"]
    assert game.title("zh-Hant") == "墨西哥快車"


def test_actions_are_interned_and_indexed():
    game = tabletrek.load("mexican-train", players=4)  # double-9 below 6 players
    assert game.num_actions == 55 * 5 + 3
    assert tabletrek.load("mexican-train", players=6).num_actions == 91 * 7 + 3
    for i in range(game.num_actions):
        action = game.action(i)
        assert action.index == i and game.action_by_text(action.text) is action
    with pytest.raises(ValueError):
        game.action(game.num_actions)


def test_lenient_move_texts():
    state = position([["12-6", "6-9"], ["1-1"], ["2-2"]], trains={0: ["12-1"]})
    assert texts(state) == ["play 6-12 mx"]
    state.apply("Play 12-6   Mexican")
    state = position([["12-6", "6-9"], ["1-1"], ["2-2"]], trains={0: ["12-1"]})
    state.apply("play 6-12")  # only one place fits: the train may be left out
    assert state.current_player == 1


@pytest.mark.parametrize(
    ("move", "key"),
    [
        ("play 6-12", "mexican_train.illegal.which_train"),
        ("play 3-4 p1", "mexican_train.illegal.not_in_hand"),
        ("play 1-13 p1", "mexican_train.illegal.unknown_tile"),
        ("play 6-12 p9", "mexican_train.illegal.bad_train"),
        ("play 6-9 p1", "mexican_train.illegal.no_match"),
        ("jump", "mexican_train.illegal.unknown"),
        ("end", "mexican_train.illegal.end_first_only"),
        ("", "core.illegal.empty"),
    ],
)
def test_bad_moves_name_the_rule(move, key):
    state = position([["12-6", "6-9"], ["1-1"], ["2-2"]])
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        state.apply(move)
    assert info.value.key == key
    assert info.value.message("zh-Hant") != info.value.key
    assert state.to_json() == before


def used_keys() -> set[str]:
    keys: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        keys |= set(re.findall(r"\"(mexican_train\.[a-z_]+\.[a-z_]+)\"", path.read_text()))
    return keys


def test_catalogs_match_and_cover_every_key_used():
    en = catalog("mexican_train", "en")
    zh = catalog("mexican_train", "zh-Hant")
    assert set(en) == set(zh)
    keys = used_keys()
    keys |= {
        f"mexican_train.event.{k}_{kind}" for k in ("play", "start") for kind in ("own", "other", "mexican")
    }
    keys |= {
        f"mexican_train.ui.move_{v}_{kind}" for v in ("play", "start") for kind in ("own", "other", "mexican")
    }
    keys |= {spec.help for spec in tabletrek.load("mexican-train").option_specs}
    ui = (PACKAGE / "text.py").read_text()
    keys |= {f"mexican_train.ui.{k}" for k in re.findall(r"\bt\(\"(\w+)\"", ui)}
    assert {"mexican_train.ui.round", "mexican_train.ui.your_hand", "mexican_train.event.draw"} <= keys
    assert keys - set(en) == set()
    for key, template in en.items():
        assert set(re.findall(r"{(\w+)}", template)) == set(re.findall(r"{(\w+)}", zh[key])), key


def test_every_event_renders_in_both_languages():
    state = tabletrek.load("mexican-train", players=3, engine=2).new_game(seed=4)
    rng = random.Random(1)
    while not state.is_over:
        for event in state.apply(rng.choice(state.legal_actions())):
            for lang in ("en", "zh-Hant"):
                for viewer in (None, 0):
                    text = event.render(viewer, lang)
                    assert "{" not in text and not text.startswith("mexican_train."), text


def test_sets_file_is_valid_and_errors_name_file_and_key():
    assert sorted(tile_sets()) == [9, 12]
    with pytest.raises(DataError, match=r"sets.toml: key 'sets.12.tiles'"):
        parse_sets("sets.toml", {"sets": {"12": {"tiles": 90, "hand": {"4": 15}}}})
    with pytest.raises(DataError, match=r"key 'sets.9.hand.8'"):
        parse_sets("sets.toml", {"sets": {"9": {"tiles": 55, "hand": {"8": 7}}}})
    with pytest.raises(DataError, match=r"key 'sets.9.hand.4'"):
        parse_sets("sets.toml", {"sets": {"9": {"tiles": 55, "hand": {"4": "ten"}}}})
    with pytest.raises(DataError, match=r"key 'sets'"):
        parse_sets("sets.toml", {})
    # "²" passes str.isdigit() and made int() raise a bare ValueError
    with pytest.raises(DataError, match=r"key 'sets.\u00b2'"):
        parse_sets("sets.toml", {"sets": {"\u00b2": {"tiles": 55, "hand": {"4": 15}}}})
    with pytest.raises(DataError, match=r"key 'sets.9.hand.\u00b2'"):
        parse_sets("sets.toml", {"sets": {"9": {"tiles": 55, "hand": {"\u00b2": 7}}}})


def test_text_ui_draws_trains_markers_turn_and_sorted_hand():
    state = position(
        [["12-6", "0-9", "3-3"], ["1-1"], ["2-2"]],
        trains={0: ["12-1"], 1: ["12-4", "4-4"], "mx": ["12-7"]},
        markers=[False, True, False],
    )
    game = state.game
    ui = game.terminal()
    names = ["Ann", "Bo", "Cy"]
    for lang in ("en", "zh-Hant"):
        console = Console(width=100, record=True)
        console.print(ui.render(state.view(0), lang, names))
        out = console.export_text()
        assert "[12|4] [4|4]" in out and "[12|7]" in out and "[12|1]" in out
        assert ("public" if lang == "en" else "公共") in out
        assert ("Ann to play" if lang == "en" else "輪到 Ann") in out
    assert out.index("[0|9]") > out.index("[3|3]")  # sorted by the high end: [3|3] [0|9] [6|12]
    assert out.index("[6|12]") > out.index("[0|9]")
    view = state.view(1)
    described = [ui.describe(a, view, "en", names) for a in state.legal_actions()]
    assert all(d and not d.startswith("mexican_train.") for d in described)


def test_chain_search_finds_the_longest_then_heaviest_trail():
    ts = tile_sets()[12]
    hand = [ts.parse_tile(t) for t in ("12-3", "3-5", "5-12", "12-9", "3-3", "9-9", "0-1")]
    chain = best_chain(ts, hand, 12)
    assert [ts.texts[t] for t in chain][:1] in (["3-12"], ["5-12"], ["9-12"])
    assert len(chain) == 6  # every tile but 0-1, which never joins, e.g. 12-3 3-3 3-5 5-12 12-9 9-9
    end = 12
    for tile in chain:
        end = ts.other[tile][end]
        assert end >= 0
    assert len(set(chain)) == 6 and ts.parse_tile("0-1") not in chain
    hand = [ts.parse_tile(t) for t in ("12-3", "3-4", "12-10", "10-4")]
    assert [ts.texts[t] for t in best_chain(ts, hand, 12)] == ["10-12", "4-10", "3-4", "3-12"]


def bot_match(game, lineup, seed):
    state = game.new_game(seed=seed)
    bots = [game.bot(name, seat=s, seed=seed + s) for s, name in enumerate(lineup)]
    while not state.is_over:
        state.apply(bots[state.current_player].act(state))
    return state.result


def test_bots_play_legal_moves_to_the_end():
    game = tabletrek.load("mexican-train", players=4, engine=3)
    result = bot_match(game, ["planner", "greedy", "random", "planner"], 7)
    assert result is not None and len(result.scores) == 4


def test_greedy_plays_doubles_then_heavy_tiles():
    state = position([["5-5", "12-11", "5-6"], ["1-1"], ["2-2"]], trains={0: ["12-5"]})
    assert state.game.bot("greedy", seat=0, seed=1).act(state).text == "play 5-5 p1"
    state = position([["12-6", "12-11", "0-1"], ["1-1"], ["2-2"]])
    assert state.game.bot("greedy", seat=0, seed=1).act(state).text == "play 11-12 p1"


def test_planner_keeps_its_chain_and_plays_spare_tiles_elsewhere():
    hands = [["1-7", "7-8", "8-2", "12-9"], ["3-3"], ["4-4"]]
    state = position(hands, trains={0: ["12-1"]})
    bot = state.game.bot("planner", seat=0, seed=1)
    # 1-7 7-8 8-2 is its planned train; 12-9 fits only the Mexican train: play that first.
    assert bot.act(state).text == "play 9-12 mx"


def test_planner_does_not_play_a_double_it_cannot_satisfy():
    hands = [["5-5", "2-6", "12-3"], ["3-3"], ["4-4"]]
    state = position(hands, trains={0: ["12-5"], "mx": ["12-2"]})
    bot = state.game.bot("planner", seat=0, seed=1)
    assert bot.act(state).text != "play 5-5 p1"


def test_bot_parameters_are_checked():
    game = tabletrek.load("mexican-train")
    with pytest.raises(ValueError, match="no parameters"):
        game.bot("planner", seat=0, seed=1, depth=3)


def test_text_ui_renders_spectators_and_finished_matches():
    game = tabletrek.load("mexican-train", players=3, engine=1)
    state = game.new_game(seed=8)
    rng = random.Random(3)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    console = Console(width=90, record=True)
    console.print(game.terminal().render(state.public_view(), "en", ["A", "B", "C"]))
    out = console.export_text()
    assert "Match over" in out and "Last round" in out and "Your hand" not in out

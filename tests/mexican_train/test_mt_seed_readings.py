"""The seed as written (turn 2 of the rules review): after a double the next tile may go elsewhere,
and the domino set follows the player count."""

from __future__ import annotations

import pytest

import tabletrek

from .positions import position, texts
from .test_mt_rounds import play_out
from .test_mt_turns import illegal_key


def test_after_a_double_the_next_tile_may_go_on_another_train_and_the_double_binds_the_others():
    # Seed, the third reason a train ends in a double: "上一玩家出了雙點牌在「私家火車」，卻將別一
    # 張牌放在其他「公共火車」或「墨西哥快車」。（該有雙點牌尾的現在仍是上一玩家的「私家火車」）"
    # — a double on one's own train and the next tile on the Mexican train is a legal turn.
    state = position([["5-5", "7-12", "5-8"], ["5-9"], ["4-4"]], trains={0: ["12-5"]})
    state.apply("play 5-5 p1")
    assert "play 7-12 mx" in texts(state)
    state.apply("play 7-12 mx")
    assert state.current_player == 1 and state.open_doubles() == [0]
    # "…其他玩家要被迫不能「解決」，各抽一張牌，及將自已的火車轉成「公共火車」": p1's train is
    # private, so p2 cannot satisfy it and draws.
    assert texts(state) == ["draw"]


def test_after_a_double_on_the_mexican_train_the_next_tile_may_go_home():
    hands = [["6-6", "1-12", "2-3"], ["6-9"], ["4-4"]]
    state = position(hands, trains={"mx": ["12-6"]}, first_pending=[False] * 3)
    state.apply("play 6-6 mx")
    assert "play 1-12 p1" in texts(state)
    state.apply("play 1-12 p1")
    assert state.current_player == 1
    assert texts(state) == ["play 6-9 mx"]  # the Mexican train is open to all: p2 must satisfy it


def test_satisfy_own_double_option_keeps_the_old_rule():
    state = position([["5-5", "7-12", "5-8"], ["5-9"], ["4-4"]], trains={0: ["12-5"]}, relaxed_doubles=False)
    state.apply("play 5-5 p1")
    assert texts(state) == ["play 5-8 p1"]
    assert illegal_key(state, "play 7-12 mx") == "mexican_train.illegal.must_satisfy"


@pytest.mark.parametrize(
    ("players", "size", "tiles", "rounds"),
    [(2, 9, 55, 10), (4, 9, 55, 10), (5, 9, 55, 10), (6, 12, 91, 13), (8, 12, 91, 13), (10, 12, 91, 13)],
)
def test_the_set_follows_the_player_count(players: int, size: int, tiles: int, rounds: int):
    # Seed: "建議用一套有91張的「雙十二」骨牌。如參加人數少於6人，建議用「雙九」。" — double-12,
    # and double-9 for fewer than 6 players; the rounds follow the set (double-12 … double-0).
    game = tabletrek.load("mexican-train", players=players)
    assert game.set_size == size and game.tileset.size == tiles
    assert game.num_rounds == rounds
    assert game.options["set_size"] is None  # "by player count" is what a record names


def test_double_nine_default_plays_rounds_nine_down_to_zero():
    state = tabletrek.load("mexican-train", players=4).new_game(seed=4)
    assert ["9-9", *play_out(state)] == [f"{v}-{v}" for v in range(9, -1, -1)]
    assert len(state.round_scores) == 10


@pytest.mark.parametrize(("players", "size"), [(4, 12), (6, 9), (3, 12)])
def test_set_size_overrides_the_player_count(players: int, size: int):
    game = tabletrek.load("mexican-train", players=players, set_size=size)
    assert game.set_size == size and game.num_rounds == size + 1


def test_more_than_eight_players_still_need_double_twelve():
    assert tabletrek.load("mexican-train", players=9).set_size == 12
    with pytest.raises(ValueError, match="double-9 set is played by"):
        tabletrek.load("mexican-train", players=9, set_size=9)

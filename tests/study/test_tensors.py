"""The documented observation tensors: shapes by player count, a golden start position per game,
agreement with the view after play, the information state's counts, and the generated page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numpy", reason="the tensors need numpy (extra [rl])")

import tabletrek
from tabletrek.rl import (
    codec_for,
    information_state_layout,
    information_state_tensor,
    observation_layout,
    observation_tensor,
)
from tabletrek.rl.obsdoc import render
from tabletrek.rl.tensors import acting_seats

DOC = Path(__file__).resolve().parents[2] / "docs" / "observations.md"
SHORT: dict[str, dict[str, Any]] = {
    "touring": {},
    "mexican-train": {"rounds": 1},
    "double-crossing": {"max_rounds": 6},
    "codenames-duet": {},
}


def test_the_page_is_generated_from_the_code() -> None:
    assert DOC.read_text(encoding="utf-8") == render(), (
        "run: python -m tabletrek.rl.obsdoc > docs/observations.md"
    )


@pytest.mark.parametrize("name", sorted(SHORT))
def test_shapes_follow_the_player_count(name: str) -> None:
    sizes = []
    for players in type(tabletrek.load(name)).player_counts[:4]:
        game = tabletrek.load(name, players=players, **SHORT[name])
        state = game.new_game(seed=players)
        obs = observation_tensor(state, players - 1)
        info = information_state_tensor(state, 0)
        lay = observation_layout(game)
        assert obs.dtype == np.float32 and obs.shape == (lay.size,)
        assert info.shape == (information_state_layout(game).size,)
        assert info.shape[0] == lay.size + players * codec_for(game).n
        assert sum(f.size for f in lay.fields) == lay.size
        assert lay.field("to_act").shape == (players,)
        sizes.append(lay.size)
    assert sizes[1] > sizes[0], "more seats, more per-seat blocks"


def split(state: tabletrek.State, seat: int) -> dict[str, Any]:
    return {
        k: v.tolist()
        for k, v in observation_layout(state.game).split(observation_tensor(state, seat)).items()
    }


def test_golden_touring_start() -> None:
    t = split(tabletrek.load("touring", players=2).new_game(seed=7), 0)
    assert t["hand_counts"] == [6, 5] and t["to_act"] == [1, 0] and t["draw_pile"] == [88]
    assert sum(t["hand"]) == 6 and t["discard"] == [0] * 12
    assert t["go_top"] == [[0] * 12 + [1]] * 2 and t["speed_top"] == [[0, 0, 1]] * 2
    assert t["miles_needed"] == [[8, 4, 2, 2]] * 2 and t["miles"] == [[0] * 4] * 2
    assert t["moving"] == [0, 0] and t["limited"] == [1, 1] and t["turn"] == [0] and t["over"] == [0]
    three = split(tabletrek.load("touring", players=3).new_game(seed=7), 0)
    assert three["miles_needed"] == [[4, 2, 2, 1]] * 3, "the 70-mile set"


def test_golden_mexican_train_start() -> None:
    game = tabletrek.load("mexican-train", players=2, set_size=12)
    state = game.new_game(seed=7)
    t = split(state, 0)
    assert len(t["hand"]) == 91 and len(t["engine"]) == 13 and t["engine"][12] == 1
    assert sorted(t["hand_counts"]) == [14, 15] and sum(t["hand"]) == t["hand_counts"][0]
    assert sum(t["on_board"]) == 1 and t["on_board"][90] == 1, "only the 12-12 engine is down"
    assert t["train_end"] == [[0] * 12 + [1]] * 3 and t["train_public"] == [0, 0, 1]
    assert t["phase"] == [1, 0, 0] and t["boneyard"] == [61] and t["round"] == [1]
    assert t["rounds_left"] == [12] and t["totals"] == [0, 0] and t["first_turn_pending"] == [1, 1]
    nine = tabletrek.load("mexican-train", players=2, set_size=9)
    assert observation_layout(nine).field("hand").shape == (55,), "sizes follow the set"


def test_golden_double_crossing_start() -> None:
    t = split(tabletrek.load("double-crossing", players=2).new_game(seed=7), 0)
    assert t["cash"] == [1.5, 1.5] and t["hand_counts"] == [4, 4] and sum(t["hand"]) == 4
    assert all(row[-1] == 1 and sum(row) == 1 for row in t["position"]), "both tokens off the track"
    assert all(row[-1] == 1 for row in t["contract_owner"]), "every contract available"
    assert t["contracts_held"] == [0, 0] and abs(t["depot"][0] - 0.1) < 1e-6
    assert abs(t["bank"][0] - (19.5 - 2 * 1.5 - 0.1)) < 1e-5, "the bank holds the rest of $19.5M"
    assert t["round"] == [1] and t["turns"] == [0] and t["over"] == [0]


def test_golden_codenames_start() -> None:
    state = tabletrek.load("codenames-duet").new_game(seed=7)
    t = split(state, 0)
    key = np.array(t["key"])
    assert key.sum(axis=0).tolist() == [9, 13, 3], "one side: 9 green, 13 bystander, 3 assassin"
    assert t["covered"] == [0] * 25 and t["visible"] == [1] * 25 and t["tokens"] == [9]
    assert t["phase"] == [1, 0, 0, 0] and t["clue_word"] == [-1] and t["agents_found"] == [0]
    pack = state.game.pack.words
    assert [pack[int(i)] for i in t["word_id"]] == state.view(0)["words"]


@pytest.mark.parametrize("name", sorted(SHORT))
def test_tensor_agrees_with_the_view_after_play(name: str) -> None:
    game = tabletrek.load(name, players=3 if name != "codenames-duet" else 2, **SHORT[name])
    state = game.new_game(seed=11)
    for i in range(25):
        if state.is_over:
            break
        seat = state.current_player
        assert seat is not None
        state.apply(game.bot("random", seat=seat, seed=i).act(state))
    for seat in range(game.players):
        view = state.view(seat)
        t = split(state, seat)
        if view["to_act"] is not None:
            assert t["to_act"][(view["to_act"] - seat) % game.players] == 1 and sum(t["to_act"]) == 1
        if "hand_counts" in t:
            assert t["hand_counts"] == [
                view["hand_counts"][(seat + k) % game.players] for k in range(game.players)
            ]
    other = observation_tensor(state, 1)
    assert not np.array_equal(observation_tensor(state, 0), other), "each seat sees its own hand"


@pytest.mark.parametrize("name", sorted(SHORT))
def test_information_state_counts_every_move(name: str) -> None:
    game = tabletrek.load(name, players=2, **SHORT[name])
    state = game.new_game(seed=3)
    for i in range(30):
        if state.is_over:
            break
        seat = state.current_player
        assert seat is not None
        state.apply(game.bot("random", seat=seat, seed=i).act(state))
    lay = information_state_layout(game)
    counts = lay.view(information_state_tensor(state, 1), "action_counts")
    moves = acting_seats(state)
    assert counts.sum() == sum(codec_for(game).index(a) is not None for _, a in moves) > 0
    mine = sum(1 for s, a in moves if s == 1 and codec_for(game).index(a) is not None)
    assert counts[0].sum() == mine, "row 0 is the observer's own moves"

"""Replay checkpoints: a step's views from the nearest stored state equal a replay from the seed."""

from __future__ import annotations

import random

import pytest

import tabletrek
from tabletrek.core.events import OMNISCIENT
from tabletrek.web import replay
from tabletrek.web.replay import Checkpoints, replay_view

GAMES = {"touring": 3, "mexican-train": 4, "codenames-duet": 2, "double-crossing": 3}


def random_history(name: str, players: int, seed: int) -> tuple[tabletrek.Game, tuple[str, ...]]:
    game = tabletrek.load(name, players=players)
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    while not state.is_over and len(state.history) < 900:
        state.apply(rng.choice(state.legal_actions()))
    return game, state.history


@pytest.mark.parametrize("name", sorted(GAMES))
def test_checkpointed_views_equal_a_replay_from_the_seed(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay, "CHECKPOINTS", Checkpoints())
    monkeypatch.setattr(replay, "CHECKPOINT_SPACING", 7)  # many checkpoints in a short game
    # random Codenames guesses soon touch an assassin: the first seed from 11 with a longer game
    seed = next(s for s in range(11, 400) if len(random_history(name, GAMES[name], s)[1]) > 20)
    game, history = random_history(name, GAMES[name], seed)
    rng = random.Random(5)
    steps = [len(history), 0, 1, *rng.sample(range(len(history) + 1), 25), len(history) - 1]
    for step in steps:  # out of order: later steps first, then earlier ones from checkpoints
        for viewer in (None, OMNISCIENT, 0, 1):
            cached = replay_view(game, seed, history, viewer, step, table="t1")
            fresh = replay_view(game, seed, history, viewer, step)
            assert cached == fresh, (name, step, viewer)
    _, spacing, states = replay.CHECKPOINTS._tables["t1"]
    assert spacing == max(7, -(-len(history) // replay.CHECKPOINTS_PER_TABLE))
    # every checkpoint the requests passed was kept, so later requests start near their step
    assert sorted(states) == list(range(spacing, len(history) + 1, spacing))


def test_a_move_taken_back_drops_the_checkpoints_it_invalidates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay, "CHECKPOINTS", Checkpoints())
    monkeypatch.setattr(replay, "CHECKPOINT_SPACING", 5)
    game, history = random_history("touring", 2, seed=3)
    replay_view(game, 3, history, None, len(history), table="t")
    assert replay.CHECKPOINTS._tables["t"][2]
    # the same table's record after a move was taken back (the first step from 20 with another
    # legal move) and other moves made instead
    state = game.new_game(seed=3)
    for branch, text in enumerate(history):
        others = [a for a in state.legal_actions() if a.text != text]
        if branch >= 20 and others:
            break
        state.apply(text)
    state.apply(others[0])
    rng = random.Random(9)
    while len(state.history) < branch + 40 and not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    changed = state.history
    assert changed[:branch] == history[:branch] and changed[branch] != history[branch]
    for at in (len(changed), branch + 20, branch + 1, branch, 15):
        assert replay_view(game, 3, changed, 0, at, table="t") == replay_view(game, 3, changed, 0, at)


def test_the_cache_keeps_only_the_most_recent_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay, "CHECKPOINTS", Checkpoints())
    monkeypatch.setattr(replay, "CHECKPOINT_SPACING", 5)
    game, history = random_history("touring", 2, seed=8)
    for n in range(replay.CHECKPOINT_TABLES + 5):
        replay_view(game, 8, history, None, 40, table=f"t{n}")
    kept = list(replay.CHECKPOINTS._tables)
    assert len(kept) == replay.CHECKPOINT_TABLES and kept[-1] == f"t{replay.CHECKPOINT_TABLES + 4}"

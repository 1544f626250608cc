"""A small, seeded check of bot strength (the full measurement is benchmarks/mexican_train_bots.py)."""

from __future__ import annotations

import statistics

import pytest

import tabletrek


def mean_scores(first: str, second: str, matches: int) -> tuple[float, float]:
    game = tabletrek.load("mexican-train", players=4, engine=5)
    totals: dict[str, list[float]] = {first: [], second: []}
    for m in range(matches):
        lineup = [(first, second)[(s + m) % 2] for s in range(4)]
        state = game.new_game(seed=1000 + m)
        bots = [game.bot(name, seat=s, seed=m * 10 + s) for s, name in enumerate(lineup)]
        while not state.is_over:
            state.apply(bots[state.current_player].act(state))
        assert state.result is not None
        for s, score in enumerate(state.result.scores):
            totals[lineup[s]].append(score)
    return statistics.fmean(totals[first]), statistics.fmean(totals[second])


@pytest.mark.slow
def test_planner_beats_greedy_beats_random_on_seeded_short_matches():
    planner, greedy = mean_scores("planner", "greedy", 16)
    assert planner < greedy
    greedy, random_ = mean_scores("greedy", "random", 16)
    assert greedy < random_

"""The Wilson interval every win rate in reports and examples is printed with."""

from __future__ import annotations

import pytest

from tabletrek.sim.stats import wilson_interval


@pytest.mark.parametrize("trials", [1, 6, 10, 300, 1000])
def test_no_wins_and_all_wins_reach_the_ends_exactly(trials: int) -> None:
    # before: 0 of 6 gave a lower bound of 2.8e-17, above the win rate it bounds
    low, high = wilson_interval(0, trials)
    assert low == 0.0 and 0.0 < high < 1.0
    low, high = wilson_interval(trials, trials)
    assert high == 1.0 and 0.0 < low < 1.0


def test_the_interval_holds_the_rate_and_matches_the_textbook_figure() -> None:
    low, high = wilson_interval(897, 1000)
    assert low <= 0.897 <= high
    # Wilson, 95%: 897 of 1,000 gives 0.8766-0.9143 (87.7-91.4%, the learning example's figure)
    assert (round(low, 4), round(high, 4)) == (0.8766, 0.9143)
    assert wilson_interval(3, 0) == (0.0, 1.0)

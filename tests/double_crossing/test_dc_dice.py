"""The game's die against the core's ``randint``: the same faces and the same generator state."""

from __future__ import annotations

from tabletrek.core.registry import load
from tabletrek.core.rng import make_rng, randint
from tabletrek.games.double_crossing.effects import die
from tabletrek.games.double_crossing.state import DoubleCrossingState


def test_die_draws_what_randint_draws() -> None:
    state = load("double-crossing", players=2).new_game(seed=3)
    assert isinstance(state, DoubleCrossingState)
    for seed in (0, 1, 20261202):
        state.rng = make_rng(seed)
        reference = make_rng(seed)
        faces = [die(state) for _ in range(2000)]
        assert faces == [randint(reference, 1, 6) for _ in range(2000)]
        assert state.rng.getstate() == reference.getstate()
        assert set(faces) == {1, 2, 3, 4, 5, 6}

"""The OpenSpiel face: registration, OpenSpiel's random simulation checks, its ISMCTS bot."""

from __future__ import annotations

import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel face needs the [openspiel] extra (open-spiel)")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from tabletrek.openspiel import register, register_all  # noqa: E402

SHORT = {
    "touring": {},
    "mexican-train": {"rounds": 1},
    "double-crossing": {"max_rounds": 4},
}


@pytest.mark.parametrize("game", sorted(SHORT))
def test_random_simulation_checks(game: str) -> None:
    name = register(game)
    loaded = pyspiel.load_game(name, {"players": 2, "seed": 5, "options": json.dumps(SHORT[game])})
    assert loaded.num_distinct_actions() > 0 and loaded.num_players() == 2
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=False, verbose=False)


def test_registration_is_idempotent_and_skips_free_text_games() -> None:
    names = register_all()
    assert "python_tabletrek_touring" in names and not any("codenames" in n for n in names)
    assert register("touring") == "python_tabletrek_touring"


def test_openspiel_ismcts_plays_touring() -> None:
    game = pyspiel.load_game(register("touring"), {"seed": 2})
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rng)
    for _ in range(3):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert len(state.inner.history) == 3
    clone = state.clone()
    assert clone.inner.to_json() == state.inner.to_json() and clone.inner is not state.inner
    assert state.observation_tensor(0) and state.information_state_string(0)


def test_bad_options_are_refused() -> None:
    with pytest.raises(Exception, match="JSON object"):
        pyspiel.load_game(register("touring"), {"options": "[1]"})

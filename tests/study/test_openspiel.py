"""The OpenSpiel face: OpenSpiel's own random simulation test with serialization, explicit chance,
tensors of the declared shapes, the declared bounds, Codenames refused, and OpenSpiel's algorithms
(ISMCTS, outcome-sampling MCCFR) running on our games."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel face needs the [openspiel] extra (open-spiel)")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402 - after the importorskip above
from open_spiel.python.algorithms import outcome_sampling_mccfr as os_mccfr  # noqa: E402 - after the importorskip above

import tabletrek  # noqa: E402 - after the importorskip above
from tabletrek.openspiel import register, register_all  # noqa: E402 - after the importorskip above
from tabletrek.openspiel.game import parse_options  # noqa: E402 - after the importorskip above
from tabletrek.rl import codec_for, information_state_layout, observation_layout  # noqa: E402 - after the importorskip above

SHORT = {
    "touring": "",
    "mexican-train": "rounds:1",
    "double-crossing": "max_rounds:4",
}


def load(game: str, players: int = 2) -> pyspiel.Game:
    return pyspiel.load_game(register(game), {"players": players, "options": SHORT[game]})


@pytest.mark.parametrize("game", sorted(SHORT))
def test_random_simulation_with_serialization(game: str) -> None:
    loaded = load(game)
    assert loaded.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(loaded, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("game", sorted(SHORT))
def test_spaces_tensors_and_round_trips(game: str) -> None:
    loaded = load(game, players=3)
    inner = tabletrek.load(game, players=3, **parse_options(SHORT[game]))
    assert loaded.num_distinct_actions() == codec_for(inner).n
    assert loaded.observation_tensor_shape() == [observation_layout(inner).size]
    assert loaded.information_state_tensor_shape() == [information_state_layout(inner).size]
    state = loaded.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) <= loaded.max_chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    rng = np.random.default_rng(1)
    decisions = 0
    while not state.is_terminal() and decisions < 60:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        player = state.current_player()
        assert len(state.observation_tensor(player)) == loaded.observation_tensor_size()
        assert len(state.information_state_tensor(player)) == loaded.information_state_tensor_size()
        state.apply_action(int(rng.choice(state.legal_actions())))
        decisions += 1
        copy = pickle.loads(pickle.dumps(state))
        assert str(copy) == str(state) and copy.history() == state.history()
        text = pyspiel.serialize_game_and_state(loaded, state)
        _, back = pyspiel.deserialize_game_and_state(text)
        assert str(back) == str(state)
        assert back.information_state_tensor(0) == state.information_state_tensor(0)
    assert decisions == len(state.inner.history)


def test_chance_is_the_deal_itself() -> None:
    """The same chance outcomes always give the same deal; different ones a different deal."""
    game = load("touring")

    def dealt(seed: int) -> str:
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
        return str(state.inner.to_json())

    assert dealt(0) == dealt(0) and dealt(0) != dealt(1)


def test_declared_bounds_hold() -> None:
    touring = load("touring")
    assert touring.max_game_length() == tabletrek.load("touring").options["max_turns"]
    assert touring.max_chance_outcomes() == 99, "the deck"
    mt = pyspiel.load_game(register("mexican-train"), {"players": 2, "options": "rounds:1 set_size:9"})
    assert mt.max_chance_outcomes() == 55 and mt.max_game_length() == 2 * 55 + 2 * (2 * 55 + 3)


def test_length_cap_ends_a_game_as_a_draw() -> None:
    game = pyspiel.load_game(register("double-crossing"), {"players": 2, "options": "max_rounds:1"})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(state.c.moves) <= game.max_game_length()


def test_registration_refuses_codenames_with_a_reason() -> None:
    names = register_all()
    assert "python_tabletrek_touring" in names and not any("codenames" in n for n in names)
    assert register("touring") == "python_tabletrek_touring"
    with pytest.raises(ValueError, match="free text"):
        register("codenames-duet")


def test_openspiel_ismcts_plays_touring() -> None:
    game = load("touring")
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng)
    searched = 0
    while searched < 3:
        if state.is_chance_node():
            state.apply_action(int(rng.randint(len(state.chance_outcomes()))))
            continue
        legal = state.legal_actions()
        action = bot.step(state)
        assert action in legal
        if len(legal) > 1:
            searched += 1
            assert bot._nodes, "the search built a tree"
        state.apply_action(action)
    clone = state.clone()
    assert clone.inner.to_json() == state.inner.to_json() and clone.inner is not state.inner


def test_outcome_sampling_mccfr_runs_on_mexican_train() -> None:
    game = load("mexican-train")
    solver = os_mccfr.OutcomeSamplingSolver(game)
    for _ in range(3):
        solver.iteration()
    assert solver._infostates, "regrets were recorded at information states"
    policy = solver.average_policy()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(0)
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions()) and abs(sum(probs.values()) - 1) < 1e-9


def test_bad_options_are_refused() -> None:
    with pytest.raises(Exception, match="JSON object"):
        pyspiel.load_game(register("touring"), {"options": "[1]"})
    with pytest.raises(Exception, match="key:value"):
        pyspiel.load_game(register("touring"), {"options": "free_discard"})


@pytest.mark.parametrize("game", ["touring", "mexican-train"])
def test_a_refused_chance_outcome_leaves_the_state_as_it_was(game: str) -> None:
    """Before, ``apply_action(999)`` at a 99-way draw raised ValueError after recording the draw:
    the state was then neither a chance node nor dealt, and ``current_player()`` failed."""
    state = load(game).new_initial_state()
    before = pyspiel.serialize_game_and_state(state.get_game(), state)
    with pytest.raises(pyspiel.SpielError, match="out of range"):
        state.apply_action(10_000)
    assert state.is_chance_node()
    assert pyspiel.serialize_game_and_state(state.get_game(), state) == before
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[-1][0])
    assert state.current_player() >= 0


def test_a_refused_move_leaves_no_held_move_behind() -> None:
    """Before, an illegal or out-of-range move was stored as the held move before being refused
    (a raw ValueError for the latter), so the serialized state carried it."""
    state = load("touring").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    before = pyspiel.serialize_game_and_state(state.get_game(), state)
    illegal = next(
        a for a in range(state.get_game().num_distinct_actions()) if a not in state.legal_actions()
    )
    with pytest.raises(pyspiel.SpielError, match="not legal now"):
        state.apply_action(illegal)
    with pytest.raises(pyspiel.SpielError, match="has 33 actions, not 999"):
        state.apply_action(999)
    assert pyspiel.serialize_game_and_state(state.get_game(), state) == before


def test_options_that_are_not_json_are_refused_by_name() -> None:
    # before: json.decoder.JSONDecodeError "Expecting property name enclosed in double quotes"
    with pytest.raises(ValueError, match="the 'options' parameter is not valid JSON"):
        parse_options("{rounds: 1}")

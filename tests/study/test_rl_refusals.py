"""A researcher's slips are refused by name: an action that is not an integer index, a parallel
step without the acting agent's move. (Before, ``int()`` truncated 1.5 into move 1 and played it,
an array failed inside numpy, and a parallel step missing the actor played nothing and returned
the same observations.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the RL face needs the [rl] extra")

from tabletrek.rl import SingleSeatEnv, aec_env, parallel_env
from tabletrek.rl.table import action_index

NOT_INDICES = [1.5, 0.0, "0", True, np.array([1, 2]), np.float32(1.0), None]


@pytest.mark.parametrize("value", NOT_INDICES, ids=repr)
def test_an_action_must_be_an_integer_index(value: object) -> None:
    with pytest.raises(TypeError, match="integer index"):
        action_index(value)


@pytest.mark.parametrize("value", [3, np.int64(3), np.int32(3), np.array(3), np.array([3])], ids=repr)
def test_integer_actions_in_every_usual_form_are_taken(value: object) -> None:
    assert action_index(value) == 3


def test_single_seat_env_refuses_a_float_instead_of_playing_another_move() -> None:
    env = SingleSeatEnv("touring", seat=0, opponents="random")
    env.reset(seed=1)
    before = env.table.state._dump()
    with pytest.raises(TypeError, match=r"not 1\.5"):
        env.step(1.5)
    with pytest.raises(TypeError, match=r"shape \(2,\)"):
        env.step(np.array([1, 2]))
    assert env.table.state._dump() == before


def test_aec_env_refuses_a_float_action() -> None:
    env = aec_env("touring")
    env.reset(seed=1)
    before = env.game_state._dump()
    with pytest.raises(TypeError, match="integer index"):
        env.step(0.5)  # type: ignore[arg-type]  # what a careless caller passes
    assert env.game_state._dump() == before


def test_parallel_step_without_the_actor_is_refused() -> None:
    env = parallel_env("touring")
    env.reset(seed=1)
    actor = env.possible_agents[env.game_state.current_player or 0]
    other = next(a for a in env.possible_agents if a != actor)
    with pytest.raises(ValueError, match=f"no action for {actor}, the agent to act"):
        env.step({other: 0})


def test_parallel_step_after_the_end_says_reset() -> None:
    env = parallel_env("touring", options={"max_turns": 1})
    env.reset(seed=1)
    while env.agents:
        actor = env.possible_agents[env.game_state.current_player or 0]
        move = int(np.flatnonzero(env.table.mask(env.game_state.current_player or 0))[0])
        env.step({actor: move})
    with pytest.raises(RuntimeError, match="call reset"):
        env.step({actor: 0})


@pytest.mark.parametrize("seat", [0.5, "0", True, None], ids=repr)
def test_a_seat_that_is_not_a_seat_number_is_refused(seat: object) -> None:
    # before: seat=0.5 made an env for a seat that does not exist; "0" failed comparing str and int
    with pytest.raises(ValueError, match=r"seat must be in 0\.\.1"):
        SingleSeatEnv("touring", seat=seat)  # type: ignore[arg-type]  # what a careless caller passes


def test_an_opponent_list_of_the_wrong_length_is_refused() -> None:
    # before: three bots for the one other seat of a two-player game were cut to the first
    with pytest.raises(ValueError, match=r"one per other seat \(1 here\), not 3"):
        SingleSeatEnv("touring", opponents=["greedy", "random", "random"])
    with pytest.raises(ValueError, match=r"one per other seat \(3 here\), not 2"):
        SingleSeatEnv("touring", players=4, opponents=["greedy", "random"])
    env = SingleSeatEnv("touring", players=3, seat=1, opponents=["greedy", "random"])
    assert env.opponents == {0: "greedy", 2: "random"}
    assert set(SingleSeatEnv("touring", players=4, opponents=["greedy"]).opponents.values()) == {"greedy"}


def test_aec_step_before_reset_says_reset() -> None:
    # before: AttributeError: 'TabletrekAEC' object has no attribute 'agent_selection'
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        aec_env("touring").step(0)


@pytest.mark.parametrize("seat", [None, 1.0, "0", 2, -1], ids=repr)
@pytest.mark.parametrize("game", ["touring", "mexican-train"])
def test_a_tensor_for_no_seat_is_refused_by_name(game: str, seat: object) -> None:
    import tabletrek
    from tabletrek.rl import information_state_tensor, observation_tensor

    state = tabletrek.load(game, players=2).new_game(seed=1)
    # before: Touring's view failed comparing int and None, or indexing a tuple with a float
    for encode in (observation_tensor, information_state_tensor):
        with pytest.raises(ValueError, match=f"no seat {seat!r} in a 2-player game"):
            encode(state, seat)  # type: ignore[arg-type]  # what a careless caller passes
    assert observation_tensor(state, np.int64(1)).shape == observation_tensor(state, 1).shape


@pytest.mark.parametrize("make", [SingleSeatEnv, aec_env, parallel_env], ids=lambda f: f.__name__)
def test_options_given_as_a_string_are_refused_by_name(make: Callable[..., Any]) -> None:
    # before: ValueError "dictionary update sequence element #0 has length 1; 2 is required"
    with pytest.raises(TypeError, match="options is a mapping of option name to value"):
        make("touring", options="free_discard:true")
    assert make("touring", options={"free_discard": True}).game.options["free_discard"] is True


def test_an_unknown_agent_is_refused_naming_the_agents_there_are() -> None:
    aec = aec_env("touring")
    aec.reset(seed=1)
    para = parallel_env("touring")
    para.reset(seed=1)
    asks: list[Callable[[], Any]] = [
        lambda: aec.observe("player_9"),
        lambda: aec.action_mask("player_2"),
        lambda: aec.view("dealer"),
        lambda: aec.observation_space("player_9"),
        lambda: aec.action_space(0),  # type: ignore[arg-type]  # a seat number instead of its name
        lambda: para.observation_space("player_9"),
        lambda: para.action_space("Player_0"),
    ]
    for ask in asks:
        with pytest.raises(KeyError, match="its agents are player_0, player_1"):
            ask()
    assert aec.observe("player_1")["action_mask"].shape == (aec.action_space("player_1").n,)


def test_a_parallel_move_for_an_agent_that_does_not_exist_is_refused() -> None:
    env = parallel_env("touring")
    env.reset(seed=1)
    actor = env.possible_agents[env.game_state.current_player or 0]
    legal = int(np.flatnonzero(env.table.mask(env.game_state.current_player or 0))[0])
    before = env.game_state._dump()
    with pytest.raises(KeyError, match="no agent 'player_7'"):
        env.step({actor: legal, "player_7": 0})
    assert env.game_state._dump() == before


def dumped(env: Any) -> object:
    """The games an env of any face is playing: the batch's state rows, or the table's state."""
    return env.states.tobytes() if hasattr(env, "states") else env.table.state._dump()


@pytest.mark.parametrize(
    ("make", "named"),
    [
        (lambda: SingleSeatEnv("touring"), "SingleSeatEnv"),
        (lambda: _vector_env("touring", 2), "vector_env"),
    ],
    ids=["single", "vector"],
)
def test_gymnasium_reset_refuses_options_instead_of_ignoring_them(
    make: Callable[[], Any], named: str
) -> None:
    # before: reset(options={"players": 3}) dealt another two-player game without a word (the
    # PettingZoo faces still ignore them: PettingZoo's api_test passes {"options": 1})
    env = make()
    env.reset(seed=3)
    env.reset(seed=4, options={})  # what Gymnasium's checker passes: nothing to refuse
    before = dumped(env)
    with pytest.raises(
        ValueError, match=rf"reset\(\) takes no options: .*\({named}\(.*not \{{'players': 3\}}"
    ):
        env.reset(seed=5, options={"players": 3})
    assert dumped(env) == before  # the game in play is left as it was


def _vector_env(game: str, num_envs: int) -> Any:
    pytest.importorskip("numba", reason="the batch env needs the [search] extra")
    from tabletrek.rl import vector_env

    return vector_env(game, num_envs)

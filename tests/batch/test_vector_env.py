"""The batch environment's contract: Gymnasium's VectorEnv shapes, masks, same-step autoreset,
seeds that name Python games, and illegal actions refused without any change."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from tabletrek.core import mt19937  # noqa: E402 - after the importorskip above
from tabletrek.rl import vector_env  # noqa: E402 - after the importorskip above
from tabletrek.rl.vector import ENGINES, BatchEnv, sample_actions  # noqa: E402 - after the importorskip above

pytestmark = pytest.mark.skipif(not mt19937.HAVE_NUMBA, reason="numba (extra [search]) is not installed")


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_shapes_spaces_and_autoreset(game: str) -> None:
    env = vector_env(game, 16, seed=3)
    assert isinstance(env, gym.vector.VectorEnv)
    obs, info = env.reset(seed=3)
    n_actions = env.single_action_space.n
    assert obs.shape == (16, *env.single_observation_space.shape) and obs.dtype == np.float32
    assert info["action_mask"].shape == (16, n_actions) and info["action_mask"].dtype == np.bool_
    assert info["action_mask"].any(axis=1).all()
    assert info["seed"].tolist() == list(range(3, 19))
    rng = np.random.default_rng(1)
    ended = 0
    for step in range(30_000):  # random Double Crossing games run to thousands of moves
        if step >= 3000 and ended:
            break
        movers = info["seat"]
        obs, rewards, terminated, truncated, info = env.step(sample_actions(info["action_mask"], rng))
        assert not truncated.any()
        assert info["action_mask"].any(axis=1).all()  # a finished env already shows its next game
        for i in np.flatnonzero(terminated):
            assert rewards[i] == info["returns"][i][movers[i]]
            assert info["seed"][i] >= 3 + 16 and (info["seed"][i] - 3) % 16 == i
            ended += 1
        assert (rewards[~terminated] == 0).all() and (info["returns"][~terminated] == 0).all()
    assert ended > 0


def test_an_illegal_action_changes_nothing() -> None:
    env = BatchEnv("touring", 4, players=2, seed=0)
    _, info = env.reset(seed=0)
    before = env.states.copy()
    actions = sample_actions(info["action_mask"], np.random.default_rng(0))
    actions[2] = int(np.flatnonzero(~info["action_mask"][2])[0])
    with pytest.raises(ValueError, match="env 2"):
        env.step(actions)
    assert (env.states == before).all()
    with pytest.raises(ValueError, match="4 actions"):
        env.step(actions[:3])


def test_the_seed_names_the_python_game() -> None:
    import tabletrek

    env = BatchEnv("touring", 3, players=3, seed=11)
    env.reset(seed=11)
    state = env.python_state(1)
    assert state.seed == 11 + 1
    expected = tabletrek.load("touring", players=3).new_game(seed=12)
    assert [sorted(h) for h in expected.hands] == state.hands


def test_games_and_options_without_an_engine_are_refused() -> None:
    with pytest.raises(ValueError, match="no compiled batch engine"):
        vector_env("codenames-duet", 2)
    with pytest.raises(ValueError, match="unknown option 'no_such_option'"):
        vector_env("touring", 2, no_such_option=1)


def test_a_reset_without_a_seed_deals_unplayed_games() -> None:
    env = BatchEnv("touring", 4, players=2, seed=5)
    _, info = env.reset()
    assert info["seed"].tolist() == [5, 6, 7, 8]
    _, info = env.reset()
    assert min(info["seed"]) >= 9
    _, info = env.reset(seed=5)
    assert info["seed"].tolist() == [5, 6, 7, 8]


def test_observations_handed_out_are_never_written_again() -> None:
    env = BatchEnv("mexican-train", 8, players=4, seed=0)
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    kept = [obs, obs.copy()]
    views = []
    for _ in range(20):
        obs, _, _, _, info = env.step(sample_actions(info["action_mask"], rng))
        view = obs[1:3]  # a view alone keeps its array out of reuse
        views.append((view, view.copy()))
    obs2, _, _, _, info = env.step(sample_actions(info["action_mask"], rng))
    assert (kept[0] == kept[1]).all()
    assert all((view == frozen).all() for view, frozen in views)
    before = obs2.copy()
    views.clear()
    kept.clear()
    seen = set()
    for _ in range(10):  # dropped arrays are reused; the ones still held are not
        seen.add(id(env.step(sample_actions(info["action_mask"], rng))[0]))
        info = env._info()
    assert (obs2 == before).all() and id(obs2) not in seen
    assert len(seen) <= 3 and len(env._pools["obs"]) <= 4


def test_touring_observation_counts_the_discard_pile() -> None:
    from tabletrek.games.touring.cards import CARD_TYPES

    env = BatchEnv("touring", 32, players=3, seed=5, free_discard=True)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    at = obs.shape[1] - 1 - CARD_TYPES  # discard counts, then turns
    for _ in range(400):  # long enough for reshuffles
        obs, _, _, _, info = env.step(sample_actions(info["action_mask"], rng))
    for i in range(env.num_envs):
        pile = env.python_state(i).discard
        assert obs[i, at : at + CARD_TYPES].tolist() == np.bincount(pile, minlength=CARD_TYPES).tolist()


@pytest.mark.parametrize("num_envs", [2.5, "4", True, None], ids=repr)
def test_num_envs_that_is_not_a_whole_number_is_refused_by_name(num_envs: object) -> None:
    # before: "'<' not supported between instances of 'str' and 'int'" or numpy's own TypeError
    with pytest.raises(TypeError, match="num_envs is a whole number"):
        vector_env("touring", num_envs)  # type: ignore[arg-type]  # what a careless caller passes


def test_num_envs_as_a_numpy_integer_is_taken() -> None:
    assert vector_env("touring", np.int64(3), seed=1).num_envs == 3


def test_float_actions_are_refused_not_truncated_into_other_moves() -> None:
    env = vector_env("touring", 3, seed=1)
    _, info = env.reset(seed=1)
    legal = np.argmax(info["action_mask"], axis=1)
    before = env.states.copy()
    # before: 2.7 was cast to move 2 and played without a word
    with pytest.raises(TypeError, match="integer action indices, not an array of float64"):
        env.step(legal + 0.7)
    assert np.array_equal(env.states, before)
    env.step(legal.astype(np.int32))  # any integer dtype, and lists of ints, are fine
    env.step(list(np.argmax(env._info()["action_mask"], axis=1)))


@pytest.mark.parametrize("index", [3, -1, 99])
def test_python_state_of_an_env_that_is_not_there_is_refused(index: int) -> None:
    env = vector_env("touring", 3, seed=1)
    env.reset(seed=1)
    # before: -1 quietly gave env 2's game and 99 an IndexError from numpy
    with pytest.raises(ValueError, match=f"no env {index}: this batch has envs 0 to 2"):
        env.python_state(index)


def test_python_state_before_reset_says_reset() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        vector_env("touring", 2, seed=1).python_state(0)


@pytest.mark.parametrize("seed", [1.5, "1", True])
def test_a_seed_that_is_not_a_whole_number_is_refused(seed: object) -> None:
    # before: 1.5 was cast and played seed 1's games; "1" failed comparing int and str
    with pytest.raises(TypeError, match="the seed is a whole number"):
        vector_env("touring", 2).reset(seed=seed)  # type: ignore[arg-type]  # a careless caller
    # and when the batch is made, not only at its first reset (before, it was made)
    with pytest.raises(TypeError, match="the seed is a whole number"):
        vector_env("touring", 2, seed=seed)  # type: ignore[arg-type]  # a careless caller


def test_a_seed_out_of_range_is_refused_when_the_batch_is_made() -> None:
    with pytest.raises(ValueError, match=r"in \[0, 2\*\*62\)"):
        vector_env("touring", 2, seed=-1)
    assert vector_env("touring", 2, seed=np.int64(5)).reset()[1]["seed"].tolist() == [5, 6]


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.float32, np.float64])
def test_sample_actions_reads_masks_of_any_dtype_as_legal_where_nonzero(dtype: type) -> None:
    # before: an int64 mask was read byte by byte (legal action 1 came out as 8) and a float one
    # as having no legal action (-1 in every row)
    mask = np.zeros((6, 11), dtype=dtype)
    mask[np.arange(6), [1, 3, 10, 0, 5, 9]] = 1
    chosen = sample_actions(mask, np.random.default_rng(0))
    assert chosen.tolist() == [1, 3, 10, 0, 5, 9]


@pytest.mark.parametrize("width", [1, 7, 8, 9, 64, 278, 1000])
def test_sample_actions_picks_the_drawn_legal_action_in_index_order(width: int) -> None:
    # The compiled pick skips eight flags at a time as one word: it must still land on the
    # legal action numbered int(draw * count), as the plain reading below does, at any width.
    rng = np.random.default_rng(width)
    mask = rng.random((400, width)) < rng.random((400, 1))  # rows from empty to full
    mask[0] = False
    mask[1] = True
    draws = np.random.default_rng(7).random(400)
    expected = [
        int(np.flatnonzero(row)[int(draw * row.sum())]) if row.any() else -1
        for row, draw in zip(mask, draws, strict=True)
    ]
    assert sample_actions(mask, np.random.default_rng(7)).tolist() == expected


def test_sample_actions_refuses_a_one_dimensional_mask_and_a_seed_for_rng() -> None:
    # before: numba's TypingError "tuple index out of range", and "'int' object has no attribute 'random'"
    with pytest.raises(ValueError, match=r"num_envs × num_actions, not shape \(5,\)"):
        sample_actions(np.ones(5, dtype=bool), np.random.default_rng(0))
    with pytest.raises(TypeError, match=r"numpy\.random\.Generator"):
        sample_actions(np.ones((2, 5), dtype=bool), 0)  # type: ignore[arg-type]  # a careless caller


@pytest.mark.parametrize("copy", [True, False])
def test_writing_into_a_mask_handed_out_does_not_change_what_step_accepts(copy: bool) -> None:
    env = BatchEnv("mexican-train", 6, players=4, seed=2, copy=copy)
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(5):
        _, _, _, _, info = env.step(sample_actions(info["action_mask"], rng))
    mask = info["action_mask"]
    truth = mask.copy()
    illegal = int(np.flatnonzero(~truth[3])[0])
    legal = sample_actions(truth, rng)
    before = env.states.copy()
    mask[3, :] = True  # the caller's own scribbles: step checks its own copy of the masks
    mask[0, legal[0]] = False
    actions = legal.copy()
    actions[3] = illegal
    with pytest.raises(ValueError, match=f"action {illegal} is not legal in env 3"):
        env.step(actions)
    assert np.array_equal(env.states, before)
    _, _, _, _, info = env.step(legal)  # env 0's legal move is still taken
    assert not np.array_equal(env.states, before)
    if copy:
        assert info["action_mask"] is not mask and mask[3].all()  # the caller's array is left as they left it


def test_an_illegal_action_is_named_as_given() -> None:
    env = BatchEnv("touring", 2, seed=1)
    env.reset(seed=1)
    before = env.states.copy()
    # before: "action -9223372036854775803 is not legal", the int64 cast's wrap of 2**63 + 5
    with pytest.raises(ValueError, match=f"action {2**63 + 5} is not legal in env 0"):
        env.step(np.full(2, 2**63 + 5, dtype=np.uint64))
    assert np.array_equal(env.states, before)


def test_masks_handed_out_are_never_written_again() -> None:
    env = BatchEnv("touring", 8, players=3, seed=4)
    _, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    kept = [(info["action_mask"], info["action_mask"].copy())]
    for _ in range(30):
        _, _, _, _, info = env.step(sample_actions(info["action_mask"], rng))
        if len(kept) < 5:
            kept.append((info["action_mask"], info["action_mask"].copy()))
    assert all(np.array_equal(given, frozen) for given, frozen in kept)
    # once dropped, the env writes the next masks into the same few arrays (and checks their bits)
    kept.clear()
    seen = set()
    for _ in range(10):
        _, _, _, _, info = env.step(sample_actions(info["action_mask"], rng))
        seen.add(id(info["action_mask"]))
        legal = np.unpackbits(env.legal, axis=1, bitorder="little")[:, : env.mask.shape[1]]
        assert np.array_equal(legal.astype(bool), info["action_mask"])
    assert len(seen) <= 3 and len(env._pools["mask"]) <= 4

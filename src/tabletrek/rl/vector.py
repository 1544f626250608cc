"""Batches of games advanced by one compiled call: a Gymnasium ``VectorEnv`` for self-play.

>>> import numpy as np
>>> from tabletrek.rl import vector_env
>>> env = vector_env("touring", 8, players=2, seed=1)
>>> obs, info = env.reset(seed=1)
>>> obs.shape[0], info["action_mask"].shape
(8, (8, 85))
>>> actions = sample_actions(info["action_mask"], np.random.default_rng(0))
>>> obs, rewards, terminated, truncated, info = env.step(actions)

Every env plays one game of ``game`` with ``players`` seats and ``options`` (as
``tabletrek.load`` takes them); the caller chooses the move of whichever seat is to act in each
env (``info["seat"]``), which is self-play. After ``step``:

- ``rewards[i]`` is the return of the seat that just acted in env ``i`` when its game ended on
  that move, else 0;
- ``terminated[i]`` says the game ended on that move; ``info["returns"][i]`` then holds every
  seat's return (``Result.returns``; zeros in rows that did not end), and the env has already
  dealt its next game (Gymnasium's same-step autoreset: ``obs`` and ``info["action_mask"]`` are
  the new game's);
- ``truncated`` is always False: a game's turn limit is one of its rules (``max_turns``) and
  ends it as the Python rules do;
- ``info["seed"][i]`` is the seed of the game env ``i`` now plays: game ``k`` of env ``i`` after
  ``reset(seed=s)`` has seed ``s + i + k * num_envs``, so ``tabletrek.load(game, ...)
  .new_game(seed=...)`` replays it exactly, and ``python_state(i)`` hands the game in progress to
  the Python rules.

The rules are the games' compiled batch engines (``games/<game>/batch.py``, numba, extra
``[search]``); each plays move for move what the Python rules play (tests in ``tests/batch``).
Observations are float32 rows from the seat to act, in each engine's ``observation_layout``
(``games/<game>/batch_observation.py``: named fields, each with its range).
"""

from __future__ import annotations

import importlib
import os
import secrets
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

from tabletrek.core import batch_driver
from tabletrek.core.batch_driver import first_illegal, flag_word, flags_set
from tabletrek.core.game import Game
from tabletrek.core.mt19937 import HAVE_NUMBA, njit
from tabletrek.core.numeric import is_integral
from tabletrek.core.registry import load, specs
from tabletrek.core.state import State
from tabletrek.core.tensors import Layout
from tabletrek.core.threadsplit import even_slices, run_parts
from tabletrek.rl.table import no_reset_options

try:
    from gymnasium.vector import AutoresetMode

    SAME_STEP: Any = AutoresetMode.SAME_STEP
except ImportError:  # pragma: no cover - Gymnasium before 1.1 names the mode by its string
    SAME_STEP = "SameStep"

Obs = npt.NDArray[np.float32]

OUTPUTS = ("obs", "mask", "rewards", "done", "returns", "seats")
"""The env's arrays that every step writes in full (``core/batch_driver.py``), by attribute."""


def engines() -> dict[str, str]:
    """Games with a compiled batch engine (their spec names it), and its module."""
    return {name: s.batch for name, s in specs().items() if s.batch is not None}


ENGINES = engines()
"""The engines as the games registered when this module loaded (kept for existing callers)."""


def engine(game: str) -> ModuleType:
    table = engines()
    if game not in table:
        raise ValueError(f"{game} has no compiled batch engine; these do: {', '.join(sorted(table))}")
    if not HAVE_NUMBA:
        raise ImportError("the compiled batch engines need numba: pip install 'tabletrek[search]'")
    return importlib.import_module(table[game])


def checked_seed(seed: Any) -> int:
    """A batch's seed: a whole number in [0, 2**62), so that every env's ``seed + i`` fits."""
    if not is_integral(seed):
        # a float seed would be cast and 1.5 play seed 1's games
        raise TypeError(f"the seed is a whole number, not {seed!r}")
    if not 0 <= seed < 2**62:
        raise ValueError(f"the seed must be in [0, 2**62), not {seed}")
    return int(seed)


class BatchEnv(gym.vector.VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games of one kind; see the module docstring."""

    metadata: dict[str, Any] = {"autoreset_mode": SAME_STEP}  # noqa: RUF012 - Gymnasium's convention

    def __init__(
        self,
        game: str,
        num_envs: int,
        players: int | None = None,
        seed: int | None = None,
        copy: bool = True,
        threads: int = 1,
        **options: Any,
    ) -> None:
        if not is_integral(num_envs):
            raise TypeError(f"num_envs is a whole number of games, not {num_envs!r}")
        num_envs = int(num_envs)
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        if isinstance(threads, bool) or not is_integral(threads):
            raise TypeError(f"threads is a whole number of threads, not {threads!r}")
        if threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads}")
        self.rules: Game = load(game, players=players, **options)
        self.engine = engine(game)
        self.cfg = self.engine.config(self.rules)
        self.num_envs = num_envs
        self.copy = copy
        # Each thread steps one contiguous slice of the envs (no more threads than envs). The
        # compiled loops release the GIL, and every env's game depends on its own row, generator
        # and seed only, so the split changes how soon a step returns, never what it returns.
        self.threads = min(int(threads), num_envs)
        self._parts = even_slices(num_envs, self.threads)
        self._pool: ThreadPoolExecutor | None = None
        self._pool_pid = 0
        n_actions = self.rules.num_actions
        # The engine's observation fields and their ranges (games/<game>/batch_observation.py).
        self.observation_layout: Layout = self.engine.obs_layout(self.rules)
        size = self.observation_layout.size
        low, high = self.observation_layout.bounds()
        self.single_action_space = spaces.Discrete(n_actions)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        # An engine may keep its rows narrower than int32 (STATE_DTYPE): at thousands of envs the
        # rows outgrow the CPU's caches, and bytes moved, not instructions, then set the pace.
        row_type = getattr(self.engine, "STATE_DTYPE", np.int32)
        self.states = np.zeros((num_envs, self.engine.state_size(self.rules)), dtype=row_type)
        self.gens = np.zeros((num_envs, 625), dtype=np.uint32)
        self.seeds = np.zeros(num_envs, dtype=np.int64)
        self.next_seeds = np.zeros(num_envs, dtype=np.int64)
        self.obs = np.zeros((num_envs, size), dtype=np.float32)
        self.mask = np.zeros((num_envs, n_actions), dtype=np.bool_)
        # The masks as bits, which step checks actions against (core/batch_driver.py): the bool
        # masks may be the caller's, who may write into them.
        self.legal = np.zeros((num_envs, (n_actions + 7) // 8), dtype=np.uint8)
        self.rewards = np.zeros(num_envs, dtype=np.float32)
        self.done = np.zeros(num_envs, dtype=np.bool_)
        self.truncated = np.zeros(num_envs, dtype=np.bool_)
        self.returns = np.zeros((num_envs, self.rules.players), dtype=np.float32)
        self.seats = np.zeros(num_envs, dtype=np.int64)
        # With copies, the arrays each step writes in full, by attribute: arrays handed out
        # earlier, reused once the caller has let go of them (_spare).
        self._pools: dict[str, list[npt.NDArray[Any]]] = {name: [] for name in OUTPUTS}
        # The count of an array only a list holds, taken the way _spare takes it (the figure
        # differs between Python versions).
        probe = [np.empty(1, dtype=np.float32)]
        self._free_refs = sys.getrefcount(probe[0])
        # checked now, not at the first reset: vector_env("touring", 8, seed="x") was made
        self._seed = None if seed is None else checked_seed(seed)
        self._ready = False

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deals a fresh game in every env: env ``i`` gets seed ``seed + i``. Without a seed, the
        first reset takes the constructor's (or a random one) and later ones go on with seeds no
        env has played yet, so that resetting never replays a game."""
        no_reset_options(options, "vector_env(game, num_envs, rounds=1, ...)")
        if isinstance(seed, list):
            raise ValueError("give one seed for the batch: env i plays seed + i")
        base = seed
        if base is None:
            base = int(self.next_seeds.max()) if self._ready else self._seed
        if base is None:
            base = secrets.randbits(40)
        base = checked_seed(base)
        n = self.num_envs
        self.seeds[:] = base + np.arange(n, dtype=np.int64)
        self.next_seeds[:] = self.seeds + n
        if self.copy:  # the last arrays handed out stay the caller's
            self.obs, self.mask, self.seats = (self._spare(name) for name in ("obs", "mask", "seats"))
            self.done = np.zeros_like(self.done)
        else:
            self.done[:] = False

        split = self._split_loops()
        if split is None:
            self._in_parts(lambda p: self.engine.reset_batch(*self._reset_args(p)))
        else:
            split[1](*self._reset_args(slice(None)), self.threads)
            batch_driver.launched_split_loops()
        self._ready = True
        return self.obs, self._info()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[Obs, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        """Every env's seat to act plays its entry of ``actions`` (``num_envs`` integer indices,
        legal under ``info["action_mask"]``); returns ``(obs, rewards, terminated, truncated,
        info)`` as docs/vector.md describes, a finished game already replaced by the next. An
        illegal action anywhere raises ``ValueError`` naming the env, and nothing is played."""
        if not self._ready:
            self.reset()
        given = np.asarray(actions)
        if given.shape != (self.num_envs,):
            raise ValueError(f"step wants {self.num_envs} actions, one per env, not shape {given.shape}")
        if given.dtype.kind not in "iu":
            # a cast would truncate 2.7 to move 2 and play it without a word
            raise TypeError(f"step wants integer action indices, not an array of {given.dtype}")
        chosen = given.astype(np.int64, copy=False)
        # The engine writes every row of these outputs, so with copies it may write straight into
        # arrays the caller will own instead of into ours and then copying them.
        if self.copy:
            obs, mask, rewards, done, returns, seats = (self._spare(name) for name in OUTPUTS)
        else:
            obs, mask, rewards, done, returns, seats = (getattr(self, name) for name in OUTPUTS)
        outputs = (obs, mask, rewards, done, returns, seats)
        if self.threads == 1:  # the one call checks every action before it plays any
            bad = self.engine.step_batch(*self._step_args(chosen, outputs, None))
        elif (split := self._split_loops()) is not None:  # numba's threads; all checked first too
            bad = split[0](*self._step_args(chosen, outputs, None), self.threads)
            batch_driver.launched_split_loops()
        else:  # all checked first, so that an illegal action in one slice leaves the others unplayed
            bad = first_illegal(chosen, self.legal, mask.shape[1])
            if bad < 0:
                found = self._in_parts(lambda p: self.engine.step_batch(*self._step_args(chosen, outputs, p)))
                bad = next((p.start + at for p, at in zip(self._parts, found, strict=True) if at >= 0), -1)
        if bad >= 0:
            # ``given``'s value, not the int64 cast's: a uint64 above 2**63 wraps to a negative number
            raise ValueError(f"action {int(given[bad])} is not legal in env {bad}; nothing was played")
        self.obs, self.mask, self.rewards, self.done, self.returns, self.seats = (
            obs,
            mask,
            rewards,
            done,
            returns,
            seats,
        )
        info = self._info()
        info["returns"] = self.returns
        return self.obs, self.rewards, self.done, self._out(self.truncated), info

    def _step_args(
        self, chosen: npt.NDArray[np.int64], outputs: tuple[npt.NDArray[Any], ...], part: slice | None
    ) -> tuple[Any, ...]:
        """The engine's ``step_batch`` arguments for the envs of ``part`` (every env when None,
        without making views: a step of a few envs is short enough for that to show). The split
        loops take the same, and the number of slices."""
        obs, mask, rewards, done, returns, seats = outputs
        rows: tuple[npt.NDArray[Any], ...] = (
            self.states,
            self.gens,
            chosen,
            self.seeds,
            self.next_seeds,
            self.legal,
        )
        if part is not None:
            rows = tuple(a[part] for a in rows)
            obs, mask, rewards, done, returns, seats = (a[part] for a in outputs)
        states, gens, actions, seeds, next_seeds, legal = rows
        return (
            states,
            gens,
            self.cfg,
            actions,
            seeds,
            next_seeds,
            self.num_envs,  # how far an env's next seed moves on each game
            obs,
            mask,
            legal,
            rewards,
            done,
            returns,
            seats,
        )

    def _reset_args(self, part: slice) -> tuple[Any, ...]:
        """The engine's ``reset_batch`` arguments for the envs of ``part``."""
        return (
            self.states[part],
            self.gens[part],
            self.cfg,
            self.seeds[part],
            self.obs[part],
            self.mask[part],
            self.legal[part],
            self.seats[part],
        )

    @property
    def threading(self) -> str:
        """How the slices run now: "one thread", "numba threads (omp layer)" (or another layer
        numba chose), or "Python threads" (``docs/vector.md``, "Threads")."""
        if self.threads == 1:
            return "one thread"
        if not batch_driver.numba_threads_usable():
            return "Python threads"
        layer = batch_driver.split_layer()
        return f"numba threads ({layer} layer)" if layer else "numba threads"

    def _split_loops(self) -> tuple[Callable[..., int], Callable[..., None]] | None:
        """The engine's loops split over numba's threads, or None: one thread, or where numba's
        may not run (then one Python thread a slice)."""
        if self.threads == 1 or not batch_driver.numba_threads_usable():
            return None
        return batch_driver.bind_parallel(vars(self.engine))

    def _in_parts(self, run: Callable[[slice], Any]) -> list[Any]:
        """``run`` of each slice of the envs, in order."""
        if self.threads == 1:
            return [run(self._parts[0])]
        if self._pool is None or self._pool_pid != os.getpid():
            # A pool inherited through fork has no threads behind it: the child makes its own.
            self._pool = ThreadPoolExecutor(self.threads - 1, thread_name_prefix="tabletrek-vector")
            self._pool_pid = os.getpid()
        return run_parts(self._pool, run, self._parts)

    def close_extras(self, **kwargs: Any) -> None:
        """Stops the threads of a batch made with ``threads`` > 1."""
        if self._pool is not None and self._pool_pid == os.getpid():
            self._pool.shutdown()
        self._pool = None

    def _spare(self, name: str) -> npt.NDArray[Any]:
        """An array for output ``name`` (one of ``OUTPUTS``) that nobody outside holds any more
        (no reference, no view: only its pool's and the call's), or a new one: what the caller
        got is never written again, as with a copy, without copying or allocating each step. The
        last one handed out is never spare: the attribute ``name`` holds it."""
        pool = self._pools[name]
        for i in range(len(pool)):
            if sys.getrefcount(pool[i]) <= self._free_refs:
                return pool[i]
        spare: npt.NDArray[Any] = np.empty_like(getattr(self, name))
        if len(pool) < 4:
            pool.append(spare)
        return spare

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array

    def _info(self) -> dict[str, Any]:
        return {
            # with copies, already arrays of the caller's (written by the last step or reset)
            "action_mask": self.mask,
            "seat": self.seats,
            "seed": self._out(self.seeds),
        }

    def python_state(self, index: int) -> State:
        """Env ``index``'s game in progress as a Python state (see the engine for what it omits)."""
        if not is_integral(index):
            raise TypeError(f"an env index is a whole number, not {index!r}")
        if not 0 <= index < self.num_envs:  # a negative index would silently mean another env
            raise ValueError(f"no env {index}: this batch has envs 0 to {self.num_envs - 1}")
        if not self._ready:
            raise RuntimeError("no game dealt yet: call reset() first")
        state: State = self.engine.to_python_state(
            self.rules, self.states[index], self.gens[index], int(self.seeds[index])
        )
        return state


def vector_env(
    game: str,
    num_envs: int,
    players: int | None = None,
    seed: int | None = None,
    copy: bool = True,
    threads: int = 1,
    **options: Any,
) -> BatchEnv:
    """``num_envs`` compiled games of ``game`` (Touring, Mexican Train or Double Crossing) behind
    Gymnasium's ``VectorEnv`` API. ``players`` and ``options`` (keywords, e.g. ``rounds=1``)
    choose the game as ``tabletrek.load`` does; ``seed`` is the first ``reset``'s when it is
    given none (env ``i`` plays ``seed + i``); ``copy=False`` hands out the env's own buffers;
    ``threads`` steps that many slices of the envs at once (the same results as one thread).
    Needs numba (the ``[search]`` extra); see docs/vector.md."""
    return BatchEnv(game, num_envs, players=players, seed=seed, copy=copy, threads=threads, **options)


@njit
def _sample(mask: np.ndarray, draws: np.ndarray, out: np.ndarray) -> None:
    """Row ``i``'s legal action number ``int(draws[i] * legal count)`` in index order (-1 in a
    row with none, which ``step`` then refuses)."""
    width = mask.shape[1]
    flags = mask.view(np.uint8)  # 0 or 1 each: sums count legal actions
    for i in range(mask.shape[0]):
        row = flags[i]
        n = 0
        for a in range(width):  # a plain sum, which the compiler vectorises
            n += row[a]
        if n == 0:
            out[i] = -1
            continue
        k = int(draws[i] * n)
        # Skip eight actions at a time (one word each) while the k-th legal one lies beyond them,
        # then walk.
        a = 0
        while a + 8 <= width:
            block = flags_set(flag_word(row, a))
            if k < block:
                break
            k -= block
            a += 8
        while row[a] == 0 or k > 0:
            k -= row[a]
            a += 1
        out[i] = a


def sample_actions(mask: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One legal action per row of ``mask`` (``num_envs × num_actions``, true or nonzero where
    legal), uniformly at random, -1 in a row with none (compiled: a random agent that does not
    dominate the time it measures). ``rng`` is a ``numpy.random.Generator``."""
    mask = np.asarray(mask)
    if mask.ndim != 2:
        raise ValueError(f"the mask has one row per env, num_envs × num_actions, not shape {mask.shape}")
    if mask.dtype != np.bool_:
        # the compiled loop counts bytes that are 0 or 1: an int64 mask was read byte by byte
        # (action 1 came out as 8) and a float one as all illegal
        mask = mask != 0
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng is a numpy.random.Generator (numpy.random.default_rng(seed)), not {rng!r}")
    out = np.zeros(mask.shape[0], dtype=np.int64)
    _sample(mask, np.asarray(rng.random(mask.shape[0]), dtype=np.float64), out)
    return out

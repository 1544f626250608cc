"""One driver for every compiled batch engine (``games/*/batch.py``): the reset and step loops of
the vector environment (``rl/vector.py``), with automatic reset, written once.

An engine defines its rules for the driver as six compiled functions under fixed names. Three are
the engine's own, alike in every engine: ``deal(row, generator, config, seed)`` (a fresh game, as
``new_game(seed)`` deals it), ``observe(row, config, out)`` (the seat to act's observation) and
``returns(row, config, out)`` (each seat's return of a finished game). Three are adapters, since
engines differ in what they need: ``_apply(row, generator, config, action, scratch)`` (the seat
to act plays the action), ``_mask(row, config, mask, scratch)`` (which actions are legal) and
``_seat(row, config)`` (the seat to act, -1 once the game is over). Then
``step_batch, reset_batch = batch_driver.bind(globals())``.

``bind`` compiles the loops below against the engine's own namespace: the same code, its names
resolved to that engine's functions, so numba compiles one specialised loop per engine and can
inline the rules into it (the engines mark them ``njit_inline``, ``core/mt19937.py``: left to LLVM,
the larger ones stayed calls, each taking and dropping a reference to every array it is handed,
about a sixth of Touring's instructions per step). Not a closure (numba cannot cache those:
``cache=True``), and not the rules passed in as first-class functions: those calls cannot be
inlined, and every array handed through one is reference-counted, which cost a quarter to a third
of Touring's steps a second (``docs/notes/vector-benchmarks.md``). Each bound loop is named after
its engine's module, so each has its own numba cache index. numba checks that index against this
file only, not the engine's: ``core/compiled_cache.py`` clears the cache when any compiled module
changes.

Array types: state rows int32 (or the engine's ``STATE_DTYPE``, which ``rl/vector.py``
allocates), generators uint32 (``core/mt19937.py``), config int64, masks bool, observations,
rewards and returns float32; the scratch row (int64, as long as the action count) is lent to the
functions that need room to list moves.

Legality is checked against ``legal``, the driver's own copy of each mask as bits (uint8, eight
actions a byte, action ``a`` at bit ``a & 7`` of byte ``a >> 3``), packed while the mask row just
written is still in the L1 cache. So the bool ``mask`` may be an array handed to the caller (the
copying API writes it straight into one, as it does the observations): what the caller does with
it cannot change which moves ``step`` accepts, and no bool copy of the mask is read or written
(at 4,096 Mexican Train envs a mask row is 278 bytes, its bits 35).

The loops hand the rules each env's rows as ``row(array, i)``, views that hold no reference
count of their own: numba counts references to a view ``array[i]`` with atomic instructions,
about a dozen an env-step, and doing without them made every engine's step a quarter to a third
faster on an Intel host (``docs/notes/vector-benchmarks.md``, wave 54).

``bind_parallel`` compiles the same loops a second time, split into slices that numba's own
threads step at once (``vector_env(..., threads=N)``), and ``numba_threads_usable`` says when
they may be used; otherwise the vector env runs the slices on Python threads.
"""

from __future__ import annotations

import os
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from tabletrek.core.batch_primitives import row
from tabletrek.core.mt19937 import njit, njit_inline

# The engine's rules: the loops below call them by these names, which ``bind`` resolves in each
# engine's namespace. Declared (not defined) here for the type checker; for the same reason ruff's
# undefined-name check (F821) is off for this file (pyproject.toml).
_apply: Callable[..., None]
deal: Callable[..., None]
_mask: Callable[..., None]
observe: Callable[..., None]
returns: Callable[..., None]
_seat: Callable[..., int]
# The bound loops, which the split ones call on each slice, and numba's parallel range.
step_batch: Callable[..., int]
reset_batch: Callable[..., None]
prange: Callable[[int], range]


PACK = np.uint64(0x0102040810204080)
ONES = np.uint64(0x0101010101010101)


@njit_inline
def flag_word(flags: np.ndarray, a: int) -> np.uint64:
    """Flags ``a`` to ``a + 7`` (bytes 0 or 1) as one word, flag k in byte k (the compiler makes
    the eight reads one load)."""
    return (
        np.uint64(flags[a])
        | np.uint64(flags[a + 1]) << np.uint64(8)
        | np.uint64(flags[a + 2]) << np.uint64(16)
        | np.uint64(flags[a + 3]) << np.uint64(24)
        | np.uint64(flags[a + 4]) << np.uint64(32)
        | np.uint64(flags[a + 5]) << np.uint64(40)
        | np.uint64(flags[a + 6]) << np.uint64(48)
        | np.uint64(flags[a + 7]) << np.uint64(56)
    )


@njit_inline
def flags_set(word: np.uint64) -> int:
    """How many of a ``flag_word``'s eight flags are 1: times ONES, the top byte is the sum of
    the eight bytes (at most 8, so no byte carries into the next)."""
    return int((word * ONES) >> np.uint64(56))


@njit_inline
def _pack_legal(flags: np.ndarray, bits: np.ndarray) -> None:
    """``bits`` = the mask row ``flags`` (bytes 0 or 1) as bits, eight actions a byte."""
    width = flags.shape[0]
    full = width // 8
    # Times PACK, flag k of a word lands on bit 56 + k and no two of the products share a bit
    # (each flag is 0 or 1), so the top byte holds the eight. About 100 instructions for 278
    # actions under valgrind, fewer than a plain bool copy of the row (240).
    for k in range(full):
        bits[k] = np.uint8((flag_word(flags, 8 * k) * PACK) >> np.uint64(56))
    if full < bits.shape[0]:
        last = 0
        for a in range(8 * full, width):
            last |= flags[a] << (a - 8 * full)
        bits[full] = last


@njit_inline
def first_illegal(actions: np.ndarray, legal: np.ndarray, width: int) -> int:
    """The first env whose action ``legal`` (the bits of its last mask) refuses, or -1. The
    vector env runs it over the whole batch before its threads step their slices, so that an
    illegal action anywhere still leaves every env unplayed."""
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= width or ((legal[i, a >> 3] >> (a & 7)) & 1) == 0:
            return i
    return -1


def _step_batch(
    states: np.ndarray,
    gens: np.ndarray,
    cfg: np.ndarray,
    actions: np.ndarray,
    seeds: np.ndarray,
    next_seeds: np.ndarray,
    stride: int,
    obs: np.ndarray,
    mask: np.ndarray,
    legal: np.ndarray,
    rewards: np.ndarray,
    done: np.ndarray,
    final: np.ndarray,
    seats: np.ndarray,
) -> int:
    """Every env's seat to act plays its action, if ``legal`` (the bits of the last masks)
    allows it; a finished game's returns go to ``final``, its actor's to ``rewards``, and the env
    deals its next game (seed ``next_seeds[i]``, which then moves on by ``stride``); each env's
    next mask goes to ``mask`` and ``legal``, its seat to act to ``seats``. Every row of
    ``obs``, ``mask``, ``rewards``, ``done``, ``final`` and ``seats`` is written and none is
    read, so they may be fresh arrays for the caller. Returns -1, or the first env whose action
    is illegal (then nothing has changed, the outputs included)."""
    n = states.shape[0]
    width = mask.shape[1]
    bad = first_illegal(actions, legal, width)
    if bad >= 0:
        return bad
    scratch = np.zeros(max(width, 1), dtype=np.int64)
    flags = mask.view(np.uint8)
    for i in range(n):
        s = row(states, i)
        g = row(gens, i)
        # From the row, not from ``seats``: that may be an array the caller now owns.
        actor = _seat(s, cfg)
        _apply(s, g, cfg, actions[i], scratch)
        if _seat(s, cfg) < 0:
            returns(s, cfg, row(final, i))
            rewards[i] = final[i, actor]
            done[i] = True
            seeds[i] = next_seeds[i]
            next_seeds[i] += stride
            deal(s, g, cfg, seeds[i])
        else:
            rewards[i] = 0.0
            done[i] = False
            for p in range(final.shape[1]):
                final[i, p] = 0.0
        _mask(s, cfg, row(mask, i), scratch)
        _pack_legal(row(flags, i), row(legal, i))
        observe(s, cfg, row(obs, i))
        seats[i] = _seat(s, cfg)
    return -1


def _reset_batch(
    states: np.ndarray,
    gens: np.ndarray,
    cfg: np.ndarray,
    seeds: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    legal: np.ndarray,
    seats: np.ndarray,
) -> None:
    """Deals env ``i`` the game of ``seeds[i]``; its mask (and its bits, ``legal``),
    observation and seat to act."""
    scratch = np.zeros(max(mask.shape[1], 1), dtype=np.int64)
    flags = mask.view(np.uint8)
    for i in range(states.shape[0]):
        s = row(states, i)
        deal(s, row(gens, i), cfg, seeds[i])
        _mask(s, cfg, row(mask, i), scratch)
        _pack_legal(row(flags, i), row(legal, i))
        observe(s, cfg, row(obs, i))
        seats[i] = _seat(s, cfg)


def _step_parts(
    states: np.ndarray,
    gens: np.ndarray,
    cfg: np.ndarray,
    actions: np.ndarray,
    seeds: np.ndarray,
    next_seeds: np.ndarray,
    stride: int,
    obs: np.ndarray,
    mask: np.ndarray,
    legal: np.ndarray,
    rewards: np.ndarray,
    done: np.ndarray,
    final: np.ndarray,
    seats: np.ndarray,
    parts: int,
) -> int:
    """``step_batch`` over ``parts`` contiguous slices of the envs, the slices on numba's threads
    at once. Every action is checked first, so an illegal one anywhere still leaves every env
    unplayed; each slice's own check then finds nothing."""
    n = states.shape[0]
    bad = first_illegal(actions, legal, mask.shape[1])
    if bad >= 0:
        return bad
    for k in prange(parts):
        a = k * n // parts
        b = (k + 1) * n // parts
        step_batch(
            states[a:b],
            gens[a:b],
            cfg,
            actions[a:b],
            seeds[a:b],
            next_seeds[a:b],
            stride,
            obs[a:b],
            mask[a:b],
            legal[a:b],
            rewards[a:b],
            done[a:b],
            final[a:b],
            seats[a:b],
        )
    return -1


def _reset_parts(
    states: np.ndarray,
    gens: np.ndarray,
    cfg: np.ndarray,
    seeds: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    legal: np.ndarray,
    seats: np.ndarray,
    parts: int,
) -> None:
    """``reset_batch`` over ``parts`` contiguous slices of the envs, on numba's threads."""
    n = states.shape[0]
    for k in prange(parts):
        a = k * n // parts
        b = (k + 1) * n // parts
        reset_batch(states[a:b], gens[a:b], cfg, seeds[a:b], obs[a:b], mask[a:b], legal[a:b], seats[a:b])


RULES = ("_apply", "deal", "_mask", "observe", "returns", "_seat")


def bind(namespace: dict[str, Any]) -> tuple[Callable[..., int], Callable[..., None]]:
    """``(step_batch, reset_batch)`` compiled against an engine module's namespace (its
    ``globals()``, which must define ``RULES``)."""
    missing = [name for name in RULES if name not in namespace]
    if missing:
        raise TypeError(f"{namespace.get('__name__')} lacks the driver's {', '.join(missing)}")
    return bind_loop(_step_batch, namespace), bind_loop(_reset_batch, namespace)


def _numba() -> Any:
    import numba  # noqa: PLC0415 - the [search] extra, present wherever a batch engine runs

    return numba


_split: dict[str, tuple[Callable[..., int], Callable[..., None]]] = {}


def bind_parallel(namespace: dict[str, Any]) -> tuple[Callable[..., int], Callable[..., None]]:
    """``(step_parts, reset_parts)`` for an engine module's namespace (its ``globals()``, after
    ``bind``): its loops split into slices on numba's threads. Compiled on first use, once per
    engine and process (and cached on disk as the other loops are)."""
    module = namespace["__name__"]
    if module not in _split:
        numba = _numba()
        compile_split = numba.njit(cache=True, nogil=True, parallel=True)
        extra = {"prange": numba.prange}
        _split[module] = (
            bind_loop(_step_parts, namespace, compile_split, extra),
            bind_loop(_reset_parts, namespace, compile_split, extra),
        )
    return _split[module]


_numba_threads = {"pid": 0, "refused": False, "layer_known": False}


def numba_threads_usable() -> bool:
    """Whether the split loops may run in this process. Not when numba has one thread (the
    ``NUMBA_NUM_THREADS`` the one-core benchmarks set), not in a process forked from one that
    has started numba's threads (the GNU OpenMP layer ends such a child when it starts a parallel
    loop), and not on numba's ``workqueue`` layer, which wakes its threads more slowly than
    Python does and ends the process if two threads start loops at once (``docs/vector.md``,
    "Threads")."""
    pid = _numba_threads["pid"]
    if _numba_threads["refused"] or pid not in (0, os.getpid()):
        return False
    # Asking numba for its thread count starts its threads: from here on, a child forked from
    # this process must leave them alone.
    _numba_threads["pid"] = os.getpid()
    return bool(_numba().get_num_threads() > 1)


def launched_split_loops() -> None:
    """Called after the split loops ran: refuses the layer numba chose if it is ``workqueue``
    (numba names its layer only once a parallel loop has run)."""
    if not _numba_threads["layer_known"]:
        _numba_threads["layer_known"] = True
        _numba_threads["refused"] = _numba().threading_layer() == "workqueue"


def split_layer() -> str | None:
    """numba's threading layer, once this process has run the split loops (else None)."""
    if not _numba_threads["layer_known"] or _numba_threads["pid"] != os.getpid():
        return None
    return str(_numba().threading_layer())


def bind_loop(
    template: Callable[..., Any],
    namespace: dict[str, Any],
    compile_with: Callable[[Callable[..., Any]], Any] = njit,
    extra: dict[str, Any] | None = None,
) -> Callable[..., Any]:
    """``template`` compiled (by ``compile_with``) with its global names resolved in
    ``namespace`` (an engine module's) and ``extra``, so the engine's rules are inlined into it."""
    module = namespace["__name__"]
    # The driver's own helpers join the engine's names (a copy: the engine's module is left alone).
    names = {**namespace, "_pack_legal": _pack_legal, "first_illegal": first_illegal, "PACK": PACK}
    names["row"] = row  # each env's rows, without reference counts (batch_primitives.py)
    names.update(extra or {})
    fn = types.FunctionType(template.__code__, names, template.__name__)
    # numba names a cache index after the source file and the qualified name: one per engine, or
    # the engines (alike in their argument types) would load each other's loops.
    fn.__qualname__ = f"{template.__name__}_{module.replace('.', '_')}"
    fn.__module__ = module
    fn.__doc__ = template.__doc__
    fn.__annotations__ = dict(template.__annotations__)
    compiled: Callable[..., Any] = compile_with(fn)
    return compiled

"""OpenSpiel Python games wrapping tabletrek games through the core contract, with explicit chance.

Every random draw a game makes goes through ``random.Random._randbelow(n)`` (its shuffles, dice
and samples), so each draw is exposed as an OpenSpiel chance node with ``n`` equally likely
outcomes (``EXPLICIT_STOCHASTIC``): a move that needs chance is held while the draws it asks for
are supplied one by one, then carried out with exactly those draws. The deal (the game's start)
is chance the same way. Nothing else about the game changes: the same seed-free rules, the same
legal moves, the same results; OpenSpiel's chance-aware algorithms (MCCFR, ISMCTS, expected-value
policy evaluation) then see the true chance structure.

Actions are the finite action space of :mod:`tabletrek.rl.tensors` (the moves that exist for the
player count, numbered ``0..n-1``); chance outcomes are ``0..max_chance_outcomes-1``.
Observation and information-state tensors are the documented layouts (``docs/observations.md``).
"""

from __future__ import annotations

import inspect
import json
import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]  # a C++ extension, untyped; absent without the [openspiel] extra

from tabletrek.core.actions import Action
from tabletrek.core.game import Game
from tabletrek.core.registry import games, load, load_with, spec
from tabletrek.core.rng import make_rng
from tabletrek.core.spec import Information
from tabletrek.core.state import State
from tabletrek.rl.tensors import (
    add_counts,
    codec_for,
    encode_view,
    information_state_layout,
    observation_layout,
    observation_module,
)


class NeedDraw(Exception):
    """A move asked for a random draw that has not been supplied yet."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.n = n


class ScriptedRandom(random.Random):
    """Answers ``_randbelow`` from supplied draws, then raises :class:`NeedDraw`. Every other
    source of randomness (floats, raw bits) is refused, so no hidden chance slips past."""

    def __init__(self, draws: list[int]) -> None:
        super().__init__(0)
        self.draws = draws
        self.used = 0

    def _randbelow(self, n: int) -> int:
        if n <= 1:
            return 0  # one outcome is no chance at all
        if self.used < len(self.draws):
            k = self.draws[self.used]
            self.used += 1
            if not 0 <= k < n:
                raise ValueError(f"chance outcome {k} is out of range for a draw of {n}")
            return k
        raise NeedDraw(n)

    def random(self) -> float:
        raise TypeError("this game draws a float at random: it cannot have explicit chance nodes")

    def getrandbits(self, k: int) -> int:
        raise TypeError("this game draws raw bits at random: it cannot have explicit chance nodes")


_start_lock = threading.Lock()


@contextmanager
def scripted_start(game: Game, rng: ScriptedRandom) -> Iterator[None]:
    """Make the game's ``_start`` deal from ``rng``: it builds its generator with its module's
    ``make_rng``, which is swapped for the duration (under a lock)."""
    module = inspect.getmodule(type(game)._start)
    if module is None or not callable(getattr(module, "make_rng", None)):
        raise TypeError(f"{game.name} does not build its generator with make_rng: no explicit chance")
    with _start_lock:
        original = module.make_rng
        module.make_rng = lambda seed: rng  # type: ignore[attr-defined]  # checked just above, at run time
        try:
            yield
        finally:
            module.make_rng = original  # type: ignore[attr-defined]  # checked above, at run time


def os_name(game: str) -> str:
    return f"python_tabletrek_{game.replace('-', '_')}"


def parse_options(text: str) -> dict[str, Any]:
    """Rule options as a JSON object, or as ``key:value`` pairs separated by spaces (values read
    as JSON, else as text). The second form has no commas, so it survives OpenSpiel's game-string
    serialization (``pyspiel.serialize_game_and_state``) with more than one option."""
    text = text.strip()
    if not text:
        return {}
    if text.startswith("{") or text.startswith("["):
        try:
            options = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"the 'options' parameter is not valid JSON ({exc}): {text!r}") from None
        if not isinstance(options, dict):
            raise ValueError("the 'options' parameter must be a JSON object, e.g. '{\"rounds\": 1}'")
        return options
    out: dict[str, Any] = {}
    for pair in text.split():
        key, sep, value = pair.partition(":")
        if not sep or not key:
            raise ValueError(f"an option is key:value, not {pair!r}")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


class Core:
    """Everything a state holds. OpenSpiel clones a Python state by deep-copying its attributes;
    this copies ours with the exact, cheaper ``State.clone`` and shares the Game."""

    def __init__(self, game: TabletrekOSGame) -> None:
        self.os_game = game
        self.inner_: State | None = None
        self.held: Action | None = None  # a move waiting for its draws (None: the deal)
        self.held_seat = -1
        self.draws: list[int] = []
        self.need = 0
        self.moves: list[tuple[int, Action]] = []
        self.truncated = False

    def __deepcopy__(self, memo: dict[int, Any]) -> Core:
        other = Core(self.os_game)
        other.inner_ = None if self.inner_ is None else self.inner_.clone()
        other.held, other.held_seat = self.held, self.held_seat
        other.draws, other.need = list(self.draws), self.need
        other.moves = list(self.moves)
        other.truncated = self.truncated
        return other

    def attempt(self) -> None:
        """Carry out the held move (or the deal) with the draws supplied so far, or find how many
        outcomes the next draw has."""
        rng = ScriptedRandom(self.draws)
        try:
            if self.inner_ is None:
                with scripted_start(self.os_game.inner, rng):
                    state = self.os_game.inner.new_game(seed=0)
            else:
                assert self.held is not None
                state = self.inner_.clone()
                state.rng = rng
                state.apply(self.held)
        except NeedDraw as draw:
            if draw.n > self.os_game.max_chance:
                raise RuntimeError(
                    f"{self.os_game.inner.name} drew among {draw.n} outcomes, more than its declared "
                    f"bound of {self.os_game.max_chance}"
                ) from None
            self.need = draw.n
            return
        # The tabletrek state keeps a generator of its own; it is never used here, since every
        # later move runs on a scripted one.
        state.rng = make_rng(0)
        if self.held is not None:
            self.moves.append((self.held_seat, self.held))
        self.inner_, self.held, self.draws, self.need = state, None, [], 0
        if not state.is_over and len(self.moves) >= self.os_game.max_length:
            self.truncated = True

    def to_json(self) -> str:
        """Everything needed to rebuild this state: the tabletrek state, the held move and its
        draws, and who made each move (for the information state)."""
        return json.dumps(
            {
                "inner": None if self.inner_ is None else self.inner_.to_json(),
                "held": None if self.held is None else self.held.text,
                "held_seat": self.held_seat,
                "draws": self.draws,
                "moves": [[s, a.text] for s, a in self.moves],
                "truncated": self.truncated,
            },
            separators=(",", ":"),
            ensure_ascii=False,
        )

    def __reduce__(self) -> tuple[Callable[..., Core], tuple[str, dict[str, Any], str]]:
        # OpenSpiel serializes a Python state by pickling its attributes: this one travels as
        # its JSON (the tabletrek state's own exact round trip) and the game's parameters.
        return rebuild_core, (self.os_game.game_name, self.os_game.params, self.to_json())


class TabletrekOSState(pyspiel.State):  # type: ignore[misc]  # pyspiel is untyped (Any)
    """One game in progress. ``inner`` is the tabletrek State once dealt (None during the deal);
    while ``need`` > 0 the state is a chance node for the move held in ``held``."""

    def __init__(self, game: TabletrekOSGame) -> None:
        super().__init__(game)
        self.c = Core(game)
        self.c.attempt()

    # ----- chance ---------------------------------------------------------------------------------

    @property
    def inner(self) -> State:
        if self.c.inner_ is None:
            raise RuntimeError("the deal is still being drawn")
        return self.c.inner_

    def is_chance_node(self) -> bool:
        return self.c.need > 0

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.c.need > 0, "not a chance node"
        p = 1.0 / self.c.need
        return [(k, p) for k in range(self.c.need)]

    # ----- the OpenSpiel State API ----------------------------------------------------------------

    def current_player(self) -> int:
        if self.c.need > 0:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        seat = self.inner.current_player
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        if self.c.need > 0 or self.is_terminal() or player != self.inner.current_player:
            return []
        return [int(i) for i in np.flatnonzero(self.c.os_game.codec.mask(self.inner))]

    def _apply_action(self, action: int) -> None:
        # Checked before anything changes: a refused action must leave the state as it was (an
        # out-of-range chance outcome used to leave a state that was neither a chance node nor dealt).
        if self.c.need > 0:
            if not 0 <= action < self.c.need:
                raise pyspiel.SpielError(
                    f"chance outcome {action} is out of range: this draw has {self.c.need}"
                )
            self.c.draws.append(int(action))
            self.c.need = 0
            self.c.attempt()
            return
        seat = self.inner.current_player
        assert seat is not None
        try:
            move = self.c.os_game.codec.action(self.inner, int(action))
        except ValueError as exc:  # an index outside the action space
            raise pyspiel.SpielError(str(exc)) from None
        if move not in self.inner.legal_actions():
            raise pyspiel.SpielError(f"{move.text!r} is not legal now")
        self.c.held = move
        self.c.held_seat = seat
        self.c.draws = []
        self.c.attempt()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {action} of {self.c.need}"
        return self.c.os_game.codec.label(int(action))

    def is_terminal(self) -> bool:
        return self.c.need == 0 and self.c.inner_ is not None and (self.c.inner_.is_over or self.c.truncated)

    def returns(self) -> list[float]:
        state = self.c.inner_
        result = None if state is None else state.result
        if result is None:  # unfinished, or ended by the length cap: a draw
            return [0.0] * self.c.os_game.inner.players
        return [float(r) for r in result.returns]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TabletrekOSState:
        """A state ``player_id`` cannot tell from this one (our ``determinize``), at a decision."""
        rng = random.Random(int(probability_sampler() * 2**53))
        other: TabletrekOSState = self.clone()
        other.c.inner_ = self.inner.determinize(player_id, rng)
        other.c.inner_.rng = make_rng(0)
        return other

    def __str__(self) -> str:
        if self.c.inner_ is None:
            return f"dealing ({len(self.c.draws)} draws)"
        view = json.dumps(self.c.inner_.public_view(), sort_keys=True, ensure_ascii=False)
        held = f"|holding {self.c.held.text} after {self.c.draws}" if self.c.held is not None else ""
        return view + held

    # ----- copies and serialization ---------------------------------------------------------------

    def to_json(self) -> str:
        """Everything needed to rebuild this state (see :meth:`Core.to_json`)."""
        return self.c.to_json()


def rebuild_game(game: str, params: dict[str, Any]) -> TabletrekOSGame:
    loaded: TabletrekOSGame = pyspiel.load_game(register(game), params)
    return loaded


def rebuild_core(game: str, params: dict[str, Any], data: str) -> Core:
    return rebuild_game(game, params).core_from_json(data)


class Observer:
    """OpenSpiel's PyObserver: the documented observation tensor, or with ``perfect_recall``
    the information-state tensor (the observation plus each seat's action counts)."""

    def __init__(self, game: TabletrekOSGame, iig_obs_type: Any, params: Any = None) -> None:
        self.game = game
        self.perfect_recall = bool(getattr(iig_obs_type, "perfect_recall", False)) if iig_obs_type else False
        inner = game.inner
        self.layout = information_state_layout(inner) if self.perfect_recall else observation_layout(inner)
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = {f.name: self.layout.view(self.tensor, f.name) for f in self.layout.fields}

    def set_from(self, state: TabletrekOSState, player: int) -> None:
        self.tensor[:] = 0
        if state.c.inner_ is None:
            return  # still dealing: nothing is known yet
        inner = state.c.inner_
        obs = observation_layout(inner.game)
        self.tensor[: obs.size] = encode_view(inner.game, inner.view(player))
        if self.perfect_recall:
            add_counts(inner.game, self.layout.view(self.tensor, "action_counts"), player, state.c.moves)

    def string_from(self, state: TabletrekOSState, player: int) -> str:
        if state.c.inner_ is None:
            return "dealing"
        view = json.dumps(state.c.inner_.view(player), sort_keys=True, ensure_ascii=False)
        if self.perfect_recall:
            # Move texts are public (records and logs carry them), so the sequence is known to all.
            return f"{view}|{'/'.join(f'{s}:{a.text}' for s, a in state.c.moves)}"
        return view


class TabletrekOSGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel is untyped (Any)
    """Subclassed per tabletrek game by :func:`register` (OpenSpiel keys games by class)."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        options = parse_options(str(params.get("options") or ""))
        players = int(params.get("players", load(self.game_name).players))
        inner = load_with(self.game_name, players, options)
        self.inner = inner
        self.codec = codec_for(inner)
        module = observation_module(inner)
        self.max_chance = int(module.chance_bound(inner))
        bound, _proven = module.game_length_bound(inner)
        self.max_length = int(bound)
        self.short_name = os_name(self.game_name)
        self._by_text: dict[str, Action] = {}
        self.params = {"players": players, "options": str(params.get("options") or "")}
        super().__init__(game_type(inner), game_info(self), self.params)

    def new_initial_state(self) -> TabletrekOSState:
        return TabletrekOSState(self)

    def __reduce__(self) -> tuple[Callable[..., TabletrekOSGame], tuple[str, dict[str, Any]]]:
        return rebuild_game, (self.game_name, self.params)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self, iig_obs_type, params)

    def state_from_json(self, data: str) -> TabletrekOSState:
        """The inverse of :meth:`TabletrekOSState.to_json`."""
        state = TabletrekOSState.__new__(TabletrekOSState)
        pyspiel.State.__init__(state, self)
        state.c = self.core_from_json(data)
        return state

    def core_from_json(self, data: str) -> Core:
        parsed = json.loads(data)
        c = Core(self)
        c.inner_ = None if parsed["inner"] is None else State.from_json(parsed["inner"])
        if c.inner_ is not None:
            c.inner_.game = self.inner  # one shared Game, as in every other state
        c.held = None if parsed["held"] is None else self._action(parsed["held"])
        c.held_seat = int(parsed["held_seat"])
        c.draws = [int(k) for k in parsed["draws"]]
        c.moves = [(int(s), self._action(t)) for s, t in parsed["moves"]]
        c.truncated = bool(parsed["truncated"])
        if c.held is not None or c.inner_ is None:
            c.attempt()  # find the pending draw again
        return c

    def _action(self, text: str) -> Action:
        if not self._by_text:
            self._by_text = {self.codec.label(i): self.codec.action(None, i) for i in range(self.codec.n)}
        found = self._by_text.get(text)
        if found is None:
            raise ValueError(f"{self.inner.name} has no move {text!r}")
        return found


def game_type(inner: Game) -> pyspiel.GameType:
    cls = type(inner)
    declared = spec(inner.name)
    perfect = declared.information is Information.PERFECT
    return pyspiel.GameType(
        short_name=os_name(inner.name),
        long_name=f"tabletrek {inner.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if perfect
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        utility=(
            pyspiel.GameType.Utility.IDENTICAL
            if declared.cooperative
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(cls.player_counts),
        min_num_players=min(cls.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": cls.default_players, "options": ""},
    )


def game_info(game: TabletrekOSGame) -> pyspiel.GameInfo:
    inner = game.inner
    return pyspiel.GameInfo(
        num_distinct_actions=game.codec.n,
        max_chance_outcomes=game.max_chance,
        num_players=inner.players,
        min_utility=-1.0,
        max_utility=1.0,
        max_game_length=game.max_length,
    )


def register(game: str) -> str:
    """Register ``game`` with OpenSpiel (once); returns its OpenSpiel short name."""
    declared = spec(game)
    if declared.openspiel_refusal is not None:
        raise ValueError(declared.openspiel_refusal)
    if not declared.finite_actions:
        raise ValueError(f"{game} has no finite action space, which OpenSpiel needs")
    name = os_name(game)
    if name in pyspiel.registered_names():
        return name
    inner = load(game)
    cls = type(f"OS_{game.replace('-', '_')}", (TabletrekOSGame,), {"game_name": game})
    pyspiel.register_game(game_type(inner), cls)
    return name


def register_all() -> list[str]:
    """Every tabletrek game OpenSpiel can take (its spec gives no reason to refuse it)."""
    return [register(name) for name in games() if spec(name).openspiel_refusal is None]

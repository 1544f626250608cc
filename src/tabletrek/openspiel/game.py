"""OpenSpiel Python game classes wrapping any tabletrek game through the core contract."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from tabletrek.core.game import Game
from tabletrek.core.registry import games, load
from tabletrek.core.rng import derive_seed
from tabletrek.core.state import State
from tabletrek.rl.features import DEFAULT_SIZE, ViewEncoder

MAX_GAME_LENGTH = 100_000  # a bound, not a limit our games reach (Touring stops at max_turns)


def os_name(game: str) -> str:
    return f"python_tabletrek_{game.replace('-', '_')}"


class Holder:
    """Holds the tabletrek State. OpenSpiel clones a Python state by deep-copying its attributes;
    this copies ours with the exact, cheaper ``State.clone`` (the Game inside is shared, not copied)."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> Holder:
        return Holder(self.state.clone())


class TabletrekOSState(pyspiel.State):  # type: ignore[misc]
    """One game in progress; ``inner`` is the tabletrek State."""

    def __init__(self, game: TabletrekOSGame, inner: State) -> None:
        super().__init__(game)
        self.holder = Holder(inner)

    @property
    def inner(self) -> State:
        return self.holder.state

    def current_player(self) -> int:
        seat = self.inner.current_player
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        if self.inner.is_over or player != self.inner.current_player:
            return []
        return sorted(a.index for a in self.inner.legal_actions())

    def _apply_action(self, action: int) -> None:
        self.inner.apply(self.inner.game.action(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.game.action(int(action)).text

    def is_terminal(self) -> bool:
        return self.inner.is_over

    def returns(self) -> list[float]:
        result = self.inner.result
        return [0.0] * self.inner.players if result is None else [float(r) for r in result.returns]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TabletrekOSState:
        """A state ``player_id`` cannot tell from this one (our ``determinize``)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        game = self.get_game()
        return TabletrekOSState(game, self.inner.determinize(player_id, rng))

    def __str__(self) -> str:
        return json.dumps(self.inner.public_view(), sort_keys=True, ensure_ascii=False)


class Observer:
    """OpenSpiel's PyObserver: the seat's view, hashed into a tensor, and as a string."""

    def __init__(self, iig_obs_type: Any, params: Any = None) -> None:
        self.perfect_recall = bool(getattr(iig_obs_type, "perfect_recall", False)) if iig_obs_type else False
        self.encoder = ViewEncoder(DEFAULT_SIZE)
        self.tensor = np.zeros(DEFAULT_SIZE, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: TabletrekOSState, player: int) -> None:
        self.tensor[:] = self.encoder.encode(state.inner.view(player))

    def string_from(self, state: TabletrekOSState, player: int) -> str:
        view = json.dumps(state.inner.view(player), sort_keys=True, ensure_ascii=False)
        if self.perfect_recall:
            # Move texts are public (records and logs carry them), so the sequence is known to all.
            return f"{view}|{'/'.join(state.inner.history)}"
        return f"{view}|{len(state.inner.history)}"


class TabletrekOSGame(pyspiel.Game):  # type: ignore[misc]
    """Subclassed per tabletrek game by :func:`register` (OpenSpiel keys games by class)."""

    game_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        # Rule options travel as one JSON text, since OpenSpiel parameters must be declared ahead.
        options = json.loads(str(params.get("options") or "{}"))
        if not isinstance(options, dict):
            raise ValueError("the 'options' parameter must be a JSON object, e.g. '{\"rounds\": 1}'")
        inner = load(
            self.game_name, players=int(params.get("players", load(self.game_name).players)), **options
        )
        super().__init__(game_type(inner), game_info(inner), params)
        self.inner = inner
        self.base_seed = int(params.get("seed", 0))
        self.started = 0

    def new_initial_state(self) -> TabletrekOSState:
        # Each new game gets the next seed of a fixed sequence: runs are reproducible.
        seed = derive_seed(self.base_seed, "openspiel", self.started)
        self.started += 1
        return TabletrekOSState(self, self.inner.new_game(seed=seed))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(iig_obs_type, params)


def game_type(inner: Game) -> pyspiel.GameType:
    cls = type(inner)
    return pyspiel.GameType(
        short_name=os_name(inner.name),
        long_name=f"tabletrek {inner.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(cls.player_counts),
        min_num_players=min(cls.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": cls.default_players, "seed": 0, "options": "{}"},
    )


def game_info(inner: Game) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=inner.num_actions,
        max_chance_outcomes=0,
        num_players=inner.players,
        min_utility=-1.0,
        max_utility=1.0,
        max_game_length=MAX_GAME_LENGTH,
    )


def register(game: str) -> str:
    """Register ``game`` with OpenSpiel (once); returns its OpenSpiel short name."""
    name = os_name(game)
    if name in pyspiel.registered_names():
        return name
    inner = load(game)
    cls = type(f"OS_{game.replace('-', '_')}", (TabletrekOSGame,), {"game_name": game})
    pyspiel.register_game(game_type(inner), cls)
    return name


def register_all() -> list[str]:
    """Every tabletrek game whose actions form a finite space (all but free-text clue games)."""
    return [register(name) for name in games() if name != "codenames-duet"]

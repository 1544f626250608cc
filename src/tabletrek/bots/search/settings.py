"""The search bots' settings: one frozen object, parsed and checked once from a table's
``key=value`` parameters, so neither bot carries a dozen loose attributes."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from tabletrek.core.bots import flag_setting, number_setting
from tabletrek.core.errors import UsageError
from tabletrek.core.numeric import is_whole

if TYPE_CHECKING:
    from collections.abc import Mapping

    from tabletrek.core.game import Game

# The name players, tables and tournaments know the search by (``--bots ismcts``).
NAME = "ismcts"
DEFAULT_ITERATIONS = 200
# With no budget given, a player at a table should not wait on a long game's playouts: the
# default also stops after this many milliseconds. Name ``iterations`` for reproducible runs.
DEFAULT_MS = 1000.0


@dataclass(frozen=True)
class SearchSettings:
    """Budget (``iterations`` and/or ``ms``), playouts (``rollout``: "auto", "random" or a bot of
    the game; ``rollout_depth``: cut after this many actions and score with the game's evaluator;
    ``margin``: half the reward from the score margin), the tree's ``c`` (exploration) and
    ``trust`` (extra visits credited to the policy's own move), and the paired comparison's
    ``paired``, ``z`` (the bound an override must clear), ``default`` (the bot whose move is
    overridden), ``compiled`` (the game's compiled playouts when it has them), ``infer`` (their
    worlds follow what the other players' moves revealed) and ``threads``."""

    iterations: int | None = None
    ms: float | None = None
    c: float = 0.7
    rollout: str = "auto"
    rollout_depth: int | None = None
    trust: int = 0
    margin: bool = False
    paired: bool = False
    z: float = 2.0
    default: str | None = None
    compiled: bool = True
    infer: bool = False
    threads: int = 1

    @classmethod
    def parse(cls, game: Game, params: Mapping[str, Any]) -> SearchSettings:
        """Checks and normalises the parameters a table names; each wrong one names itself."""
        unknown = set(params) - {f.name for f in fields(cls)}
        if unknown:
            known = sorted(f.name for f in fields(cls))
            names = sorted(unknown)
            raise UsageError(
                "core.error.bot_unknown_params", bot=NAME, names=names, known=known, count=len(names)
            )
        raw = {**{f.name: f.default for f in fields(cls)}, **params}
        if raw["iterations"] is None and raw["ms"] is None:
            raw["iterations"], raw["ms"] = DEFAULT_ITERATIONS, DEFAULT_MS
        _check_numbers(raw)
        _check_bots(game, raw["rollout"], raw["default"])
        return cls(
            iterations=None if raw["iterations"] is None else int(raw["iterations"]),
            ms=None if raw["ms"] is None else float(raw["ms"]),
            c=float(raw["c"]),
            rollout=raw["rollout"],
            rollout_depth=None if raw["rollout_depth"] is None else int(raw["rollout_depth"]),
            trust=int(raw["trust"]),
            margin=flag_setting("margin", raw["margin"]),
            paired=flag_setting("paired", raw["paired"]),
            z=float(raw["z"]),
            default=raw["default"],
            compiled=flag_setting("compiled", raw["compiled"]),
            infer=flag_setting("infer", raw["infer"]),
            threads=int(raw["threads"]),
        )


# The numeric settings and the kind each is read as: a value that is not one, or is not finite,
# is refused by name (int("abc") would otherwise reach the player as Python's own English, and
# float("inf") a move that never ends).
NUMBERS = {"iterations": int, "ms": float, "c": float, "rollout_depth": int, "trust": int, "z": float}


def _check_numbers(raw: dict[str, Any]) -> None:
    for name, kind in NUMBERS.items():
        if raw[name] is not None:
            number_setting(name, raw[name], kind)
    iterations, trust, threads = raw["iterations"], raw["trust"], raw["threads"]
    if iterations is not None and (isinstance(iterations, bool) or int(iterations) < 1):
        raise UsageError("core.error.param_positive_int", name="iterations", value=iterations)
    if raw["ms"] is not None and float(raw["ms"]) <= 0:
        raise UsageError("core.error.param_positive", name="ms", value=raw["ms"])
    if float(raw["c"]) < 0:
        raise UsageError("core.error.param_non_negative", name="c", value=raw["c"])
    if isinstance(trust, bool) or int(trust) < 0:
        raise UsageError("core.error.param_non_negative_int", name="trust", value=trust)
    if raw["rollout_depth"] is not None and int(raw["rollout_depth"]) < 0:
        raise UsageError("core.error.param_non_negative", name="rollout_depth", value=raw["rollout_depth"])
    if float(raw["z"]) < 0:
        raise UsageError("core.error.param_non_negative", name="z", value=raw["z"])
    if not is_whole(threads) or threads < 1:
        raise UsageError("core.error.param_positive_int", name="threads", value=threads)


def _check_bots(game: Game, rollout: str, default: str | None) -> None:
    """The rollout and default bots must be other bots of the game (the search cannot play
    out with itself)."""
    if rollout == NAME or (rollout not in ("auto", "random") and rollout not in game.bots()):
        raise UsageError("core.error.rollout_bot", game=game.name, known=game.bots())
    if default is not None and (default == NAME or default not in game.bots()):
        raise UsageError("core.error.default_bot", game=game.name, known=game.bots())

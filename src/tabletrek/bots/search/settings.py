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
        numbers = _check_numbers(raw)
        _check_bots(game, raw["rollout"], raw["default"])
        iterations, depth = numbers.get("iterations"), numbers.get("rollout_depth")
        return cls(
            iterations=None if iterations is None else int(iterations),
            ms=numbers.get("ms"),
            c=numbers["c"],
            rollout=raw["rollout"],
            rollout_depth=None if depth is None else int(depth),
            trust=int(numbers["trust"]),
            margin=flag_setting("margin", raw["margin"]),
            paired=flag_setting("paired", raw["paired"]),
            z=numbers["z"],
            default=raw["default"],
            compiled=flag_setting("compiled", raw["compiled"]),
            infer=flag_setting("infer", raw["infer"]),
            threads=raw["threads"],
        )


# The numeric settings and the kind each is read as: a value that is not one, or is not finite,
# is refused by name (int("abc") would otherwise reach the player as Python's own English, and
# float("inf") a move that never ends).
NUMBERS = {"iterations": int, "ms": float, "c": float, "rollout_depth": int, "trust": int, "z": float}


def _check_numbers(raw: dict[str, Any]) -> dict[str, Any]:
    """The numeric settings, each checked and read as its kind ("400" as 400, 2.0 as 2), so that
    the settings are built from the values that were checked; a refusal quotes what was given."""
    numbers = {
        name: number_setting(name, raw[name], kind) for name, kind in NUMBERS.items() if raw[name] is not None
    }
    iterations, threads = numbers.get("iterations"), raw["threads"]
    if iterations is not None and iterations < 1:
        raise UsageError("core.error.param_positive_int", name="iterations", value=raw["iterations"])
    if "ms" in numbers and numbers["ms"] <= 0:
        raise UsageError("core.error.param_positive", name="ms", value=raw["ms"])
    if numbers["c"] < 0:
        raise UsageError("core.error.param_non_negative", name="c", value=raw["c"])
    if numbers["trust"] < 0:
        raise UsageError("core.error.param_non_negative_int", name="trust", value=raw["trust"])
    if numbers.get("rollout_depth", 0) < 0:
        raise UsageError("core.error.param_non_negative", name="rollout_depth", value=raw["rollout_depth"])
    if numbers["z"] < 0:
        raise UsageError("core.error.param_non_negative", name="z", value=raw["z"])
    if not is_whole(threads) or threads < 1:
        raise UsageError("core.error.param_positive_int", name="threads", value=threads)
    return numbers


def _check_bots(game: Game, rollout: str, default: str | None) -> None:
    """The rollout and default bots must be other bots of the game (the search cannot play
    out with itself)."""
    others = [bot for bot in game.bots() if bot != NAME]
    if rollout not in ("auto", "random", *others):
        raise UsageError("core.error.rollout_bot", game=game.name, known=others)
    if default is not None and default not in others:
        raise UsageError("core.error.default_bot", game=game.name, known=others)

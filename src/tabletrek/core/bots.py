"""The bot protocol: a bot plays one seat, deciding from what that seat may know."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from tabletrek.core.errors import UsageError
from tabletrek.core.generics import S_contra
from tabletrek.core.options import parse_option_value

if TYPE_CHECKING:
    from tabletrek.core.actions import Action
    from tabletrek.core.game import Game
    from tabletrek.core.state import State


GENERIC_BOTS: dict[str, tuple[Callable[..., Bot], bool]] = {}
"""Bots that play any game: name -> (factory(game, seat=, seed=, **params), needs search support).
Filled by ``tabletrek.bots`` when tabletrek is imported, so core never imports a bot."""


def register_generic_bot(name: str, factory: Callable[..., Bot], *, search: bool = False) -> None:
    """Offer a bot to every game (``search``: only to games whose search support makes it worth it)."""
    GENERIC_BOTS[name] = (factory, search)


@runtime_checkable
class Bot(Protocol[S_contra]):
    """A bot for games whose states are ``S_contra`` (plain ``Bot``: any game's)."""

    name: str
    seat: int

    def act(self, state: S_contra) -> Action:
        """The action this bot takes; ``state.current_player`` must be its seat.

        A bot may read ``state.view(seat)``, ``state.legal_actions()`` (which only depend on what
        the acting seat knows) and ``state.determinize(seat, rng)``; nothing else of the state.
        """
        ...


def check_turn(bot: Bot, state: State) -> None:
    if state.current_player != bot.seat:
        raise ValueError(f"bot {bot.name!r} plays seat {bot.seat}, but seat {state.current_player} is to act")


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"name"`` or ``"name:key=value;key=value"`` -> (name, parameters), e.g.
    ``"ismcts:iterations=400"`` or ``"codenames-clue:difficulty=easy"``."""
    name, _, rest = spec.partition(":")
    params: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(";"))):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise UsageError("core.error.bot_param_form", part=part, spec=spec)
        params[key.strip()] = parse_option_value(value.strip())
    return name.strip(), params


def number_setting(name: str, value: Any, kind: type[int] | type[float] = float) -> float:
    """A bot setting that is a number (``ms=500``, ``go=120``), read as ``kind``: refused by name
    when it is no number (a bool, a word), reads as NaN or an infinity, or is a fraction where a
    whole number is wanted (2.0 reads as 2). ``float()`` reads the words "nan" and "inf" without
    complaint, and a time budget of "inf" is a move that never ends."""
    if isinstance(value, bool) or (isinstance(value, str) and not value.isascii()):
        raise UsageError("core.error.param_number", name=name, value=value)  # float() reads "٣"
    try:
        magnitude = float(value)
    except (TypeError, ValueError):
        raise UsageError("core.error.param_number", name=name, value=value) from None
    except OverflowError:  # an int past float's range
        magnitude = math.inf
    if not math.isfinite(magnitude):
        raise UsageError("core.error.param_finite", name=name, value=value)
    if kind is int and not magnitude.is_integer():  # int() cut iterations=2.7 to 2 without a word
        raise UsageError("core.error.param_whole", name=name, value=value)
    try:
        return kind(value)
    except (TypeError, ValueError):  # int("2.0")
        return kind(magnitude)


def flag_setting(name: str, value: Any) -> bool:
    """A bot setting that is on or off (``paired=true``): true or false only. ``bool()`` reads
    every word as on, so a client's "false", "no" or "off" turned the setting on."""
    if not isinstance(value, bool):
        raise UsageError("core.error.param_flag", name=name, value=value)
    return value


def make_bot(
    game: Game,
    spec: str,
    *,
    seat: int,
    seed: int | None = None,
    extra: Mapping[str, Mapping[str, Any]] | None = None,
) -> Bot:
    """A bot from a spec string (see ``parse_bot_spec``). ``extra`` adds parameters given apart
    from the spec, keyed by bot name or by the whole spec (e.g. a tournament's ``--param``)."""
    name, params = parse_bot_spec(spec)
    if extra:
        params = {**params, **extra.get(name, {}), **extra.get(spec, {})}
    return game.bot(name, seat=seat, seed=seed, **settings_of(name, params))


# ``Game.bot``'s own arguments: a setting so named would reach it twice.
TABLE_GIVEN = ("seat", "seed")


def settings_of(bot: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """A bot's settings as ``Game.bot`` takes them beside its seat and seed. Those two come from
    the table the bot sits at, so a setting named so (``greedy:seed=3``) is refused by name: it
    made Python's own TypeError, a traceback in the terminal and a 400 naming Python's internals."""
    given = sorted(set(params) & set(TABLE_GIVEN))
    if given:
        raise UsageError("core.error.bot_table_given", bot=bot, names=given)
    return dict(params)

"""The type variables that make ``Game``, ``Bot`` and ``SearchSupport`` generic over a game's state.

A game declares its state class once (``class Touring(Game[TouringState])``) and its bots,
evaluations and playout policies then take that class, not the base ``State``, with no casts.
Code that handles every game writes plain ``Game``, ``Bot`` or ``SearchSupport``: the default,
``Any``, makes that ``Game[Any]`` and so on.

Type parameter defaults (PEP 696) reach ``typing`` only in Python 3.13, so the checker reads them
from ``typing_extensions`` (bundled with mypy) while the running code, which ignores type
parameters anyway, builds plain ``typing.TypeVar`` objects and needs no extra dependency.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    from tabletrek.core.state import State

    S = TypeVar("S", bound=State, default=Any)
    """A game's state class."""
    S_contra = TypeVar("S_contra", bound=State, contravariant=True, default=Any)
    """A game's state class where only taken (a bot's ``act``, an evaluation's argument)."""
else:
    from typing import TypeVar

    S = TypeVar("S", bound="State")
    S_contra = TypeVar("S_contra", bound="State", contravariant=True)

"""The bot protocol: a bot plays one seat, deciding from what that seat may know."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from tabletrek.core.actions import Action
    from tabletrek.core.state import State


@runtime_checkable
class Bot(Protocol):
    name: str
    seat: int

    def act(self, state: State) -> Action:
        """The action this bot takes; ``state.current_player`` must be its seat.

        A bot may read ``state.view(seat)``, ``state.legal_actions()`` (which only depend on what
        the acting seat knows) and ``state.determinize(seat, rng)``; nothing else of the state.
        """
        ...


def check_turn(bot: Bot, state: State) -> None:
    if state.current_player != bot.seat:
        raise ValueError(f"bot {bot.name!r} plays seat {bot.seat}, but seat {state.current_player} is to act")

"""Game-agnostic core: the Game/State contract, actions, events, records, options, registry."""

from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.bots import Bot
from tabletrek.core.events import OMNISCIENT, Event, render_message, seat_ref, text_ref
from tabletrek.core.game import Game
from tabletrek.core.options import OptionSpec
from tabletrek.core.records import GameRecord, iter_replay, replay
from tabletrek.core.registry import game_class, games, load
from tabletrek.core.state import Result, State

__all__ = [
    "OMNISCIENT",
    "Action",
    "Bot",
    "Event",
    "Game",
    "GameRecord",
    "IllegalAction",
    "OptionSpec",
    "Result",
    "State",
    "game_class",
    "games",
    "iter_replay",
    "load",
    "render_message",
    "replay",
    "seat_ref",
    "text_ref",
]

"""Simulate many seeded games between bots, on local processes, and summarise them."""

from tabletrek.sim.backend import GamesInterrupted
from tabletrek.sim.runner import GameOutcome, SimulationResult, play_game, seat_bots, simulate
from tabletrek.sim.stats import BotStats, SeatStats, Summary, summarize, wilson_interval

__all__ = [
    "BotStats",
    "GameOutcome",
    "GamesInterrupted",
    "SeatStats",
    "SimulationResult",
    "Summary",
    "play_game",
    "seat_bots",
    "simulate",
    "summarize",
    "wilson_interval",
]

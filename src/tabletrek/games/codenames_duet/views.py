"""What a seat and a spectator may see of a Codenames Duet table: everything on the table, and a
seat its own key side only (never the partner's)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletrek.games.codenames_duet.key import AGENTS, KINDS
from tabletrek.games.codenames_duet.snapshot import copy_clue
from tabletrek.games.codenames_duet.words import BOARD_SIZE

if TYPE_CHECKING:
    from tabletrek.games.codenames_duet.state import DuetState


def public_view(state: DuetState) -> dict[str, Any]:
    game = state.game
    result = state.result
    clue = state.clue
    return {
        "game": game.name,
        "players": game.players,
        "sides": [list(m) for m in game.sides],
        "side_of": list(game.side_of),
        "seat": None,
        "side": None,
        "key": None,
        "words": state.words,
        "agents": list(state.agent),
        "bystanders": [[c for c in range(BOARD_SIZE) if state.bystander[s][c]] for s in (0, 1)],
        "assassin": state.assassin,
        "visible": [state.is_visible(c) for c in range(BOARD_SIZE)],
        "agents_found": state.agents_found(),
        "agents_total": AGENTS,
        "tokens": state.tokens,
        "tokens_start": game.tokens,
        "mistakes": state.mistakes,
        "mistakes_allowed": game.mistakes,
        "phase": state.phase,
        "to_act": state.current_player,
        "giver": None if state.phase == "over" else state.giver,
        "guesser": None if state.phase == "over" else state.guesser,
        "clue": None if clue is None else copy_clue(clue),
        "clues": [copy_clue(c) for c in state.clues],
        "turn": state.turns,
        "options": dict(game.options),
        "language": game.pack.language,
        "over": state.phase == "over",
        "result": result.to_dict() if result else None,
    }


def seat_view(state: DuetState, seat: int) -> dict[str, Any]:
    game = state.game
    if not isinstance(seat, int) or not 0 <= seat < game.players:
        raise ValueError(f"no seat {seat!r} in a {game.players}-player game")
    view = public_view(state)
    side = game.side_of[seat]
    view["seat"] = seat
    view["side"] = side
    view["key"] = [KINDS[k] for k in state.key[side]]
    return view

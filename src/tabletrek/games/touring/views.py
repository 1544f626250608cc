"""What each seat, and a spectator, may know of a Touring game: all piles are open, hands are not."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletrek.games.touring.cards import GO, SLUGS

if TYPE_CHECKING:
    from tabletrek.games.touring.state import TouringState


def table(state: TouringState, team: int) -> dict[str, Any]:
    """One team's piles, its mileage and whether it is moving and in town."""
    game = state.game
    miles = state.miles[team]
    return {
        "team": team,
        "label": game.target_label(team),
        "seats": list(game.members[team]),
        "go": [SLUGS[c] for c in state.go[team]],
        "speed": [SLUGS[c] for c in state.speed[team]],
        "miles": {SLUGS[c]: miles[c - 1] for c in (1, 2, 3, 4)},
        "total": state.team_miles(team),
        "moving": state.go_top(team) == GO,
        "limited": state.is_limited(team),
    }


def public_view(state: TouringState) -> dict[str, Any]:
    """Every table, the number of cards in each hand and in the draw pile, and the discards."""
    game = state.game
    result = state.result
    return {
        "game": game.name,
        "players": game.players,
        "teams": [list(m) for m in game.members],
        "team_of": list(game.team_of),
        "seat": None,
        "team": None,
        "hand": None,
        "to_act": state.current_player,
        "turn": state.turns,
        "hand_counts": [len(h) for h in state.hands],
        "draw_pile": len(state.draw),
        "discard": [SLUGS[c] for c in state.discard],
        "tables": [table(state, t) for t in range(game.teams)],
        "required": {SLUGS[c]: game.required[c - 1] for c in (1, 2, 3, 4)},
        "goal": game.goal_miles,
        "options": dict(game.options),
        "over": state.is_over,
        "result": result.to_dict() if result else None,
    }


def seat_view(state: TouringState, seat: int) -> dict[str, Any]:
    """The public view, plus the seat's own hand (sorted) and its team."""
    game = state.game
    if not 0 <= seat < game.players:
        raise ValueError(f"no seat {seat} in a {game.players}-player game")
    view = public_view(state)
    view["seat"] = seat
    view["team"] = game.team_of[seat]
    view["hand"] = [SLUGS[c] for c in sorted(state.hands[seat])]
    return view

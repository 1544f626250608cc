"""What a seat (or a spectator) may know: trains, markers, counts and scores; one's own hand only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletrek.core.numeric import is_whole
from tabletrek.games.mexican_train.rules import NO_TILE, PHASE_NAMES

if TYPE_CHECKING:
    from tabletrek.games.mexican_train.state import MexicanTrainState


def oriented(state: MexicanTrainState, train: int) -> list[list[int]]:
    """A train's tiles as [near, far] pairs, from the engine outwards."""
    tiles = state.game.tileset.tiles
    out: list[list[int]] = []
    end = state.engine
    for tile in state.trains[train]:
        a, b = tiles[tile]
        near, far = (a, b) if a == end else (b, a)
        out.append([near, far])
        end = far
    return out


def public_view(state: MexicanTrainState) -> dict[str, Any]:
    game = state.game
    ts = game.tileset
    open_doubles = set(state.open_doubles())
    trains = []
    for r in range(game.slots):
        mexican = r == game.mexican
        trains.append(
            {
                "name": game.train_names[r],
                "owner": None if mexican else r,
                "tiles": oriented(state, r),
                "end": state.ends[r],
                "started": bool(state.trains[r]),
                "public": True if mexican else state.markers[r],
                "marker": False if mexican else state.markers[r],
                "open_double": r in open_doubles,
            }
        )
    result = state.result
    return {
        "game": game.name,
        "players": game.players,
        "options": dict(game.options),
        "seat": None,
        "hand": None,
        "drawn": None,
        "round": state.round_index + 1,
        "rounds": game.num_rounds,
        "engine": state.engine,
        "engine_tile": ts.texts[ts.double_of[state.engine]],
        "engine_placer": state.engine_placer,
        "to_act": state.current_player,
        "phase": PHASE_NAMES[state.phase],
        "must_play_again": state.bonus,
        "first_turn_pending": list(state.first_pending),
        "trains": trains,
        "hand_counts": [len(h) for h in state.hands],
        "boneyard": len(state.boneyard),
        "passes_with_empty_boneyard": state.passes,
        "totals": list(state.totals),
        "round_scores": [list(r) for r in state.round_scores],
        "over": state.is_over,
        "result": result.to_dict() if result else None,
    }


def seat_view(state: MexicanTrainState, seat: int) -> dict[str, Any]:
    if not is_whole(seat) or not 0 <= seat < state.game.players:
        raise ValueError(f"no seat {seat!r} in a {state.game.players}-player game")
    ts = state.game.tileset
    view = public_view(state)
    view["seat"] = seat
    view["hand"] = [list(ts.tiles[t]) for t in sorted(state.hands[seat])]
    if state.drawn != NO_TILE and state.to_act == seat and not state.is_over:
        view["drawn"] = list(ts.tiles[state.drawn])
    return view

"""What each seat, and a spectator, may know of a Double Crossing game: everything on the table
(positions, racks, cash, contracts, the piles' sizes), and only the viewer's own hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletrek.core.numeric import is_whole
from tabletrek.games.double_crossing.content import CAR_SLUGS, CARD_SLUGS, CARD_TYPES

if TYPE_CHECKING:
    from tabletrek.games.double_crossing.state import DoubleCrossingState


def car_dict(counts: tuple[int, ...] | list[int]) -> dict[str, int]:
    return {CAR_SLUGS[t]: int(n) for t, n in enumerate(counts)}


def public_view(state: DoubleCrossingState) -> dict[str, Any]:
    game = state.game
    c = game.content
    result = state.result
    contracts = [
        {"id": k.slug, "company": c.companies[k.company], "cars": car_dict(k.cars), "price": k.price}
        for k in c.contracts
    ]
    return {
        "game": game.name,
        "players": game.players,
        "seat": None,
        "hand": None,
        "to_act": state.current_player,
        "pending": state.pending,
        "turn_seat": state.turn_seat,
        "first": state.first,
        "round": state.rounds,
        "turns": state.turns,
        "positions": list(state.pos),
        "cash": list(state.cash),
        "cars": [car_dict(rack) for rack in state.cars],
        "hand_counts": [sum(h) for h in state.hands],
        "contracts": [[c.contracts[k].slug for k in state.contracts_of(s)] for s in range(game.players)],
        "available": [c.contracts[k].slug for k, o in enumerate(state.owner) if o < 0],
        "contract_info": contracts,
        "yard": car_dict(state.yard),
        "dropped": {str(space): car_dict(cars) for space, cars in sorted(state.dropped.items())},
        "depot": state.depot,
        "bank": state.bank,
        "draw_pile": len(state.draw),
        "discard": {CARD_SLUGS[t]: state.discard.count(t) for t in range(CARD_TYPES)},
        "flags": {
            "again": state.again,
            "used_villain": state.used_villain,
            "used_engineer": state.used_engineer,
        },
        "options": dict(game.options),
        "over": state.is_over,
        "winner": state.winner,
        "result": result.to_dict() if result else None,
    }


def seat_view(state: DoubleCrossingState, seat: int) -> dict[str, Any]:
    players = state.game.players
    if not is_whole(seat) or not 0 <= seat < players:
        raise ValueError(f"no seat {seat!r} in a {players}-player game")
    view = public_view(state)
    view["seat"] = seat
    view["hand"] = {CARD_SLUGS[t]: state.hands[seat][t] for t in range(CARD_TYPES)}
    return view

"""What each seat, and a spectator, may know of a Goofspiel game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabletrek.games.goofspiel.state import GoofspielState


def public_view(state: GoofspielState) -> dict[str, Any]:
    """Everything but this round's face-down bids (which seats have bid is open).

    Hands are open, since every card bid was shown: a hand is the cards not yet shown. A card bid
    face down this round is still listed in its owner's hand here, so the hands do not give it away.
    """
    shown = [
        sorted([*hand] if bid is None else [*hand, bid])
        for hand, bid in zip(state.hands, state.bids, strict=True)
    ]
    return {
        "cards": state.game.cards,
        "to_act": state.to_act,
        "prize": state.prize,
        "pot": list(state.pot),
        "prizes_left": sorted(state.prizes_left),
        "hands": shown,
        "has_bid": [card is not None for card in state.bids],
        "won": [list(prizes) for prizes in state.won],
        "scores": list(state.scores),
        "rounds": [dict(r, bids=list(r["bids"])) for r in state.rounds],
        "over": state.is_over,
    }


def seat_view(state: GoofspielState, seat: int) -> dict[str, Any]:
    """The public view, plus the seat's own playable hand and its own face-down bid."""
    view = public_view(state)
    view["seat"] = seat
    view["hand"] = list(state.hands[seat])
    view["bid"] = state.bids[seat]
    return view

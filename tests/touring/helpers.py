"""Build Touring positions for scenario tests, keeping every card of the deck somewhere."""

from __future__ import annotations

from typing import Any

import tabletrek
from tabletrek.games.touring import rules
from tabletrek.games.touring.cards import CARD_TYPES, CODE, MILEAGE, SLUGS
from tabletrek.games.touring.state import TouringState


def position(
    players: int = 2,
    *,
    hands: dict[int, list[str]] | None = None,
    go: dict[int, list[str]] | None = None,
    speed: dict[int, list[str]] | None = None,
    miles: dict[int, dict[str, int]] | None = None,
    discard: list[str] | None = None,
    draw_top: list[str] | None = None,
    draw: list[str] | None = None,
    to_act: int = 0,
    **options: Any,
) -> TouringState:
    """A state with the given piles (by team), hands (by seat) and the rest of the deck in the draw
    pile (``draw_top`` last, so it is drawn first). Raises if the deck lacks a requested card."""
    game = tabletrek.load("touring", players=players, **options)
    state = game.new_game(seed=0)
    assert isinstance(state, TouringState)
    left = list(game.deck_counts)

    def take(slugs: list[str]) -> list[int]:
        codes = []
        for slug in slugs:
            code = CODE[slug]
            assert left[code] > 0, f"the deck has no more {slug}"
            left[code] -= 1
            codes.append(code)
        return codes

    state.hands = [take((hands or {}).get(s, [])) for s in range(players)]
    state.held = [rules.hand_kinds(hand) for hand in state.hands]
    state.go = [take((go or {}).get(t, [])) for t in range(game.teams)]
    state.speed = [take((speed or {}).get(t, [])) for t in range(game.teams)]
    state.miles = [[0, 0, 0, 0] for _ in range(game.teams)]
    for team, counts in (miles or {}).items():
        for slug, n in counts.items():
            take([slug] * n)
            state.miles[team][MILEAGE.index(CODE[slug])] = n
    state.discard = take(discard or [])
    top = take(draw_top or [])
    if draw is not None:
        state.draw = take(draw)
        state.discard += [c for c in range(CARD_TYPES) for _ in range(left[c])]
    else:
        state.draw = [c for c in range(CARD_TYPES) for _ in range(left[c])]
    state.draw += list(reversed(top))
    state.to_act = to_act
    state.turns = 0
    state.winner = None
    state.ended = False
    state._legal = None
    return state


def texts(state: tabletrek.State) -> list[str]:
    return [a.text for a in state.legal_actions()]


def hand(state: TouringState, seat: int) -> list[str]:
    return sorted(SLUGS[c] for c in state.hands[seat])


def team_miles(state: TouringState, team: int) -> dict[str, int]:
    return {SLUGS[c]: state.miles[team][i] for i, c in enumerate(MILEAGE)}

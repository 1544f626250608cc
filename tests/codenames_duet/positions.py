"""Set-up helpers for Codenames Duet scenarios: a board with a key chosen by the test."""

from __future__ import annotations

from typing import Any

import tabletrek
from tabletrek.games.codenames_duet.key import KIND_CODE
from tabletrek.games.codenames_duet.state import DuetState

CODE = {"G": KIND_CODE["green"], "B": KIND_CODE["bystander"], "A": KIND_CODE["assassin"]}

# The table's 25 pairs in a readable order: (side A, side B) for cells 0..24.
# Side A greens: 0-7 and 13; side B greens: 0-2, 8-12 and 14; agents: cells 0-14.
STANDARD = "GG GG GG GB GB GB GB GB BG BG BG BG BG GA AG AA AB BA BB BB BB BB BB BB BB"
GREENS_A = (0, 1, 2, 3, 4, 5, 6, 7, 13)
GREENS_B = (0, 1, 2, 8, 9, 10, 11, 12, 14)
OFF_BOARD = "zebra"  # a pack word never among the first 25 (the board these positions use)


def position(layout: str = STANDARD, players: int = 2, **options: Any) -> DuetState:
    """A fresh game whose board is the pack's first 25 words and whose key is ``layout``."""
    game = tabletrek.load("codenames-duet", players=players, **options)
    state = game.new_game(seed=0)
    assert isinstance(state, DuetState)
    pairs = layout.split()
    assert len(pairs) == 25
    state.cells = list(range(25))
    state.key = [[CODE[p[0]] for p in pairs], [CODE[p[1]] for p in pairs]]
    state._legal = None
    return state


def clue(state: DuetState, number: int | str = 1, word: str = OFF_BOARD) -> None:
    state.apply(f"clue {word} {number}")


def guess(state: DuetState, cell: int) -> None:
    state.apply(f"guess {state.words[cell]}")


def turn(state: DuetState, cells: list[int] | tuple[int, ...], stop: bool = True) -> None:
    """A whole turn: a clue, the guesses, and a stop if the turn is still open."""
    clue(state)
    for cell in cells:
        guess(state, cell)
    if stop and state.phase == "guess":
        state.apply("stop")

"""A Codenames Duet state as JSON: the exact dump/load behind ``to_json``/``State.from_json``
(saved games and stored tables depend on this format byte for byte)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tabletrek.games.codenames_duet.key import KIND_CODE, KINDS
from tabletrek.games.codenames_duet.words import BOARD_SIZE

if TYPE_CHECKING:
    from tabletrek.games.codenames_duet.state import DuetState

PHASES = ("clue", "guess", "sudden", "over")
ENDINGS = ("won", "assassin", "sudden_death", "time_mistake")


def dump(state: DuetState) -> dict[str, Any]:
    return {
        "words": state.words,
        "key": [[KINDS[k] for k in side] for side in state.key],
        "agent": list(state.agent),
        "bystander": [list(b) for b in state.bystander],
        "assassin": state.assassin,
        "tokens": state.tokens,
        "mistakes": state.mistakes,
        "turns": state.turns,
        "gives": list(state.gives),
        "guesses": list(state.guesses),
        "phase": state.phase,
        "giver": state.giver,
        "clue_open": state.clue is not None,
        "clues": [copy_clue(c) for c in state.clues],
        "ending": state.ending,
    }


def load(state: DuetState, data: Mapping[str, Any]) -> None:
    index = state.game._word_index
    state.cells = [index[str(w)] for w in data["words"]]
    state.key = [[KIND_CODE[str(k)] for k in side] for side in data["key"]]
    state.agent = [None if a is None else int(a) for a in data["agent"]]
    state.bystander = [[bool(x) for x in b] for b in data["bystander"]]
    state.assassin = None if data["assassin"] is None else int(data["assassin"])
    state.tokens = int(data["tokens"])
    state.mistakes = int(data["mistakes"])
    state.turns = int(data["turns"])
    state.gives = [int(x) for x in data["gives"]]
    state.guesses = [int(x) for x in data["guesses"]]
    state.phase = str(data["phase"])
    state.giver = int(data["giver"])
    state.clues = [copy_clue(c) for c in data["clues"]]
    state.clue = state.clues[-1] if data["clue_open"] else None
    state.ending = None if data["ending"] is None else str(data["ending"])
    if len(state.cells) != BOARD_SIZE or len(state.key) != 2 or state.phase not in PHASES:
        raise ValueError("board, key or phase malformed")
    if state.ending is not None and state.ending not in ENDINGS:
        raise ValueError(f"unknown ending {state.ending!r}")


def copy_clue(clue: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "side": int(clue["side"]),
        "seat": int(clue["seat"]),
        "word": str(clue["word"]),
        "number": int(clue["number"]),
        "guesses": [{"word": str(g["word"]), "kind": str(g["kind"])} for g in clue["guesses"]],
        "penalty": None if clue["penalty"] is None else str(clue["penalty"]),
    }

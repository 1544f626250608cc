"""Build Mexican Train positions for scenario tests: hands, trains and markers written as tile texts."""

from __future__ import annotations

from typing import Any

import tabletrek
from tabletrek.games.mexican_train.rules import FIRST, NO_TILE, PLAY
from tabletrek.games.mexican_train.state import MexicanTrainState


def tiles_of(state: MexicanTrainState, texts: list[str]) -> list[int]:
    ts = state.game.tileset
    out = []
    for text in texts:
        tile = ts.parse_tile(text)
        assert tile is not None, text
        out.append(tile)
    return out


def position(
    hands: list[list[str]],
    *,
    trains: dict[int | str, list[str]] | None = None,
    markers: list[bool] | None = None,
    boneyard: list[str] | None = None,
    to_act: int = 0,
    phase: int = PLAY,
    first_pending: list[bool] | None = None,
    bonus: bool = False,
    drawn: str | None = None,
    run: int = 0,
    passes: int = 0,
    totals: list[int] | None = None,
    round_index: int = 0,
    **options: Any,
) -> MexicanTrainState:
    """A state with exactly these hands and trains; the boneyard holds every other tile unless given.

    The boneyard is drawn from its end, so ``boneyard=[..., "3-4"]`` makes 3-4 the next draw;
    ``boneyard=[]`` empties it (the unnamed tiles then leave the game).
    """
    players = len(hands)
    options.setdefault("rounds", 1)
    options.setdefault("set_size", 12)  # the positions are written with double-12 tiles
    game = tabletrek.load("mexican-train", players=players, **options)
    state = game.new_game(seed=1)
    assert isinstance(state, MexicanTrainState)
    trains = trains or {}
    lines: list[list[int]] = [[] for _ in range(game.slots)]
    for key, texts in trains.items():
        lines[game.mexican if key == "mx" else int(key)] = tiles_of(state, texts)
    hand_ids = [tiles_of(state, h) for h in hands]
    engine_tile = game.tileset.double_of[game.engine_for_round(round_index)]
    used = {engine_tile, *(t for h in hand_ids for t in h), *(t for line in lines for t in line)}
    if boneyard is None:
        bone = [t for t in range(game.tileset.size) if t not in used]
    else:
        bone = tiles_of(state, boneyard)
        # Tiles named nowhere go to the bottom of the boneyard so that the sets stay complete.
        rest = [t for t in range(game.tileset.size) if t not in used and t not in bone]
        bone = rest + bone
    if first_pending is None:
        first_pending = [phase == FIRST and s == to_act for s in range(players)]
    data = {
        "round": round_index,
        "engine_placer": None,
        "hands": hand_ids,
        "boneyard": bone,
        "trains": lines,
        "markers": markers or [False] * players,
        "first_pending": first_pending,
        "to_act": to_act,
        "phase": phase,
        "bonus": bonus,
        "drawn": NO_TILE if drawn is None else tiles_of(state, [drawn])[0],
        "run": run,
        "passes": passes,
        "totals": totals or [0] * players,
        "round_scores": [],
        "ended": False,
    }
    state._load(data)
    if boneyard == []:
        # An empty boneyard: the tiles named nowhere leave the game (only for rule scenarios).
        state.boneyard = []
    state._legal = None
    return state


def texts(state: MexicanTrainState) -> list[str]:
    return sorted(a.text for a in state.legal_actions())


def hand_texts(state: MexicanTrainState, seat: int) -> list[str]:
    ts = state.game.tileset
    return sorted(ts.texts[t] for t in state.hands[seat])


__all__ = ["FIRST", "PLAY", "hand_texts", "position", "texts", "tiles_of"]

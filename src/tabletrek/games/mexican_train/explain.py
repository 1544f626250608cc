"""Action texts: lenient parsing ("play 12-6 mexican") and explanations naming the rule a move breaks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletrek.core.actions import IllegalAction
from tabletrek.core.events import seat_ref
from tabletrek.core.state import normalize_text

if TYPE_CHECKING:
    from collections.abc import Callable

    from tabletrek.games.mexican_train.state import MexicanTrainState

TRAIN_ALIASES = {"mexican": "mx", "mex": "mx", "m": "mx"}
OWN_ALIASES = ("own", "mine", "me")


def canonical(state: MexicanTrainState, text: str) -> str:
    """Normalize a typed move: tiles in either order, train aliases, the train left out when only one fits."""
    words = normalize_text(text).split()
    if len(words) < 2 or words[0] != "play":
        return " ".join(words)
    ts = state.game.tileset
    tile = ts.parse_tile(words[1])
    if tile is None:
        return " ".join(words)
    words[1] = ts.texts[tile]
    if len(words) == 2:
        prefix = f"play {words[1]} "
        fits = [a.text for a in state.legal_actions() if a.text.startswith(prefix)]
        if len(fits) == 1:
            return fits[0]
    elif len(words) == 3:
        if words[2] in OWN_ALIASES and state.current_player is not None:
            words[2] = state.game.train_names[state.current_player]
        words[2] = TRAIN_ALIASES.get(words[2], words[2])
    return " ".join(words)


def train_label(state: MexicanTrainState, train: int) -> str:
    return state.game.train_names[train]


def explain(state: MexicanTrainState, text: str) -> IllegalAction:
    """The rule ``text`` breaks, checked in the order the state builds its legal moves."""
    words = normalize_text(text).split()
    if not words:
        return IllegalAction("core.illegal.empty")
    if state.is_over:
        return IllegalAction("core.illegal.game_over")
    verb = words[0]
    if len(words) == 1 and verb in _SINGLE_WORD:
        return _SINGLE_WORD[verb](state)
    if verb != "play" or len(words) not in (2, 3):
        return IllegalAction("mexican_train.illegal.unknown", action=text)
    return _explain_play(state, words, text)


def _explain_draw(state: MexicanTrainState) -> IllegalAction:
    from tabletrek.games.mexican_train.state import DRAWN, FIRST

    if state.phase == FIRST:
        return IllegalAction("mexican_train.illegal.first_no_draw")
    if state.phase == DRAWN:
        return IllegalAction("mexican_train.illegal.already_drew")
    if not state.boneyard:
        return IllegalAction("mexican_train.illegal.boneyard_empty")
    return IllegalAction("mexican_train.illegal.must_play")


def _explain_pass(state: MexicanTrainState) -> IllegalAction:
    from tabletrek.games.mexican_train.state import FIRST

    if state.phase == FIRST:
        key = "mexican_train.illegal.pass_in_run" if state.run else "mexican_train.illegal.must_start"
        return IllegalAction(key)
    if any(a.text.startswith("play ") for a in state.legal_actions()):
        return IllegalAction("mexican_train.illegal.must_play")
    return IllegalAction("mexican_train.illegal.must_draw")


def _explain_end(state: MexicanTrainState) -> IllegalAction:
    from tabletrek.games.mexican_train.state import FIRST

    if state.phase != FIRST:
        return IllegalAction("mexican_train.illegal.end_first_only")
    if state.run == 0:
        return IllegalAction("mexican_train.illegal.end_nothing")
    return IllegalAction("mexican_train.illegal.double_continue")


_SINGLE_WORD: dict[str, Callable[[MexicanTrainState], IllegalAction]] = {
    "draw": _explain_draw,
    "pass": _explain_pass,
    "end": _explain_end,
}


def _explain_play(state: MexicanTrainState, words: list[str], text: str) -> IllegalAction:
    """``play TILE [TRAIN]``: the tile, then the train, as the legal plays are built."""
    game = state.game
    ts = game.tileset
    tile = ts.parse_tile(words[1])
    if tile is None:
        return IllegalAction("mexican_train.illegal.unknown_tile", tile=words[1], high=ts.high)
    tile_text = ts.texts[tile]
    if tile not in state.hands[state.to_act]:
        return IllegalAction("mexican_train.illegal.not_in_hand", tile=tile_text)
    if len(words) == 2:
        prefix = f"play {tile_text} "
        places = [a.text.rsplit(" ", 1)[1] for a in state.legal_actions() if a.text.startswith(prefix)]
        if places:
            return IllegalAction(
                "mexican_train.illegal.which_train", tile=tile_text, trains=", ".join(places)
            )
        return IllegalAction("mexican_train.illegal.no_place", tile=tile_text)
    if words[2] not in game.train_names:
        return IllegalAction(
            "mexican_train.illegal.bad_train", train=words[2], trains=", ".join(game.train_names)
        )
    train = game.train_names.index(words[2])
    refusal = _refuse_train(state, tile, train)
    if refusal is not None:
        return refusal
    end = state.ends[train]
    if ts.other[tile][end] < 0:
        return IllegalAction("mexican_train.illegal.no_match", tile=tile_text, train=words[2], end=end)
    return IllegalAction("core.illegal.not_legal", action=text)


def _refuse_train(state: MexicanTrainState, tile: int, train: int) -> IllegalAction | None:
    """Why ``train`` is not among the trains the state offers ``tile`` on (``state.targets``), or
    None where it is."""
    from tabletrek.games.mexican_train.state import DRAWN, FIRST

    seat = state.to_act
    phase = state.phase
    if phase == FIRST and train != seat:
        return IllegalAction("mexican_train.illegal.first_own_only")
    if phase == DRAWN and tile != state.drawn:
        return IllegalAction("mexican_train.illegal.only_drawn", tile=state.game.tileset.texts[state.drawn])
    if phase != FIRST and train not in state.accessible(seat):
        return IllegalAction("mexican_train.illegal.private_train", owner=seat_ref(train))
    doubles = state.open_doubles()
    if state.must_satisfy() and doubles and train not in doubles:
        names = ", ".join(train_label(state, r) for r in doubles)
        return IllegalAction("mexican_train.illegal.must_satisfy", trains=names)
    return None

"""Codenames Duet's observation tensor and its finite clue space.

Read by ``tabletrek.rl`` (``docs/observations.md`` lists the fields). A clue is free text, so the
RL faces offer a finite clue space instead: every word of the game's word pack with every number
(0..9), one action each (``ClueCodec``); a word a person types that is not in the pack has no
index there. Its mask holds the clues the rules allow now (the word is valid against the visible
words, the number in range). Seats are relative to the observer; key sides are the observer's.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from tabletrek.core.actions import Action
from tabletrek.core.tensors import Layout
from tabletrek.games.codenames_duet.game import Duet
from tabletrek.games.codenames_duet.key import KINDS
from tabletrek.games.codenames_duet.rules import MAX_NUMBER
from tabletrek.games.codenames_duet.snapshot import PHASES
from tabletrek.games.codenames_duet.state import DuetState
from tabletrek.games.codenames_duet.words import BOARD_SIZE

if TYPE_CHECKING:
    from tabletrek.core.state import State

NUMBERS = MAX_NUMBER + 1


@cache
def layout(game: Duet) -> Layout:
    # Every turn ends at the cost of at least one timer token, and so does a void clue under
    # strict_penalty; a mistake ends a turn or the game (rules.py, missed and end_turn). So clues
    # given and mistakes made never pass the tokens the game starts with, and mistakes_left never
    # falls below the allowed mistakes less those tokens.
    p, words, tokens = game.players, len(game.pack.words), game.tokens
    out = Layout()
    out.add(
        "word_id",
        BOARD_SIZE,
        f"each cell's word as its index in the word pack (0..{words - 1}), for an embedding lookup",
        high=words - 1,
    )
    out.add(
        "key",
        (BOARD_SIZE, len(KINDS)),
        f"per cell: the observer's side of the key, one-hot ({', '.join(KINDS)})",
        high=1,
    )
    out.add("covered", BOARD_SIZE, "per cell: 1 when an agent card covers it", high=1)
    out.add(
        "bystander",
        (BOARD_SIZE, 2),
        "per cell: a timer token marks it a bystander on the "
        "observer's side of the key (column 0) or the partner's (column 1)",
        high=1,
    )
    out.add("assassin", BOARD_SIZE, "the cell of the assassin that ended the game, one-hot", high=1)
    out.add("visible", BOARD_SIZE, "per cell: 1 while its word is visible (constrains clues)", high=1)
    out.add("to_act", p, "1 for the seat to act (relative), all 0 once the game is over", high=1)
    out.add("giver", p, "the clue-giver's seat (relative)", high=1)
    out.add("phase", len(PHASES), f"one-hot ({', '.join(PHASES)})", high=1)
    out.add("clue_number", NUMBERS, "the open clue's number, one-hot (all 0 without an open clue)", high=1)
    out.add(
        "clue_word",
        1,
        "the open clue's word as a pack index, -1 if none or not in the pack",
        low=-1,
        high=words - 1,
    )
    out.add("clue_guesses", 1, "guesses made on the open clue", high=BOARD_SIZE)
    out.add("agents_found", 1, "agents covered so far (15 to win)", high=BOARD_SIZE)
    out.add("tokens", 1, "timer tokens left", high=tokens)
    out.add("mistakes", 1, "mistakes made", high=tokens)
    out.add(
        "mistakes_left",
        1,
        "mistakes still allowed by the mission (-1: no limit)",
        low=min(-1, game.mistakes - tokens),
        high=max(game.mistakes, 0),
    )
    out.add("turn", 1, "clues given so far", high=tokens)
    out.add("over", 1, "1 once the game has ended", high=1)
    return out


def encode(game: Duet, view: dict[str, Any], out: npt.NDArray[np.float32]) -> None:
    """Fill ``out`` (zeros, length ``layout(game).size``) from ``view`` (a seat's view)."""
    lay = layout(game)
    seat, p, side = int(view["seat"]), game.players, int(view["side"])
    index = game._word_index
    word_id, key = lay.view(out, "word_id"), lay.view(out, "key")
    covered, bystander = lay.view(out, "covered"), lay.view(out, "bystander")
    visible = lay.view(out, "visible")
    for c in range(BOARD_SIZE):
        word_id[c] = index[view["words"][c]]
        key[c, KINDS.index(view["key"][c])] = 1
        covered[c] = view["agents"][c] is not None
        visible[c] = bool(view["visible"][c])
    for s in (0, 1):
        for c in view["bystanders"][s]:
            bystander[c, 0 if s == side else 1] = 1
    if view["assassin"] is not None:
        lay.view(out, "assassin")[int(view["assassin"])] = 1
    if view["to_act"] is not None:
        lay.view(out, "to_act")[(int(view["to_act"]) - seat) % p] = 1
    if view["giver"] is not None:
        lay.view(out, "giver")[(int(view["giver"]) - seat) % p] = 1
    lay.view(out, "phase")[PHASES.index(view["phase"])] = 1
    clue = view["clue"]
    lay.view(out, "clue_word")[0] = -1
    if clue is not None:
        lay.view(out, "clue_number")[int(clue["number"])] = 1
        lay.view(out, "clue_word")[0] = index.get(clue["word"], -1)
        lay.view(out, "clue_guesses")[0] = len(clue["guesses"])
    lay.view(out, "agents_found")[0] = view["agents_found"]
    lay.view(out, "tokens")[0] = view["tokens"]
    lay.view(out, "mistakes")[0] = view["mistakes"]
    allowed = view["mistakes_allowed"]
    lay.view(out, "mistakes_left")[0] = -1 if allowed is None else allowed - view["mistakes"]
    lay.view(out, "turn")[0] = view["turn"]
    lay.view(out, "over")[0] = bool(view["over"])


def game_length_bound(game: Duet) -> tuple[int, bool]:
    """(bound, proven): every clue, void or not, and every stop leads to a turn's end or a
    penalty, each costing a timer token, so there are at most ``tokens`` of each; a cell is
    guessed at most once from each side of the key (a covered agent and a side's known bystander
    cannot be guessed again, rules.py, guess_problem)."""
    return 2 * game.tokens + 2 * BOARD_SIZE, True


class ClueCodec:
    """The finite action space: the guesses and ``stop`` (the game's own indices), then one clue
    per (pack word, number): index ``clue_base + word * 10 + number``."""

    def __init__(self, game: Duet) -> None:
        self.game = game
        self.words = game.pack.words
        self.clue_base = game.stop_index + 1
        self.n = self.clue_base + len(self.words) * NUMBERS
        self._valid_words: dict[tuple[str, ...], npt.NDArray[np.bool_]] = {}

    def action(self, state: State | None, i: int) -> Action:
        if not 0 <= i < self.n:
            raise ValueError(f"codenames-duet's finite action space has no action {i}")
        if i < self.clue_base:
            return self.game.action(i)
        word, number = divmod(i - self.clue_base, NUMBERS)
        return self.game.clue_action(self.words[word], number)

    def index(self, action: Action) -> int | None:
        if action.index < self.clue_base:
            return action.index
        parts = action.text.split()
        if len(parts) != 3 or parts[0] != "clue" or parts[1] not in self.game._word_index:
            return None  # a typed word outside the pack has no place in the finite space
        return self.clue_base + self.game._word_index[parts[1]] * NUMBERS + int(parts[2])

    def label(self, i: int) -> str:
        return self.action(None, i).text

    def mask(self, state: State) -> npt.NDArray[np.int8]:
        assert isinstance(state, DuetState)
        mask = np.zeros(self.n, dtype=np.int8)
        if state.is_over:
            return mask
        if state.phase != "clue":
            for action in state.legal_actions():
                mask[action.index] = 1
            return mask
        visible = tuple(state.visible_words())
        valid = self._valid_words.get(visible)
        if valid is None:
            # The words' validity depends only on the visible words: checked once per board.
            valid = np.array([state.clue_problem(w) is None for w in self.words], dtype=np.bool_)
            if len(self._valid_words) > 256:
                self._valid_words.clear()
            self._valid_words[visible] = valid
        low, high = state.number_range()
        grid = mask[self.clue_base :].reshape(len(self.words), NUMBERS)
        grid[np.ix_(valid, np.arange(low, high + 1))] = 1
        return mask


def action_codec(game: Duet) -> ClueCodec:
    return ClueCodec(game)

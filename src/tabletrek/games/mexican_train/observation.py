"""Mexican Train's observation tensor: a seat's ``view`` as a fixed layout.

Read by ``tabletrek.rl`` and ``tabletrek.openspiel`` (``docs/observations.md`` lists the fields).
Sizes follow the loaded game: the tile set (double-9, double-12, ...) and the number of seats.
Tiles are numbered as in the game's action space: (0,0), (0,1), ..., (high,high). Seats and trains
are relative to the observer: block 0 is the observer's, the Mexican train comes last.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from tabletrek.core.tensors import Layout
from tabletrek.games.mexican_train.game import MexicanTrain
from tabletrek.games.mexican_train.rules import PHASE_NAMES


@cache
def layout(game: MexicanTrain) -> Layout:
    # Tops from the set: no hand, train or boneyard holds more tiles than the set.
    ts = game.tileset
    n, p, pips = ts.size, game.players, ts.high + 1
    trains = p + 1
    rounds = game.num_rounds
    out = Layout()
    out.add("hand", n, f"1 for each of the {n} tiles in the observer's hand", high=1)
    out.add("drawn", n, "the tile the observer just drew and may still play (one-hot), else all 0", high=1)
    out.add("on_board", n, "1 for each tile already in a train or placed as the engine", high=1)
    out.add("hand_counts", p, "tiles in each seat's hand, observer first", high=n)
    out.add("to_act", p, "1 for the seat to act (relative), all 0 once the game is over", high=1)
    out.add("first_turn_pending", p, "1 for each seat whose first turn of the round is still to come", high=1)
    out.add(
        "train_end",
        (trains, pips),
        "per train (seats' trains relative to the observer, then "
        "the Mexican train): the open end's pip value, one-hot",
        high=1,
    )
    out.add("train_length", trains, "per train: tiles in it", high=n)
    out.add("train_started", trains, "per train: 1 once its first tile is down", high=1)
    out.add(
        "train_public",
        trains,
        "per train: 1 when anyone may play on it (marker, or the Mexican train)",
        high=1,
    )
    out.add(
        "train_open_double", trains, "per train: 1 when it ends in a double still to be satisfied", high=1
    )
    out.add("engine", pips, "the round's engine double, one-hot over pip values", high=1)
    out.add("phase", len(PHASE_NAMES), f"the turn's phase, one-hot ({', '.join(PHASE_NAMES)})", high=1)
    out.add("must_play_again", 1, "1 after a double: the same seat plays once more", high=1)
    out.add("boneyard", 1, "tiles left in the boneyard", high=n)
    # The round ends when every seat has passed in a row with the boneyard empty (rules.py).
    out.add("passes_with_empty_boneyard", 1, "passes in a row since the boneyard ran out", high=p)
    out.add("round", 1, "the round being played, from 1", high=rounds)
    # A one-round match never shows more than 0 here; a top of 1 keeps the range from being a
    # single point, which Gymnasium's checker warns of.
    out.add("rounds_left", 1, "rounds still to play after this one", high=max(rounds - 1, 1))
    out.add(
        "totals",
        p,
        "each seat's cumulative points (lower is better), observer first",
        high=rounds * game.most_round_points,
    )
    out.add("over", 1, "1 once the match has ended", high=1)
    return out


def encode(game: MexicanTrain, view: dict[str, Any], out: npt.NDArray[np.float32]) -> None:
    """Fill ``out`` (zeros, length ``layout(game).size``) from ``view`` (a seat's view)."""
    lay = layout(game)
    ts = game.tileset
    seat = int(view["seat"])
    p = game.players
    hand = lay.view(out, "hand")
    for a, b in view["hand"]:
        hand[ts.tile_id(a, b)] = 1
    if view["drawn"] is not None:
        lay.view(out, "drawn")[ts.tile_id(*view["drawn"])] = 1
    on_board = lay.view(out, "on_board")
    on_board[ts.double_of[int(view["engine"])]] = 1
    trains = view["trains"]
    order = [(seat + k) % p for k in range(p)] + [p]
    end, length = lay.view(out, "train_end"), lay.view(out, "train_length")
    started, public = lay.view(out, "train_started"), lay.view(out, "train_public")
    open_double = lay.view(out, "train_open_double")
    for k, r in enumerate(order):
        train = trains[r]
        for a, b in train["tiles"]:
            on_board[ts.tile_id(a, b)] = 1
        end[k, int(train["end"])] = 1
        length[k] = len(train["tiles"])
        started[k] = bool(train["started"])
        public[k] = bool(train["public"])
        open_double[k] = bool(train["open_double"])
    for k in range(p):
        s = (seat + k) % p
        lay.view(out, "hand_counts")[k] = view["hand_counts"][s]
        lay.view(out, "first_turn_pending")[k] = bool(view["first_turn_pending"][s])
        lay.view(out, "totals")[k] = view["totals"][s]
    if view["to_act"] is not None:
        lay.view(out, "to_act")[(int(view["to_act"]) - seat) % p] = 1
    lay.view(out, "engine")[int(view["engine"])] = 1
    lay.view(out, "phase")[PHASE_NAMES.index(view["phase"])] = 1
    lay.view(out, "must_play_again")[0] = bool(view["must_play_again"])
    lay.view(out, "boneyard")[0] = view["boneyard"]
    lay.view(out, "passes_with_empty_boneyard")[0] = view["passes_with_empty_boneyard"]
    lay.view(out, "round")[0] = view["round"]
    lay.view(out, "rounds_left")[0] = view["rounds"] - view["round"]
    lay.view(out, "over")[0] = bool(view["over"])


def chance_bound(game: MexicanTrain) -> int:
    """The most outcomes one random draw can have: each round shuffles the whole set."""
    return game.tileset.size


def game_length_bound(game: MexicanTrain) -> tuple[int, bool]:
    """(bound, proven). In a round of a set of T tiles and P players, each tile is played at most
    once (<= T plays) and each draw takes a tile from the boneyard (<= T draws). The other moves
    (pass, end) each close a turn; between two plays or draws at most P of them follow one
    another (with tiles left in the boneyard a turn without a play draws, except each seat's
    first turn; with the boneyard empty the round ends once every seat has passed in turn),
    plus P first-turn passes and P first-turn ends: <= P * (2T + 1) + 2P. So a round has at
    most 2T + P * (2T + 3) moves."""
    t, p = game.tileset.size, game.players
    return game.num_rounds * (2 * t + p * (2 * t + 3)), True

"""The compiled Mexican Train's observation (``batch.py``, ``observe``) as a named layout with
ranges.

The vector environment declares these ranges as its ``Box`` bounds; ``observe`` writes the values in
this order, and the environment sizes its rows by this layout, so the two cannot disagree on the
length. Trains run from the seat to act's own through the next seats' to the Mexican train
(``trains[<players>]``); hand sizes and totals run from the seat to act in turn order.
"""

from __future__ import annotations

from functools import cache

from tabletrek.core.tensors import Layout
from tabletrek.games.mexican_train.game import MexicanTrain


@cache
def obs_layout(game: MexicanTrain) -> Layout:
    ts = game.tileset
    tiles, pips, players = ts.size, ts.high + 1, game.players
    out = Layout()
    out.add("hand", tiles, "1 for each tile in the hand of the seat to act", high=1)
    for k in range(game.slots):
        train = f"trains[{k}]"
        out.add(f"{train}.end", pips, "the open end's pip value, one-hot", high=1)
        out.add(f"{train}.length", 1, "tiles in the train / tiles in the set", high=1)
        out.add(f"{train}.open_double", 1, "1 when it ends in a double still to be satisfied", high=1)
        out.add(f"{train}.marker", 1, "1 when its marker is out (always 0 for the Mexican train)", high=1)
    out.add("hand_sizes", players, "tiles in each seat's hand, from the seat to act", high=tiles)
    out.add("boneyard", 1, "tiles in the boneyard / tiles in the set", high=1)
    out.add("phase", 3, "the turn's phase, one-hot: first turn, play, drawn", high=1)
    out.add("bonus", 1, "1 after a double: the same seat plays once more", high=1)
    out.add("engine", pips, "the round's engine double, one-hot over pip values", high=1)
    out.add("round", 1, "rounds played before this one / rounds in the match", high=1)
    out.add(
        "totals",
        players,
        "each seat's cumulative points / 100 (lower is better), from the seat to act",
        high=game.num_rounds * game.most_round_points / 100,
    )
    return out

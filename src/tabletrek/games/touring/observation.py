"""Touring's observation tensor: a seat's ``view`` as a fixed layout of counts and flags.

Read by ``tabletrek.rl`` and ``tabletrek.openspiel`` (``docs/observations.md`` lists the fields).
Sizes follow the loaded game: the number of seats and teams comes from the game, the card kinds
from the deck's data. Seats and teams are relative to the observer (block 0 is the observer's).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from tabletrek.core.tensors import Layout
from tabletrek.games.touring.cards import SLUGS
from tabletrek.games.touring.game import Touring

KINDS = len(SLUGS)
MILE_KEYS = ("1", "3", "15", "30")
SPEED = ("country", "city-limits")
KIND_LIST = ", ".join(SLUGS)


@cache
def layout(game: Touring) -> Layout:
    # Tops from the deck: no pile or hand holds more cards of a kind than the deck has, nor more
    # cards than the deck; a team plays no mileage card past its required count (rules.py).
    p, t = game.players, game.teams
    deck, most_of_a_kind, most_miles = sum(game.deck_counts), max(game.deck_counts), max(game.required)
    out = Layout()
    out.add("hand", KINDS, f"cards of each kind in the observer's hand ({KIND_LIST})", high=most_of_a_kind)
    out.add("hand_counts", p, "cards in each seat's hand, observer first", high=deck)
    out.add("to_act", p, "1 for the seat to act (relative), all 0 once the game is over", high=1)
    out.add("draw_pile", 1, "cards left in the draw pile", high=deck)
    out.add("discard", KINDS, "cards of each kind in the discard pile", high=most_of_a_kind)
    out.add(
        "go_top",
        (t, KINDS + 1),
        "per team (observer's first): top of the Go pile, one-hot "
        "over the card kinds, last column = empty pile",
        high=1,
    )
    out.add("go_size", t, "per team: cards in the Go pile", high=deck)
    out.add(
        "speed_top",
        (t, len(SPEED) + 1),
        "per team: top of the speed pile: country, city-limits, empty",
        high=1,
    )
    out.add("miles", (t, len(MILE_KEYS)), "per team: mileage cards played of 1, 3, 15, 30", high=most_miles)
    out.add(
        "miles_needed",
        (t, len(MILE_KEYS)),
        "per team: mileage cards of 1, 3, 15, 30 still missing from the required set",
        high=most_miles,
    )
    out.add("moving", t, "per team: 1 when Go shows (mileage may be played)", high=1)
    out.add("limited", t, "per team: 1 when under City Limits (no 30s)", high=1)
    out.add("turn", 1, "turns played so far", high=game.max_turns)
    out.add("over", 1, "1 once the game has ended", high=1)
    return out


def encode(game: Touring, view: dict[str, Any], out: npt.NDArray[np.float32]) -> None:
    """Fill ``out`` (zeros, length ``layout(game).size``) from ``view`` (a seat's view)."""
    lay = layout(game)
    seat = int(view["seat"])
    p = game.players
    teams = len(view["tables"])
    my_team = int(view["team"])
    code = {slug: i for i, slug in enumerate(SLUGS)}
    hand = lay.view(out, "hand")
    for card in view["hand"]:
        hand[code[card]] += 1
    counts = lay.view(out, "hand_counts")
    for k in range(p):
        counts[k] = view["hand_counts"][(seat + k) % p]
    if view["to_act"] is not None:
        lay.view(out, "to_act")[(int(view["to_act"]) - seat) % p] = 1
    lay.view(out, "draw_pile")[0] = view["draw_pile"]
    discard = lay.view(out, "discard")
    for card in view["discard"]:
        discard[code[card]] += 1
    go_top, go_size = lay.view(out, "go_top"), lay.view(out, "go_size")
    speed_top, miles = lay.view(out, "speed_top"), lay.view(out, "miles")
    needed, moving, limited = lay.view(out, "miles_needed"), lay.view(out, "moving"), lay.view(out, "limited")
    required = view["required"]
    for k in range(teams):
        table = view["tables"][(my_team + k) % teams]
        go = table["go"]
        go_top[k, code[go[-1]] if go else KINDS] = 1
        go_size[k] = len(go)
        speed = table["speed"]
        speed_top[k, SPEED.index(speed[-1]) if speed else len(SPEED)] = 1
        for j, key in enumerate(MILE_KEYS):
            miles[k, j] = table["miles"][key]
            needed[k, j] = required[key] - table["miles"][key]
        moving[k] = bool(table["moving"])
        limited[k] = bool(table["limited"])
    lay.view(out, "turn")[0] = view["turn"]
    lay.view(out, "over")[0] = bool(view["over"])


def chance_bound(game: Touring) -> int:
    """The most outcomes one random draw can have: the deck's shuffle (every card), and later
    reshuffles of at most every card again."""
    return sum(game.deck_counts)


def game_length_bound(game: Touring) -> tuple[int, bool]:
    """(bound, proven): one action per turn and the game ends as a draw at ``max_turns``."""
    return game.max_turns, True

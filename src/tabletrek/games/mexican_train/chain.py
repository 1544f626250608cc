"""The longest (then heaviest) chain through a hand: a longest-trail search over a multigraph.

Pip values are the vertices and tiles the edges (a double is a loop), so a train built from a hand
is a trail — a walk that uses each edge at most once — starting at the train's open end. Finding
the longest trail is NP-hard in general, but hands are small (8–25 tiles on at most 19 vertices):
a depth-first search with a remaining-edges bound is exact within ``limit`` expansions and returns
the best trail found so far beyond it.
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletrek.games.mexican_train.tiles import TileSet

DEFAULT_LIMIT = 4000


def best_chain(ts: TileSet, hand: Sequence[int], start: int, limit: int = DEFAULT_LIMIT) -> list[int]:
    """Tiles in play order for the longest trail from ``start``; ties go to the most pips."""
    other = ts.other
    pips = ts.pips
    adjacency: dict[int, list[int]] = {}
    for tile in sorted(hand, key=lambda t: -pips[t]):
        a, b = ts.tiles[tile]
        adjacency.setdefault(a, []).append(tile)
        if b != a:
            adjacency.setdefault(b, []).append(tile)
    # Only tiles in start's connected component can ever join the trail: they bound its length.
    reach = {start}
    frontier = [start]
    while frontier:
        value = frontier.pop()
        for tile in adjacency.get(value, ()):
            nxt = other[tile][value]
            if nxt not in reach:
                reach.add(nxt)
                frontier.append(nxt)
    usable = sum(1 for t in hand if ts.tiles[t][0] in reach)
    best: list[int] = []
    best_pips = 0
    path: list[int] = []
    used: set[int] = set()
    budget = [limit]

    def search(value: int, total: int) -> None:
        nonlocal best, best_pips
        if len(path) > len(best) or (len(path) == len(best) and total > best_pips):
            best = list(path)
            best_pips = total
        if len(best) == usable:
            return  # nothing can be longer than using every reachable tile
        budget[0] -= 1
        if budget[0] < 0:
            return
        for tile in adjacency.get(value, ()):
            if tile in used:
                continue
            used.add(tile)
            path.append(tile)
            search(other[tile][value], total + pips[tile])
            path.pop()
            used.discard(tile)

    search(start, 0)
    return best

"""Domino tiles and sets: tile numbering, pips, and the set table read from ``data/sets.toml``.

A tile is an integer id into ``TileSet.tiles``, the pairs ``(low, high)`` in order
(0-0, 0-1, …, 0-n, 1-1, …, n-n). Its text is ``"low-high"``; the engine double of a round is one of
these tiles too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from tabletrek.core.data import DataError, need, package_toml
from tabletrek.core.numeric import ascii_whole, is_whole

PACKAGE = "tabletrek.games.mexican_train"
SETS_FILE = "data/sets.toml"


def tile_count(high: int) -> int:
    return (high + 1) * (high + 2) // 2


@dataclass(frozen=True)
class TileSet:
    """One domino set: every table a game needs, computed once."""

    high: int
    hand_sizes: dict[int, int]
    tiles: tuple[tuple[int, int], ...]
    texts: tuple[str, ...]
    pips: tuple[int, ...]
    is_double: tuple[bool, ...]
    double_of: tuple[int, ...]  # value -> id of its double
    by_pair: dict[tuple[int, int], int]
    # other[t][v]: the other end of tile t when it is joined at value v, or -1 if t has no v.
    other: tuple[tuple[int, ...], ...]
    with_value: tuple[tuple[int, ...], ...]  # value -> ids of the tiles showing it
    # alone[t][v]: (t,) if tile t shows v, else (): one tile grouped as ``by_value`` groups a hand.
    alone: tuple[tuple[tuple[int, ...], ...], ...]

    @property
    def size(self) -> int:
        return len(self.tiles)

    def tile_id(self, a: int, b: int) -> int:
        return self.by_pair[(min(a, b), max(a, b))]

    def parse_tile(self, text: str) -> int | None:
        """The id of a tile written ``a-b`` (either order), or None."""
        left, sep, right = text.partition("-")
        a, b = ascii_whole(left), ascii_whole(right)
        if not sep or a is None or b is None:
            return None
        return self.by_pair.get((min(a, b), max(a, b)))

    def by_value(self, tiles: list[int]) -> list[list[int]]:
        """``[v]``: the tiles of ``tiles`` that show the value ``v``, in their order there."""
        groups: list[list[int]] = [[] for _ in range(self.high + 1)]
        for tile in tiles:
            low, high = self.tiles[tile]
            groups[low].append(tile)
            if high != low:
                groups[high].append(tile)
        return groups


def build_set(high: int, hand_sizes: dict[int, int]) -> TileSet:
    tiles = tuple((a, b) for a in range(high + 1) for b in range(a, high + 1))
    by_pair = {pair: i for i, pair in enumerate(tiles)}
    other = tuple(tuple(b if v == a else a if v == b else -1 for v in range(high + 1)) for a, b in tiles)
    with_value = tuple(tuple(i for i, (a, b) in enumerate(tiles) if v in (a, b)) for v in range(high + 1))
    alone = tuple(tuple((t,) if v in tiles[t] else () for v in range(high + 1)) for t in range(len(tiles)))
    return TileSet(
        high=high,
        hand_sizes=dict(hand_sizes),
        tiles=tiles,
        texts=tuple(f"{a}-{b}" for a, b in tiles),
        pips=tuple(a + b for a, b in tiles),
        is_double=tuple(a == b for a, b in tiles),
        double_of=tuple(by_pair[(v, v)] for v in range(high + 1)),
        by_pair=by_pair,
        other=other,
        with_value=with_value,
        alone=alone,
    )


def parse_sets(source: str, data: dict[str, Any]) -> dict[int, TileSet]:
    """Validate the sets table; errors name the file and the key."""
    sets_table = need(data, "sets", dict, source)
    if not sets_table:
        raise DataError(source, "sets", "names no set")
    out: dict[int, TileSet] = {}
    for name, entry in sets_table.items():
        path = f"sets.{name}"
        high = ascii_whole(name)
        if high is None or not 1 <= high <= 18:
            raise DataError(source, path, "a set is named by its highest pip value, 1 to 18")
        if not isinstance(entry, dict):
            raise DataError(source, path, "must be a table")
        tiles = need(entry, "tiles", int, source, path)
        if tiles != tile_count(high):
            raise DataError(
                source, f"{path}.tiles", f"a double-{high} set has {tile_count(high)} tiles, not {tiles}"
            )
        hand = need(entry, "hand", dict, source, path)
        sizes: dict[int, int] = {}
        for players, size in hand.items():
            key = f"{path}.hand.{players}"
            count = ascii_whole(players)
            if count is None or not 2 <= count <= 10:
                raise DataError(source, key, "player counts run from 2 to 10")
            if not is_whole(size) or size < 1:
                raise DataError(source, key, f"must be a positive integer, not {size!r}")
            # The engine double and at least one tile to draw must remain after the deal.
            if count * size > tiles - 2:
                raise DataError(source, key, f"{players} hands of {size} leave too few of {tiles} tiles")
            sizes[count] = size
        if not sizes:
            raise DataError(source, f"{path}.hand", "names no player count")
        out[high] = build_set(high, sizes)
    return out


@cache
def tile_sets() -> dict[int, TileSet]:
    source, data = package_toml(PACKAGE, SETS_FILE)
    return parse_sets(source, data)

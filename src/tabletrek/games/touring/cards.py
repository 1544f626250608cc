"""Touring's card types and the deck data file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tabletrek.core.data import DataError, need, need_count, package_toml, read_toml
from tabletrek.core.events import text_ref

GO, M1, M3, M15, M30, COUNTRY, CITY, PUNCTURE, OOG, COLLISION, GASOLINE, HAULED = range(12)
CARD_TYPES = 12

SLUGS: tuple[str, ...] = (
    "go",
    "1",
    "3",
    "15",
    "30",
    "country",
    "city-limits",
    "puncture",
    "out-of-gasoline",
    "collision",
    "gasoline",
    "hauled-in",
)
CODE = {slug: code for code, slug in enumerate(SLUGS)}

MILEAGE = (M1, M3, M15, M30)
MILES = (1, 3, 15, 30)
"""Miles of mileage slot 0..3 (the 1, 3, 15 and 30 piles)."""
DELAYS = (PUNCTURE, OOG, COLLISION)
TARGETED = (CITY, PUNCTURE, OOG, COLLISION)
"""Cards played onto an opposing team, in action-index order."""
REMEDY_FOR = {GASOLINE: OOG, HAULED: COLLISION}
GO_ACCEPTS = (PUNCTURE, GASOLINE, HAULED)
"""Tops of a Go pile (besides an empty pile) that a Go card may cover."""

CARD_REF = tuple(text_ref(f"touring.card.{slug}") for slug in SLUGS)
"""Event arguments naming each card, shared so events allocate nothing for them."""


def is_mileage(card: int) -> bool:
    return M1 <= card <= M30


def mileage_slot(card: int) -> int:
    return card - M1


@dataclass(frozen=True, slots=True)
class DeckSpec:
    full: tuple[int, ...]
    """Count of each card type in the 99-card deck."""
    reduced: tuple[int, ...]
    """Count of each card type in the deck for 3 players / 6 in teams."""
    required_full: tuple[int, int, int, int]
    required_reduced: tuple[int, int, int, int]


def _counts(table: dict[str, object], source: str, path: str) -> tuple[int, ...]:
    counts = [0] * CARD_TYPES
    for slug in table:
        if slug not in CODE:
            raise DataError(source, f"{path}.{slug}", f"unknown card; known cards: {', '.join(SLUGS)}")
        counts[CODE[slug]] = need_count(table, slug, source, path)
    return tuple(counts)


def _required(table: dict[str, object], source: str, path: str) -> tuple[int, int, int, int]:
    for slug in table:
        if slug not in ("1", "3", "15", "30"):
            raise DataError(source, f"{path}.{slug}", "only the mileage cards 1, 3, 15, 30 can be required")
    a, b, c, d = (need_count(table, slug, source, path) for slug in ("1", "3", "15", "30"))
    if a + b + c + d == 0:
        raise DataError(source, path, "requires no mileage at all")
    return a, b, c, d


def load_deck(path: str | Path | None = None) -> DeckSpec:
    """Read and validate the deck file (the packaged one unless ``path`` is given)."""
    if path is None:
        source, data = package_toml("tabletrek.games.touring", "data/deck.toml")
    else:
        source, data = str(path), read_toml(path)
    full = _counts(need(data, "deck", dict, source), source, "deck")
    removes = _counts(need(data, "reduced_deck_removes", dict, source), source, "reduced_deck_removes")
    reduced = tuple(f - r for f, r in zip(full, removes, strict=True))
    for code, count in enumerate(reduced):
        if count < 0:
            raise DataError(
                source, f"reduced_deck_removes.{SLUGS[code]}", "removes more cards than the deck has"
            )
    required = need(data, "required", dict, source)
    spec = DeckSpec(
        full=full,
        reduced=reduced,
        required_full=_required(need(required, "full", dict, source, "required"), source, "required.full"),
        required_reduced=_required(
            need(required, "reduced", dict, source, "required"), source, "required.reduced"
        ),
    )
    for name, counts, req in (
        ("full", spec.full, spec.required_full),
        ("reduced", spec.reduced, spec.required_reduced),
    ):
        for slot, card in enumerate(MILEAGE):
            if counts[card] < req[slot]:
                raise DataError(
                    source, f"required.{name}.{SLUGS[card]}", "requires more cards than the deck has"
                )
    return spec

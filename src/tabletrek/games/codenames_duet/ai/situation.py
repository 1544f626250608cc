"""What one seat knows in Codenames Duet, in the form the AI reasons with.

The bots fill a ``Situation`` from ``state.view(seat)``; the evaluation's fast driver fills it
directly. Cells are indexed 0..24 in board order; kinds are "green", "bystander", "assassin".
"""

from __future__ import annotations

from dataclasses import dataclass, field

GREEN, BYSTANDER, ASSASSIN = "green", "bystander", "assassin"

# The key table (docs/rules/codenames-duet.md, "Setting up"): for each kind on my side, how many cells carry
# each kind on the partner's side. The guesser uses it as a prior: 1 in 3 of my assassins is the partner's
# too.
PARTNER_GIVEN_MINE: dict[str, dict[str, int]] = {
    GREEN: {GREEN: 3, BYSTANDER: 5, ASSASSIN: 1},
    BYSTANDER: {GREEN: 5, BYSTANDER: 7, ASSASSIN: 1},
    ASSASSIN: {GREEN: 1, BYSTANDER: 1, ASSASSIN: 1},
}


@dataclass(frozen=True)
class ClueRecord:
    word: str
    number: int
    giver: int  # seat
    hits: tuple[int, ...] = ()  # cells covered green by the guesses that followed this clue
    misses: tuple[int, ...] = ()  # the non-green cell that ended the guessing, if any


@dataclass
class Situation:
    """One seat's knowledge. ``found_by_me`` are cells I covered green while guessing (partner greens)."""

    seat: int
    words: tuple[str, ...]
    my_key: tuple[str, ...]
    covered: frozenset[int] = frozenset()
    # Bystander tokens: cells known to be bystanders on my side (my partner guessed them on my clues)
    # and on my partner's side (I guessed them on my partner's clues).
    bystander_for_me: frozenset[int] = frozenset()
    bystander_for_partner: frozenset[int] = frozenset()
    found_by_me: frozenset[int] = frozenset()
    clues: list[ClueRecord] = field(default_factory=list)
    tokens_left: int = 9

    def partner_clues(self) -> list[ClueRecord]:
        return [c for c in self.clues if c.giver != self.seat]

    def my_targets(self) -> list[int]:
        """My greens still to be found by my partner."""
        return [i for i, k in enumerate(self.my_key) if k == GREEN and i not in self.covered]

    def my_dangers(self) -> tuple[list[int], list[int]]:
        """Cells my partner could still wrongly touch on my clue: (bystanders, assassins) on my side."""
        open_cells = [i for i in range(len(self.words)) if i not in self.covered]
        bystanders = [i for i in open_cells if self.my_key[i] == BYSTANDER and i not in self.bystander_for_me]
        assassins = [i for i in open_cells if self.my_key[i] == ASSASSIN]
        return bystanders, assassins

    def guess_candidates(self) -> list[int]:
        """Cells that may still be green on my partner's side."""
        return [
            i for i in range(len(self.words)) if i not in self.covered and i not in self.bystander_for_partner
        ]

    def partner_priors(self) -> tuple[dict[int, float], dict[int, float]]:
        """For each candidate cell: P(green on partner's side), P(assassin on partner's side).

        Exact marginals of the key table given my side, the greens I already found (each one on a
        known kind of mine) and the bystander tokens facing me; it ignores the rarer joint effects.
        """
        candidates = self.guess_candidates()
        greens: dict[int, float] = {}
        assassins: dict[int, float] = {}
        for kind, counts in PARTNER_GIVEN_MINE.items():
            cells = [i for i in candidates if self.my_key[i] == kind]
            if not cells:
                continue
            found = sum(1 for i in self.found_by_me if self.my_key[i] == kind)
            green_left = max(counts[GREEN] - found, 0)
            for i in cells:
                greens[i] = green_left / len(cells)
                assassins[i] = counts[ASSASSIN] / len(cells)
        return greens, assassins

"""Building Double Crossing positions for scenario tests: a clean table, scripted dice, helpers."""

from __future__ import annotations

import random
from typing import Any

from tabletrek.core.registry import load
from tabletrek.games.double_crossing.content import CAR_CODE, CARD_CODE, CARD_TYPES
from tabletrek.games.double_crossing.rules import step_from_dict
from tabletrek.games.double_crossing.state import DoubleCrossingState

START = 1_500_000


class Dice(random.Random):
    """An RNG whose ``randint`` returns scripted values first (dice), then random ones."""

    def __init__(self, rolls: list[int]) -> None:
        super().__init__(0)
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        if self.rolls:
            value = self.rolls.pop(0)
            assert a <= value <= b, f"scripted {value} outside {a}..{b}"
            return value
        return super().randint(a, b)


def table(players: int = 4, seat: int = 0, **options: Any) -> DoubleCrossingState:
    """Everyone off the track with $1.5M, no cars, no cards, no contracts; ``seat`` about to roll."""
    game = load("double-crossing", players=players, **options)
    s = game.new_game(seed=1)
    assert isinstance(s, DoubleCrossingState)
    c = s.content
    s.pos = [-1] * players
    s.cash = [START] * players
    s.depot = c.depot_refill
    s.bank = c.bank_total - START * players - c.depot_refill
    s.yard = list(c.car_counts)
    s.cars = [[0] * 4 for _ in range(players)]
    s.owner = [-1] * len(c.contracts)
    s.dropped = {}
    s.draw = [card for card in range(CARD_TYPES) for _ in range(c.crew[card])]
    s.rng.shuffle(s.draw)
    s.discard = []
    s.hands = [[0] * CARD_TYPES for _ in range(players)]
    s.first = 0
    s.rounds = 1
    start_turn(s, seat)
    return s


def start_turn(s: DoubleCrossingState, seat: int) -> None:
    """``seat``'s turn, past the Stop window, before the roll."""
    s.turn_seat = seat
    s.again = s.hard_end = s.engineer_ok = s.used_villain = s.used_engineer = False
    s.stops_left = s.game.stops_per_turn
    s.crew_used = 0
    s.stack = [step_from_dict({"k": "preroll", "seat": seat})]
    s._legal = None


def dice(s: DoubleCrossingState, *rolls: int) -> None:
    s.rng = Dice(list(rolls))


def cars(s: DoubleCrossingState, seat: int, **counts: int) -> None:
    for slug, n in counts.items():
        car = CAR_CODE[slug]
        assert s.yard[car] >= n
        s.yard[car] -= n
        s.cars[seat][car] += n


def cards(s: DoubleCrossingState, seat: int, **counts: int) -> None:
    for slug, n in counts.items():
        card = CARD_CODE[slug]
        for _ in range(n):
            s.draw.remove(card)
            s.hands[seat][card] += 1


def cash(s: DoubleCrossingState, seat: int, amount: int) -> None:
    s.bank += s.cash[seat] - amount
    s.cash[seat] = amount


def contract(s: DoubleCrossingState, slug: str) -> int:
    return next(k.index for k in s.content.contracts if k.slug == slug)


def give(s: DoubleCrossingState, seat: int, *slugs: str) -> None:
    for slug in slugs:
        s.owner[contract(s, slug)] = seat


def give_any(s: DoubleCrossingState, seat: int, n: int) -> None:
    free = [k for k, o in enumerate(s.owner) if o < 0]
    for k in free[:n]:
        s.owner[k] = seat


def space(s: DoubleCrossingState, kind: str, nth: int = 0) -> int:
    return [i for i, sp in enumerate(s.content.spaces) if sp.kind == kind][nth]


def land(s: DoubleCrossingState, seat: int, target: int, a: int = 2, b: int = 3, *more: int) -> list[Any]:
    """Put ``seat`` so that rolling a+b reaches ``target``, script the dice, and roll."""
    size = s.content.size
    s.pos[seat] = (target - a - b) % size
    dice(s, a, b, *more)
    return s.apply("roll")


def end_turn(s: DoubleCrossingState) -> None:
    """Answer the end-of-turn prompt (asked whether or not an Engineer is held)."""
    assert s.pending is not None and s.pending["k"] == "end", s.pending
    s.apply("end")


def texts(s: DoubleCrossingState) -> list[str]:
    return [a.text for a in s.legal_actions()]


def conserved(s: DoubleCrossingState) -> None:
    c = s.content
    assert s.money_total() == c.bank_total
    assert s.car_totals() == list(c.car_counts)
    assert s.card_totals() == list(c.crew)
    assert all(x >= 0 for x in s.cash) and s.bank >= 0


def illegal_key(s: DoubleCrossingState, text: str) -> str:
    """The i18n key of the reason ``text`` is refused; the state is left unchanged."""
    import pytest

    from tabletrek.core.actions import IllegalAction

    before = s.to_json()
    with pytest.raises(IllegalAction) as info:
        s.apply(text)
    assert s.to_json() == before
    return info.value.key

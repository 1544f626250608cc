"""The kinds of Double Crossing moves (an action decodes to (kind, a, b))."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tabletrek.core.actions import Action

# Action kinds.
(
    PASS,
    REACT,
    ROLL,
    VILLAIN,
    BUY_CARDS,
    BUY_N,
    DISCARD,
    DROP,
    SELL_CAR,
    SELL_CONTRACT,
    TRADE,
    DONE,
    BUY_CAR,
    DECLINE,
    CONNECT,
    DOUBLE_CROSS,
    GO,
    MOVE,
    RETURN,
    ENGINEER,
    END,
) = range(21)

ROLL_WORDS = ("roll", "roll slow", "roll back", "roll slow back")
"""Roll variants: bit 0 = slow (one die), bit 1 = back (counter-clockwise)."""
ROLL_CREW = (0, 1, 1, 2)
"""Railroad Crew cards each roll variant costs."""


class Menu:
    """The game's actions grouped as the steps offer them, built once per game (``game.menu``), so
    listing a step's candidates copies no tuples and builds no actions."""

    def __init__(
        self, act: Callable[..., Action], players: int, spaces: int, companies: Sequence[int]
    ) -> None:
        """``companies``: each contract's company, in contract order."""
        contracts = len(companies)
        self.pass_only = [act(PASS)]
        self.pass_react = [act(PASS), act(REACT)]
        self.roll = tuple(act(ROLL, variant) for variant in range(len(ROLL_WORDS)))
        self.villain = tuple(act(VILLAIN, seat) for seat in range(players))
        self.buy_cards = act(BUY_CARDS)
        self.buy_n = tuple(act(BUY_N, n) for n in range(7))
        self.discard = tuple(act(DISCARD, card) for card in range(4))
        self.drop = tuple(act(DROP, car) for car in range(4))
        self.sell_car = tuple(act(SELL_CAR, car) for car in range(4))
        self.buy_car = tuple(act(BUY_CAR, car) for car in range(4))
        self.sell_contract = tuple(act(SELL_CONTRACT, k) for k in range(contracts))
        self.trade = tuple(act(TRADE, k) for k in range(contracts))
        self.trade_at = tuple(
            tuple(act(TRADE, k) for k in range(contracts) if companies[k] == company)
            for company in range(max(companies, default=-1) + 1)
        )
        """Each company's contracts, the moves its Trade space can offer."""
        self.connect = tuple(act(CONNECT, k) for k in range(contracts))
        self.double_cross = tuple(act(DOUBLE_CROSS, k) for k in range(contracts))
        self.give_back = tuple(act(RETURN, k) for k in range(contracts))
        self.done = act(DONE)
        self.decline = act(DECLINE)
        self.go = tuple(act(GO, space) for space in range(spaces))
        self.move = tuple(tuple(act(MOVE, seat, space) for space in range(spaces)) for seat in range(players))
        """Per seat, the Control Tower's moves of that seat's token."""
        self.tower = tuple(
            tuple(act for other, acts in enumerate(self.move) if other != seat for act in acts)
            for seat in range(players)
        )
        """Per seat, the Control Tower's moves of the other seats' tokens (its own is no move)."""
        self.engineer_end = [act(ENGINEER), act(END)]
        self.end_only = [act(END)]

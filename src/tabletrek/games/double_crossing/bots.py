"""The ``trader`` bot: buys the cars its target contracts need, trades whenever it can, keeps cash
for taxes, and uses its cards on the leader.

It reads only what its seat may know: public parts of the state (positions, racks, cash,
contracts, the board) and its own hand — never other hands or the draw pile's order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletrek.core.bots import check_turn
from tabletrek.core.errors import UsageError
from tabletrek.core.rng import make_rng
from tabletrek.games.double_crossing.content import (
    CAR_TYPES,
    CARD_TYPES,
    CREW,
    ENGINEER,
    PASSENGER,
    STOP,
    VILLAIN,
    half,
)
from tabletrek.games.double_crossing.effects import has_cars
from tabletrek.games.double_crossing.moves import (
    BUY_CAR,
    BUY_N,
    CONNECT,
    DECLINE,
    DISCARD,
    DONE,
    DOUBLE_CROSS,
    DROP,
    END,
    GO,
    MOVE,
    PASS,
    REACT,
    RETURN,
    ROLL,
    ROLL_CREW,
    SELL_CAR,
    SELL_CONTRACT,
    TRADE,
)
from tabletrek.games.double_crossing.moves import ENGINEER as USE_ENGINEER
from tabletrek.games.double_crossing.moves import VILLAIN as PLAY_VILLAIN

if TYPE_CHECKING:
    from tabletrek.core.actions import Action
    from tabletrek.games.double_crossing.game import DoubleCrossing
    from tabletrek.games.double_crossing.state import DoubleCrossingState

By = dict[int, list[tuple[int, int, "Action"]]]
CARD_KEEP = {CREW: 1.0, VILLAIN: 2.0, STOP: 2.5, ENGINEER: 3.0}
TWO_DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]


class TraderBot:
    name = "trader"

    def __init__(self, game: DoubleCrossing, *, seat: int, seed: int, **params: Any) -> None:
        if params:
            raise UsageError("core.error.bot_no_params", bot="trader", names=sorted(params))
        self.game = game
        self.seat = seat
        self.rng = make_rng(seed)
        self.reserve = max([s.amount for s in game.content.spaces] + [0])

    # ----- what the bot wants -----------------------------------------------------------------------

    def demand(self, s: DoubleCrossingState) -> list[int]:
        """Cars still missing for the (up to four) open contracts closest to completion."""
        have = s.cars[self.seat]
        open_ = [k for k in s.content.contracts if s.owner[k.index] < 0]

        def missing(k: Any) -> int:
            return sum(max(0, n - h) for n, h in zip(k.cars, have, strict=True))

        open_.sort(key=lambda k: (missing(k), k.price, k.index))
        want = [0] * CAR_TYPES
        for k in open_[:4]:
            for car in range(CAR_TYPES):
                want[car] = max(want[car], k.cars[car] - have[car])
        return want

    def leader(self, s: DoubleCrossingState, among: list[int]) -> int:
        return max(among, key=lambda o: (s.owner.count(o), sum(s.cars[o]), s.cash[o], -o))

    def space_value(self, s: DoubleCrossingState, space: int, want: list[int]) -> float:
        c = s.content
        seat = self.seat
        sp = c.spaces[space]
        kind = sp.kind
        value = 0.0
        lying = s.dropped.get(space)
        if lying:
            value += sum(lying)
        if any(p == space for o, p in enumerate(s.pos) if o != seat):
            value += 0.8
        cash = s.cash[seat]
        if kind == "central" and s.can_win(seat):
            return 100.0
        if kind in ("central", "corner"):
            value += 0.3 + s.cars[seat][PASSENGER] * (s.game.players - 1) * c.corner_fare / 100_000
        elif kind == "trade":
            ready = sum(
                1
                for k in c.contracts
                if k.company == sp.company
                and s.owner[k.index] < 0
                and cash >= k.price
                and has_cars(s, seat, k.index)
            )
            value += 3.0 * min(ready, 3)
        elif kind == "yard":
            if want[sp.car] and s.yard[sp.car] and cash >= c.car_prices[sp.car] + self.reserve:
                value += 1.2
        elif kind == "train-shop":
            value += 0.8
        elif kind in ("govt-contract", "crew-cards"):
            value += 0.3
        elif kind == "roll-again":
            value += 0.8
        elif kind == "stop":
            value -= 0.5
        elif kind == "pay-taxes":
            value -= sp.amount / 100_000
        elif kind == "derail":
            value += 0.0 if lying else -1.0 if sum(s.cars[seat]) else 0.0
        elif kind == "double-cross":
            value += 1.5 if any(o >= 0 and o != seat for o in s.owner) else 0.0
        elif kind in ("roundhouse", "control-tower"):
            value += 0.5
        elif kind == "depot":
            value += s.depot / 100_000
        elif kind == "dissatisfied-customer":
            value -= 1.5 if s.owner.count(seat) else 0.0
        elif kind == "connections":
            value += (
                2.5
                if any(
                    o < 0
                    and cash >= half(c.contracts[k].price)
                    and (not s.game.connections_needs_cars or has_cars(s, seat, k))
                    for k, o in enumerate(s.owner)
                )
                else 0.0
            )
        return value

    def roll_value(self, s: DoubleCrossingState, variant: int, want: list[int]) -> float:
        size = s.content.size
        slow, back = bool(variant & 1), bool(variant & 2)
        outcomes = [(a,) for a in range(1, 7)] if slow else TWO_DICE
        win = s.can_win(self.seat) and not s.game.exact_return
        start = s.pos[self.seat]
        total = 0.0
        for dice in outcomes:
            steps = sum(dice)
            pos = start
            passed = False
            for _ in range(steps):
                pos = 0 if pos < 0 else (pos + (-1 if back else 1)) % size
                passed = passed or pos == 0
            total += 100.0 if win and passed else self.space_value(s, pos, want)
        return total / len(outcomes) - 0.8 * ROLL_CREW[variant]

    # ----- acting ---------------------------------------------------------------------------------------

    def act(self, state: DoubleCrossingState) -> Action:
        check_turn(self, state)
        s = state
        legal = s.legal_actions()
        if len(legal) == 1:
            return legal[0]
        g = self.game
        by_kind: By = {}
        for action in legal:
            kind, a, b = g.decode[action.index]
            by_kind.setdefault(kind, []).append((a, b, action))
        task = s.pending
        assert task is not None
        handler = getattr(self, f"_on_{task['k']}")
        choice: Action = handler(s, task, by_kind, legal)
        return choice

    def _on_window(self, s: DoubleCrossingState, task: dict[str, Any], by: By, legal: list[Action]) -> Action:
        target = task["target"]
        if REACT in by and (s.owner.count(target) >= s.owner.count(self.seat) or s.can_win(target)):
            return by[REACT][0][2]
        return by[PASS][0][2]

    def _on_preroll(
        self, s: DoubleCrossingState, task: dict[str, Any], by: By, legal: list[Action]
    ) -> Action:
        if PLAY_VILLAIN in by:
            targets = [a for a, _, _ in by[PLAY_VILLAIN]]
            best = self.leader(s, targets)
            if s.owner.count(best) >= s.owner.count(self.seat) - 1:
                return next(act for a, _, act in by[PLAY_VILLAIN] if a == best)
        want = self.demand(s)
        scored = [(self.roll_value(s, a, want), -a, act) for a, _, act in by[ROLL]]
        scored.sort(key=lambda t: (t[0], t[1]), reverse=True)
        return scored[0][2]

    def _on_buy_cards(
        self, s: DoubleCrossingState, task: dict[str, Any], by: By, legal: list[Action]
    ) -> Action:
        most = max(a for a, _, _ in by[BUY_N])
        cash = s.cash[self.seat]
        hand = sum(s.hands[self.seat])
        # Cards are a luxury: money buys contracts. Refill an empty hand only when rich.
        n = min(most, 1) if hand == 0 and cash >= 1_200_000 else 0
        return self.game.act(BUY_N, n)

    def _on_discard(
        self, s: DoubleCrossingState, task: dict[str, Any], by: By, legal: list[Action]
    ) -> Action:
        hand = s.hands[self.seat]
        card = min((c for c in range(CARD_TYPES) if hand[c]), key=lambda c: (CARD_KEEP[c] - 0.1 * hand[c], c))
        return self.game.act(DISCARD, card)

    def _least_wanted(self, s: DoubleCrossingState, kinds: list[int]) -> int:
        want = self.demand(s)
        prices = s.content.car_prices
        return min(kinds, key=lambda t: (want[t] > 0, want[t], prices[t], t))

    def _on_drop(self, s: DoubleCrossingState, task: dict[str, Any], by: By, legal: list[Action]) -> Action:
        return self.game.act(DROP, self._least_wanted(s, [a for a, _, _ in by[DROP]]))

    def _on_rack(self, s: DoubleCrossingState, task: dict[str, Any], by: By, legal: list[Action]) -> Action:
        return self.game.act(SELL_CAR, self._least_wanted(s, [a for a, _, _ in by[SELL_CAR]]))

    def _on_pay(self, s: DoubleCrossingState, task: dict[str, Any], by: By, legal: list[Action]) -> Action:
        if SELL_CAR in by:
            return self.game.act(SELL_CAR, self._least_wanted(s, [a for a, _, _ in by[SELL_CAR]]))
        contracts = s.content.contracts
        return self.game.act(
            SELL_CONTRACT, max((a for a, _, _ in by[SELL_CONTRACT]), key=lambda k: contracts[k].price)
        )

    def _on_trade(self, s: DoubleCrossingState, task: dict[str, Any], by: By, legal: list[Action]) -> Action:
        if TRADE not in by:
            return by[DONE][0][2]
        contracts = s.content.contracts
        k = min((a for a, _, _ in by[TRADE]), key=lambda k: (sum(contracts[k].cars), contracts[k].price, k))
        return self.game.act(TRADE, k)

    def _on_yard(self, s: DoubleCrossingState, task: dict[str, Any], by: By, legal: list[Action]) -> Action:
        car = task["car"]
        c = s.content
        room = sum(s.cars[self.seat]) < c.rack_limit
        if self.demand(s)[car] and room and s.cash[self.seat] >= c.car_prices[car] + self.reserve:
            return self.game.act(BUY_CAR, car)
        return self.game.act(DECLINE)

    def _on_connect(
        self, s: DoubleCrossingState, task: dict[str, Any], by: By, legal: list[Action]
    ) -> Action:
        if CONNECT not in by:
            return self.game.act(DECLINE)
        contracts = s.content.contracts
        return self.game.act(
            CONNECT, max((a for a, _, _ in by[CONNECT]), key=lambda k: (contracts[k].price, -k))
        )

    def _on_double_cross(
        self, s: DoubleCrossingState, task: dict[str, Any], by: By, legal: list[Action]
    ) -> Action:
        options = [a for a, _, _ in by[DOUBLE_CROSS]]
        victim = self.leader(s, sorted({s.owner[k] for k in options}))
        return self.game.act(DOUBLE_CROSS, min(k for k in options if s.owner[k] == victim))

    def _on_roundhouse(
        self, s: DoubleCrossingState, task: dict[str, Any], by: By, legal: list[Action]
    ) -> Action:
        want = self.demand(s)
        spaces = [a for a, _, _ in by[GO]]
        best = max(spaces, key=lambda sp: (self.space_value(s, sp, want), -sp))
        if DECLINE in by and self.space_value(s, best, want) <= 0.0:
            return self.game.act(DECLINE)  # nowhere better than staying put
        return self.game.act(GO, best)

    def _on_tower(self, s: DoubleCrossingState, task: dict[str, Any], by: By, legal: list[Action]) -> Action:
        others = sorted({a for a, _, _ in by[MOVE]})
        victim = self.leader(s, others)
        spaces = s.content.spaces
        allowed = [b for a, b, _ in by[MOVE] if a == victim]

        def harm(sp: int) -> tuple[float, int]:
            kind = spaces[sp].kind
            if kind == "dissatisfied-customer" and s.owner.count(victim):
                return (3.0, -sp)
            if kind == "pay-taxes":
                return (spaces[sp].amount / 100_000, -sp)
            if kind == "stop":
                return (0.5, -sp)
            if kind == "control-tower":
                return (-2.0, -sp)  # the victim would move someone else: likely us
            return (-1.0 if sp in s.dropped or kind in ("central", "corner", "trade") else 0.0, -sp)

        target = max(allowed, key=harm)
        if DECLINE in by and harm(target)[0] < 0.0:
            return self.game.act(DECLINE)  # every space would help the leader
        return self.game.act(MOVE, victim, target)

    def _on_return(self, s: DoubleCrossingState, task: dict[str, Any], by: By, legal: list[Action]) -> Action:
        contracts = s.content.contracts
        return self.game.act(
            RETURN, min((a for a, _, _ in by[RETURN]), key=lambda k: (contracts[k].price, k))
        )

    def _on_end(self, s: DoubleCrossingState, task: dict[str, Any], by: By, legal: list[Action]) -> Action:
        return self.game.act(USE_ENGINEER) if USE_ENGINEER in by else self.game.act(END)

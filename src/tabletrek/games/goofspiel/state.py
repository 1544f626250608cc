"""A Goofspiel game in progress: hands, the prize, this round's face-down bids, prizes won."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.events import Event
from tabletrek.core.rng import make_rng
from tabletrek.core.state import Result, State
from tabletrek.games.goofspiel import rules, views

if TYPE_CHECKING:
    from tabletrek.games.goofspiel.game import Goofspiel


class GoofspielState(State):
    game: Goofspiel

    def __init__(self, game: Goofspiel) -> None:
        self.game = game
        self.hands: list[list[int]] = []
        self.prizes_left: list[int] = []
        self.prize: int | None = None
        self.pot: list[int] = []
        """Prizes carried over from tied rounds (option ``ties="carry"``), won with the next one."""
        self.bids: list[int | None] = []
        self.won: list[list[int]] = []
        self.rounds: list[dict[str, Any]] = []
        self.to_act: int | None = None

    def deal(self) -> list[Event]:
        return rules.deal(self)

    # ----- the contract -------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return self.to_act

    @property
    def is_over(self) -> bool:
        return self.to_act is None

    @property
    def scores(self) -> tuple[float, ...]:
        return tuple(float(sum(prizes)) for prizes in self.won)

    @property
    def result(self) -> Result | None:
        if not self.is_over:
            return None
        scores = self.scores
        best = max(scores)
        winners = tuple(s for s, score in enumerate(scores) if score == best)
        if len(winners) == len(scores):
            return Result((), scores, (0.0,) * len(scores), "goofspiel.end.draw")
        returns = tuple(1.0 if s in winners else -1.0 for s in range(len(scores)))
        return Result(winners, scores, returns, "goofspiel.end.complete")

    def _legal_actions(self) -> list[Action]:
        return [self.game.action(card - 1) for card in rules.legal_bids(self)]

    def _apply(self, action: Action) -> list[Event]:
        return rules.bid(self, action.index + 1)

    def explain(self, text: str) -> IllegalAction:
        return rules.explain(self, text)

    def view(self, seat: int) -> dict[str, Any]:
        return views.seat_view(self, seat)

    def public_view(self) -> dict[str, Any]:
        return views.public_view(self)

    def determinize(self, seat: int, rng: random.Random) -> GoofspielState:
        """This round's face-down bids of the other seats resampled from their hands, and the
        prize draws to come reseeded: all else is open."""
        other = self.clone()
        other.rng = make_rng(rng.getrandbits(63))
        for s, card in enumerate(self.bids):
            if card is not None and s != seat:
                pool = sorted([*other.hands[s], card])
                pick = pool[rng.randrange(len(pool))]
                pool.remove(pick)
                other.hands[s] = pool
                other.bids[s] = pick
        return other

    def clone(self) -> GoofspielState:
        other = GoofspielState(self.game)
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        self._copy_base_into(other, rng)
        other.hands = [list(hand) for hand in self.hands]
        other.prizes_left = list(self.prizes_left)
        other.prize = self.prize
        other.pot = list(self.pot)
        other.bids = list(self.bids)
        other.won = [list(prizes) for prizes in self.won]
        other.rounds = [dict(r, bids=list(r["bids"])) for r in self.rounds]
        other.to_act = self.to_act
        return other

    def _dump(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "prizes_left": self.prizes_left,
            "prize": self.prize,
            "pot": self.pot,
            "bids": self.bids,
            "won": self.won,
            "rounds": self.rounds,
            "to_act": self.to_act,
        }

    def _load(self, data: Mapping[str, Any]) -> None:
        players, cards = self.game.players, self.game.cards

        def card_list(value: Any) -> list[int]:
            if not isinstance(value, list) or not all(isinstance(c, int) and 1 <= c <= cards for c in value):
                raise ValueError(f"not a list of cards 1..{cards}: {value!r}")
            return [int(c) for c in value]

        self.hands = [card_list(h) for h in data["hands"]]
        self.won = [card_list(w) for w in data["won"]]
        self.bids = [None if b is None else card_list([b])[0] for b in data["bids"]]
        if not len(self.hands) == len(self.won) == len(self.bids) == players:
            raise ValueError(f"hands, bids and prizes won must be given for {players} seats")
        self.prizes_left = card_list(data["prizes_left"])
        self.pot = card_list(data["pot"])
        self.prize = None if data["prize"] is None else card_list([data["prize"]])[0]
        self.rounds = [dict(r) for r in data["rounds"]]
        to_act = data["to_act"]
        if to_act is not None and (not isinstance(to_act, int) or not 0 <= to_act < players):
            raise ValueError(f"no seat {to_act!r} to act")
        self.to_act = to_act

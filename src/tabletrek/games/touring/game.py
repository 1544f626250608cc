"""The Touring game: player counts and teams, options, the deck, the action space, bots and search."""

from __future__ import annotations

import os
from typing import Any, ClassVar

from tabletrek.core.actions import Action
from tabletrek.core.events import Event
from tabletrek.core.game import BotFactory, Game
from tabletrek.core.options import OptionSpec
from tabletrek.core.rng import make_rng
from tabletrek.core.search import Belief, Evaluator, PairedPlayouts, RolloutPolicy, SearchSupport
from tabletrek.core.terminal import TextUI
from tabletrek.games.touring import rules
from tabletrek.games.touring.bots import GreedyBot
from tabletrek.games.touring.cards import CARD_TYPES, MILEAGE, MILES, SLUGS, TARGETED, DeckSpec, load_deck
from tabletrek.games.touring.rollout import evaluate, greedy_policy
from tabletrek.games.touring.rules import (
    DISCARD_BASE,
    NUM_ACTIONS,
    PASS,
    VARIANT_WORD,
    target_index,
)
from tabletrek.games.touring.state import TouringState
from tabletrek.games.touring.text import TouringTextUI

TEAMS = {2: 2, 3: 3, 4: 2, 5: 5, 6: 3}
REDUCED_DECK = (3, 5, 6)
"""Player counts that play with the 96-card deck and the 70-mile set: 3 and 6, and 5 (five
players play individually like three): docs/rules/touring.md, "Players and cards"."""

_DECK: DeckSpec | None = None


def default_deck() -> DeckSpec:
    global _DECK
    if _DECK is None:
        _DECK = load_deck()
    return _DECK


class Touring(Game[TouringState]):
    name = "touring"
    package = "tabletrek.games.touring"
    player_counts = (2, 3, 4, 5, 6)
    default_players = 2
    searchable = True
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("free_discard", False, "touring.option.free_discard"),
        OptionSpec("max_turns", 2000, "touring.option.max_turns", kind=int, minimum=1),
        # Go is the first card of a player's area (docs/rules/touring.md, "Your piles"); records made
        # before this option existed let Country come first.
        OptionSpec("country_first", False, "touring.option.country_first", legacy=True),
    )

    def _setup(self) -> None:
        deck = default_deck()
        reduced = self.players in REDUCED_DECK
        self.teams: int = TEAMS[self.players]
        self.deck_counts: tuple[int, ...] = deck.reduced if reduced else deck.full
        self.required: tuple[int, int, int, int] = deck.required_reduced if reduced else deck.required_full
        self.goal_miles: int = sum(n * m for n, m in zip(self.required, MILES, strict=True))
        self.team_of: tuple[int, ...] = tuple(s % self.teams for s in range(self.players))
        self.members: tuple[tuple[int, ...], ...] = tuple(
            tuple(s for s in range(self.players) if s % self.teams == t) for t in range(self.teams)
        )
        self.team_games = self.players > self.teams
        self.free_discard: bool = self.options["free_discard"]
        self.max_turns: int = self.options["max_turns"]
        self.country_first: bool = self.options["country_first"]
        self.miles_events: tuple[tuple[dict[int, Event], ...], ...] = tuple(
            tuple({} for _ in MILEAGE) for _ in range(self.players)
        )
        """A mileage play's event by seat, mileage card and the table's new total, made on its first
        use and shared after (events are immutable, and a table's total takes at most
        ``goal_miles`` + 1 values), rather than built afresh for every mileage card played."""
        self._actions = self._action_list()
        self._by_text = {a.text: a for a in self._actions if a.text}
        self.attacks: tuple[tuple[tuple[tuple[int, int, Action], ...], ...], ...] = tuple(
            tuple(
                tuple(
                    (victim, variant, self._actions[target_index(TARGETED.index(card), victim, variant)])
                    for victim in range(self.teams)
                    if victim != team
                    for variant in rules.ATTACK_VARIANTS[card]
                )
                if card in TARGETED
                else ()
                for card in range(CARD_TYPES)
            )
            for team in range(self.teams)
        )
        """By attacking team and card code: every (opposing table, variant, action) a targeted card
        might be played as, for the rules to check (a tuple by code: cheaper to index than a dict)."""

    def _action_list(self) -> list[Action]:
        """Every action, built once: the rules hand out these objects. Indices that name no move
        in this player count hold a placeholder with empty text."""
        actions = [Action(i, "") for i in range(NUM_ACTIONS)]
        for card in range(CARD_TYPES):
            if card not in TARGETED:
                actions[card] = Action(card, f"play {SLUGS[card]}")
            actions[DISCARD_BASE + card] = rules.DISCARD[card]
        for slot, card in enumerate(TARGETED):
            for team in range(self.teams):
                for variant in rules.ATTACK_VARIANTS[card]:
                    index = target_index(slot, team, variant)
                    words = ["play", SLUGS[card], self.target_label(team)]
                    if variant:
                        words.append(VARIANT_WORD[variant])
                    actions[index] = Action(index, " ".join(words))
        actions[PASS] = Action(PASS, "pass")
        return actions

    def target_label(self, team: int) -> str:
        """How action texts name an opposing table: its seat (p2) or, in team games, team (t2)."""
        return f"t{team + 1}" if self.team_games else f"p{team + 1}"

    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    def action(self, index: int) -> Action:
        action = self._actions[index] if 0 <= index < NUM_ACTIONS else None
        if action is None or not action.text:
            raise ValueError(f"touring with {self.players} players has no action {index}")
        return action

    def action_by_text(self, text: str) -> Action | None:
        return self._by_text.get(text)

    def _blank_state(self) -> TouringState:
        return TouringState.__new__(TouringState)

    def _start(self, seed: int) -> TouringState:
        state = self._blank_state()
        state._init_base(self, seed, make_rng(seed))
        rules.deal(state)
        return state

    def _bot_factories(self) -> dict[str, BotFactory[TouringState]]:
        return {"greedy": GreedyBot}

    def terminal(self) -> TextUI:
        return TouringTextUI(self)

    # ----- search support -----------------------------------------------------------------------

    def rollout_policy(self) -> RolloutPolicy[TouringState]:
        return greedy_policy  # greedy's scores, no view dicts

    def search_defaults(self) -> dict[str, Any]:
        # Both measured in docs/research.md: with numba ("Compiled playouts", "Deeper cuts")
        # thousands of paired playouts fit in 100 ms, on two threads where there are two cores
        # (the threads change only how soon the move comes); in Python ~150 do, which the tree
        # uses best.
        if self.paired_playouts() is not None:
            threads = min(2, os.cpu_count() or 1)
            # Two players' cut playouts are scored by the value network, which stays accurate
            # nearer the move than the logistic model: cut at 40 moves, not 60 (docs/research.md,
            # "A value network for cut playouts").
            return {
                "paired": True,
                "infer": True,
                "iterations": 8000,
                "rollout_depth": 40 if self.players == 2 else 60,
                "z": 1.5,
                "threads": threads,
            }
        return {"iterations": 150, "rollout_depth": 60, "trust": 30}

    def paired_playouts(self) -> PairedPlayouts[TouringState] | None:
        try:
            from tabletrek.games.touring import kernel, worlds  # noqa: PLC0415 - extra [search] (numba)
        except ImportError:  # no numpy: the [search] extra is not installed
            return None
        return worlds.prepare if kernel.available() else None

    def search_belief(self, seat: int, seed: int) -> Belief[TouringState] | None:
        if self.paired_playouts() is None:
            return None
        from tabletrek.games.touring.worlds import HandBelief  # noqa: PLC0415 - extra [search] (numpy)

        return HandBelief(seat, seed)

    def prepare_search(self) -> None:
        playouts = self.paired_playouts()
        if playouts is None:
            return
        # One belief update and one paired batch compile (or load) everything a search move runs.
        state = self.new_game(seed=0)
        mover = state.current_player
        assert mover is not None
        watcher = (mover + 1) % self.players
        belief = self.search_belief(watcher, 0)
        action = state.legal_actions()[0]
        if belief is not None:
            belief.observe(state, action)
        state.apply(action)
        depth = self.search_defaults()["rollout_depth"]
        playouts(state, watcher, belief, depth)([state.legal_actions()[0].index], [0])

    def evaluator(self) -> Evaluator[TouringState]:
        return evaluate

    def search(self) -> SearchSupport[TouringState]:
        paired = self.paired_playouts()
        return SearchSupport(
            defaults=self.search_defaults(),
            policy=self.rollout_policy(),
            evaluate=self.evaluator(),
            paired=paired,
            belief=self.search_belief if paired is not None else None,
            prepare=self.prepare_search,
        )

"""Why a Touring move is illegal: the rule that forbids it, as an i18n-keyed IllegalAction."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletrek.core.actions import IllegalAction
from tabletrek.core.state import normalize_text
from tabletrek.games.touring.cards import (
    CARD_REF,
    CITY,
    CODE,
    COLLISION,
    COUNTRY,
    GO,
    REMEDY_FOR,
    SLUGS,
    TARGETED,
    is_mileage,
    mileage_slot,
)
from tabletrek.games.touring.rules import VARIANT_WORD, collision_variants

if TYPE_CHECKING:
    from tabletrek.games.touring.rules import TouringState


def explain(state: TouringState, text: str) -> IllegalAction:
    game = state.game
    words = normalize_text(text).split()
    if not words or words[0] not in ("play", "discard", "pass"):
        return IllegalAction("touring.illegal.unknown", action=text)
    seat = state.to_act
    team = game.team_of[seat]
    hand = state.hands[seat]
    if words[0] == "pass":
        return IllegalAction("touring.illegal.pass")
    if len(words) < 2 or words[1] not in CODE:
        return IllegalAction("touring.illegal.unknown_card", action=text, cards=", ".join(SLUGS))
    card = CODE[words[1]]
    card_name = CARD_REF[card]
    if card not in hand:
        return IllegalAction("touring.illegal.not_in_hand", card=card_name)
    if words[0] == "discard":
        if len(words) > 2:
            return IllegalAction("touring.illegal.unknown", action=text)
        return IllegalAction("touring.illegal.must_play")
    if card in TARGETED:
        return _explain_attack(state, card, words[2:], team, text)
    if len(words) > 2:
        return IllegalAction("touring.illegal.no_target", card=card_name)
    return _explain_own(state, card, team)


def _explain_own(state: TouringState, card: int, team: int) -> IllegalAction:
    go_top = state.go_top(team)
    if card == GO:
        if go_top == GO:
            return IllegalAction("touring.illegal.go_on_go")
        return IllegalAction("touring.illegal.go_needs_remedy", top=CARD_REF[go_top or GO])
    if is_mileage(card):
        if go_top != GO:
            return IllegalAction("touring.illegal.no_go")
        slot = mileage_slot(card)
        return IllegalAction(
            "touring.illegal.pile_full", card=CARD_REF[card], count=state.game.required[slot]
        )
    if card == COUNTRY and not state.go[team] and not state.game.country_first:
        return IllegalAction("touring.illegal.go_first")
    if card == COUNTRY:
        return IllegalAction("touring.illegal.already_country")
    return IllegalAction(
        "touring.illegal.remedy_mismatch", card=CARD_REF[card], needs=CARD_REF[REMEDY_FOR[card]]
    )


def _explain_attack(state: TouringState, card: int, rest: list[str], team: int, text: str) -> IllegalAction:
    game = state.game
    card_name = CARD_REF[card]
    labels = {game.target_label(t): t for t in range(game.teams)}
    if not rest:
        return IllegalAction("touring.illegal.need_target", card=card_name)
    if rest[0] not in labels:
        return IllegalAction("touring.illegal.bad_target", target=rest[0], targets=", ".join(sorted(labels)))
    victim = labels[rest[0]]
    if victim == team:
        return IllegalAction("touring.illegal.own_team", card=card_name)
    if card == CITY:
        return IllegalAction("touring.illegal.city_needs_country")
    if state.go_top(victim) != GO:
        return IllegalAction("touring.illegal.delay_needs_go", card=card_name)
    if card == COLLISION:
        allowed = [VARIANT_WORD[v] for v in collision_variants(state, victim)]
        choice = " or ".join(w for w in allowed if w) or "-"
        return IllegalAction("touring.illegal.collision_choice", choices=choice)
    return IllegalAction("touring.illegal.unknown", action=text)

"""Singular forms: a message with a count of 1 reads "1 card", not "1 cards", in every language."""

from __future__ import annotations

import re
import string
from pathlib import Path

from tabletrek.i18n import CORE_DOMAINS, PLURAL_ARGS, catalog, translate

SRC = Path(__file__).resolve().parents[1] / "src" / "tabletrek"


def test_a_count_of_one_picks_the_singular_form() -> None:
    assert translate("touring.ui.cards_in_hand", "en", count=1) == "1 card"
    assert translate("touring.ui.cards_in_hand", "en", count=2) == "2 cards"
    assert translate("double_crossing.event.buy_cards", "en", player="P1", n=1) == "P1 buys 1 crew card."
    assert translate("double_crossing.event.buy_cards", "en", player="P1", n=3) == "P1 buys 3 crew cards."
    assert "1 timer token left" in translate("codenames_duet.event.turn_end", "en", tokens=1)
    assert "(1 tile," in translate("mexican_train.ui.your_hand", "en", count=1, points=4)


def test_a_language_without_plural_forms_reads_the_same() -> None:
    one = translate("touring.ui.cards_in_hand", "zh-Hant", count=1)
    two = translate("touring.ui.cards_in_hand", "zh-Hant", count=2)
    assert one.replace("1", "2") == two


def test_money_in_messages_groups_thousands() -> None:
    text = translate("double_crossing.event.trade", "en", player="P1", contract="X", amount=100000, count=2)
    assert "$100,000" in text and "2 contracts" in text


# A number followed by a counted noun ("{count} games", "{n} timer tokens"): the count must be the
# argument that picks the singular (``PLURAL_ARGS``, which the browser's i18n.js mirrors) and the key
# must have its ``_one`` form, or the number must never be 1 (these, each with the reason).
COUNTED = re.compile(
    r"\{(\w+)(?::[^}]*)?\}\)?\s+(?:[a-z]+\s+)?"
    r"(moves|games|tiles|points|cards|miles|steps|tokens|mistakes|words|contracts|rounds|turns|players"
    r"|bytes|cars|seconds|spaces|actions|seats|iterations|agents|guesses|clues|pips|tables|people)\b"
)
NOT_A_NUMBER = {"player", "target", "a", "b", "card", "cash", "cars", "contracts"}  # "{player} moves"
NEVER_ONE = {
    "cli.play.more_moves": "shown only above COMPACT_MENU (6) moves",
    "core.error.bots_over_seats": "{count}: more bots than seats, and every game seats at least 2",
    "cli.analyze.report.intro": "{players}: every game seats at least 2",
    "cli.error.too_many_names": "{players}: every game seats at least 2, and {given} is more",
    "codenames_duet.clue.too_many_words": "{max} is RELAXED_MAX_WORDS, 3",
    "codenames_duet.campaign.mission": "{turns}: every city on the map has at least 8",
    "codenames_duet.campaign.error.tokens_left": "{turns}: every city on the map has at least 8",
    "double_crossing.event.won": "{contracts}: a win takes 6 or more",
    "mexican_train.piece.double": "{points} of a double is even",
    "touring.event.attack_loss": "{lost} is a 15, two 15s or a 30",
    "touring.event.won": "{miles} is the trip, 70 or 110",
    "touring.ui.miles_total": "{goal} is the trip, 70 or 110",
    "web.ui.n_players": "{n}: every game seats at least 2",
    "core.error.player_count": "{allowed} lists a game's seat counts, all 2 or more",
    "mexican_train.error.set_players": "{allowed} lists the seat counts of a domino set, all 2 or more",
    "web.error.too_big": "{limit}: the message limit is kilobytes",
    "core.data.too_few_words": "{need} is the board's 25 cards",
}


def catalog_domains() -> list[str]:
    games = [p.parent.parent.name for p in (SRC / "games").glob("*/i18n/en.toml")]
    return sorted(CORE_DOMAINS | set(games))


def test_every_counted_noun_has_its_singular() -> None:
    missing = []
    for domain in catalog_domains():
        english = catalog(domain, "en")
        for key, template in english.items():
            if key.endswith("_one") or key in NEVER_ONE:
                continue
            fields = [name for _, name, _, _ in string.Formatter().parse(template) if name]
            picker = next((name for name in PLURAL_ARGS if name in fields), None)
            for field, noun in COUNTED.findall(template):
                if field in NOT_A_NUMBER:
                    continue
                if field != picker or f"{key}_one" not in english:
                    missing.append(f"{key}: {{{field}}} {noun}")
    assert missing == [], "a count of 1 would read '1 <plural>'"


def test_every_singular_has_its_plural_and_a_count() -> None:
    for domain in catalog_domains():
        english = catalog(domain, "en")
        for key, template in english.items():
            if key.endswith("_one") and ".lobby.choice." not in key:  # a choice may be named "two_one"
                plural = english.get(key.removesuffix("_one"))
                assert plural is not None, f"{key} has no plural form"
                assert any(f"{{{name}" in plural for name in PLURAL_ARGS), f"{key}: nothing picks it"
                assert any(f"{{{name}" in template for name in PLURAL_ARGS), f"{key}: no count in it"


def test_resuming_one_move_and_one_game_read_singular() -> None:
    assert "after 1 move (" in translate("cli.play.resumed", "en", count=1, path="x.json")
    assert translate("cli.sim.bots_title", "en", count=1, game="touring") == "touring: 1 game"
    assert "1 mistake allowed" in translate(
        "codenames_duet.campaign.mission", "en", city="Berlin", turns=11, count=1
    )

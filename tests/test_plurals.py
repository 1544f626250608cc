"""Singular forms: a message with a count of 1 reads "1 card", not "1 cards", in every language."""

from __future__ import annotations

from tabletrek.i18n import translate


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

"""Per-language knob defaults, difficulty presets, and the evaluation's pinned partner: tuning the
AI's defaults for one language must not move English, must keep easy easier and hard harder, and must
never change the policy of the partner it is measured against."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from benchmarks import codenames_eval
from benchmarks import codenames_knob_search as search

from tabletrek.core.registry import load
from tabletrek.games.codenames_duet.ai import bots
from tabletrek.games.codenames_duet.ai.bots import _knobs, default_knobs
from tabletrek.games.codenames_duet.ai.giver import GiverKnobs
from tabletrek.games.codenames_duet.ai.guesser import GuesserKnobs

# A made-up cautious Chinese policy, to see that it reaches the AI and nothing else.
CAUTIOUS = {
    "giver": {"max_number": 2, "delta": 1.2, "delta_assassin": 2.5, "tau": 2.0},
    "guesser": {"loss_cost": 16.0, "old_weight": 0.35},
}


def test_english_defaults_and_presets_are_the_dataclass_and_preset_values() -> None:
    assert bots.LANGUAGE_DEFAULTS["en"] == {"giver": {}, "guesser": {}}
    giver, guesser = _knobs({}, "en")
    assert giver == GiverKnobs(language="en") and guesser == GuesserKnobs(language="en")
    easy, easy_guesser = _knobs({"difficulty": "easy"}, "en")
    assert (easy.max_number, easy.delta, easy.delta_assassin, easy.tau, easy.consensus, easy.vocab_cut) == (
        2,
        1.0,
        2.0,
        2.5,
        2.0,
        8000,
    )
    assert easy_guesser == GuesserKnobs(language="en")  # the presets are clue-giver knobs only
    hard, _ = _knobs({"difficulty": "hard"}, "en")
    assert (hard.max_number, hard.delta, hard.delta_assassin) == (4, 0.25, 0.75)


def test_language_defaults_reach_that_language_only_and_yield_to_explicit_params(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(bots.LANGUAGE_DEFAULTS, "zh-Hant", CAUTIOUS)
    giver, guesser = _knobs({}, "zh-Hant")
    assert (giver.max_number, giver.delta, giver.delta_assassin, giver.tau) == (2, 1.2, 2.5, 2.0)
    assert (guesser.loss_cost, guesser.old_weight) == (16.0, 0.35)
    assert _knobs({}, "en") == (GiverKnobs(language="en"), GuesserKnobs(language="en"))
    giver, guesser = _knobs({"max_number": 3, "loss_cost": 4}, "zh-Hant")
    assert (giver.max_number, giver.delta, guesser.loss_cost) == (3, 1.2, 4.0)


@pytest.mark.parametrize("defaults", [{"giver": {}, "guesser": {}}, CAUTIOUS])
def test_easy_is_never_bolder_and_hard_never_safer_than_normal(
    monkeypatch: pytest.MonkeyPatch, defaults: dict[str, dict[str, float]]
) -> None:
    monkeypatch.setitem(bots.LANGUAGE_DEFAULTS, "zh-Hant", defaults)
    normal, _ = _knobs({}, "zh-Hant")
    easy, _ = _knobs({"difficulty": "easy"}, "zh-Hant")
    hard, _ = _knobs({"difficulty": "hard"}, "zh-Hant")
    assert set(bots.DIFFICULTY["easy"]) | set(bots.DIFFICULTY["hard"]) <= set(bots.SAFER)
    for knob, safer in bots.SAFER.items():
        n, e, h = (getattr(k, knob) for k in (normal, easy, hard))
        assert safer(n, e) == e, (knob, n, e)  # easy at least as safe as normal
        assert safer(n, h) == n, (knob, n, h)  # normal at least as safe as hard
    # the presets still move: a cautious language's easy is stricter than the preset alone where the
    # language is, and hard is bolder than the cautious normal
    if defaults is CAUTIOUS:
        assert (easy.max_number, easy.delta_assassin, easy.delta) == (2, 2.5, 1.2)
        assert (hard.max_number, hard.delta, hard.delta_assassin) == (4, 0.25, 0.75)
    assert default_knobs("zh-Hant", "normal")[0] == defaults["giver"]


def test_partner_knobs_pin_every_knob_at_its_pre_round_9_value() -> None:
    """Every knob is written out, so a default changed later in the dataclasses cannot reach the
    partner either; today they equal the dataclass defaults (a deliberate later change of a
    dataclass default changes the second assertion, not PARTNER_KNOBS, or the partner moves)."""
    for role, cls in (("giver", GiverKnobs), ("guesser", GuesserKnobs)):
        fields = {f.name for f in dataclasses.fields(cls)} - {"models", "language"}
        assert set(codenames_eval.PARTNER_KNOBS[role]) == fields
        assert cls(**codenames_eval.PARTNER_KNOBS[role]) == cls()


@pytest.mark.parametrize(
    ("row", "ai_role"),
    [
        ("zh-a-m3e", "giver"),
        ("zh-b-m3e", "guesser"),
        ("zh-a-loo-mpnet", "giver"),
        ("zh-b-loo-mpnet", "guesser"),
    ],
)
def test_the_partner_role_does_not_move_when_the_ai_defaults_change(
    monkeypatch: pytest.MonkeyPatch, row: str, ai_role: str
) -> None:
    codenames_eval.load_heldout("zh-Hant", heldout=False)
    config = dict(codenames_eval.CONFIGS[row])
    lang = config.pop("lang")
    roles = codenames_eval.ai_roles(row)
    assert roles == (ai_role,)
    partner_role = "guesser" if ai_role == "giver" else "giver"
    game = load("codenames-duet", players=2, word_pack=lang)

    def seat_knobs(params: dict[str, Any]) -> dict[str, Any]:
        bot = codenames_eval.pinned_partner(params, roles, lang)(game, 0, 7)
        return {"giver": bot.giver.knobs, "guesser": bot.guesser.knobs}

    before = seat_knobs(config)
    monkeypatch.setitem(bots.LANGUAGE_DEFAULTS, "zh-Hant", CAUTIOUS)
    after = seat_knobs(config)
    # an explicit knob (--param) for both roles reaches the AI's role only
    with_param = seat_knobs({**config, "max_number": 3, "loss_cost": 8.0})
    assert before[partner_role] == after[partner_role] == with_param[partner_role]
    pinned = {**codenames_eval.PARTNER_KNOBS[partner_role], "language": lang}
    for name, value in pinned.items():
        assert getattr(after[partner_role], name) == value
    assert after[partner_role].models == tuple(str(config[f"{partner_role}_models"]).split(","))
    # ... while the AI's role takes the new defaults, and the explicit knob over them
    assert after[ai_role] != before[ai_role]
    knob, value = ("max_number", 2) if ai_role == "giver" else ("loss_cost", 16.0)
    assert getattr(after[ai_role], knob) == value
    knob, value = ("max_number", 3) if ai_role == "giver" else ("loss_cost", 8.0)
    assert getattr(with_param[ai_role], knob) == value


def test_same_rows_give_the_ai_both_roles_and_the_native_ceiling_neither() -> None:
    assert codenames_eval.ai_roles("zh-same") == ("giver", "guesser")
    assert codenames_eval.ai_roles("en-same") == ("giver", "guesser")
    assert codenames_eval.ai_roles("zh-m3e-same") == ()
    assert codenames_eval.ai_roles("en-a-heldout") == ("giver",)
    assert codenames_eval.ai_roles("en-b-loo-glove") == ("guesser",)


def test_the_ship_rule_counts_paired_games_both_ways() -> None:
    new = [True, True, False, True, False]
    old = [False, True, True, False, False]
    b, c, z = search.mcnemar(new, old)
    assert (b, c) == (2, 1) and z == pytest.approx(1 / 3**0.5)
    assert search.mcnemar(old, new)[2] == pytest.approx(-1 / 3**0.5)
    assert search.mcnemar(old, old) == (0, 0, 0.0)
    # every searched knob is one the bots accept, for the role whose row searches it
    for role, grid in search.GRID.items():
        fields = set(bots.GIVER_FIELDS if role == "giver" else bots.GUESSER_FIELDS)
        assert set(grid) <= fields
        assert {k for k, _ in search.SCREEN[role]} <= fields
        assert codenames_eval.ai_roles(search.ROWS[role]) == (role,)

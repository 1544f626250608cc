"""The rule data: the shipped files are valid and complete; malformed files name file and key;
the catalogs are complete in both languages; the terminal UI draws a table."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import pytest
from rich.console import Console

import tabletrek
from tabletrek.core.data import DataError
from tabletrek.games.double_crossing.content import (
    CAR_SLUGS,
    CARD_SLUGS,
    KINDS,
    default_content,
    load_content,
)
from tabletrek.games.double_crossing.rules import STEP_TYPES
from tabletrek.i18n import catalog

DATA = Path(str(resources.files("tabletrek.games.double_crossing") / "data"))
SOURCE = Path(str(resources.files("tabletrek.games.double_crossing")))


def test_shipped_content_matches_the_seed_and_rulings() -> None:
    c = default_content()
    assert c.size == 48 and c.spaces[0].kind == "central"
    assert [c.spaces[i].kind for i in (12, 24, 36)] == ["corner"] * 3
    assert len(c.companies) == 12 and len(c.contracts) == 36
    assert all(1 <= sum(k.cars) <= 3 for k in c.contracts)
    assert sum(1 for s in c.spaces if s.kind == "trade") == 12
    assert {s.kind for s in c.spaces} == set(KINDS)
    assert c.car_counts == (6, 6, 6, 6) and sum(c.crew) == 55
    assert c.bank_total == 19_500_000 and c.start_money == 1_500_000 and c.depot_refill == 100_000
    assert c.card_price == 100_000 and c.corner_fare == 50_000 and c.rack_limit == 6
    box, tank = c.car_prices[CAR_SLUGS.index("box")], c.car_prices[CAR_SLUGS.index("tank")]
    assert box == min(c.car_prices) and tank == max(c.car_prices) and box < tank


def edited(tmp_path: Path, name: str, change: Callable[[str], str]) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    path = folder / name
    text = path.read_text(encoding="utf-8")
    new = change(text)
    assert new != text
    path.write_text(new, encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("name", "change", "key", "problem"),
    [
        (
            "economy.toml",
            lambda t: t.replace("start_money = 1500000", "start_money = 1520000"),
            "bank.start_money",
            "multiple",
        ),
        ("economy.toml", lambda t: t.replace("die = [6]", "die = [5]"), "cars.tank.die", "already"),
        ("economy.toml", lambda t: t.replace("stop = 10", "halt = 10"), "crew.halt", "unknown crew card"),
        (
            "economy.toml",
            lambda t: t.replace("rack_limit = 6", 'rack_limit = "six"'),
            "rules.rack_limit",
            "must be int",
        ),
        (
            "contracts.toml",
            lambda t: t.replace("{ hopper = 1 }", "{ hopper = 4 }", 1),
            "company[0].contracts[0].cars",
            "1 to 3",
        ),
        (
            "contracts.toml",
            lambda t: t.replace("{ hopper = 1 }", "{ caboose = 1 }", 1),
            "company[0].contracts[0].cars.caboose",
            "unknown",
        ),
        (
            "contracts.toml",
            lambda t: t.replace('slug = "harbor-steel"', 'slug = "northern-grain"'),
            "company[1].slug",
            "twice",
        ),
        (
            "board.toml",
            lambda t: t.replace('{ kind = "depot" }', '{ kind = "casino" }'),
            "spaces[23].kind",
            "unknown kind",
        ),
        (
            "board.toml",
            lambda t: t.replace('{ kind = "depot" }', '{ kind = "derail" }'),
            "spaces",
            "exactly one derail",
        ),
        (
            "board.toml",
            lambda t: t.replace('{ kind = "yard", car = "box" }', '{ kind = "yard", car = "caboose" }', 1),
            "spaces[2].car",
            "unknown car",
        ),
        (
            "board.toml",
            lambda t: t.replace('{ kind = "trade", company = "prairie-oil" }', '{ kind = "train-shop" }'),
            "spaces",
            "prairie-oil",
        ),
        (
            "board.toml",
            lambda t: t.replace('  { kind = "corner" },\n', '  { kind = "stop" },\n', 1),
            "spaces[12].kind",
            "corner",
        ),
        (
            "board.toml",
            lambda t: t.replace("amount = 50000", "amount = 12345", 1),
            "spaces[6].amount",
            "multiple",
        ),
        ("board.toml", lambda t: t + "\nspaces = 1\n", "", "not valid TOML"),
        # "²" passes str.isdigit() and made int() raise a bare ValueError
        (
            "economy.toml",
            lambda t: t.replace("50000 = 30", '"\u00b2" = 30', 1),
            "bank.bills.\u00b2",
            "multiple",
        ),
    ],
)
def test_malformed_data_names_file_and_key(tmp_path: Path, name: str, change, key: str, problem: str) -> None:
    folder = edited(tmp_path, name, change)
    with pytest.raises(DataError) as info:
        load_content(folder)
    assert info.value.source.endswith(name)
    assert info.value.key == key
    assert problem in str(info.value)


def test_missing_file_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    (folder / "board.toml").unlink()
    with pytest.raises(DataError, match=r"board\.toml"):
        load_content(folder)


# ----- catalogs ---------------------------------------------------------------------------------------


def test_catalogs_have_the_same_keys_in_both_languages() -> None:
    en, zh = catalog("double_crossing", "en"), catalog("double_crossing", "zh-Hant")
    assert set(en) == set(zh)
    assert zh["double_crossing.space.govt-contract"] == "政府契約"
    assert zh["double_crossing.space.train-shop"] == "火車商店"
    assert zh["double_crossing.space.double-cross"] == "雙叉"
    assert zh["double_crossing.card.crew"] == "鐵路員" and zh["double_crossing.card.villain"] == "惡徒"


def test_every_key_the_code_uses_exists() -> None:
    en = catalog("double_crossing", "en")
    used: set[str] = set()
    for path in SOURCE.glob("*.py"):
        used |= set(re.findall(r'"(double_crossing\.[a-z_]+\.[a-z_.\-]+)"', path.read_text(encoding="utf-8")))
        for prefix in re.findall(r'f"double_crossing\.([a-z_]+)\.\{', path.read_text(encoding="utf-8")):
            assert any(k.startswith(f"double_crossing.{prefix}.") for k in en), prefix
    c = default_content()
    used |= {f"double_crossing.{family}.{kind}" for family in ("space", "abbr") for kind in KINDS}
    used |= {f"double_crossing.car.{slug}" for slug in CAR_SLUGS}
    used |= {f"double_crossing.card.{slug}" for slug in CARD_SLUGS}
    used |= {f"double_crossing.company.{slug}" for slug in c.companies}
    used |= {f"double_crossing.contract.{k.slug}" for k in c.contracts}
    used |= {f"double_crossing.phase.{kind}" for kind, step in STEP_TYPES.items() if step.answers}
    used |= {f"double_crossing.roll.{i}" for i in range(4)}
    used |= {f"double_crossing.option.{spec.name}" for spec in tabletrek.load("double-crossing").option_specs}
    missing = sorted(k for k in used if k not in en)
    assert not missing


def test_events_render_in_both_languages_without_gaps() -> None:
    game = tabletrek.load("double-crossing", players=4)
    state = game.new_game(seed=5)
    bots = [game.bot("trader", seat=s, seed=s) for s in range(4)]
    seen: set[str] = set()
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        for event in state.apply(bots[seat].act(state)):
            seen.add(event.key)
            for viewer in (None, seat):
                for lang in ("en", "zh-Hant"):
                    text = event.render(viewer, lang)
                    assert "double_crossing." not in text and "{" not in text, (event.key, text)
    assert "double_crossing.event.won" in seen or "double_crossing.event.max_rounds" in seen


# ----- the terminal -------------------------------------------------------------------------------------


def test_text_ui_draws_the_loop_hides_other_hands_and_describes_every_move() -> None:
    game = tabletrek.load("double-crossing", players=3)
    state = game.new_game(seed=2)
    ui = game.terminal()
    rng = __import__("random").Random(0)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player
    assert seat is not None
    for lang in ("en", "zh-Hant"):
        console = Console(width=120, record=True)
        console.print(ui.render(state.view(seat), lang, ["Ann", "Bob", "Cy"]))
        out = console.export_text()
        assert "Ann" in out and ("CENT" in out or "中站" in out)
        hand = ", ".join(f"{n} " for n in state.hands[seat] if n)
        assert ("Your hand" in out or "你的手牌" in out) or not hand
        for action in state.legal_actions():
            assert ui.describe(action, state.view(seat), lang, ["Ann", "Bob", "Cy"])
    spectator = Console(width=120, record=True)
    spectator.print(ui.render(state.public_view(), "en", []))
    assert "Your hand" not in spectator.export_text()
    for index in range(game.num_actions):  # every move has a sentence in both languages
        action = game.action(index)
        for lang in ("en", "zh-Hant"):
            view = state.view(seat)
            text = ui.describe(action, view, lang, []) if "double-cross" not in action.text else "skip"
            assert text and "double_crossing." not in text

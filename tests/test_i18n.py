"""Every user-facing string is in both catalogs, with the same placeholders, and every key used exists."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

import tabletrek
from tabletrek.core.bots import GENERIC_BOTS
from tabletrek.core.registry import spec
from tabletrek.i18n import CORE_DOMAINS, LANGS, catalog, normalize_lang, translate

SRC = Path(__file__).resolve().parents[1] / "src" / "tabletrek"


def domains() -> list[str]:
    games = [p.parent.parent.name for p in (SRC / "games").glob("*/i18n/en.toml")]
    return sorted(CORE_DOMAINS | set(games))


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("domain", domains())
def test_languages_have_the_same_keys_and_placeholders(domain: str) -> None:
    english = catalog(domain, "en")
    assert english, f"{domain} has an en.toml with no [{domain}] table"
    for lang in LANGS[1:]:
        other = catalog(domain, lang)
        assert sorted(set(english) - set(other)) == [], f"{lang} lacks these {domain} keys"
        assert sorted(set(other) - set(english)) == [], f"{lang} has extra {domain} keys"
        for key, template in english.items():
            assert fields(template) == fields(other[key]), f"{key}: placeholders differ in {lang}"


KEY = re.compile(r"[\"']((?:touring|core|cli)\.[a-z0-9_.\-]+)[\"']")


def test_every_literal_key_in_the_code_exists() -> None:
    missing = []
    for path in (
        list((SRC / "core").rglob("*.py"))
        + list((SRC / "cli").rglob("*.py"))
        + list((SRC / "games" / "touring").rglob("*.py"))
        + list((SRC / "sim").rglob("*.py"))
    ):
        for key in KEY.findall(path.read_text(encoding="utf-8")):
            if key.endswith("."):
                continue
            if translate(key, "en") == key:
                missing.append(f"{path.name}: {key}")
    assert missing == []


def test_dynamic_touring_keys_exist() -> None:
    from tabletrek.games.touring.cards import SLUGS

    for slug in SLUGS:
        for lang in LANGS:
            assert translate(f"touring.card.{slug}", lang) != f"touring.card.{slug}"


def test_language_tags_normalise() -> None:
    assert normalize_lang("zh-TW") == "zh-Hant"
    assert normalize_lang("zh_Hant") == "zh-Hant"
    assert normalize_lang("en_US.UTF-8") == "en"
    assert normalize_lang(None) == "en"
    assert normalize_lang("fr") == "en"


def test_seed_chinese_names_are_used() -> None:
    assert translate("touring.card.go", "zh-Hant") == "啟動卡(Go)"
    assert translate("touring.card.city-limits", "zh-Hant") == "限速卡(City Limits)"
    assert translate("touring.card.hauled-in", "zh-Hant") == "拖運(Hauled In)"


def lobby_labels(name: str) -> set[str]:
    """The labels the web lobby shows for a game: its options (name and description), their
    choices, and its own bots, all in the game's own catalog (``<domain>.lobby.*``, ``<domain>.bot.*``)."""
    game = tabletrek.load(name)
    domain = spec(name).domain
    keys = set()
    for option in game.option_specs:
        keys |= {f"{domain}.lobby.option.{option.name}", f"{domain}.lobby.about.{option.name}"}
        values = option.choices or option.named or ()
        keys |= {f"{domain}.lobby.choice.{option.name}_{value}" for value in values}
    keys |= {f"{domain}.bot.{bot}" for bot in game.bots() if bot not in GENERIC_BOTS}
    return keys


@pytest.mark.parametrize("name", sorted(tabletrek.games()))
def test_a_game_names_its_options_and_bots_in_its_own_catalog(name: str) -> None:
    """A missing label fails here, and so does a stale one (an option or bot the game no longer has):
    the lobby reads them from the game's catalog, so adding a game touches no core catalog."""
    domain = spec(name).domain
    wanted = lobby_labels(name)
    for lang in LANGS:
        defined = {
            key for key in catalog(domain, lang) if key.startswith((f"{domain}.lobby.", f"{domain}.bot."))
        }
        assert sorted(wanted - defined) == [], f"{name} lacks lobby labels in {lang}"
        assert sorted(defined - wanted) == [], f"{name} has lobby labels for nothing in {lang}"


def test_the_web_catalog_names_only_the_bots_every_game_has() -> None:
    for lang in LANGS:
        web = catalog("web", lang)
        assert {key for key in web if key.startswith("web.bot.")} == {
            f"web.bot.{bot}" for bot in GENERIC_BOTS
        }
        assert not [
            key
            for key in web
            if key.startswith(("web.lobby.option.", "web.lobby.about.", "web.lobby.choice."))
        ]

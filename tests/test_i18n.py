"""Every user-facing string is in both catalogs, with the same placeholders, and every key used exists."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

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
    if not english:
        pytest.skip(f"{domain} has no catalog yet")
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

"""Every web string the server and the browser code use exists in English and in Traditional Chinese."""

from __future__ import annotations

import re
from pathlib import Path

from tabletrek.i18n import catalog

WEB = Path(__file__).resolve().parents[2] / "src" / "tabletrek" / "web"
KEY = re.compile(r"""["'`](web\.(?:ui|error|serve|notice)\.[a-z_]+)["'`]""")


def used_keys() -> set[str]:
    keys: set[str] = set()
    cli = WEB.parent / "cli"
    for path in [*WEB.rglob("*.py"), *WEB.rglob("*.js"), cli / "serve.py", cli / "command.py"]:
        keys.update(KEY.findall(path.read_text(encoding="utf-8")))
    keys.update(f"web.ui.status_{status}" for status in ("live", "over"))  # built from a table's status
    return keys


def test_both_languages_have_the_same_web_keys() -> None:
    assert set(catalog("web", "en")) == set(catalog("web", "zh-Hant"))


def test_every_key_the_web_code_uses_exists_and_none_is_left_unused() -> None:
    keys = used_keys()
    defined = set(catalog("web", "en"))
    assert keys <= defined, sorted(keys - defined)
    assert defined <= keys, sorted(defined - keys)


def test_placeholders_match_between_languages() -> None:
    field = re.compile(r"\{(\w+)")
    en, zh = catalog("web", "en"), catalog("web", "zh-Hant")
    for key, text in en.items():
        assert set(field.findall(text)) == set(field.findall(zh[key])), key

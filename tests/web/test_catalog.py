"""Every web string the server and the browser code use exists in English and in Traditional Chinese."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from tabletrek.core.bots import GENERIC_BOTS
from tabletrek.core.registry import specs
from tabletrek.i18n import catalog

WEB = Path(__file__).resolve().parents[2] / "src" / "tabletrek" / "web"
KEY = re.compile(r"""["'`](web\.(?:ui|error|serve|notice|table|chat|lobby|piece\.[a-z_]+)\.[a-z_]+)["'`]""")


def built_keys() -> set[str]:
    """Keys the browser code builds from a game's data: bot names, board spaces, cards, key colours."""
    import tomllib

    import tabletrek

    # the bots every game has; a game names its own bots and options in its own catalog (test_i18n)
    keys = {f"web.bot.{bot}" for name in tabletrek.games() for bot in tabletrek.load(name).bots()} & {
        f"web.bot.{bot}" for bot in GENERIC_BOTS
    }
    board = WEB.parent / "games" / "double_crossing" / "data" / "board.toml"
    kinds = {space["kind"] for space in tomllib.loads(board.read_text(encoding="utf-8"))["spaces"]}
    keys.update(f"web.piece.double_crossing.space.{kind}" for kind in kinds)
    keys.update(f"web.piece.double_crossing.card.{c}" for c in ("crew", "villain", "engineer", "stop"))
    keys.update(f"web.piece.codenames_duet.key_{kind}" for kind in ("green", "assassin", "bystander"))
    keys.update(f"web.piece.touring.{family}" for family in ("go", "miles", "delay", "remedy"))
    remedies_delays = (
        "puncture",
        "out-of-gasoline",
        "collision",
        "city-limits",
        "country",
        "gasoline",
        "hauled-in",
    )
    keys.update(f"web.piece.touring.card.{slug}" for slug in remedies_delays)
    keys.update(f"web.lobby.level_{level}" for level in ("quick", "normal", "strong"))
    return keys


def used_keys() -> set[str]:
    keys: set[str] = set()
    cli = WEB.parent / "cli"
    for path in [*WEB.rglob("*.py"), *WEB.rglob("*.js"), cli / "serve.py", cli / "command.py"]:
        keys.update(KEY.findall(path.read_text(encoding="utf-8")))
    for declared in specs().values():  # each game's own page module, in its folder
        for file in declared.web_files().values():
            keys.update(KEY.findall((resources.files(declared.package) / file).read_text(encoding="utf-8")))
    keys.update(f"web.ui.status_{status}" for status in ("live", "over"))  # built from a table's status
    keys.update(built_keys())
    return keys


def test_both_languages_have_the_same_web_keys() -> None:
    assert set(catalog("web", "en")) == set(catalog("web", "zh-Hant"))


def test_every_key_the_web_code_uses_exists_and_none_is_left_unused() -> None:
    keys = used_keys()
    defined = set(catalog("web", "en"))
    keys |= {f"{key}_one" for key in keys if f"{key}_one" in defined}  # singular forms, picked by count
    assert keys <= defined, sorted(keys - defined)
    assert defined <= keys, sorted(defined - keys)


def test_placeholders_match_between_languages() -> None:
    field = re.compile(r"\{(\w+)")
    en, zh = catalog("web", "en"), catalog("web", "zh-Hant")
    for key, text in en.items():
        assert set(field.findall(text)) == set(field.findall(zh[key])), key

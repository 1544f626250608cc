"""Every web string the server and the browser code use exists in English and in Traditional Chinese."""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path

import pytest

import tabletrek
from tabletrek.core.bots import GENERIC_BOTS
from tabletrek.core.registry import specs
from tabletrek.i18n import LANGS, catalog

WEB = Path(__file__).resolve().parents[2] / "src" / "tabletrek" / "web"
KEY = re.compile(r"""["'`](web\.(?:ui|error|serve|notice|table|chat|lobby)(?:\.[a-z0-9_]+)+)["'`]""")


def built_keys() -> set[str]:
    """Keys the browser code builds from data: the bots every game has, by what they do and by the
    short name their seats go by (a game names its own bots and options in its own catalog, checked
    by tests/test_i18n.py), the search bot's levels."""
    offered = {bot for name in tabletrek.games() for bot in tabletrek.load(name).bots()}
    keys = {f"web.{kind}.{bot}" for kind in ("bot", "bot_short") for bot in offered & set(GENERIC_BOTS)}
    keys.update(f"web.lobby.level_{level}" for level in ("quick", "normal", "strong"))
    return keys


def used_keys() -> set[str]:
    keys: set[str] = set()
    cli = WEB.parent / "cli"
    for path in [*WEB.rglob("*.py"), *WEB.rglob("*.js"), cli / "serve.py", cli / "command.py"]:
        keys.update(KEY.findall(path.read_text(encoding="utf-8")))
    for declared in specs().values():  # the shared words a game's own page module uses
        for file in declared.web_files().values():
            keys.update(KEY.findall((resources.files(declared.package) / file).read_text(encoding="utf-8")))
    keys.update(f"web.ui.status_{status}" for status in ("live", "over"))  # built from a table's status
    keys.update(built_keys())
    return keys


def page_built_keys() -> set[str]:
    """Keys the games' page modules build from a game's data: board spaces, cards, key colours."""
    board = WEB.parent / "games" / "double_crossing" / "data" / "board.toml"
    kinds = {space["kind"] for space in tomllib.loads(board.read_text(encoding="utf-8"))["spaces"]}
    keys = {f"double_crossing.piece.space.{kind}" for kind in kinds}
    keys.update(f"double_crossing.piece.card.{c}" for c in ("crew", "villain", "engineer", "stop"))
    keys.update(f"codenames_duet.piece.key_{kind}" for kind in ("green", "assassin", "bystander"))
    keys.update(f"touring.piece.{family}" for family in ("go", "miles", "delay", "remedy"))
    remedies_delays = ("puncture", "out-of-gasoline", "collision", "city-limits", "country", "gasoline")
    keys.update(f"touring.piece.card.{slug}" for slug in (*remedies_delays, "hauled-in"))
    return keys


@pytest.mark.parametrize("name", sorted(n for n, d in specs().items() if d.web_module is not None))
def test_a_games_page_finds_its_words_in_its_own_catalog(name: str) -> None:
    """A game's page module takes its own words from its own catalog (``<domain>.piece.*`` for
    tooltips, ``<domain>.page.*`` for labels): every one it uses exists, none is left unused."""
    declared = specs()[name]
    domain = declared.domain
    source = (resources.files(declared.package) / str(declared.web_module)).read_text(encoding="utf-8")
    own = re.compile(r"[\"'`](" + re.escape(domain) + r"\.[a-z0-9_.-]*[a-z0-9_])[\"'`]")
    used = set(own.findall(source)) | {k for k in page_built_keys() if k.startswith(f"{domain}.")}
    assert len(used) > 5, used  # the page does read its own catalog
    # keys the page builds (`touring.piece.card.${slug}`): the words under such a prefix are in use
    # (page_built_keys lists the ones the four first games must have; a new game need not add to it)
    built = tuple(re.findall(r"`(" + re.escape(domain) + r"\.[a-z0-9_.-]*)\$\{", source))
    for lang in LANGS:
        defined = set(catalog(domain, lang))
        used_here = used | {f"{key}_one" for key in used if f"{key}_one" in defined}
        assert sorted(used_here - defined) == [], f"{name}'s page uses words its {lang} catalog lacks"
        page_words = {k for k in defined if k.startswith((f"{domain}.piece.", f"{domain}.page."))}
        unused = {k for k in page_words - used_here if not k.startswith(built)}
        assert sorted(unused) == [], f"{name}'s {lang} catalog has page words nothing uses"


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

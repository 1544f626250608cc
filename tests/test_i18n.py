"""Every user-facing string is in both catalogs, with the same placeholders, and every key used exists."""

from __future__ import annotations

import re
import string
import tomllib
from pathlib import Path

import pytest

import tabletrek
from tabletrek.core.bots import GENERIC_BOTS
from tabletrek.core.registry import spec
from tabletrek.i18n import CORE_DOMAINS, LANGS, catalog, fill_chinese, normalize_lang, translate

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


KEY = re.compile(r"[\"']((?:" + "|".join(domains()) + r")\.[a-z0-9_.\-]+)[\"']")


def test_every_literal_key_in_the_code_exists() -> None:
    """Every quoted key of a catalog domain in the package's code and browser modules (a key that
    ends in "." is a prefix completed at run time)."""
    missing = []
    for path in sorted([*SRC.rglob("*.py"), *SRC.rglob("*.js")]):
        if "vendor" in path.parts:
            continue
        for key in KEY.findall(path.read_text(encoding="utf-8")):
            if key.endswith(".") or (SRC / key.replace(".", "/")).with_suffix(".py").exists():
                continue  # a prefix, or a module named in a string ("core.search")
            if key.rsplit(".", 1)[1] in {"sqlite3", "json", "toml", "js", "css"}:
                continue  # a file name
            if translate(key, "en") == key:
                missing.append(f"{path.relative_to(SRC)}: {key}")
    assert missing == []


def test_every_catalog_file_is_read() -> None:
    """Each i18n TOML file is a language of LANGS holding only the tables its domains read, so no key
    sits where ``catalog`` never looks (a game's strings in the core file, a misspelt table)."""
    files = sorted(SRC.glob("i18n/*.toml")) + sorted(SRC.glob("games/*/i18n/*.toml"))
    assert files
    for path in files:
        assert path.stem in LANGS, f"{path.relative_to(SRC)}: {path.stem} is not one of {LANGS}"
        core = path.parent == SRC / "i18n"
        expected = sorted(CORE_DOMAINS) if core else [path.parent.parent.name]
        assert sorted(tomllib.loads(path.read_text(encoding="utf-8"))) == expected, path
    for game in (SRC / "games").iterdir():
        if (game / "i18n").is_dir():
            assert {p.stem for p in (game / "i18n").glob("*.toml")} == set(LANGS), game.name


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
    assert translate("touring.card.go", "zh-Hant") == "啟動卡（Go）"
    assert translate("touring.card.city-limits", "zh-Hant") == "限速卡（City Limits）"
    assert translate("touring.card.hauled-in", "zh-Hant") == "拖運（Hauled In）"


CHINESE = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"  # ideographs and full-width punctuation
HALF_WIDTH_IN_CHINESE = re.compile(rf"[{CHINESE}][,:;!?()]|[(][{CHINESE}]|\([^()`]*[\u4e00-\u9fff][^()`]*\)")
"""An ASCII comma, colon, semicolon, mark or parenthesis against a Chinese character, or ASCII
parentheses around Chinese words: the places Chinese text takes the full-width forms ，：；！？（）."""


def line_breaks(code: re.Match[str]) -> str:
    """A code block's line breaks alone: what is left keeps the page's line numbers."""
    return "\n" * code.group(0).count("\n")


def chinese_texts() -> list[tuple[str, str]]:
    """Every zh-Hant catalog string and every line of the zh-Hant rules pages, code spans and
    fenced blocks left out (a command keeps its ASCII), with where it is."""
    texts = [
        (f"{domain}: {key}", template)
        for domain in domains()
        for key, template in catalog(domain, "zh-Hant").items()
    ]
    for page in sorted((SRC / "games").glob("*/rules/zh-Hant.md")):
        prose = re.sub(r"```.*?```|`[^`]*`", line_breaks, page.read_text(encoding="utf-8"), flags=re.S)
        texts += [(f"{page.relative_to(SRC)}:{i}", line) for i, line in enumerate(prose.splitlines(), 1)]
    return texts


def test_chinese_text_takes_full_width_punctuation() -> None:
    # Before: Touring's names, events and rules page and the terminal's help wrote '啟動卡(Go)',
    # '(共 15 哩)' and '你的行動(輸入編號…)' while the other games wrote （）.
    wrong = [f"{where}: {text}" for where, text in chinese_texts() if HALF_WIDTH_IN_CHINESE.search(text)]
    assert wrong == [], "\n".join(wrong[:10])


SPACED_DASH = re.compile(r" — |—\s|\s—")
"""An English dash with spaces beside it: Chinese writes a break in the sentence as ——, no spaces."""


def test_chinese_text_breaks_a_sentence_with_a_double_dash() -> None:
    # Before: the pictures' status line read '遊戲結束 — 勝者：玩家1', Codenames' prompt
    # '線索：河 2 — 玩家2 猜測' and Double Crossing's rules page '（Double Crossing）— tabletrek'.
    wrong = [f"{where}: {text}" for where, text in chinese_texts() if SPACED_DASH.search(text)]
    assert wrong == [], "\n".join(wrong[:10])
    assert [t for t in ("遊戲結束 — 平手", "結束 —平手", "結束— 平手") if not SPACED_DASH.search(t)] == []
    assert [t for t in ("遊戲結束——平手", "交易—北方穀物") if SPACED_DASH.search(t)] == []


ENGLISH_SEAT = re.compile(r"(?<![A-Za-z])P\d")


def test_chinese_text_names_a_seat_as_the_table_does() -> None:
    # Before: Codenames' option help and rules page said '0（P1 那一方）' and '座位 1（P1）', while
    # every Chinese table, log and lobby names the seat 玩家1.
    assert translate("core.seat", "zh-Hant", n=1) == "玩家1"
    wrong = [f"{where}: {text}" for where, text in chinese_texts() if ENGLISH_SEAT.search(text)]
    assert wrong == [], "\n".join(wrong[:10])
    assert ENGLISH_SEAT.search("（P2 那一方）") and not ENGLISH_SEAT.search("MP3、HP1")


def test_the_full_width_check_refuses_what_it_should() -> None:
    refused = ["打出 {card}(共 {total} 哩)。", "啟動卡(Go)", "結束(遊戲會被儲存)", "規則原文:無牌", "好!"]
    allowed = ["啟動卡（Go）", "seed 必須是 [0, 2^63) 之間的整數", "例如 greedy,random", "HTTP {status}"]
    assert [t for t in refused if not HALF_WIDTH_IN_CHINESE.search(t)] == []
    assert [t for t in allowed if HALF_WIDTH_IN_CHINESE.search(t)] == []


def lobby_labels(name: str) -> set[str]:
    """The labels the web lobby shows for a game: its options (name and description), their
    choices, and its own bots with the short names their seats go by, all in the game's own catalog
    (``<domain>.lobby.*``, ``<domain>.bot.*``, ``<domain>.bot_short.*``)."""
    game = tabletrek.load(name)
    domain = spec(name).domain
    keys = set()
    for option in game.option_specs:
        keys |= {f"{domain}.lobby.option.{option.name}", f"{domain}.lobby.about.{option.name}"}
        values = option.choices or option.named or ()
        keys |= {f"{domain}.lobby.choice.{option.name}_{value}" for value in values}
    own_bots = [bot for bot in game.bots() if bot not in GENERIC_BOTS]
    keys |= {f"{domain}.{kind}.{bot}" for bot in own_bots for kind in ("bot", "bot_short")}
    return keys


@pytest.mark.parametrize("name", sorted(tabletrek.games()))
def test_a_game_names_its_options_and_bots_in_its_own_catalog(name: str) -> None:
    """A missing label fails here, and so does a stale one (an option or bot the game no longer has):
    the lobby reads them from the game's catalog, so adding a game touches no core catalog."""
    domain = spec(name).domain
    wanted = lobby_labels(name)
    for lang in LANGS:
        defined = {
            key
            for key in catalog(domain, lang)
            if key.startswith((f"{domain}.lobby.", f"{domain}.bot.", f"{domain}.bot_short."))
        }
        assert sorted(wanted - defined) == [], f"{name} lacks lobby labels in {lang}"
        assert sorted(defined - wanted) == [], f"{name} has lobby labels for nothing in {lang}"


def test_the_web_catalog_names_only_the_bots_every_game_has() -> None:
    for lang in LANGS:
        web = catalog("web", lang)
        for kind in ("bot", "bot_short"):
            assert {key for key in web if key.startswith(f"web.{kind}.")} == {
                f"web.{kind}.{bot}" for bot in GENERIC_BOTS
            }
        assert not [
            key
            for key in web
            if key.startswith(("web.lobby.option.", "web.lobby.about.", "web.lobby.choice."))
        ]


CHINESE_SPACING = [  # (key, args, in Chinese): a name set apart only from Latin letters and digits
    ("double_crossing.ui.pending", {"player": "小明", "what": "擲骰"}, "輪到小明：擲骰"),
    ("double_crossing.ui.pending", {"player": "玩家1", "what": "擲骰"}, "輪到玩家1：擲骰"),
    ("double_crossing.ui.pending", {"player": "Alice", "what": "擲骰"}, "輪到 Alice：擲骰"),
    ("double_crossing.event.pass", {"player": "小明"}, "小明放棄。"),
    ("double_crossing.event.pass", {"player": "玩家1"}, "玩家1 放棄。"),
    ("double_crossing.event.villain", {"player": "玩家1", "target": "小明"}, "玩家1 對小明打出惡徒卡。"),
    (
        "double_crossing.event.villain",
        {"player": "Bob", "target": "貪心（玩家2）"},
        "Bob 對貪心（玩家2）打出惡徒卡。",
    ),
    ("web.error.bad_text", {"field": "聊天訊息", "reason": "不是文字"}, "聊天訊息不被接受：不是文字。"),
    ("touring.event.miles", {"player": "小明", "card": "1哩", "total": 5}, "小明打出 1哩（共 5 哩）。"),
    # a space typed inside a value stays
    ("double_crossing.event.pass", {"player": "小 明"}, "小 明放棄。"),
]
"""Filled in by both the server and the page (tests/web/browser/test_browser.py)."""


@pytest.mark.parametrize(("key", "args", "chinese"), CHINESE_SPACING)
def test_a_chinese_template_leaves_no_space_between_chinese_characters(
    key: str, args: dict[str, object], chinese: str
) -> None:
    # Before: '輪到 玩家1：擲骰', '對 小明 打出', '聊天訊息 不被接受', where Chinese sets no space
    # between Chinese characters (it does between one and a Latin word or a number).
    assert translate(key, "zh-Hant", **args) == chinese


def test_the_space_rule_reads_only_the_characters_beside_the_space() -> None:
    assert fill_chinese("{a} {b}", {"a": "甲", "b": "乙"}) == "甲乙"
    assert fill_chinese("{a} / {b}", {"a": "甲", "b": "乙"}) == "甲 / 乙"
    assert fill_chinese("{a} 1 {b}", {"a": "甲", "b": "乙"}) == "甲 1 乙"
    assert fill_chinese("{{ {a} }}", {"a": "甲"}) == "{ 甲 }"  # an escaped brace is text
    assert fill_chinese("用 {a} 字", {"a": "𠀀"}) == "用𠀀字"  # an ideograph beyond the first plane


def test_a_chinese_template_leaves_no_space_beside_a_full_width_mark() -> None:
    bot = translate("web.ui.bot_seat", "zh-Hant", bot="greedy", seat="玩家2")
    assert bot == "greedy（玩家2）"
    assert translate("double_crossing.event.pass", "zh-Hant", player=bot) == "greedy（玩家2）放棄。"
    # a space inside a value (a nickname, a chat line) stays as typed; so does the English text
    spaced = translate("double_crossing.event.villain", "zh-Hant", player="小明 （老師）", target=bot)
    assert spaced == "小明 （老師）對 greedy（玩家2）打出惡徒卡。"
    assert translate("double_crossing.event.pass", "en", player="greedy（P2）") == "greedy（P2） passes."
    # a format spec (money) and fields away from any full-width mark fill as str.format does
    bought = translate("double_crossing.event.buy_car", "zh-Hant", player=bot, amount=150000, car="箱車")
    assert bought == "greedy（玩家2）以 $150,000 購買一台箱車。"
    assert translate("touring.event.miles", "zh-Hant", player="玩家1", card="1哩", total=5) == (
        "玩家1 打出 1哩（共 5 哩）。"
    )


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_a_message_shows_a_control_in_a_value_and_never_sends_it(lang: str) -> None:
    # Before: `tabletrek replay "$f"` with a downloaded file named 'x<ESC>[2J.json' cleared the
    # reader's screen in its refusal; a bidi override turned the line around.
    path = "/tmp/x\x1b[2J\u202e.json"
    said = translate("core.error.record_unreadable", lang, source=path, detail="gone\nfor good\tnow")
    assert "\x1b" not in said and "\u202e" not in said
    assert "/tmp/x\\x1b[2J\\u202e.json" in said and "gone\nfor good\tnow" in said
    quoted = translate("core.error.unknown_game", lang, name="tour\x1bing", known="touring", hint="")
    assert "'tour\\x1bing'" in quoted  # !r escapes it once, as repr does
    plain = translate("core.error.unknown_game", lang, name="touring", known="touring", hint="")
    assert "'touring'" in plain

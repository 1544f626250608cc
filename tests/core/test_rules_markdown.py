"""The rules pages read as written in both languages, in the terminal and in the browser.

Before: the Chinese Touring page showed stray asterisks ("各自為戰*(裁定)*"), because CommonMark
does not open emphasis between a Chinese character and a bracket, and every wrapped line of a
Chinese paragraph became a space in the middle of a word ("共 96 張。 張數記錄在").
"""

from __future__ import annotations

import itertools
import re

import pytest
from markdown_it.token import Token
from rich.console import Console

from tabletrek.cli.common import RulesMarkdown
from tabletrek.core.markdown import rules_parser
from tabletrek.core.registry import games, load
from tabletrek.i18n import LANGS


def texts(tokens: list[Token]) -> list[str]:
    """Every piece of prose a reader sees (code spans and blocks keep their asterisks)."""
    found: list[str] = []
    for token in tokens:
        if token.type == "text":
            found.append(token.content)
        if token.children:
            found.extend(texts(token.children))
    return found


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", games())
def test_no_emphasis_marker_is_left_as_text(name: str, lang: str) -> None:
    page = load(name).rules_markdown(lang)
    stray = [t for t in texts(rules_parser().parse(page)) if "*" in t]
    assert stray == [], f"{name} ({lang}): emphasis that did not open or close: {stray}"


def test_a_line_break_inside_chinese_text_is_not_a_space() -> None:
    html = rules_parser().render("共 96 張。\n張數記錄在**檔案**\n中，可自行修改。\nSee the\nfile.")
    assert html == "<p>共 96 張。張數記錄在<strong>檔案</strong>中，可自行修改。\nSee the\nfile.</p>\n"


def test_a_line_break_beside_a_dash_or_quote_in_chinese_text_is_not_a_space() -> None:
    # Before: the Double Crossing page read '打出暫停卡—— 沒有暫停卡的玩家…' (—— and “ ” are
    # "ambiguous" in width, so the break beside them became a space).
    html = rules_parser().render("打出暫停卡——\n沒有暫停卡的玩家\n“也會”\n被詢問。Then a dash—\nand a word.")
    assert html == "<p>打出暫停卡——沒有暫停卡的玩家“也會”被詢問。Then a dash—\nand a word.</p>\n"


def test_the_terminal_joins_chinese_lines_as_the_browser_does() -> None:
    console = Console(width=200, record=True)
    console.print(RulesMarkdown("共 96 張。\n張數記錄在檔案中。\nSee the\nfile."))
    out = console.export_text()
    # A break next to a Latin word still reads as a space.
    assert "共 96 張。張數記錄在檔案中。 See the file." in out


def is_chinese(char: str) -> bool:
    return "\u4e00" <= char <= "\u9fff"


def test_every_chinese_page_renders_without_a_space_between_wrapped_characters() -> None:
    for name in games():
        html = rules_parser().render(load(name).rules_markdown("zh-Hant"))
        # A newline left between two Chinese characters is what the browser shows as a space.
        lines = html.split("\n")
        joined = [
            (a[-1], b[0])
            for a, b in itertools.pairwise(lines)
            if a and b and (is_chinese(a[-1]) or a[-1] == "—") and is_chinese(b[0])
        ]
        assert joined == [], f"{name}: line breaks between Chinese characters: {joined[:5]}"


@pytest.mark.parametrize(
    ("markdown", "html"),
    [
        ("1. **線索。** 給線索者說", "<ol>\n<li><strong>線索。</strong>給線索者說</li>\n</ol>\n"),
        ("各自為戰 *（裁定）*", "<p>各自為戰<em>（裁定）</em></p>\n"),
        ("*裁定：* 5 人時", "<p><em>裁定：</em>5 人時</p>\n"),
        ("看 **這個方向** 是", "<p>看<strong>這個方向</strong>是</p>\n"),
        ("（不動）。 *（裁定）*", "<p>（不動）。<em>（裁定）</em></p>\n"),
        # English keeps its spaces, and so does Chinese beside a Latin word
        ("**Rule.** Then *the* end", "<p><strong>Rule.</strong> Then <em>the</em> end</p>\n"),
        ("用 **tabletrek** 玩", "<p>用 <strong>tabletrek</strong> 玩</p>\n"),
    ],
)
def test_chinese_sets_no_space_beside_emphasis(markdown: str, html: str) -> None:
    # Before: '**線索。** 給線索者' rendered '線索。 給線索者': CommonMark needs that space to close
    # the emphasis after 。, and it stayed on the page.
    assert rules_parser().render(markdown) == html


WIDE = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
SPACE_BESIDE_EMPHASIS = re.compile(
    rf"[\u3000-\u303f\uff00-\uffef]</(?:strong|em)> "  # after a full-width mark
    rf"|[{WIDE}]</(?:strong|em)> [{WIDE}]"  # between Chinese, after emphasis
    rf"|[{WIDE}] <(?:strong|em)>[{WIDE}]"  # between Chinese, before emphasis
)


def test_every_chinese_page_sets_no_space_beside_its_emphasis() -> None:
    for name in games():
        html = rules_parser().render(load(name).rules_markdown("zh-Hant"))
        found = [m.group(0) for m in SPACE_BESIDE_EMPHASIS.finditer(html)]
        assert found == [], f"{name}: {found[:5]}"
    assert SPACE_BESIDE_EMPHASIS.search("<strong>線索。</strong> 給") is not None

"""``tabletrek analyze``'s report in a real Chromium, on a phone and a desktop, in both languages:
a figure is never broken over two lines, a heading that is one word never inside it, the page
never wider than the screen, and axe-core finds nothing."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tabletrek.sim.analyze import WORD_LENGTH, analyze, render_html

from ..helpers import EVERY_IMPACT, SIZES, assert_axe_clean

pytestmark = pytest.mark.browser

# Each table cell's lines, counted from its text's boxes: one box per line it takes.
CELL_LINES = """() => [...document.querySelectorAll("td, th")].map(cell => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    const header = cell.tagName === "TH";
    return {text: cell.textContent, header, first: cell.cellIndex === 0, lines: tops.size};
})"""


def is_a_word(heading: str) -> bool:
    """A heading with no space and no longer than a word ('電腦玩家', 'Wins')."""
    return " " not in heading and len(heading) <= WORD_LENGTH


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("reports")
    made = {}
    for game, bots in (("touring", ["random", "greedy"]), ("double-crossing", ["random", "trader"])):
        analysis = analyze(game, 12, bots, seed=3)
        # and as if Ctrl+C had stopped it after those 12 of 40: the page says so in a line of its own
        for name, shown in ((game, analysis), (f"{game} stopped", replace(analysis, planned=40))):
            for lang in ("en", "zh-Hant"):
                made[f"{name} {lang}"] = folder / f"{name}-{lang}.html".replace(" ", "-")
                made[f"{name} {lang}"].write_text(render_html(shown, lang), encoding="utf-8")
    return made


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_report_reads_whole_on_a_phone_and_a_desktop(
    reports: dict[str, Path], browser: Any, size: str
) -> None:
    # Before, on a phone: '5.5% –' over '26.1%', '電腦玩' over '家', '座位次' over '數'.
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    try:
        for name, path in reports.items():
            page.goto(path.as_uri())
            stopped = page.locator("strong").all_inner_texts()
            assert len(stopped) == ("stopped" in name), (name, stopped)
            cells = page.evaluate(CELL_LINES)
            assert cells, name
            broken = [
                c["text"]
                for c in cells
                if c["lines"] > 1
                and (not (c["first"] or c["header"]) or (c["header"] and is_a_word(c["text"])))
            ]
            assert not broken, (name, size, broken)
            wide = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert wide <= 0, (name, size, wide)
            assert_axe_clean(page, f"{name} report ({size})", impacts=EVERY_IMPACT)
    finally:
        context.close()

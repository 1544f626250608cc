"""The examples in the README and the package docstring run as written."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import tabletrek

ROOT = Path(__file__).resolve().parents[1]


def test_package_docstring_examples_run() -> None:
    failures, tried = doctest.testmod(tabletrek, verbose=False)
    assert tried > 0 and failures == 0


def test_readme_python_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    assert blocks, "the README shows the library in Python"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_every_game_has_a_rules_page_in_docs() -> None:
    for name in tabletrek.games():
        page = ROOT / "docs" / "rules" / f"{name}.md"
        assert page.is_file(), f"docs/rules/{name}.md is missing"
        assert page.read_text(encoding="utf-8") == tabletrek.load(name).rules_markdown("en")

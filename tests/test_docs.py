"""The examples in the README and the package docstring run as written."""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

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


def shown_commands() -> list[tuple[str, str]]:
    """Every ``tabletrek …`` line in a shell block of the README and the user docs (not notes)."""
    docs = ROOT / "docs"
    pages = [ROOT / "README.md", *sorted(docs.glob("*.md")), *sorted((docs / "rules").glob("*.md"))]
    found = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"```(?:sh|bash|shell)?\n(.*?)```", text, re.S):
            for line in block.replace("\\\n", " ").splitlines():
                command = re.split(r"\s#\s", line, maxsplit=1)[0].split(" > ", 1)[0].strip()
                if command.startswith(("tabletrek ", ".venv/bin/tabletrek ")):
                    found.append((page.name, command))
    return found


def test_the_docs_show_tabletrek_commands() -> None:
    assert len(shown_commands()) > 20


def resolved(group: Any, context: Any) -> tuple[str | None, Any, list[str]]:
    # typer ships its own click (typer._click): its Context keeps the subcommand in _protected_args
    pending = [*getattr(context, "protected_args", getattr(context, "_protected_args", [])), *context.args]
    name, command, rest = group.resolve_command(context, pending)
    return name, command, list(rest)


@pytest.mark.parametrize(("page", "command"), shown_commands(), ids=lambda x: str(x)[:60])
def test_every_command_the_docs_show_parses(page: str, command: str) -> None:
    """Each option a page shows exists and takes the value shown (parsed by the CLI itself, not run),
    and each game it names is a game."""
    import typer

    from tabletrek.cli import app

    group: Any = typer.main.get_command(app)
    context = group.make_context("tabletrek", shlex.split(command)[1:])
    name, sub, rest = resolved(group, context)
    while hasattr(sub, "resolve_command"):  # a command group: campaign
        context = sub.make_context(name or "", rest, parent=context)
        name, sub, rest = resolved(sub, context)
    assert sub is not None, f"{page}: {command}"
    parsed = sub.make_context(name or "", rest, parent=context)
    game = parsed.params.get("game")
    if game is not None:
        assert game in tabletrek.games(), f"{page}: {command}"


def python_blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)


# Each page's Python needs the extras it documents; without them its test is skipped, not failed.
PAGE_NEEDS = {"research.md": ("pettingzoo", "pyspiel", "matplotlib"), "vector.md": ("gymnasium", "numba")}


@pytest.mark.parametrize("page", sorted(p.name for p in (ROOT / "docs").glob("*.md") if python_blocks(p)))
def test_python_examples_in_the_user_docs_run(
    page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every ``python`` block of a user page runs as written, the page's blocks one after another
    in one namespace as a reader pastes them (the notebook example uses the state made above it),
    in an empty directory since one writes a file."""
    for module in PAGE_NEEDS.get(page, ()):
        pytest.importorskip(module, reason=f"docs/{page} shows an extra's API")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {}
    blocks = python_blocks(ROOT / "docs" / page)
    for block in blocks:
        exec(compile(block, f"docs/{page}", "exec"), namespace)
    assert blocks and set(namespace) - {"__builtins__"}, f"docs/{page}: its examples defined nothing"


def test_the_research_pages_show_python() -> None:
    assert {"research.md", "vector.md"} <= {p.name for p in (ROOT / "docs").glob("*.md") if python_blocks(p)}

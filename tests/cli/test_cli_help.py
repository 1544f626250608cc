"""Every command's help shows the catalog's texts as written: typer reads help as rich markup, where
a literal "[scale]" would be taken for a style tag and vanish (``cli.common.help_text``)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from tabletrek.cli import app
from tabletrek.cli.common import help_text
from tabletrek.i18n import translate


def commands(group: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Each command below ``group`` with the words that name it (typer's own click types)."""
    yield path, group
    for name, command in getattr(group, "commands", {}).items():
        yield from commands(command, (*path, name))


def test_help_text_escapes_what_rich_would_read_as_a_tag() -> None:
    assert help_text("cli.tournament.ray").endswith(r"Needs the \[scale] extra.")
    assert "[scale]" in translate("cli.tournament.ray", "en")


def test_every_help_with_brackets_shows_them() -> None:
    shown = 0
    for path, command in commands(typer.main.get_command(app)):
        helps = [getattr(param, "help", None) for param in command.params]
        bracketed = [text.replace("\\[", "[") for text in helps if text and "[" in text]
        if not bracketed:
            continue
        result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "400"})
        assert result.exit_code == 0, result.output
        for text in bracketed:
            assert text in result.output, (path, text)
            shown += 1
    assert shown >= 3  # --ray in simulate, tournament and analyze


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "Needs the [scale] extra."), ("zh-Hant", "需要 [scale] 額外套件")]
)
def test_the_ray_option_names_its_extra_in_each_language(lang: str, said: str) -> None:
    env = {**os.environ, "COLUMNS": "400", "TABLETREK_LANG": lang}
    done = subprocess.run(
        [sys.executable, "-m", "tabletrek", "simulate", "--help"],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert said in done.stdout

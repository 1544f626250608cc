"""The terminal view shows only the viewer's key side; every catalog key exists in both languages."""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path

from rich.cells import cell_len
from rich.console import Console

import tabletrek
from tabletrek.games.codenames_duet.campaign import mission_map
from tabletrek.games.codenames_duet.snapshot import ENDINGS

from .positions import clue, guess, position, turn

PACKAGE = Path(str(resources.files("tabletrek.games.codenames_duet")))
SOURCES = [*PACKAGE.glob("*.py")]  # the campaign command (cli.py) is in the package


def rendered(renderable: object) -> str:
    console = Console(record=True, width=120, color_system="truecolor")
    console.print(renderable)
    return console.export_text(styles=True)


def test_a_seat_sees_its_own_key_colours_and_nobody_sees_the_partners() -> None:
    state = position()
    ui = state.game.terminal()
    turn(state, [18])
    clue(state, 2)
    guess(state, 8)  # B's agent, found by A
    mine = rendered(ui.render(state.view(0), "en", ["Ann", "Bo"]))
    assert "acorn" in mine and "Your key (side A)" in mine and "Ann" in mine
    public = rendered(ui.render(state.public_view(), "en", ["Ann", "Bo"]))
    assert "no key is shown" in public
    # The same position with B's key changed renders identically for A and for spectators.
    other = state.clone()
    other.key[1] = list(reversed(other.key[1]))
    assert rendered(ui.render(other.view(0), "en", ["Ann", "Bo"])) == mine
    assert rendered(ui.render(other.public_view(), "en", ["Ann", "Bo"])) == public


def test_moves_are_described_in_both_languages() -> None:
    state = position()
    ui = state.game.terminal()
    view = state.view(0)
    game = state.game
    actions = [game.clue_action("ocean", 2), game.guess_action("acorn"), game.stop_action()]
    assert [ui.describe(a, view, "en", []) for a in actions] == [
        "Clue “ocean” for 2",
        "Guess “acorn”",
        "Stop guessing",
    ]
    assert ui.describe(actions[0], view, "zh-Hant", []) == "線索「ocean」，數字 2"
    chinese = tabletrek.load("codenames-duet", word_pack="zh-Hant").new_game(seed=1)
    text = rendered(chinese.game.terminal().render(chinese.view(1), "zh-Hant", ["甲", "乙"]))
    assert "你的任務卡（B 方）" in text


def catalog(lang: str) -> dict[str, str]:
    data = tomllib.loads((PACKAGE / "i18n" / f"{lang}.toml").read_text(encoding="utf-8"))
    flat: dict[str, str] = {}

    def walk(table: dict[str, object], prefix: str) -> None:
        for key, value in table.items():
            if isinstance(value, dict):
                walk(value, f"{prefix}{key}.")
            else:
                flat[f"{prefix}{key}"] = str(value)

    walk(data, "")
    return flat


def test_catalogs_match_and_hold_every_key_the_code_uses() -> None:
    en, zh = catalog("en"), catalog("zh-Hant")
    assert set(en) == set(zh)
    for key in en:  # the same placeholders in both languages
        assert set(re.findall(r"{(\w+)}", en[key])) == set(re.findall(r"{(\w+)}", zh[key])), key
    used = set()
    for source in SOURCES:
        used |= set(re.findall(r'"(codenames_duet\.[a-z_.]+[a-z_])"', source.read_text(encoding="utf-8")))
    assert len(used) > 40
    assert used <= set(en), sorted(used - set(en))
    text_ui = (PACKAGE / "text.py").read_text(encoding="utf-8")
    command = (PACKAGE / "cli.py").read_text(encoding="utf-8")
    ui_keys = {f"codenames_duet.ui.{k}" for k in re.findall(r'\bt\("(\w+)"', text_ui)}
    campaign_keys = {f"codenames_duet.campaign.{k}" for k in re.findall(r'_t\(\s*"([\w.]+)"', command)}
    assert len(ui_keys) > 10 and len(campaign_keys) > 8
    assert ui_keys | campaign_keys <= set(en), sorted((ui_keys | campaign_keys) - set(en))
    game = tabletrek.load("codenames-duet")
    families = [f"codenames_duet.end.{e}" for e in ENDINGS]
    families += [spec.help for spec in game.option_specs]
    families += [f"codenames_duet.city.{c}" for c in mission_map().cities]
    families += [f"codenames_duet.campaign.status.{s}" for s in ("won", "open", "tried", "locked")]
    families += [f"codenames_duet.campaign.result.{r}" for r in ("won", "lost")]
    families += [f"codenames_duet.kind.{k}" for k in ("green", "bystander", "assassin")]
    families += [f"codenames_duet.side.{s}" for s in (0, 1)]
    assert set(families) <= set(en), sorted(set(families) - set(en))


def test_the_legend_sets_its_entries_apart_with_no_mark_of_its_own() -> None:
    # Before: entries stood between ' · ' and the last entry's mark is '·' (a bystander on the
    # partner's key), so the legend read '× bystander on your key · · bystander on your partner's key'.
    state = position()
    ui = state.game.terminal()
    for lang in ("en", "zh-Hant"):
        for view in (state.view(0), state.public_view()):
            legend = ui.legend(view, lang)
            catalog = tomllib.loads((PACKAGE / "i18n" / f"{lang}.toml").read_text(encoding="utf-8"))
            entries = catalog["codenames_duet"]["ui"]["legend"]
            separator = entries["separator"].strip()
            marks = {text.split()[0] for key, text in entries.items() if key != "separator" and " " in text}
            assert separator and separator not in marks, (lang, separator, marks)
            assert separator in legend.plain


def test_the_board_fits_the_terminal_and_loses_no_word() -> None:
    # Before: each column kept 10 cells, so below 66 columns rich set the board past the edge and
    # the fifth column was cut off ('boxe', 'biscu' at 60); narrower, words ended in '…'.
    for lang in ("en", "zh-Hant"):
        state = tabletrek.load("codenames-duet", word_pack=lang).new_game(seed=7)
        ui = state.game.terminal()
        for width in (40, 50, 60, 64, 80):
            console = Console(record=True, width=width)
            console.print(ui.render(state.view(0), lang, ["Ann", "Bo"]))
            lines = console.export_text().splitlines()
            assert max(map(cell_len, lines)) <= width and not any("…" in line for line in lines), (
                lang,
                width,
            )
            if width >= 60:  # every word whole on its line
                cells = {cell.strip(" ●✖") for line in lines for cell in line.split("│")}
                assert set(state.words) <= cells, (lang, width, set(state.words) - cells)

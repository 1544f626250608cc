"""The mission-map campaign: the map data, the mistake rule per city (docs/rules/codenames-duet.md),
progress, the command."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

import tabletrek
from tabletrek.core.data import DataError
from tabletrek.core.linebreak import LineBreakingConsole
from tabletrek.games.codenames_duet import cli as campaign_cli
from tabletrek.games.codenames_duet.campaign import (
    Progress,
    load_progress,
    mission_map,
    parse_map,
    progress_path,
    save_progress,
)
from tabletrek.games.codenames_duet.cli import _t, app, city_name, map_rows, map_table, mission_map_view
from tabletrek.i18n import list_separator

from .positions import position, turn


def test_the_map_has_26_cities_from_prague_with_the_known_numbers() -> None:
    mmap = mission_map()
    assert len(mmap.cities) == 26 and mmap.start == "prague"
    c = mmap.cities
    assert (c["prague"].turns, c["prague"].mistakes) == (9, 9)
    assert c["moscow"].turns == 8 and c["cairo"].turns == 9
    assert (c["berlin"].turns, c["berlin"].mistakes) == (11, 2)
    assert c["monte_carlo"].mistakes == 0 and c["vatican"].mistakes == 0
    assert {k for k, city in c.items() if city.source == "seed"} == {
        "prague",
        "moscow",
        "berlin",
        "cairo",
        "monte_carlo",
        "vatican",
    }
    for city in c.values():
        assert city.links and all(city.id in c[other].links for other in city.links)
        assert 1 <= city.turns <= 11 and 0 <= city.mistakes <= city.turns


def base_map() -> dict[str, object]:
    return {
        "name": "test",
        "start": "a",
        "cities": {"a": {"turns": 9, "mistakes": 9}, "b": {"turns": 8, "mistakes": 1}},
        "links": {"routes": [["a", "b"]]},
    }


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda d: d["cities"]["b"].update(mistakes=9), "cities.b.mistakes"),
        (lambda d: d["cities"]["b"].update(turns=12), "cities.b.turns"),
        (lambda d: d["cities"]["b"].pop("turns"), "cities.b.turns"),
        (lambda d: d["links"].update(routes=[["a", "x"]]), "links.routes[0]"),
        (lambda d: d["links"].update(routes=[]), "links.routes"),
        (lambda d: d.update(start="z"), "start"),
    ],
)
def test_a_malformed_map_names_the_key(change: object, key: str) -> None:
    data = base_map()
    change(data)
    with pytest.raises(DataError) as err:
        parse_map("map.toml", data)
    assert err.value.source == "map.toml" and err.value.key == key


def test_a_mission_plays_with_its_turns_and_mistakes() -> None:
    berlin = mission_map().city("Berlin")
    game = tabletrek.load("codenames-duet", **berlin.options())
    state = game.new_game(seed=1)
    view = state.view(0)
    assert view["tokens"] == 11 and view["mistakes_allowed"] == 2
    # Monte Carlo allows no mistake: the first one already costs two tokens.
    state = position(**mission_map().city("monte carlo").options())
    turn(state, [18])
    assert state.tokens == 7


def test_progress_opens_linked_cities_only_after_a_win(tmp_path: Path) -> None:
    mmap = mission_map()
    progress = Progress("ann")
    assert progress.available(mmap) == ["prague"]
    progress.note("prague", False, 0)
    assert progress.available(mmap) == ["prague"] and progress.status("prague", mmap) == "tried"
    progress.note("prague", True, 3)
    assert set(progress.available(mmap)) == {"prague", "berlin", "vienna", "warsaw"}
    assert progress.status("moscow", mmap) == "locked"
    save_progress(tmp_path, progress)
    again = load_progress(tmp_path, "ann")
    assert again.missions == {"prague": {"attempts": 2, "wins": 1, "best_tokens_left": 3}}
    with pytest.raises(ValueError, match="profile"):
        progress_path(tmp_path, "../evil")


def test_broken_progress_file_is_named(tmp_path: Path) -> None:
    path = progress_path(tmp_path, "bob")
    path.parent.mkdir(parents=True)
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(DataError, match=r"bob\.json"):
        load_progress(tmp_path, "bob")


def test_the_campaign_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLETREK_HOME", str(tmp_path))
    runner = CliRunner()
    locked = runner.invoke(app, ["record", "berlin", "won"])
    assert locked.exit_code == 2 and "not open" in locked.output
    done = runner.invoke(app, ["record", "prague", "won", "--tokens-left", "2", "--profile", "ann"])
    assert done.exit_code == 0 and "Berlin" in done.output
    played = runner.invoke(
        app, ["play", "vienna", "--profile", "ann", "--bots", "random,random", "--seed", "3"]
    )
    assert played.exit_code == 0, played.output
    saved = json.loads(progress_path(tmp_path, "ann").read_text(encoding="utf-8"))
    assert saved["missions"]["vienna"]["attempts"] == 1
    shown = runner.invoke(app, ["map", "--profile", "ann"])
    assert shown.exit_code == 0 and "Prague" in shown.output
    assert runner.invoke(app, ["profiles"]).output.split() == ["ann"]
    assert runner.invoke(app, ["play", "prague", "-o", "tokens=11"]).exit_code == 2
    assert runner.invoke(app, ["reset", "--profile", "ann", "--yes"]).exit_code == 0
    assert not progress_path(tmp_path, "ann").exists()


def test_a_bad_profile_name_is_refused_in_the_readers_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLETREK_HOME", str(tmp_path))
    runner = CliRunner()
    chinese = runner.invoke(app, ["map", "--profile", "../x", "--lang", "zh-Hant"])
    assert chinese.exit_code == 2
    assert "玩家檔案名稱須為 1 到 40 個字母" in chinese.output and "profile name" not in chinese.output
    english = runner.invoke(app, ["map", "--profile", "../x", "--lang", "en"])
    assert "a profile name is 1-40 letters, digits, '.', '_' or '-', not '../x'" in english.output


def route_lines(lang: str, width: int) -> dict[str, list[str]]:
    """Each city's routes as the map shows them, line by line, at ``width`` columns."""
    out = io.StringIO()
    LineBreakingConsole(file=out, width=width, color_system=None).print(
        map_table(map_rows(mission_map(), Progress("ann"), lang), "ann", lang)
    )
    routes: dict[str, list[str]] = {}
    city = ""
    for line in out.getvalue().splitlines():
        cells = [cell.strip() for cell in line.split("│")[1:-1]]
        if len(cells) == 6:
            city = cells[0] or city
            routes.setdefault(city, []).append(cells[5])
    return routes


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
@pytest.mark.parametrize("width", [80, 100])
def test_the_map_never_parts_a_city_name(lang: str, width: int) -> None:
    # Before, at 80 columns: Paris's routes ended a line with 蒙地卡 and began the next with 羅.
    names = {city_name(c, lang) for c in mission_map().cities}
    mark = list_separator(lang).strip()  # "," or "、"
    routes = route_lines(lang, width)
    assert len(routes) == 26
    for city, lines in routes.items():
        for line in lines:
            shown = line.strip().strip(mark).split(mark)
            assert all(name.strip() in names for name in shown), (city, lines)


def test_new_cities_are_named_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLETREK_HOME", str(tmp_path))
    out = io.StringIO()
    monkeypatch.setattr(campaign_cli, "console", LineBreakingConsole(file=out, width=24, color_system=None))
    done = CliRunner().invoke(app, ["record", "prague", "won", "--lang", "zh-Hant"])
    assert done.exit_code == 0, done.output
    lines = out.getvalue().splitlines()
    assert lines[-2:] == ["新開放的城市：柏林、", "維也納、華沙。"], lines


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
@pytest.mark.parametrize("width", [40, 50, 60, 80, 100])
def test_the_map_keeps_every_name_whole_at_any_width(lang: str, width: int) -> None:
    # Before, at 60 columns: 'Stockhol' over 'm'; at 50, 'Mosco…', 'lock…', 'Beij…'. A terminal
    # too narrow for the table gets the map as a list, a city a few lines.
    out = io.StringIO()
    mmap = mission_map()
    LineBreakingConsole(file=out, width=width, color_system=None).print(
        mission_map_view(mmap, Progress("ann"), lang, width)
    )
    lines = out.getvalue().splitlines()
    assert not any("…" in line for line in lines) and max(map(cell_len, lines)) <= width
    shown = "\n".join(lines)
    for city in mmap.cities.values():
        assert city_name(city.id, lang) in shown, city.id  # on one line: never parted
    tabled = any(line.startswith("┏") for line in lines)
    # the list only where the table would part a name: Chinese names are narrower
    assert tabled == (width >= (60 if lang == "zh-Hant" else 80)), width
    if not tabled:
        routes = [line for line in lines if line.strip().startswith(_t("col_links", lang))]
        assert len(routes) == len(mmap.cities)

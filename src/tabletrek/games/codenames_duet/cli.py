"""``tabletrek campaign``: Codenames Duet's mission map, played city by city, progress per profile.

Subcommands: ``map`` (the cities, their turns/mistakes, links and this profile's status), ``play
CITY`` (a mission at the terminal, with the AI partner or hot seat, as ``tabletrek play``),
``record CITY won|lost`` (note a mission played at a real table), ``profiles`` and ``reset``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from tabletrek.cli.common import (
    LangOpt,
    NamesOpt,
    OptionOpt,
    PlayBotsOpt,
    PlayersOpt,
    PlaySeedOpt,
    SeatOpt,
    console,
    default_names,
    fail,
    help_text,
    load_game,
    parse_options,
    pick_lang,
    ready_file,
    split_list,
    tr,
    typed_names,
)
from tabletrek.cli.play import TerminalTable
from tabletrek.core.data import DataError
from tabletrek.core.errors import message_in
from tabletrek.core.linebreak import flow, flow_within, widest_entry, widest_word
from tabletrek.games.codenames_duet.campaign import (
    MissionMap,
    Progress,
    load_progress,
    mission_map,
    profiles,
    progress_path,
    save_progress,
)
from tabletrek.i18n import aside, join_list, list_separator, sides
from tabletrek.paths import records_dir, user_data_dir

GAME = "codenames-duet"
STATUS_STYLE = {"won": "bold green", "open": "bold cyan", "tried": "yellow", "locked": "dim"}
COLUMNS = ("col_city", "col_turns", "col_mistakes", "col_status", "col_record", "col_links")

app = typer.Typer(
    name="campaign",
    help=help_text("codenames_duet.campaign.help"),
    no_args_is_help=True,
    add_completion=False,
)

ProfileOpt = Annotated[str, typer.Option("--profile", help=help_text("codenames_duet.campaign.opt.profile"))]


def _t(key: str, lang: str, **args: object) -> str:
    return tr(f"codenames_duet.campaign.{key}", lang, **args)


def city_name(city: str, lang: str) -> str:
    return tr(f"codenames_duet.city.{city}", lang)


def _progress(profile: str, lang: str) -> Progress:
    try:
        return load_progress(user_data_dir(), profile)
    except (ValueError, DataError) as exc:
        raise fail(message_in(exc, lang)) from None


def _city(mmap: MissionMap, name: str, lang: str) -> str:
    try:
        return mmap.city(name).id
    except ValueError:
        raise fail(_t("error.city", lang, city=name, cities=join_list(mmap.cities, lang))) from None


@dataclass(frozen=True)
class MapRow:
    """One city as the map shows it."""

    name: str  # with its marks: "*" numbers from the printed map, "⌂" the start
    turns: int
    mistakes: int
    status: str
    record: str
    routes: list[str]


def map_rows(mmap: MissionMap, progress: Progress, lang: str) -> list[MapRow]:
    rows = []
    for city in mmap.cities.values():
        entry = progress.missions.get(city.id, {})
        record = ""
        if entry:
            record = _t("record", lang, wins=entry["wins"], attempts=entry["attempts"])
            if entry["wins"]:
                record += _t("best", lang, count=entry["best_tokens_left"])
        name = city_name(city.id, lang) + (" *" if city.source == "seed" else "")
        if city.id == mmap.start:
            name += " ⌂"
        routes = [city_name(c, lang) for c in city.links]
        rows.append(MapRow(name, city.turns, city.mistakes, progress.status(city.id, mmap), record, routes))
    return rows


def _status(row: MapRow, lang: str) -> Text:
    return Text(_t(f"status.{row.status}", lang), style=STATUS_STYLE[row.status])


def map_table(rows: list[MapRow], profile: str, lang: str) -> Table:
    table = Table(title=_t("map_title", lang, profile=profile), caption=_t("map_caption", lang))
    for column in COLUMNS:
        # folded where the terminal is narrow, never cut: 'Mos', 'loc…' at 50 columns
        table.add_column(_t(column, lang), overflow="fold")
    for row in rows:
        table.add_row(
            row.name,
            str(row.turns),
            str(row.mistakes),
            _status(row, lang),
            row.record,
            # a city's name is never parted ("蒙地卡" over "羅", "Rio de" over "Janeiro")
            flow(row.routes, list_separator(lang)),
        )
    return table


def table_room(rows: list[MapRow], lang: str) -> int:
    """The columns the table needs to keep every city's name and every route whole (a heading,
    a status or a record may break at its spaces)."""
    needed = [
        max(cell_len(row.name) for row in rows),
        *(widest_word(_t(column, lang)) for column in COLUMNS[1:3]),
        max(widest_word(_t(f"status.{row.status}", lang)) for row in rows),
        max(widest_word(row.record) for row in rows),
        widest_entry((row.routes for row in rows), list_separator(lang)),
    ]
    heads = [widest_word(_t(column, lang)) for column in COLUMNS]
    return sum(max(a, b) for a, b in zip(needed, heads, strict=True)) + 3 * len(COLUMNS) + 1


def map_list(rows: list[MapRow], profile: str, lang: str) -> Group:
    """The map for a terminal too narrow for its table: a city a few lines, its figures and its
    routes under its name, so that no name is parted."""
    colon = tr("core.text.colon", lang)
    separator = list_separator(lang)
    before, after = sides(lambda status: aside(status, lang))  # the status set aside after the name
    parts: list[RenderableType] = [Text(_t("map_title", lang, profile=profile), style="bold")]
    for row in rows:
        figures = [
            f"{_t('col_turns', lang)}{colon}{row.turns}",
            f"{_t('col_mistakes', lang)}{colon}{row.mistakes}",
        ]
        if row.record:
            figures.append(f"{_t('col_record', lang)}{colon}{row.record}")
        routes = flow_within(lambda listed: f"{_t('col_links', lang)}{colon}{listed}", row.routes, separator)
        parts.append(Text.assemble((row.name, "bold"), before, _status(row, lang), after))
        parts.append(Padding(Group(flow(figures, "   "), routes), (0, 0, 0, 2)))
    parts.append(Text(_t("map_caption", lang), style="dim"))
    return Group(*parts)


def mission_map_view(mmap: MissionMap, progress: Progress, lang: str, width: int) -> RenderableType:
    """The map as a table where the terminal has room for every name whole, else as a list."""
    rows = map_rows(mmap, progress, lang)
    shown = map_table if table_room(rows, lang) <= width else map_list
    return shown(rows, progress.profile, lang)


@app.command("map", help=help_text("codenames_duet.campaign.map_help"))
def map_cmd(profile: ProfileOpt = "default", lang: LangOpt = None) -> None:
    language = pick_lang(lang)
    mmap = mission_map()
    console.print(mission_map_view(mmap, _progress(profile, language), language, console.width))


@app.command("play", help=help_text("codenames_duet.campaign.play_help"))
def play_cmd(
    city: Annotated[str, typer.Argument(help=help_text("codenames_duet.campaign.arg.city"))],
    profile: ProfileOpt = "default",
    players: PlayersOpt = None,
    bots: PlayBotsOpt = None,
    seat: SeatOpt = None,
    lang: LangOpt = None,
    seed: PlaySeedOpt = None,
    option: OptionOpt = None,
    names: NamesOpt = None,
) -> None:
    language = pick_lang(lang)
    mmap = mission_map()
    city_id = _city(mmap, city, language)
    progress = _progress(profile, language)
    if city_id not in progress.available(mmap):
        opened = join_list((city_name(c, language) for c in progress.available(mmap)), language)
        raise fail(_t("error.locked", language, city=city_name(city_id, language), open=opened))
    options = parse_options(option)
    for fixed in ("tokens", "mistakes"):
        if fixed in options:
            raise fail(_t("error.fixed_option", language, option=fixed))
    mission = mmap.cities[city_id]
    options.update(mission.options())
    game = load_game(GAME, players, options, ui_lang=language)
    human_seats = sorted({s - 1 for s in (seat or [])})
    bot_names = split_list(bots)
    if not human_seats and len(bot_names) < game.players:
        human_seats = [0]
    for s in human_seats:
        if not 0 <= s < game.players:
            raise fail(tr("cli.error.seat", language, seat=s + 1, players=game.players))
    if not bot_names:
        bot_names = [game.default_bot]
    for name in bot_names:
        if name not in game.bots():
            raise fail(
                tr("cli.error.bot", language, bot=name, game=GAME, bots=join_list(game.bots(), language))
            )
    state = game.new_game(seed)
    others = [s for s in range(game.players) if s not in human_seats]
    seat_bots = {
        s: game.bot(bot_names[i % len(bot_names)], seat=s, seed=state.seed + s) for i, s in enumerate(others)
    }
    table_names = default_names(game.players, language, typed_names(names, language, game.players))
    # where the mission's outcome and record go, refused now rather than after the mission
    try:
        ready_file(progress_path(user_data_dir(), profile), language)
        record_path = records_dir() / f"{GAME}-{city_id}-{time.strftime('%Y%m%d-%H%M%S')}-{state.seed}.json"
    except ValueError as exc:
        raise fail(message_in(exc, language)) from None
    ready_file(record_path, language)
    for s, bot in seat_bots.items():
        table_names[s] += f" ({bot.name})"
    console.print(
        _t(
            "mission",
            language,
            city=city_name(city_id, language),
            turns=mission.turns,
            count=mission.mistakes,
        )
    )
    table = TerminalTable(game, state, human_seats, seat_bots, table_names, language)
    if not table.run():
        console.print(_t("abandoned", language))
        return
    table.finish()
    result = state.result
    assert result is not None
    won = bool(result.winners)
    before = set(progress.available(mmap))
    progress.note(city_id, won, state.view(0)["tokens"])
    save_progress(user_data_dir(), progress)
    record = state.record().with_meta(campaign={"profile": profile, "city": city_id}, saved=time.time())
    record.save(record_path)
    _report(mmap, progress, city_id, won, before, language)


def _report(mmap: MissionMap, progress: Progress, city: str, won: bool, before: set[str], lang: str) -> None:
    key = "won" if won else "lost"
    console.print(_t(f"result.{key}", lang, city=city_name(city, lang)))
    opened = [c for c in progress.available(mmap) if c not in before]
    if opened:
        names = [city_name(c, lang) for c in opened]
        console.print(
            flow_within(lambda listed: _t("opened", lang, cities=listed), names, list_separator(lang))
        )


@app.command("record", help=help_text("codenames_duet.campaign.record_help"))
def record_cmd(
    city: Annotated[str, typer.Argument(help=help_text("codenames_duet.campaign.arg.city"))],
    outcome: Annotated[str, typer.Argument(help=help_text("codenames_duet.campaign.arg.outcome"))],
    tokens_left: Annotated[
        int, typer.Option("--tokens-left", help=help_text("codenames_duet.campaign.opt.left"))
    ] = 0,
    profile: ProfileOpt = "default",
    lang: LangOpt = None,
) -> None:
    language = pick_lang(lang)
    mmap = mission_map()
    city_id = _city(mmap, city, language)
    if outcome.lower() not in ("won", "lost"):
        raise fail(_t("error.outcome", language, outcome=outcome))
    progress = _progress(profile, language)
    if city_id not in progress.available(mmap):
        opened = join_list((city_name(c, language) for c in progress.available(mmap)), language)
        raise fail(_t("error.locked", language, city=city_name(city_id, language), open=opened))
    if not 0 <= tokens_left <= mmap.cities[city_id].turns:
        raise fail(_t("error.tokens_left", language, turns=mmap.cities[city_id].turns))
    before = set(progress.available(mmap))
    won = outcome.lower() == "won"
    ready_file(progress_path(user_data_dir(), profile), language)
    progress.note(city_id, won, tokens_left)
    save_progress(user_data_dir(), progress)
    _report(mmap, progress, city_id, won, before, language)


@app.command("profiles", help=help_text("codenames_duet.campaign.profiles_help"))
def profiles_cmd(lang: LangOpt = None) -> None:
    language = pick_lang(lang)
    try:
        found = profiles(user_data_dir())
    except ValueError as exc:
        raise fail(message_in(exc, language)) from None
    console.print("\n".join(found) if found else _t("no_profiles", language))


@app.command("reset", help=help_text("codenames_duet.campaign.reset_help"))
def reset_cmd(
    profile: ProfileOpt = "default",
    yes: Annotated[bool, typer.Option("--yes", help=help_text("codenames_duet.campaign.opt.yes"))] = False,
    lang: LangOpt = None,
) -> None:
    language = pick_lang(lang)
    try:
        path: Path = progress_path(user_data_dir(), profile)
    except ValueError as exc:
        raise fail(message_in(exc, language)) from None
    if not yes:
        raise fail(_t("error.confirm", language, profile=profile))
    path.unlink(missing_ok=True)
    console.print(_t("reset_done", language, profile=profile))

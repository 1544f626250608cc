"""The mission-map campaign: tabletrek's 26-city map (data/mission_map.toml) and player progress.

A mission is a city's (turns, mistakes), played as the game options ``tokens`` and ``mistakes``.
The team starts in Prague; winning a city opens the cities linked to it (seed 5(4)). Progress is
kept per player profile as JSON under the user data directory (``tabletrek.paths``), like the
notes column of the printed map: attempts, wins and the best number of tokens left.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from tabletrek.core.data import DataError, need, os_reason, package_toml, read_toml
from tabletrek.core.errors import UsageError
from tabletrek.games.codenames_duet.rules import MAX_TOKENS

PROFILE_NAME = re.compile(r"^[\w.-]{1,40}$")
PROGRESS_FORMAT = 1


@dataclass(frozen=True)
class City:
    id: str
    turns: int
    mistakes: int
    source: str  # "seed": numbers from the printed map (docs/rules/codenames-duet.md), else "tabletrek"
    links: tuple[str, ...]

    def options(self) -> dict[str, int]:
        """The game options that play this mission."""
        return {"tokens": self.turns, "mistakes": self.mistakes}


@dataclass(frozen=True)
class MissionMap:
    name: str
    start: str
    cities: Mapping[str, City]

    def city(self, name: str) -> City:
        key = name.strip().lower().replace(" ", "_").replace("-", "_")
        if key not in self.cities:
            raise ValueError(f"no city {name!r} on the mission map (cities: {', '.join(self.cities)})")
        return self.cities[key]


def parse_map(source: str, data: Mapping[str, Any]) -> MissionMap:
    name = need(data, "name", str, source)
    start = need(data, "start", str, source)
    table = need(data, "cities", dict, source)
    numbers: dict[str, tuple[int, int, str]] = {}
    for city, entry in table.items():
        path = f"cities.{city}"
        if not isinstance(entry, dict):
            raise DataError(source, path, "must be a table")
        turns = need(entry, "turns", int, source, path)
        mistakes = need(entry, "mistakes", int, source, path)
        origin = entry.get("source", "tabletrek")
        if not 1 <= turns <= MAX_TOKENS:
            raise DataError(source, f"{path}.turns", f"must be 1..{MAX_TOKENS} (the box's timer tokens)")
        if not 0 <= mistakes <= turns:
            raise DataError(source, f"{path}.mistakes", f"must be 0..turns ({turns})")
        if origin not in ("seed", "tabletrek"):
            raise DataError(source, f"{path}.source", "must be 'seed' or 'tabletrek'")
        numbers[city] = (turns, mistakes, origin)
    if start not in numbers:
        raise DataError(source, "start", f"{start!r} is not a city")
    links: dict[str, set[str]] = {city: set() for city in numbers}
    routes = need(need(data, "links", dict, source), "routes", list, source, "links")
    for i, route in enumerate(routes):
        key = f"links.routes[{i}]"
        if not (isinstance(route, list) and len(route) == 2 and all(isinstance(c, str) for c in route)):
            raise DataError(source, key, "must be a pair of city names")
        a, b = route
        for city in (a, b):
            if city not in numbers:
                raise DataError(source, key, f"{city!r} is not a city")
        if a == b:
            raise DataError(source, key, "links a city to itself")
        links[a].add(b)
        links[b].add(a)
    reached = {start}
    frontier = [start]
    while frontier:
        for other in links[frontier.pop()]:
            if other not in reached:
                reached.add(other)
                frontier.append(other)
    if len(reached) != len(numbers):
        lost = sorted(set(numbers) - reached)
        raise DataError(source, "links.routes", f"cannot be reached from {start}: {', '.join(lost)}")
    cities = {
        city: City(city, turns, mistakes, origin, tuple(sorted(links[city])))
        for city, (turns, mistakes, origin) in numbers.items()
    }
    return MissionMap(name, start, cities)


@cache
def mission_map() -> MissionMap:
    source, data = package_toml("tabletrek.games.codenames_duet", "data/mission_map.toml")
    return parse_map(source, data)


def load_map(path: str | Path) -> MissionMap:
    return parse_map(str(path), read_toml(path))


# ----- progress -----------------------------------------------------------------------------------


@dataclass
class Progress:
    """One profile's campaign: per city attempts, wins and the best tokens left."""

    profile: str
    missions: dict[str, dict[str, int]] = field(default_factory=dict)

    def won(self, city: str) -> bool:
        return self.missions.get(city, {}).get("wins", 0) > 0

    def available(self, mmap: MissionMap) -> list[str]:
        """Prague, and every city linked to one already won."""
        open_ = {mmap.start}
        for city in mmap.cities.values():
            if self.won(city.id):
                open_.update(city.links)
        return [c for c in mmap.cities if c in open_]

    def status(self, city: str, mmap: MissionMap) -> str:
        if self.won(city):
            return "won"
        if city in self.available(mmap):
            return "tried" if self.missions.get(city, {}).get("attempts") else "open"
        return "locked"

    def note(self, city: str, won: bool, tokens_left: int) -> None:
        entry = self.missions.setdefault(city, {"attempts": 0, "wins": 0, "best_tokens_left": -1})
        entry["attempts"] += 1
        if won:
            entry["wins"] += 1
            entry["best_tokens_left"] = max(entry["best_tokens_left"], tokens_left)

    def to_dict(self) -> dict[str, Any]:
        return {"format": PROGRESS_FORMAT, "profile": self.profile, "missions": self.missions}


def check_profile(name: str) -> str:
    if not PROFILE_NAME.match(name):
        raise UsageError("codenames_duet.campaign.error.profile", name=name)
    return name


def progress_path(root: Path, profile: str) -> Path:
    return root / "campaign" / "codenames-duet" / f"{check_profile(profile)}.json"


def load_progress(root: Path, profile: str) -> Progress:
    path = progress_path(root, profile)
    if not path.exists():
        return Progress(profile)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataError(str(path), "", said="core.data.progress_unreadable", reason=os_reason(exc)) from None
    except UnicodeDecodeError:
        raise DataError(str(path), "", said="core.data.progress_not_utf8") from None
    except json.JSONDecodeError as exc:
        said = "core.data.progress_not_json"
        raise DataError(str(path), "", said=said, row=exc.lineno, column=exc.colno) from None
    try:
        missions = {
            str(city): {k: int(v) for k, v in entry.items()} for city, entry in data["missions"].items()
        }
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError):
        raise DataError(str(path), "missions", said="core.data.progress_shape") from None
    return Progress(profile, missions)


def save_progress(root: Path, progress: Progress) -> Path:
    path = progress_path(root, progress.profile)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(progress.to_dict(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    temporary.replace(path)  # atomic: a crash never leaves half a file
    return path


def profiles(root: Path) -> list[str]:
    folder = root / "campaign" / "codenames-duet"
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []

"""Game records: game + options + seed + action texts, enough to rebuild any game exactly."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import IllegalAction
from tabletrek.core.characters import refused_character
from tabletrek.core.data import os_reason, read_at_most
from tabletrek.core.errors import UsageError
from tabletrek.core.numeric import is_whole
from tabletrek.core.registry import load_recorded
from tabletrek.i18n import UNSHOWABLE

if TYPE_CHECKING:
    from tabletrek.core.events import Event
    from tabletrek.core.state import State

RECORD_FORMAT = 1

MAX_RECORD_BYTES = 64 * 1024 * 1024
"""The most of a file ``GameRecord.load`` reads. A record holds one short text a move: a
four-player Double Crossing game of 4,000 moves is about 45 kB. The cap is counted while reading,
so a file of gigabytes (or /dev/zero) is refused after 64 MiB instead of filling the memory."""


def strings_in(document: Any) -> Iterator[tuple[str, str]]:
    """Every string in a JSON document, keys too, with where it stands ("meta.names[1]"); walked
    with a list, not by recursion, so no nesting that ``json`` accepts can exhaust the stack."""
    stack: list[tuple[str, Any]] = [("", document)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, str):
            yield where, value
        elif isinstance(value, Mapping):
            entries: list[tuple[str, Any]] = []
            for key, item in value.items():
                path = f"{where}.{key}" if where else str(key)
                entries += [(path, key), (path, item)]
            stack.extend(reversed(entries))  # popped in the document's order
        elif isinstance(value, list | tuple):
            stack.extend(reversed([(f"{where}[{i}]", item) for i, item in enumerate(value)]))


JSON_KINDS: dict[type, str] = {str: "text", int: "whole", list: "list", dict: "object"}
"""What a record's key holds, by the Python type it is read as (the catalog's ``record_need_*``)."""


@dataclass(frozen=True)
class GameRecord:
    game: str
    players: int
    options: Mapping[str, Any]
    seed: int
    actions: tuple[str, ...]
    meta: Mapping[str, Any] = field(default_factory=dict)
    rules: int | None = None
    """The game's rules version the record was played under (``GameSpec.rules_version``); None
    in records made before records carried it, which replay through the options' legacy values."""
    digests: Mapping[str, str] = field(default_factory=dict)
    """``Game.data_digests()`` when played: the data read from outside the package, by option.
    Written only when there is some, so other records are as they were."""

    def to_dict(self) -> dict[str, Any]:
        versioned = {} if self.rules is None else {"rules": self.rules}
        digested = {"digests": dict(self.digests)} if self.digests else {}
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            **versioned,
            "players": self.players,
            "options": dict(self.options),
            **digested,
            "seed": self.seed,
            "actions": list(self.actions),
            "meta": dict(self.meta),
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    def with_meta(self, **meta: Any) -> GameRecord:
        return GameRecord(
            self.game,
            self.players,
            self.options,
            self.seed,
            self.actions,
            {**self.meta, **meta},
            self.rules,
            self.digests,
        )

    @classmethod
    def from_dict(cls, data: Any, source: str = "record") -> GameRecord:
        if not isinstance(data, Mapping):
            raise UsageError("core.error.record_not_object", source=source)

        def need(key: str, kind: type) -> Any:
            if key not in data:
                raise UsageError("core.error.record_missing", source=source, name=key)
            value = data[key]
            if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
                # Said in JSON's terms: Python's type names ("NoneType") are not the file's.
                raise UsageError(f"core.error.record_need_{JSON_KINDS[kind]}", source=source, name=key)
            return value

        fmt = data.get("format", RECORD_FORMAT)
        if fmt != RECORD_FORMAT:
            raise UsageError("core.error.record_format", source=source, value=fmt, expected=RECORD_FORMAT)
        actions = need("actions", list)
        for i, text in enumerate(actions):
            if not isinstance(text, str):
                raise UsageError("core.error.record_action_text", source=source, index=i)
        rules = data.get("rules")
        if rules is not None and not is_whole(rules):
            raise UsageError("core.error.record_rules", source=source)
        meta = data.get("meta", {})
        if not isinstance(meta, Mapping):
            raise UsageError("core.error.record_meta", source=source)
        digests = data.get("digests", {})
        if not isinstance(digests, Mapping) or not all(isinstance(v, str) for v in digests.values()):
            raise UsageError("core.error.record_digests", source=source)
        for where, text in strings_in(data):
            # Controls, format characters and lone surrogates; private-use and unassigned ones only
            # look odd, and a record written under a newer Unicode may hold letters this Python
            # still calls unassigned.
            code = refused_character(text, UNSHOWABLE, invisible=False)
            if code is not None:
                raise UsageError("core.error.record_character", source=source, name=where, code=code)
        game, players, options = need("game", str), need("players", int), dict(need("options", dict))
        if not set(digests) <= set(options):  # a digest belongs to the option that named the data
            raise UsageError("core.error.record_digests", source=source)
        return cls(
            game=game,
            players=players,
            options=options,
            seed=need("seed", int),
            actions=tuple(actions),
            meta=dict(meta),
            rules=rules,
            digests=dict(digests),
        )

    @classmethod
    def from_json(cls, text: str, source: str = "record") -> GameRecord:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:  # and integers of 4,300+ digits, nesting too deep
            raise UsageError("core.error.record_json", source=source, detail=str(exc)) from None
        return cls.from_dict(data, source)

    def save(self, path: str | Path) -> Path:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        text = self.to_json(indent=1) + "\n"
        if target.exists() and not target.is_file():
            target.write_text(text, encoding="utf-8")  # a pipe or device (/dev/stdout): never rename over it
            return target
        # written beside the target, then renamed over it: an interrupted save (Ctrl-C, a full disk)
        # leaves the previous record whole instead of half a file that can no longer be resumed
        temporary = target.with_name(target.name + ".tmp")
        try:
            temporary.write_text(text, encoding="utf-8")
            temporary.replace(target)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        return target

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        source = str(path)
        try:
            data = read_at_most(path, MAX_RECORD_BYTES)
        except OSError as exc:
            raise UsageError("core.error.record_unreadable", source=source, detail=os_reason(exc)) from None
        if data is None:
            raise UsageError("core.error.record_too_large", source=source, most=MAX_RECORD_BYTES // 2**20)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise UsageError("core.error.record_not_utf8", source=source) from None
        return cls.from_json(text, source)


def iter_replay(record: GameRecord) -> Iterator[tuple[State, str | None, list[Event]]]:
    """Yield (state, action text, events) after the start and after each action.

    The same state object is yielded each time, advanced in place; clone it to keep a snapshot.
    A record from rules this code cannot replay exactly raises ValueError before any move, and
    one whose outside data (``digests``) has changed since raises UsageError.
    """

    game = load_recorded(record.game, record.players, record.options, record.rules)
    now = game.data_digests()
    for option, digest in record.digests.items():
        if now.get(option) != digest:
            # Refused before the deal: the same seed would deal from other data, and the first
            # move that no longer fits would be blamed instead.
            raise UsageError(
                "core.error.record_data_changed", option=option, value=record.options.get(option)
            )
    state = game.new_game(seed=record.seed)
    yield state, None, []
    for i, text in enumerate(record.actions):
        try:
            events = state.apply(text)
        except IllegalAction as exc:
            raise UsageError("core.error.record_illegal", index=i, text=text, reason=exc) from None
        yield state, text, events


def replay(record: GameRecord | Mapping[str, Any] | str) -> State:
    """The state reached by replaying a record: identical to the recorded game's (same to_json)."""
    if isinstance(record, str):
        record = GameRecord.from_json(record)
    elif not isinstance(record, GameRecord):
        record = GameRecord.from_dict(record)
    final = None
    for state, _text, _events in iter_replay(record):
        final = state
    assert final is not None
    return final

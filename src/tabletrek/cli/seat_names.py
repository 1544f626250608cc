"""The names the terminal gives a table's seats, and the same names in another language.

A record keeps the names its game was played under, in the language it was played in. Replayed
or resumed in the other language, a seat that nobody named takes its name in the reader's
language ("P2 (Greedy)" becomes "玩家2（貪心）"); a name a person typed stays as typed, and only its
bot's short name after it changes language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tabletrek.cli.common import default_names, tr
from tabletrek.i18n import LANGS, aside, bot_short, seat_name


def played_by(game: str, spec: str, lang: str) -> str:
    """What follows the name of a seat a bot plays: " (Greedy)", "（貪心）". ``spec`` is the bot
    as given ("ismcts:iterations=50"); its name is what comes before the colon (read, not parsed:
    a record's spec is not checked until its bot is made, and a name is no reason to refuse it)."""
    return aside(bot_short(game, spec.partition(":")[0].strip(), lang), lang)


def seat_names(
    game: str,
    players: int,
    humans: Sequence[int],
    bots: Mapping[int, str],
    lang: str,
    typed: Sequence[str] = (),
) -> list[str]:
    """Each seat's name at a terminal table: as typed, or "P1"; "(you)" after the one person's
    seat when nobody typed names; the bot's short name after each seat a bot plays (``bots``:
    seat -> the bot as given, "ismcts:iterations=50")."""
    names = default_names(players, lang, typed)
    if not typed and len(humans) == 1:
        names[humans[0]] += tr("cli.play.you", lang)
    for seat, spec in bots.items():
        names[seat] += played_by(game, spec, lang)
    return names


def recorded_bots(meta: Mapping[str, Any]) -> dict[int, str]:
    """The bots a record's ``meta`` names by seat (``{"1": "greedy"}``); a key that is no seat
    number is not a bot's seat (a record is a file anyone may hand over)."""
    given = meta.get("bots")
    if not isinstance(given, dict):
        return {}
    return {
        int(seat): str(spec)
        for seat, spec in given.items()
        if isinstance(seat, str) and seat.isascii() and seat.isdigit()
    }


def in_language(stored: Sequence[str], game: str, bots: Mapping[int, str], lang: str) -> list[str]:
    """A record's seat names said in ``lang``: each name tabletrek gave (in any language) as it
    gives it in ``lang``; a typed name as it is, its bot's short name in ``lang``."""
    out = []
    for seat, name in enumerate(stored):
        spec = bots.get(seat)
        out.append(person_in(seat, name, lang) if spec is None else bot_seat_in(seat, name, game, spec, lang))
    return out


def person_in(seat: int, name: str, lang: str) -> str:
    """A person's seat: "P1" or "P1 (you)" in any language becomes the same in ``lang``."""
    for other in LANGS:
        if name == seat_name(seat, other):
            return seat_name(seat, lang)
        if name == seat_name(seat, other) + tr("cli.play.you", other):
            return seat_name(seat, lang) + tr("cli.play.you", lang)
    return name


def bot_seat_in(seat: int, name: str, game: str, spec: str, lang: str) -> str:
    """A bot's seat: its name (given or "P2") and the bot's short name after it, in ``lang``."""
    for other in LANGS:
        after = played_by(game, spec, other)
        if name.endswith(after):
            base = name.removesuffix(after)
            return (seat_name(seat, lang) if base == seat_name(seat, other) else base) + played_by(
                game, spec, lang
            )
    return name

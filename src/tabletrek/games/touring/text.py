"""Touring in the terminal: the table as one seat sees it, and moves as sentences."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tabletrek.core.actions import Action
from tabletrek.core.linebreak import flow, wrapped
from tabletrek.games.touring.cards import COLLISION, M30, PUNCTURE, SLUGS
from tabletrek.games.touring.rules import DISCARD_BASE, PASS, TAKE_15S, TAKE_30, TARGET_BASE, decode_target
from tabletrek.i18n import aside, join_list, list_separator, seat_name, translate

if TYPE_CHECKING:
    from tabletrek.games.touring.game import Touring

MILE_KEYS = ("1", "3", "15", "30")
STYLE = {
    "go": "bold green",
    "country": "green",
    "city-limits": "yellow",
    "puncture": "red",
    "out-of-gasoline": "red",
    "collision": "bold red",
    "gasoline": "cyan",
    "hauled-in": "cyan",
}


def card_name(slug: str, lang: str) -> str:
    return translate(f"touring.card.{slug}", lang)


def card_text(slug: str, lang: str) -> Text:
    return Text(card_name(slug, lang), style=STYLE.get(slug, "bold"))


def _ui(lang: str) -> Callable[..., str]:
    def t(key: str, **args: Any) -> str:
        return translate(f"touring.ui.{key}", lang, **args)

    return t


class TouringTextUI:
    def __init__(self, game: Touring) -> None:
        self.game = game

    def _name(self, seat: int, names: Sequence[str], lang: str) -> str:
        return names[seat] if seat < len(names) else seat_name(seat, lang)

    def _members(self, table: dict[str, Any], names: Sequence[str], lang: str) -> str:
        return join_list((self._name(s, names, lang) for s in table["seats"]), lang)

    def _team(self, table: dict[str, Any], lang: str) -> str:
        return translate(f"touring.team.{table['team'] + 1}", lang)

    def table_name(self, table: dict[str, Any], names: Sequence[str], lang: str) -> str:
        members = self._members(table, names, lang)
        if not self.game.team_games:
            return members
        return translate("touring.ui.team_table", lang, team=self._team(table, lang), members=members)

    def heading(self, table: dict[str, Any], names: Sequence[str], lang: str, to_act: bool) -> RenderableType:
        """A table's row heading: a team's name above its members, each member's name kept
        whole, so that a narrow terminal breaks between names rather than inside one; ◀ marks
        the table whose seat is to act."""
        members = [Text(self._name(s, names, lang)) for s in table["seats"]]
        if to_act:
            members[-1].append(" ◀", style="bold magenta")
        members_line = flow(members, list_separator(lang), style="bold")
        if not self.game.team_games:
            return members_line
        return Group(wrapped(self._team(table, lang), style="bold"), members_line)

    def render(self, view: dict[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
        t = _ui(lang)
        colon = translate("core.text.colon", lang)
        grid = Table(title=t("table"), expand=False, show_lines=True)
        for heading in ("", t("go_pile"), t("speed_pile"), t("mileage"), t("total")):
            grid.add_column(heading, overflow="fold")
        for table in view["tables"]:
            name = self.heading(table, names, lang, view["to_act"] in table["seats"])
            go_top = card_text(table["go"][-1], lang) if table["go"] else Text(t("empty"), style="dim")
            state = Text(aside(t("moving") if table["moving"] else t("stopped"), lang), style="dim")
            go = flow((go_top, state), "")
            speed = (
                card_text(table["speed"][-1], lang) if table["speed"] else Text(t("limited"), style="yellow")
            )
            miles = flow(
                Text(f"{key}: {have}/{need}", style="green" if have == need else "")
                for key in MILE_KEYS
                for have, need in [(table["miles"][key], view["required"][key])]
            )
            total = t("miles_total", total=table["total"], goal=view["goal"])
            grid.add_row(name, go, wrapped(speed), miles, wrapped(total))
        counts = flow(
            (
                f"{self._name(seat, names, lang)}{colon}{t('cards_in_hand', count=count)}"
                for seat, count in enumerate(view["hand_counts"])
            ),
            "   ",
        )
        piles = Text(t("draw_pile", count=view["draw_pile"]) + "   ")
        top = card_name(view["discard"][-1], lang) if view["discard"] else t("empty")
        piles.append(t("discard_pile", count=len(view["discard"]), top=top))
        parts: list[RenderableType] = [grid, counts, wrapped(piles)]
        if view["hand"] is not None:
            lead = Text(t("hand") + colon, style="bold")
            parts.append(flow((card_text(slug, lang) for slug in view["hand"]), lead=lead))
        return Group(*parts)

    def describe(self, action: Action, view: dict[str, Any], lang: str, names: Sequence[str]) -> str:
        t = _ui(lang)
        index = action.index
        if index == PASS:
            return t("action.pass")
        if index >= DISCARD_BASE:
            return t("action.discard", card=card_name(SLUGS[index - DISCARD_BASE], lang))
        if index >= TARGET_BASE:
            card, team, variant = decode_target(index)
            victim = view["tables"][team]
            target = self.table_name(victim, names, lang)
            text = t("action.play_on", card=card_name(SLUGS[card], lang), target=target)
            loss = self.loss(card, victim, variant, lang)
            return f"{text} {loss}" if loss else text
        text = t("action.play", card=card_name(SLUGS[index], lang))
        if index == M30 and view["team"] is not None and view["tables"][view["team"]]["limited"]:
            return f"{text} {t('speeding')}"
        return text

    def loss(self, card: int, victim: dict[str, Any], variant: int, lang: str) -> str:
        """What a delay will cost its victim, spelled out before it is played."""
        if card not in (PUNCTURE, COLLISION):
            return ""
        miles = victim["miles"]
        country = not victim["limited"]
        lost: list[int] = []
        if card == PUNCTURE:
            if country and miles["15"]:
                lost = [15]
        elif not country:
            lost = [15] if miles["15"] else []
        elif variant == TAKE_30 or (variant != TAKE_15S and miles["30"]):
            lost = [30] if miles["30"] else []
        else:
            lost = [15] * min(2, miles["15"])
        if not lost:
            return translate("touring.ui.loses_nothing", lang)
        return translate("touring.ui.loses", lang, what=" + ".join(map(str, lost)))

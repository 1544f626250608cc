"""How Goofspiel shows itself in a terminal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tabletrek.core.actions import Action
from tabletrek.core.linebreak import flow_within
from tabletrek.i18n import list_separator, translate


class GoofspielText:
    def render(self, view: dict[str, Any], lang: str, names: Sequence[str]) -> RenderableType:
        def t(key: str, **args: Any) -> str:
            return translate(f"goofspiel.text.{key}", lang, **args)

        parts: list[RenderableType] = []
        if view["prize"] is not None:
            parts.append(
                Text(t("prize", card=view["prize"], value=view["prize"] + sum(view["pot"])), style="bold")
            )
        parts.append(Text(t("prizes_left", cards=" ".join(map(str, view["prizes_left"])) or "-")))
        table = Table(show_header=True, header_style="bold")
        for column in ("player", "score", "cards", "bid"):
            table.add_column(t(f"col.{column}"))
        for seat, name in enumerate(names):
            bid = t("has_bid") if view["has_bid"][seat] else ""
            if view.get("seat") == seat and view.get("bid") is not None:
                bid = str(view["bid"])
            marker = "▶ " if view["to_act"] == seat else ""
            cards = view["hand"] if view.get("seat") == seat else view["hands"][seat]
            table.add_row(marker + name, f"{view['scores'][seat]:g}", " ".join(map(str, cards)), bid)
        parts.append(table)
        if view["rounds"]:
            last = view["rounds"][-1]
            bids = [t("bid_pair", player=names[s], bid=b) for s, b in enumerate(last["bids"])]
            separator = list_separator(lang)
            parts.append(
                flow_within(lambda shown: t("last_round", prize=last["prize"], bids=shown), bids, separator)
            )
        return Group(*parts)

    def describe(self, action: Action, view: dict[str, Any], lang: str, names: Sequence[str]) -> str:
        return translate("goofspiel.text.bid", lang, card=action.index + 1)

"""Analysis reports: simulate, replay every record as its game ends, and write one self-contained
HTML page.

The games are those ``tabletrek simulate`` plays with the same seed and bots (same per-game
seeds), so a report can be checked against a simulation. Per-game statistics come from replaying
each record and reading its public events (``tabletrek.sim.probes``). Plots are drawn with
matplotlib (extra ``[study]``) as inline SVG, so the page needs no other file and no network.
"""

from __future__ import annotations

import html
import io
import string
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tabletrek.core.errors import UsageError
from tabletrek.core.events import Event
from tabletrek.core.records import iter_replay
from tabletrek.core.registry import load, load_with
from tabletrek.i18n import join_list, translate
from tabletrek.sim.backend import Backend, GamesInterrupted, GameSpec, LazySpecs, run_specs, stopped_key
from tabletrek.sim.probes import Section, probe_for
from tabletrek.sim.runner import (
    GameOutcome,
    SimulationResult,
    check_bots,
    check_seats,
    game_seed,
    seat_bots,
)
from tabletrek.sim.stats import Summary, length_args, summarize
from tabletrek.sim.tally import Tally


@dataclass
class Analysis:
    result: SimulationResult
    summary: Summary
    sections: list[Section]
    planned: int = 0
    """The games asked for: more than were played when Ctrl+C stopped the run."""


def analyze(
    name: str,
    n: int,
    bots: Sequence[str],
    *,
    players: int | None = None,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    bot_params: Mapping[str, Mapping[str, Any]] | None = None,
    backend: Backend | None = None,
    progress: Callable[[int], None] | None = None,
    replayed: Callable[[int], None] | None = None,
) -> Analysis:
    """Play ``n`` games (bots rotated over seats) and replay each as it finishes to gather
    statistics. The result keeps running totals (``SimulationResult.tally``), not the games: a
    record is dropped once replayed, so a long run holds no more than a short one's records."""
    if n < 1:
        raise UsageError("core.error.games_positive")
    opts = dict(options or {})
    game = load_with(name, players, opts)
    params = tuple((bot, dict(p)) for bot, p in (bot_params or {}).items())
    check_seats(bots, game.players)
    check_bots(game, bots, dict(params))
    specs = LazySpecs(n, lambda i: GameSpec(i, game_seed(seed, i), seat_bots(bots, game.players, i), params))
    tally = Tally(game.players)
    result = SimulationResult(
        name, game.players, opts, tuple(bots), seed, cooperative=game.cooperative, tally=tally
    )
    probe = probe_for(name)

    def study(outcome: GameOutcome) -> None:
        probe.feed(outcome, replay_events(outcome))
        tally.add(outcome)
        if replayed:
            replayed(1)

    try:
        run_specs(name, game.players, opts, specs, backend or Backend(), True, progress, study)
    except GamesInterrupted as stopped:  # Ctrl+C: the report of the games that finished
        if tally.games:
            stopped.result = Analysis(result, summarize(result), probe.sections(), planned=n)
        raise
    return Analysis(result, summarize(result), probe.sections(), planned=n)


def replay_events(outcome: GameOutcome) -> list[Event]:
    assert outcome.record is not None
    events: list[Event] = []
    for _state, _text, step in iter_replay(outcome.record):
        events.extend(step)
    return events


# ----- rendering ----------------------------------------------------------------------------------


def event_name(key: str, lang: str) -> str:
    """An event kind in ``lang``: its message with each detail (player, card, ...) shown as "…"."""
    template = translate(key, lang)
    if template == key:
        return key
    parts = []
    for literal, field, _spec, _conv in string.Formatter().parse(template):
        parts.append(literal)
        if field is not None:
            parts.append("…")
    return "".join(parts).strip()


def cell_text(value: Any, lang: str) -> str:
    if isinstance(value, dict) and isinstance(value.get("$t"), str):
        return translate(value["$t"], lang)
    if isinstance(value, dict) and isinstance(value.get("$event"), str):
        return event_name(value["$event"], lang)
    return str(value)


def figure_svg(draw: Callable[[Any], None], width: float = 6.4, height: float = 3.4) -> str:
    """Run ``draw(axes)`` on a fresh figure and return the figure as inline SVG."""
    import matplotlib  # type: ignore[import-not-found,unused-ignore]  # noqa: PLC0415 - the [study] extra

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # type: ignore[import-not-found,unused-ignore]  # noqa: PLC0415 - the [study] extra

    # Text stays text in the SVG, so the browser draws it with its own fonts and the report stays
    # small. The family list is a fallback chain (matplotlib >= 3.6 falls back glyph by glyph):
    # a CJK font, when installed (Debian's fonts-noto-cjk), measures Chinese labels so the layout
    # fits them, and the SVG names the same chain for the browser.
    with (
        matplotlib.rc_context({"svg.fonttype": "none", "font.family": plot_fonts()}),
        warnings.catch_warnings(),
    ):
        warnings.filterwarnings("ignore", message="Glyph .* missing from font")
        fig, ax = plt.subplots(figsize=(width, height))
        try:
            draw(ax)
            fig.tight_layout()
            buffer = io.StringIO()
            fig.savefig(buffer, format="svg", metadata={"Date": None})
        finally:
            plt.close(fig)
    text = buffer.getvalue()
    return text[text.index("<svg") :]


CJK_FONTS = (
    "Noto Sans CJK TC",
    "Noto Sans CJK JP",
    "Noto Sans CJK SC",
    "Noto Sans TC",
    "Source Han Sans TC",
    "PingFang TC",
    "Microsoft JhengHei",
    "WenQuanYi Zen Hei",
)


def plot_fonts() -> list[str]:
    """DejaVu Sans (matplotlib's own) first, then the CJK fonts this machine has."""
    from matplotlib import font_manager  # type: ignore[import-not-found,unused-ignore]  # noqa: PLC0415 - the [study] extra

    manager = font_manager.fontManager
    installed = {f.name for f in manager.ttflist}
    if not installed.intersection(CJK_FONTS):
        # matplotlib caches the font list on first use: CJK fonts installed after that (say, by
        # `apt-get install fonts-noto-cjk` on a machine that already drew a plot) are not in it.
        for path in font_manager.findSystemFonts():
            if "CJK" in path:
                manager.addfont(path)
        installed = {f.name for f in manager.ttflist}
    return ["DejaVu Sans", *(name for name in CJK_FONTS if name in installed), "sans-serif"]


def rate_plot(
    labels: list[str], rates: list[float], intervals: list[tuple[float, float]], ylabel: str
) -> str:
    def draw(ax: Any) -> None:
        low = [max(0.0, r - lo) for r, (lo, _hi) in zip(rates, intervals, strict=True)]
        high = [max(0.0, hi - r) for r, (_lo, hi) in zip(rates, intervals, strict=True)]
        ax.bar(labels, rates, yerr=[low, high], capsize=4, color="#4c78a8")
        ax.set_ylim(0, 1)
        ax.set_ylabel(ylabel)

    return figure_svg(draw)


def histogram(counts: Mapping[int, int], xlabel: str, ylabel: str) -> str:
    """A histogram of values given as {value: how many times}."""

    def draw(ax: Any) -> None:
        values = list(counts)
        ax.hist(values, bins=min(30, max(5, len(values))), weights=list(counts.values()), color="#72b7b2")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)

    return figure_svg(draw)


def section_plot(plot: Mapping[str, Any], lang: str) -> str:
    labels = [cell_text(label, lang) for label in plot.get("labels", [])]
    values = list(plot["values"])
    ylabel = translate(plot.get("ylabel", ""), lang)

    def draw(ax: Any) -> None:
        if plot["kind"] == "line":
            from matplotlib.ticker import MaxNLocator  # type: ignore[import-not-found,unused-ignore]  # noqa: PLC0415 - the [study] extra

            ax.plot(plot["x"], values, marker="o", color="#e45756")
            if all(isinstance(x, int) for x in plot["x"]):
                ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # rounds, not 1.25
            ax.set_xlabel(translate(plot.get("xlabel", ""), lang))
            ax.set_ylabel(ylabel)
        elif plot["kind"] == "barh":
            ax.barh(labels[::-1], values[::-1], color="#54a24b")
            ax.set_xlabel(ylabel)
        else:
            ax.bar(labels, values, color="#f58518")
            ax.set_ylabel(ylabel)
            ax.tick_params(axis="x", labelrotation=30)

    tall = plot["kind"] == "barh"
    return figure_svg(draw, height=max(3.4, 0.3 * len(labels)) if tall else 3.4)


# A Chinese heading of up to this many characters is a word ('電腦玩家', '座位次數') and is not
# broken; a longer one is a phrase ('每次失去的哩程') and may break between its characters.
WORD_LENGTH = 5


def heading_html(text: str) -> str:
    """A table heading: kept to break only at its spaces if it has any or is a word's length."""
    whole = " " in text.strip() or len(text) <= WORD_LENGTH
    attribute = ' class="words"' if whole else ""
    return f"<th{attribute}>{html.escape(text)}</th>"


def table_html(header: list[str], rows: list[list[Any]], lang: str) -> str:
    head = "".join(heading_html(translate(h, lang)) for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell_text(c, lang))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


# A figure is never broken over two lines (a phone broke '5.5% –' over '26.1%'), a heading that
# is a word never inside it (not '電腦玩' over '家'; see ``heading_html``); the first column,
# names and labels, takes what is left and may break anywhere (a bot named with its parameters
# has no space). Phones get a smaller table so the figures fit beside it.
STYLE = """
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5rem 0}
td,th{border:1px solid #ddd;padding:.2rem .6rem;text-align:right}
th.words{word-break:keep-all}td+td{white-space:nowrap}td:first-child{overflow-wrap:anywhere}
td:first-child,th:first-child{text-align:left}.note{color:#555;font-size:.9rem}.empty{color:#555}svg{max-width:100%;height:auto}
@media (max-width:30rem){table{font-size:.85rem}td,th{padding:.2rem .35rem}}
"""


REPORT_GENERATOR = '<meta name="generator" content="tabletrek analyze">'
"""In every report's head: ``analyze --out`` writes over a file only if it holds this (or nothing)."""


def render_html(analysis: Analysis, lang: str, command: str = "", terminated: bool = False) -> str:
    """The whole report as one HTML document (inline SVG plots, no external resources);
    ``terminated``: a run stopped early was stopped by SIGTERM, not Ctrl+C."""
    s = analysis.summary
    t = translate
    pct = "{:.1f}%".format
    game_title = load(s.game, players=s.players).title(lang)
    parts = [
        f'<!DOCTYPE html><html lang="{html.escape(lang)}"><head><meta charset="utf-8">{REPORT_GENERATOR}',
        f"<title>{html.escape(t('cli.analyze.report.title', lang, game=game_title))}</title>",
        f"<style>{STYLE}</style></head><body><main>",
        f"<h1>{html.escape(t('cli.analyze.report.title', lang, game=game_title))}</h1>",
        "<p>"
        + html.escape(
            t(
                "cli.analyze.report.intro",
                lang,
                count=s.games,
                players=s.players,
                bots=join_list(analysis.result.bots, lang),
                seed=analysis.result.seed,
            )
        )
        + "</p>",
    ]
    if command:
        parts.append(f"<p class='note'><code>{html.escape(command)}</code></p>")
    if s.games < analysis.planned:
        stopped = t(stopped_key(terminated), lang, count=s.games, total=analysis.planned)
        parts.append(f"<p><strong>{html.escape(stopped)}</strong></p>")
    # Win rates by bot and by seat, with Wilson 95% intervals.
    parts.append(f"<h2>{html.escape(t('cli.analyze.report.by_bot', lang))}</h2>")
    parts.append(
        rate_plot(
            [b.bot for b in s.bots],
            [b.win_rate for b in s.bots],
            [b.interval for b in s.bots],
            t("cli.sim.col.win_rate", lang),
        )
    )
    parts.append(
        table_html(
            [
                "cli.sim.col.bot",
                "cli.sim.col.seats",
                "cli.sim.col.wins",
                "cli.sim.col.win_rate",
                "cli.sim.col.ci",
            ],
            [
                [
                    b.bot,
                    b.seats_played,
                    b.wins,
                    pct(100 * b.win_rate),
                    f"{pct(100 * b.interval[0])} – {pct(100 * b.interval[1])}",
                ]
                for b in s.bots
            ],
            lang,
        )
    )
    parts.append(f"<h2>{html.escape(t('cli.analyze.report.by_seat', lang))}</h2>")
    parts.append(
        rate_plot(
            [str(x.seat + 1) for x in s.seats],
            [x.win_rate for x in s.seats],
            [x.interval for x in s.seats],
            t("cli.sim.col.win_rate", lang),
        )
    )
    parts.append(
        table_html(
            ["cli.sim.col.seat", "cli.sim.col.wins", "cli.sim.col.win_rate", "cli.sim.col.ci"],
            [
                [
                    x.seat + 1,
                    x.wins,
                    pct(100 * x.win_rate),
                    f"{pct(100 * x.interval[0])} – {pct(100 * x.interval[1])}",
                ]
                for x in s.seats
            ],
            lang,
        )
    )
    parts.append(
        f"<p class='note'>{html.escape(t('cli.sim.fair_share', lang, share=pct(100 / s.players)))}</p>"
    )
    # Game length.
    parts.append(f"<h2>{html.escape(t('cli.analyze.report.length', lang))}</h2>")
    parts.append(
        histogram(
            analysis.result.totals().actions,
            t("cli.analyze.report.moves", lang),
            t("cli.analyze.col.games", lang),
        )
    )
    parts.append("<p>" + html.escape(t("cli.sim.length", lang, **length_args(s.actions))) + "</p>")
    reasons = [[{"$t": reason}, count] for reason, count in sorted(s.reasons.items(), key=lambda kv: -kv[1])]
    parts.append(table_html(["cli.analyze.report.reason", "cli.analyze.col.games"], reasons, lang))
    # What matters to players of this game.
    for section in analysis.sections:
        parts.append(f"<h2>{html.escape(t(section.title, lang))}</h2>")
        if section.note:
            parts.append(f"<p class='note'>{html.escape(t(section.note, lang))}</p>")
        plot = section.plot if section.plot and section.plot.get("values") else None
        if plot is not None:
            parts.append(section_plot(plot, lang))
        if section.rows:
            parts.append(table_html(section.header, section.rows, lang))
        elif plot is None:  # a heading over nothing would look like a report that failed
            parts.append(f"<p class='empty'>{html.escape(t(section.empty, lang))}</p>")
    parts.append("</main></body></html>")
    return "\n".join(parts)

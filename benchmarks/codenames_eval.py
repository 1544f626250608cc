"""Codenames Duet AI evaluation, English and Chinese: the AI with a partner that thinks with a model
the AI has never seen.

    python -m benchmarks.codenames_eval [--games 300] [--seed 0] [--config NAME ...] [--param k=v ...]
        [--samples 50]

Every game is a standard two-player game (9 tokens) played through the real rules; each seat is the
AI, and the *configuration* says which embedding tables its clue-giver and its guesser use. The
headline rows are the held-out ones: the partner's model is one the AI's shipped tables leave out
(Universal Sentence Encoder multilingual, whose tables live in benchmarks/data/, built by
scripts/build_codenames_tables.py with the AI's vocabulary):

  <lang>-a-heldout   the AI clue-giver (its shipped tables), the held-out model guessing;
  <lang>-b-heldout   the held-out model giving clues, the AI guesser (its shipped tables).

Same-table pairs (<lang>-same) are an upper bound only; leave-one-out rows (en-a-loo-glove ...) hold
out one of the shipped models instead, for development without touching the held-out partner. Where
a shipped table reads WordNet glosses (its manifest entry has ``wordnet``), the left-out partner reads
that model's plain table instead (``plain-<model>`` in benchmarks/data/codenames_plain_<lang>, built
beside the shipped ones): like USE in the headline rows, a partner must read bare words, or the row
would measure agreement on a shared WordNet pipeline.

Chinese has a native development partner too: m3e-small (zh-a-m3e, zh-b-m3e, zh-m3e-same; research
licence, so its table lives in benchmarks/data/codenames_partner_zh_hant only). ``--tables DIR`` adds
a directory of development tables (scripts/codenames_zh_native.py --dev-out) whose models rows can
then name in --param giver_models=... / guesser_models=....

The partner role plays a pinned policy: ``PARTNER_KNOBS`` (the knob values every default had
before per-language defaults, round 9), never the AI's language defaults, difficulty or ``--param``
knobs, which apply to the AI's role only (a-rows: the giver; b-rows: the guesser; <lang>-same: both;
zh-m3e-same: neither). So tuning the AI's defaults cannot silently change the partner's policy.

Prints per configuration: wins (95% Wilson interval), assassin losses ("(clued)": while clues were
still given; "(bonus)": on a guess past the clue's announced number), sudden-death losses, mean clue
turns of wins, agents found, announced number and greens found per clue, and the median wall time of
the AI's clue and guess moves (run it under ``taskset -c 1`` for one core). Then, per language, the
clue-quality report: ``--samples`` clues the AI gave to the held-out guesser, each with the words it
meant and the words touched, and the share of clues announcing 3+ words that the held-out guesser
fully decoded.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tabletrek.games.codenames_duet.ai import tables
from tabletrek.games.codenames_duet.ai.bots import ClueBot
from tabletrek.games.codenames_duet.ai.giver import ClueGiver, GiverKnobs
from tabletrek.games.codenames_duet.ai.guesser import Guesser, GuesserKnobs
from tabletrek.games.codenames_duet.ai.selfplay import BotMaker, Summary, run

HELDOUT = "use"
HELDOUT_DIR = Path(__file__).resolve().parent / "data"
AI = {"en": "e5,minilm,l3,glove,mpnet", "zh-Hant": "e5,minilm,l3,glove,mpnet"}

CONFIGS: dict[str, dict[str, Any]] = {
    # the headline: the AI's shipped tables on one side, the held-out model on the other
    "en-a-heldout": {"lang": "en", "giver_models": AI["en"], "guesser_models": HELDOUT},
    "en-b-heldout": {"lang": "en", "giver_models": HELDOUT, "guesser_models": AI["en"]},
    "zh-a-heldout": {"lang": "zh-Hant", "giver_models": AI["zh-Hant"], "guesser_models": HELDOUT},
    "zh-b-heldout": {"lang": "zh-Hant", "giver_models": HELDOUT, "guesser_models": AI["zh-Hant"]},
    # the old shipped set against the held-out partner (what the tables were before e5)
    "en-a-old-set": {"lang": "en", "giver_models": "minilm,l3,glove", "guesser_models": HELDOUT},
    # upper bounds: both sides share the tables
    "en-same": {"lang": "en"},
    "zh-same": {"lang": "zh-Hant"},
}
DEFAULT = ("en-a-heldout", "en-b-heldout", "zh-a-heldout", "zh-b-heldout")
# Leave-one-out development rows, without the held-out model: en-a-loo-X (the AI on the other four
# English tables gives, X guesses), en-b-loo-X (X gives, the AI on the other four guesses), and the
# Chinese rows below. ``--config loo`` runs them all.
for _held in AI["en"].split(","):
    _rest = ",".join(m for m in AI["en"].split(",") if m != _held)
    CONFIGS[f"en-a-loo-{_held}"] = {"lang": "en", "giver_models": _rest, "guesser_models": _held}
    CONFIGS[f"en-b-loo-{_held}"] = {"lang": "en", "giver_models": _held, "guesser_models": _rest}
# Chinese: e5 is the only shipped model that reads the Chinese word itself (the others read its
# CC-CEDICT senses), so it is the development partner; --param giver_models=... / guesser_models=...
# tries other AI sets against it
_ZH_READERS = "minilm,l3,glove"
for _held, _rest in (("e5", f"mpnet,{_ZH_READERS}"), ("mpnet", f"e5,{_ZH_READERS}")):
    CONFIGS[f"zh-a-loo-{_held}"] = {"lang": "zh-Hant", "giver_models": _rest, "guesser_models": _held}
    CONFIGS[f"zh-b-loo-{_held}"] = {"lang": "zh-Hant", "giver_models": _held, "guesser_models": _rest}
# A native Chinese development partner: m3e-small (a Chinese BERT trained on Chinese sentence pairs,
# non-commercial research licence, so it lives in benchmarks/data/codenames_partner_zh_hant and never
# in the shipped tables; scripts/codenames_zh_native.py). Unlike the loo rows it shares no dictionary
# with the AI's tables: zh-a-m3e (the AI gives, m3e guesses), zh-b-m3e (m3e gives, the AI guesses),
# zh-m3e-same (m3e with itself: the policy's ceiling with this reader).
PARTNERS = {"zh-Hant": "m3e"}
CONFIGS["zh-a-m3e"] = {"lang": "zh-Hant", "giver_models": AI["zh-Hant"], "guesser_models": "m3e"}
CONFIGS["zh-b-m3e"] = {"lang": "zh-Hant", "giver_models": "m3e", "guesser_models": AI["zh-Hant"]}
CONFIGS["zh-m3e-same"] = {"lang": "zh-Hant", "giver_models": "m3e", "guesser_models": "m3e"}
# Which roles are the AI's in a row (the side whose models are the AI's tables); the other role is
# the partner and plays PARTNER_KNOBS. Rows not listed: the a-rows give, the b-rows guess.
AI_ROLES: dict[str, tuple[str, ...]] = {
    "en-same": ("giver", "guesser"),
    "zh-same": ("giver", "guesser"),
    "zh-m3e-same": (),  # the native partner with itself: the policy's ceiling with that reader
}

# The partner's policy, written out once: the value every knob had before per-language defaults
# (round 9, ai/README.md), which is what the partners of every earlier row played. The partner's
# models come from the row; nothing else of the AI's configuration reaches the partner.
PARTNER_KNOBS: dict[str, dict[str, Any]] = {
    "giver": {
        "delta": 0.5,
        "delta_assassin": 1.0,
        "tau": 1.5,
        "max_number": 4,
        "vocab_cut": 20000,
        "worst_weight": 0.0,
        "rarity": 0.1,
        "consensus": 1.0,
        "noise": 0.0,
        "disagreement": 1.0,
        "assassin_cost": 3.0,
        "shortlist": 150,
        "samples": 64,
        "adapt": 0.0,
        "adapt_temperature": 0.5,
        "sigma": 0.7,
        "big_number_p": 0.5,
        "learned": 0,
        "schedule": 1,
    },
    "guesser": {
        "temperature": 0.2,
        "loss_cost": 4.0,
        "endgame_cost": 2.0,
        "endgame_tokens": 2,
        "spill": 0.3,
        "old_weight": 0.7,
        "cap": 0.95,
        "bonus_green": 0.0,
        "last_token_green": 0.9,
        "vocab_cut": 20000,
        "learned_stop": 0,
    },
}


def ai_roles(name: str) -> tuple[str, ...]:
    if name in AI_ROLES:
        return AI_ROLES[name]
    return ("giver",) if "-a-" in name else ("guesser",)


def pinned_partner(params: dict[str, Any], roles: tuple[str, ...], lang: str) -> BotMaker:
    """Each seat: the AI with ``params`` in its ``roles``, the partner's PARTNER_KNOBS in the other
    role (reading the row's tables for that role)."""

    def make(game: Any, seat: int, seed: int) -> ClueBot:
        bot = ClueBot(game, seat=seat, seed=seed, **params)
        if "giver" not in roles:
            models = bot.giver.knobs.models
            knobs = GiverKnobs(models=models, language=lang, **PARTNER_KNOBS["giver"])
            bot.giver = ClueGiver(knobs, seed=seed or 0)
        if "guesser" not in roles:
            models = bot.guesser.knobs.models
            bot.guesser = Guesser(GuesserKnobs(models=models, language=lang, **PARTNER_KNOBS["guesser"]))
        return bot

    return make


def partner_note(roles: tuple[str, ...]) -> str:
    """What the partner role of a row plays, for the printed header."""
    if len(roles) == 2:
        return "AI both roles"
    side = "guesser" if roles == ("giver",) else "giver" if roles else "both roles"
    return f"partner {side}: PARTNER_KNOBS"


GROUPS = {
    "loo": tuple(name for name in CONFIGS if "-loo-" in name),
    "loo-en": tuple(name for name in CONFIGS if name.startswith("en-") and "-loo-" in name),
    "m3e": ("zh-a-m3e", "zh-b-m3e"),
}


def parse_param(text: str) -> tuple[str, Any]:
    key, _, value = text.partition("=")
    if not value:
        raise argparse.ArgumentTypeError(f"--param wants key=value, not {text!r}")
    for kind in (int, float):
        try:
            return key, kind(value)
        except ValueError:
            pass
    return key, value


def load_heldout(lang: str, extra: Sequence[Path] = (), heldout: bool = True) -> None:
    """Add the held-out model's table (unless ``heldout`` is false: development runs never load it),
    the plain tables of gloss-reading models, the native partner's table, and any ``--tables``
    directories to the loaded tables (the AI itself never reads them unless a row names them)."""
    loaded = tables.load_tables(lang)
    folder = lang.replace("-", "_").lower()
    if heldout and HELDOUT not in loaded.models:
        loaded.add_models(HELDOUT_DIR / f"codenames_heldout_{folder}")
    if glossed(lang) and not any(m.startswith("plain-") for m in loaded.models):
        loaded.add_models(HELDOUT_DIR / f"codenames_plain_{folder}")
    if lang in PARTNERS and PARTNERS[lang] not in loaded.models:
        loaded.add_models(HELDOUT_DIR / f"codenames_partner_{folder}")
    for directory in extra:
        manifest = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
        if manifest["language"] == lang and not set(manifest["models"]) <= set(loaded.models):
            loaded.add_models(directory)


def glossed(lang: str) -> set[str]:
    """The shipped models whose tables read WordNet glosses."""
    models = tables.load_tables(lang).manifest["models"]
    return {name for name, meta in models.items() if "wordnet" in meta}


def partner_side(model: str, lang: str) -> str:
    """A development row's partner (the shipped model left out of the AI's set) reads its plain
    table when the shipped one reads glosses."""
    return f"plain-{model}" if model in glossed(lang) else model


def play_row(
    name: str,
    seeds: Iterable[int],
    knobs: Mapping[str, Any],
    options: Mapping[str, Any] | None = None,
    tables: Sequence[Path] = (),
) -> tuple[dict[str, Any], Summary]:
    """One configuration's games: ``knobs`` on the AI's role, the partner's PARTNER_KNOBS on the
    other (a development row's partner reading its plain table); the row's params and summary."""
    config = dict(CONFIGS[name])
    lang = config.pop("lang")
    if "-loo-" in name:
        side = "guesser_models" if "-a-" in name else "giver_models"
        config[side] = partner_side(config[side], lang)
    params = {**config, **knobs}
    uses_heldout = HELDOUT in {str(params.get(k, "")) for k in ("giver_models", "guesser_models")}
    load_heldout(lang, tables, heldout=uses_heldout)
    options = {**dict(options or {}), **({"word_pack": lang} if lang != "en" else {})}
    return params, run(seeds, params, options, pinned_partner(params, ai_roles(name), lang))


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.2f}" if values else "-"


def clue_report(name: str, summary: Summary, samples: int, seed: int) -> None:
    reports = summary.clue_reports()
    done, total = summary.decoded_share(3)
    share = f"{done / total:.1%}" if total else "-"
    print(
        f"\nclue quality, {name}: {len(reports)} AI clues; 3+-word clues fully decoded by the partner: "
        f"{done}/{total} ({share})"
    )
    for n in range(1, 5):
        some = [r for r in reports if r.number == n]
        if some:
            full = sum(1 for r in some if r.decoded)
            print(f"  number {n}: {len(some)} clues, {full / len(some):.1%} fully decoded")
    if samples <= 0:
        return
    picked = random.Random(seed).sample(reports, min(samples, len(reports)))
    print(f"  {len(picked)} sampled clues (word number: meant -> touched; * = all meant words touched):")
    for r in picked:
        mark = "*" if r.decoded else " "
        print(f"  {mark} {r.word} {r.number}: {', '.join(r.targets)} -> {', '.join(r.touched) or '(none)'}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0, help="first game seed (games use seed..seed+games-1)")
    parser.add_argument(
        "--config",
        action="append",
        choices=sorted(CONFIGS) + sorted(GROUPS),
        help="default: the held-out four; loo / loo-en: every leave-one-out development row",
    )
    parser.add_argument(
        "--param", action="append", type=parse_param, default=[], help="AI knob, e.g. delta=1.0"
    )
    parser.add_argument(
        "--option", action="append", type=parse_param, default=[], help="rule option, e.g. tokens=11"
    )
    parser.add_argument("--samples", type=int, default=50, help="sampled clues per a-heldout row")
    parser.add_argument(
        "--tables",
        action="append",
        type=Path,
        default=[],
        help="a directory of development tables over the same vocabulary (its models become nameable "
        "in --param giver_models=... / guesser_models=...)",
    )
    args = parser.parse_args()
    extra = dict(args.param)
    seeds = range(args.seed, args.seed + args.games)
    print(
        f"codenames-duet AI evaluation: {args.games} standard games per row, "
        f"seeds {seeds.start}..{seeds.stop - 1}; held-out partner model: {HELDOUT} "
        "(loaded only for rows that name it); "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    print(
        "the partner role plays PARTNER_KNOBS (every knob at its value before per-language defaults); "
        "the AI role plays its language's defaults" + (f" with these knobs: {extra}" if extra else "")
    )
    if args.option:
        print(f"rule options: {dict(args.option)} (not the standard game)")
    header = (
        f"{'configuration':16} {'giver models':18} {'guesser models':18} {'wins':>6} {'95% CI':>13} "
        f"{'assassin':>8} {'(clued)':>7} {'(bonus)':>7} {'sudden':>7} {'turns(win)':>10} {'agents':>6} "
        f"{'N/clue':>6} {'hit/clue':>8} {'clue ms':>7} {'guess ms':>8}  partner"
    )
    print(header)
    quality: list[tuple[str, Summary]] = []
    names = [n for c in args.config or DEFAULT for n in GROUPS.get(c, (c,))]
    rates: list[float] = []
    for name in names:
        params, summary = play_row(name, seeds, extra, dict(args.option), args.tables)
        roles = ai_roles(name)
        low, high = summary.wilson("won")
        # The AI's own moves: its clues in a-rows, its guesses in b-rows (both in same-table rows).
        clue_s = [t for o in summary.outcomes for t in o.clue_seconds]
        guess_s = [t for o in summary.outcomes for t in o.guess_seconds]
        print(
            f"{name:16} {params.get('giver_models', 'shipped'):18} "
            f"{params.get('guesser_models', 'shipped'):18} "
            f"{summary.rate('won'):6.1%} {f'{low:.1%}-{high:.1%}':>13} "
            f"{summary.rate('assassin'):8.1%} {summary.lost_on_clue('assassin'):7.1%} "
            f"{summary.lost_past_number():7.1%} "
            f"{summary.rate('sudden_death'):7.1%} "
            f"{summary.mean('turns', 'won'):10.2f} {summary.mean('agents'):6.2f} "
            f"{summary.per_clue('announced'):6.2f} {summary.per_clue('hits'):8.2f} "
            f"{ms(clue_s):>7} {ms(guess_s):>8}  {partner_note(roles)}",
            flush=True,
        )
        rates.append(summary.rate("won"))
        if "-a-" in name:
            quality.append((name, summary))
    if len(rates) > 1:
        print(f"mean wins over the {len(rates)} rows: {sum(rates) / len(rates):.1%}")
    for name, summary in quality:
        clue_report(name, summary, args.samples, args.seed)


if __name__ == "__main__":
    main()

"""The AI bots for Codenames Duet: complete Duet players (a seat both gives clues and guesses).

``codenames-clue`` and ``codenames-guess`` are the same player; their names say which role a table
offers them for, and their parameters tune that role. Both decide from ``state.view(seat)`` and
``state.legal_actions()`` only (plus the rules' clue check on their own candidate words).

Parameters (all optional; z units are standard deviations of word similarity):
  models          comma-separated embedding tables for both roles (default: all four shipped);
  giver_models / guesser_models   per role;
  delta, delta_assassin, tau, max_number, vocab_cut, noise, assassin_cost, adapt   clue-giver knobs;
  temperature, loss_cost, endgame_cost, spill, old_weight   guesser knobs;
  learned, schedule (giver), learned_stop (guesser)   probabilities fitted on cross-model play
                  (ai/calibration.py), off by default;
  difficulty      "easy" | "normal" | "hard": presets of the knobs above (easy = safer, smaller clues).

A knob's value is, in order of precedence: the explicit parameter; the difficulty preset (combined
with the language's default so that easy stays safer and hard bolder than normal); the language's
default (``LANGUAGE_DEFAULTS``); the dataclass default.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import Action
from tabletrek.core.bots import check_turn, number_setting
from tabletrek.core.errors import UsageError
from tabletrek.core.state import State
from tabletrek.games.codenames_duet.ai.giver import ClueGiver, GiverKnobs
from tabletrek.games.codenames_duet.ai.guesser import Guesser, GuesserKnobs
from tabletrek.games.codenames_duet.ai.situation import ClueRecord, Situation
from tabletrek.games.codenames_duet.ai.tables import load_tables, table_language
from tabletrek.i18n import translate

if TYPE_CHECKING:
    from tabletrek.games.codenames_duet.game import Duet

BOT_NAME = "codenames-ai"
ROLE_MODELS = ("models", "giver_models", "guesser_models")  # the tables a bot or one role reads


def _numbers(knobs: GiverKnobs | GuesserKnobs) -> dict[str, type[int] | type[float]]:
    """The knobs a table may set, each read as its default's kind: the numbers (the models have
    settings of their own, and the language follows the word pack)."""
    kinds: dict[str, type[int] | type[float]] = {}
    for field in dataclasses.fields(knobs):
        default = getattr(knobs, field.name)
        if isinstance(default, int | float):
            kinds[field.name] = int if isinstance(default, int) else float
    return kinds


GIVER_FIELDS = _numbers(GiverKnobs())
GUESSER_FIELDS = _numbers(GuesserKnobs())

# Knobs outside whose range the partner cannot play (an array's size, a divisor): refused when
# the bot is made, not at its first move
AT_LEAST_ONE = frozenset({"vocab_cut", "shortlist", "samples"})
ABOVE_ZERO = frozenset({"temperature", "adapt_temperature"})
MOST_NOISE_DRAWS = 250_000
"""At most ``samples`` x ``shortlist``: the noisy-partner check keeps 25 normal draws for each
(9,600 by default; 10,000 x 10,000 took 21 GB before the system killed it)."""

DIFFICULTY: dict[str, dict[str, Any]] = {
    # Easy: short, very safe clues for a beginner guesser; hard: bolder numbers, thinner margins.
    "easy": {
        "max_number": 2,
        "delta": 1.0,
        "delta_assassin": 2.0,
        "tau": 2.5,
        "consensus": 2.0,
        "vocab_cut": 8000,
    },
    "normal": {},
    "hard": {"max_number": 4, "delta": 0.25, "delta_assassin": 0.75},
}

# Per-language defaults: knob values that differ, for one language, from the dataclass defaults
# (which were tuned in English against English partners). Chinese readers disagree far more than
# English ones, so Chinese may want another policy; round 9 tuned it against the native Chinese
# development partner (ai/README.md, "Per-language defaults"). Per role, since a few knob names
# (``vocab_cut``) belong to both roles. Empty: the dataclass defaults.
LANGUAGE_DEFAULTS: dict[str, dict[str, dict[str, Any]]] = {
    "en": {"giver": {}, "guesser": {}},
    "zh-Hant": {"giver": {}, "guesser": {}},
}

# The safer of two values of each knob a difficulty preset sets. A preset is a direction, not an
# absolute: "easy" takes the safer of the preset and the language's normal value, "hard" the
# bolder, so easy stays easier and hard harder than normal whatever a language's defaults are.
SAFER: dict[str, Callable[[Any, Any], Any]] = {
    "max_number": min,
    "delta": max,
    "delta_assassin": max,
    "tau": max,
    "consensus": max,
    "vocab_cut": min,
}
BOLDER: dict[str, Callable[[Any, Any], Any]] = {k: (max if f is min else min) for k, f in SAFER.items()}


def _models(name: str, value: Any, language: str) -> tuple[str, ...]:
    """The tables setting ``name`` names ("glove,e5" or a list of names), each one the language's
    tables hold: refused when the bot is made. A name the tables lack used to pass here and make
    every move of the bot fail (on the web, a random move and a traceback each turn)."""
    if isinstance(value, str):
        names = tuple(v.strip() for v in value.split(",") if v.strip())
    elif isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        names = tuple(v.strip() for v in value)
    else:
        raise UsageError("core.error.param_models", name=name, value=value)
    known = load_tables(language).models
    for model in names or ("",):
        if model not in known:
            raise UsageError("core.error.param_model", name=name, model=model, known=list(known))
    return names


def default_knobs(language: str, difficulty: str = "normal") -> tuple[dict[str, Any], dict[str, Any]]:
    """The giver's and the guesser's knob values that a language and a difficulty set before any
    explicit parameter (only those that differ from the dataclass defaults). The difficulty presets
    are clue-giver knobs."""
    if not isinstance(difficulty, str) or difficulty not in DIFFICULTY:
        allowed = list(DIFFICULTY)
        raise UsageError("core.error.param_choice", name="difficulty", allowed=allowed, value=difficulty)
    defaults = LANGUAGE_DEFAULTS.get(language, {})
    giver = dict(defaults.get("giver", {}))
    pick = SAFER if difficulty == "easy" else BOLDER
    for name, preset in DIFFICULTY[difficulty].items():
        giver[name] = pick[name](giver.get(name, getattr(GiverKnobs(), name)), preset)
    return giver, dict(defaults.get("guesser", {}))


def _knobs(params: dict[str, Any], language: str = "en") -> tuple[GiverKnobs, GuesserKnobs]:
    params = dict(params)
    giver_defaults, guesser_defaults = default_knobs(language, params.pop("difficulty", "normal"))
    giver: dict[str, Any] = {**giver_defaults, "language": language}
    guesser: dict[str, Any] = {**guesser_defaults, "language": language}
    if "models" in params:
        giver["models"] = guesser["models"] = _models("models", params.pop("models"), language)
    if "giver_models" in params:
        giver["models"] = _models("giver_models", params.pop("giver_models"), language)
    if "guesser_models" in params:
        guesser["models"] = _models("guesser_models", params.pop("guesser_models"), language)
    for name, value in params.items():
        if name not in GIVER_FIELDS and name not in GUESSER_FIELDS:
            known = sorted({*GIVER_FIELDS, *GUESSER_FIELDS, *ROLE_MODELS, "difficulty"})
            raise UsageError(
                "core.error.bot_unknown_params", bot=BOT_NAME, names=[name], known=known, count=1
            )
        number = number_setting(name, value, GIVER_FIELDS.get(name) or GUESSER_FIELDS[name])
        _check_range(name, number, value)
        if name in GIVER_FIELDS:  # a knob both roles have (``learned``) sets both
            giver[name] = number
        if name in GUESSER_FIELDS:
            guesser[name] = number
    made = GiverKnobs(**giver)
    if made.samples * made.shortlist > MOST_NOISE_DRAWS:
        raise UsageError(
            "core.error.noise_draws", samples=made.samples, shortlist=made.shortlist, limit=MOST_NOISE_DRAWS
        )
    return made, GuesserKnobs(**guesser)


def _check_range(name: str, number: float, value: Any) -> None:
    if name in AT_LEAST_ONE and number < 1:
        raise UsageError("core.error.param_positive_int", name=name, value=value)
    if name in ABOVE_ZERO and number <= 0:
        raise UsageError("core.error.param_positive", name=name, value=value)
    if name == "max_number" and not 1 <= number <= 9:
        raise UsageError("core.error.param_range", name=name, low=1, high=9, value=value)


def situation_from_view(view: dict[str, Any]) -> Situation:
    """What ``view(seat)`` tells a side, in the AI's terms (sides, not seats, give and guess)."""
    side = int(view["side"])
    agents = view["agents"]
    words = tuple(str(w) for w in view["words"])
    index = {w: i for i, w in enumerate(words)}
    clues = []
    for clue in view["clues"]:
        if clue.get("penalty"):
            continue
        hits = tuple(index[g["word"]] for g in clue["guesses"] if g["kind"] == "green")
        misses = tuple(index[g["word"]] for g in clue["guesses"] if g["kind"] != "green")
        clues.append(ClueRecord(str(clue["word"]), int(clue["number"]), int(clue["side"]), hits, misses))
    return Situation(
        seat=side,
        words=words,
        my_key=tuple(view["key"]),
        covered=frozenset(c for c, a in enumerate(agents) if a is not None),
        bystander_for_me=frozenset(view["bystanders"][side]),
        bystander_for_partner=frozenset(view["bystanders"][1 - side]),
        found_by_me=frozenset(c for c, a in enumerate(agents) if a == 1 - side),
        clues=clues,
        tokens_left=int(view["tokens"]),
    )


class DuetAI:
    """One seat of Codenames Duet played by the embedding-table AI."""

    def __init__(self, game: Duet, *, seat: int, seed: int | None = None, **params: Any) -> None:
        self.name = BOT_NAME
        self.seat = seat
        self.game = game
        pack = getattr(game, "pack", None)
        language = "en"
        if pack is not None:
            found = table_language(pack.language)
            if found is None:
                raise ValueError(f"the Codenames Duet AI has no tables for {pack.source!r}")
            language = found
        giver_knobs, guesser_knobs = _knobs(params, language)
        if pack is not None:  # refuse at once, not at the first move, a pack the tables do not cover
            load_tables(language).rows(pack.words)
        self.giver = ClueGiver(giver_knobs, seed=seed or 0)
        self.guesser = Guesser(guesser_knobs)
        self.last_targets: tuple[str, ...] = ()  # the words its last clue was meant for
        self.acted_as = "codenames-guess"  # the role its last move played, by that role's bot name

    def explain(self, lang: str) -> str | None:
        """Why the last move: the words the last clue was meant for (None after a guess)."""
        if not self.last_targets:
            return None
        t = "codenames_duet.ui."
        words = translate(t + "word_separator", lang).join(self.last_targets)
        return translate(t + "hint_targets", lang, words=words)

    def act(self, state: State) -> Action:
        check_turn(self, state)
        self.last_targets = ()
        view = state.view(self.seat)
        legal = state.legal_actions()
        situation = situation_from_view(view)
        self.acted_as = "codenames-clue" if view["phase"] == "clue" else "codenames-guess"
        if view["phase"] == "clue":
            return self._clue(state, situation, view)
        words = situation.words
        allowed_words = {a.text[len("guess ") :]: a for a in legal if a.text.startswith("guess ")}
        allowed = [i for i, w in enumerate(words) if w in allowed_words]
        may_stop = any(a.text == "stop" for a in legal)
        clue = view["clue"]
        current = None if clue is None else (str(clue["word"]), int(clue["number"]))
        hits = 0 if clue is None else sum(1 for g in clue["guesses"] if g["kind"] == "green")
        choice = self.guesser.guess(situation, current, hits, allowed, may_stop)
        if choice.cell is None:
            return next(a for a in legal if a.text == "stop")
        return allowed_words[words[choice.cell]]

    def _clue(self, state: State, situation: Situation, view: dict[str, Any]) -> Action:
        action, self.last_targets = self._best_clues(state, situation, 1)[0]
        return action

    def suggest(self, state: State, count: int) -> list[tuple[Action, tuple[str, ...]]]:
        """The ``count`` clues this AI rates best for its seat now, best first, each with the words
        it is meant for: the first is the clue ``act`` gives. For a person choosing a clue (the
        terminal's menu); it changes nothing, in the state or in this bot."""
        check_turn(self, state)
        view = state.view(self.seat)
        if view["phase"] != "clue":
            return []
        return self._best_clues(state, situation_from_view(view), count)

    def _best_clues(
        self, state: State, situation: Situation, count: int
    ) -> list[tuple[Action, tuple[str, ...]]]:
        check = getattr(state, "clue_problem", None)

        def is_legal(word: str) -> bool:
            return check is None or check(word) is None

        used = [c.word for c in situation.clues]
        clues = self.giver.ranked(situation, is_legal, used, count)
        if not clues:
            raise RuntimeError("no legal clue word in the AI vocabulary")
        greens_left = len(situation.my_targets())
        best = []
        for clue in clues:
            number = max(1, min(clue.number, greens_left))
            targets = tuple(situation.words[c] for c in clue.targets[:number])
            best.append((self.game.clue_action(clue.word, number), targets))
        return best


class ClueBot(DuetAI):
    def __init__(self, game: Duet, *, seat: int, seed: int | None = None, **params: Any) -> None:
        super().__init__(game, seat=seat, seed=seed, **params)
        self.name = "codenames-clue"


class GuessBot(DuetAI):
    def __init__(self, game: Duet, *, seat: int, seed: int | None = None, **params: Any) -> None:
        super().__init__(game, seat=seat, seed=seed, **params)
        self.name = "codenames-guess"

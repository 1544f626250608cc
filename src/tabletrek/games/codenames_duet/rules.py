"""Codenames Duet: the game, its state and every rule (seed 001 and RULINGS.md).

Two sides sit opposite each other (with more than two players, seats alternate sides: seat s is on
side ``s % 2``, and one spokesperson per side acts, the role rotating among its members). Side k
sees key side k. A turn: the clue-giver's side gives ``clue <word> <n>``, the other side guesses
(``guess <word>``, at least once, read on the clue-giver's key) and may ``stop`` after a green.
Action indices: guesses use the pack index of their word, then ``stop``, then one index per clue
number; a clue's word is free text carried in the action's text (see ``Duet.clue_action``).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping
from typing import Any

from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.events import Event, seat_ref
from tabletrek.core.game import BotFactory, Game
from tabletrek.core.options import OptionSpec
from tabletrek.core.rng import copy_rng, derive_seed, make_rng
from tabletrek.core.state import Result, State, normalize_text
from tabletrek.core.terminal import TextUI
from tabletrek.games.codenames_duet import snapshot
from tabletrek.games.codenames_duet.clues import COMPOUND_CHECKS, clue_problem, number_problem
from tabletrek.games.codenames_duet.key import (
    ASSASSIN,
    BYSTANDER,
    GREEN,
    KINDS,
    draw_key,
    sample_partner_side,
)
from tabletrek.games.codenames_duet.snapshot import copy_clue
from tabletrek.games.codenames_duet.words import BOARD_SIZE, WordPack, load_pack

MAX_NUMBER = 9  # the seed: "one word and one number", 1-9, not capped by the greens left
MAX_TOKENS = 11  # the box holds 11 timer tokens
CLUE_SAMPLE = 6  # clue suggestions offered by legal_actions (any valid word may be typed)
# Clue problems that are a violation of the word rules (cost a token with strict_penalty), as
# opposed to a malformed move (no number, number out of range), which is simply refused.
FORMAT_PROBLEMS = frozenset({"codenames_duet.clue.empty", "codenames_duet.clue.number_range"})


class Duet(Game):
    name = "codenames-duet"
    package = "tabletrek.games.codenames_duet"
    player_counts = (2, 3, 4, 5, 6, 7, 8)
    default_players = 2
    cooperative = True
    option_specs = (
        OptionSpec("word_pack", "en", "codenames_duet.option.word_pack", kind=str),
        OptionSpec("tokens", 9, "codenames_duet.option.tokens", kind=int, minimum=1, maximum=MAX_TOKENS),
        OptionSpec(
            "mistakes",
            None,
            "codenames_duet.option.mistakes",
            kind=int,
            minimum=0,
            maximum=MAX_TOKENS,
            nullable=True,
        ),
        OptionSpec("zero_clues", False, "codenames_duet.option.zero_clues"),
        OptionSpec(
            "clue_order",
            "alternate",
            "codenames_duet.option.clue_order",
            kind=str,
            choices=("alternate", "two_one"),
        ),
        OptionSpec("first_clue", 0, "codenames_duet.option.first_clue", kind=int, choices=(0, 1)),
        OptionSpec("relaxed_clues", False, "codenames_duet.option.relaxed_clues"),
        OptionSpec("strict_penalty", False, "codenames_duet.option.strict_penalty"),
        # Records made before the compound dictionary (turn 2) were checked by any split.
        OptionSpec(
            "compound_check",
            "dictionary",
            "codenames_duet.option.compound_check",
            kind=str,
            choices=COMPOUND_CHECKS,
            legacy="any_split",
        ),
    )

    @classmethod
    def options_for_lang(cls, lang: str) -> dict[str, Any]:
        return {"word_pack": "zh-Hant"} if lang == "zh-Hant" else {}

    def _setup(self) -> None:
        self.pack: WordPack = load_pack(self.options["word_pack"])
        self.tokens: int = self.options["tokens"]
        mistakes = self.options["mistakes"]
        # Without a mission's limit every token may be spent on a mistake (the standard game).
        self.mistakes: int = self.tokens if mistakes is None else mistakes
        self.sides: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(range(0, self.players, 2)),
            tuple(range(1, self.players, 2)),
        )
        self.side_of: tuple[int, ...] = tuple(s % 2 for s in range(self.players))
        words = self.pack.words
        self._guesses = [Action(i, f"guess {w}") for i, w in enumerate(words)]
        self.stop_index = len(words)
        self.clue_base = len(words) + 1
        self._stop = Action(self.stop_index, "stop")
        self._word_index = {w: i for i, w in enumerate(words)}

    @property
    def num_actions(self) -> int:
        return self.clue_base + MAX_NUMBER + 1

    def action(self, index: int) -> Action:
        if 0 <= index < self.stop_index:
            return self._guesses[index]
        if index == self.stop_index:
            return self._stop
        if self.clue_base <= index < self.num_actions:
            raise ValueError(
                f"action {index} is a clue of number {index - self.clue_base}; its word is free text, "
                "so build it with game.clue_action(word, number)"
            )
        raise ValueError(f"codenames-duet has no action {index}")

    def clue_action(self, word: str, number: int) -> Action:
        """The action ``clue <word> <number>`` (checked when applied)."""
        if not 0 <= number <= MAX_NUMBER:
            raise ValueError(f"a clue number lies in 0..{MAX_NUMBER}, not {number}")
        return Action(self.clue_base + number, f"clue {' '.join(word.split())} {number}")

    def guess_action(self, word: str) -> Action:
        return self._guesses[self._word_index[word]]

    def stop_action(self) -> Action:
        return self._stop

    def _blank_state(self) -> DuetState:
        return DuetState.__new__(DuetState)

    def _start(self, seed: int) -> DuetState:
        state = self._blank_state()
        rng = make_rng(seed)
        state._init_base(self, seed, rng)
        state.cells = rng.sample(range(len(self.pack.words)), BOARD_SIZE)
        state.key = draw_key(rng)
        state.agent = [None] * BOARD_SIZE
        state.bystander = [[False] * BOARD_SIZE, [False] * BOARD_SIZE]
        state.assassin = None
        state.tokens = self.tokens
        state.mistakes = 0
        state.turns = 0
        state.gives = [0, 0]
        state.guesses = [0, 0]
        state.phase = "clue"
        state.giver = 0
        state.clue = None
        state.clues = []
        state.ending = None
        state.giver = state.next_giver()
        return state

    def _bot_factories(self) -> dict[str, BotFactory]:
        # The AI partner (ai/, extra [ai]) offers its bots through ``ai.bot_factories(pack)``;
        # without numpy or its tables the game still plays with the random bot and humans. A pack
        # in a language the AI has no tables for gets no AI bots rather than bots that refuse to start.
        try:
            module = importlib.import_module("tabletrek.games.codenames_duet.ai")
        except ImportError:
            return {}
        factories = getattr(module, "bot_factories", None)
        return dict(factories(self.pack)) if callable(factories) else {}

    def terminal(self) -> TextUI:
        from tabletrek.games.codenames_duet.text import DuetTextUI

        return DuetTextUI(self)


class DuetState(State):
    game: Duet
    cells: list[int]  # pack index of the word in each of the 25 cells
    key: list[list[int]]  # key[side][cell]
    agent: list[int | None]  # side whose key showed the agent when the cell was covered
    bystander: list[list[bool]]  # bystander[side][cell]: a token shows it is a bystander on side's key
    assassin: int | None
    tokens: int
    mistakes: int
    turns: int
    gives: list[int]  # clues given per side (rotates the spokesperson)
    guesses: list[int]  # guessing turns per side (rotates the spokesperson)
    phase: str
    giver: int  # the side whose key guesses are read on (the clue-giver; in sudden death, the partner)
    clue: dict[str, Any] | None
    clues: list[dict[str, Any]]
    ending: str | None

    # ----- queries ------------------------------------------------------------------------------

    @property
    def words(self) -> list[str]:
        pack = self.game.pack.words
        return [pack[i] for i in self.cells]

    @property
    def guesser(self) -> int:
        return 1 - self.giver

    @property
    def current_player(self) -> int | None:
        if self.phase == "over":
            return None
        members = self.game.sides
        if self.phase == "clue":
            side = self.giver
            return members[side][self.gives[side] % len(members[side])]
        side = self.guesser
        return members[side][self.guesses[side] % len(members[side])]

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        seats = tuple(range(self.game.players))
        scores = (float(self.agents_found()),) * len(seats)
        if self.ending == "won":
            return Result(seats, scores, (1.0,) * len(seats), "codenames_duet.end.won")
        return Result((), scores, (-1.0,) * len(seats), f"codenames_duet.end.{self.ending}")

    def greens_left(self, side: int) -> int:
        key = self.key[side]
        return sum(1 for c in range(BOARD_SIZE) if key[c] == GREEN and self.agent[c] is None)

    def agents_left(self) -> int:
        a, b = self.key
        return sum(1 for c in range(BOARD_SIZE) if GREEN in (a[c], b[c]) and self.agent[c] is None)

    def agents_found(self) -> int:
        return sum(1 for c in range(BOARD_SIZE) if self.agent[c] is not None)

    def is_visible(self, cell: int) -> bool:
        """Words under an agent card, or under tokens from both directions, are covered."""
        return self.agent[cell] is None and not (self.bystander[0][cell] and self.bystander[1][cell])

    def visible_words(self) -> list[str]:
        words = self.words
        return [words[c] for c in range(BOARD_SIZE) if self.is_visible(c)]

    def guessable(self) -> list[int]:
        """Cells the guesser may touch: not covered, not a known bystander on the key read."""
        read = self.bystander[self.giver]
        return [c for c in range(BOARD_SIZE) if self.agent[c] is None and not read[c]]

    def next_giver(self) -> int:
        """Who gives the next clue: the clue order, unless one side's greens are all covered."""
        for side in (0, 1):
            if self.greens_left(side) == 0:
                return 1 - side
        first = int(self.game.options["first_clue"])
        if self.game.options["clue_order"] == "two_one":
            return first if self.turns % 3 < 2 else 1 - first
        return first if self.turns % 2 == 0 else 1 - first

    def number_range(self) -> tuple[int, int]:
        """The numbers a clue may carry: 1-9 (0-9 with ``zero_clues``), whatever the greens left;
        the seed asks for "one word and one number" and sets no cap."""
        low = 0 if self.game.options["zero_clues"] else 1
        return low, MAX_NUMBER

    def clue_problem(self, word: str, number: int | None = None) -> tuple[str, dict[str, Any]] | None:
        """Why ``clue <word> <number>`` is not allowed now (i18n key, params), or None.

        Bots use this to filter candidates; ``number=None`` checks the word alone.
        """
        if number is not None:
            problem = number_problem(number, *self.number_range())
            if problem is not None:
                return problem
        options = self.game.options
        language = self.game.pack.language
        return clue_problem(
            word, self.visible_words(), language, options["relaxed_clues"], options["compound_check"]
        )

    # ----- legal actions ------------------------------------------------------------------------

    def clue_suggestions(self) -> list[Action]:
        """A few valid clues from the pack's off-board words, each with a number in range.

        Any valid word may be given as a clue, so the clue phase's legal actions are only these
        suggestions: enough for a menu and the random bot. They are picked per position without
        touching the game's RNG, so listing legal actions never changes the game.
        """
        game = self.game
        pack = game.pack
        taken = set(self.cells)
        picker = random.Random(derive_seed(self.seed, len(self._history)))
        visible = self.visible_words()
        relaxed = game.options["relaxed_clues"]
        check = game.options["compound_check"]
        words: list[str] = []
        # Draw pack words at random until enough are valid (bounded, so a tiny pack cannot loop).
        for _ in range(20 * CLUE_SAMPLE):
            i = picker.randrange(len(pack.words))
            if i in taken:
                continue
            taken.add(i)
            word = pack.words[i]
            if clue_problem(word, visible, pack.language, relaxed, check) is None:
                words.append(word)
                if len(words) == CLUE_SAMPLE:
                    break
        if not words:
            # A pack of exactly 25 words leaves no word off the board: a number is a valid clue.
            words = [str(n) for n in range(10) if str(n) not in visible][:CLUE_SAMPLE]
        # Suggested numbers stay within the greens left (any 1-9 may be typed): a menu of clues
        # for 7 with two greens to find would only mislead.
        low = self.number_range()[0]
        high = max(low, min(MAX_NUMBER, self.greens_left(self.giver)))
        return [game.clue_action(w, picker.randint(low, high)) for w in words]

    def _legal_actions(self) -> list[Action]:
        game = self.game
        if self.phase == "clue":
            return self.clue_suggestions()
        actions = [game._guesses[self.cells[c]] for c in self.guessable()]
        if self.phase == "guess" and self.clue is not None and self.clue["guesses"]:
            actions.append(game._stop)
        return actions

    def apply(self, action: Action | str) -> list[Event]:
        # A clue's word is free text: a clue (text or Action) is validated from its text, without
        # listing the legal actions, whose clues are only suggestions.
        if isinstance(action, Action) and action.index >= self.game.clue_base:
            action = action.text
        if isinstance(action, str) and not self.is_over:
            words = action.split()
            if words and words[0].lower() == "clue":
                clue = self._parse_clue(words[1:], action)
                self._legal = None
                self._history.append(clue.text)
                return self._apply(clue)
        return super().apply(action)

    def parse(self, text: str) -> Action:
        if isinstance(text, str):
            words = text.split()
            if words and words[0].lower() == "clue":
                return self._parse_clue(words[1:], text)
        return super().parse(text)

    def _parse_clue(self, rest: list[str], text: str) -> Action:
        if self.phase != "clue":
            raise self.explain(normalize_text(text))
        if len(rest) < 2:
            raise IllegalAction("codenames_duet.illegal.clue_format", action=text.strip())
        number_text = rest[-1]
        if not number_text.isascii() or not number_text.lstrip("-").isdigit():
            raise IllegalAction("codenames_duet.illegal.clue_number", action=text.strip(), number=number_text)
        number = int(number_text)
        problem = number_problem(number, *self.number_range())
        if problem is not None:
            raise IllegalAction(problem[0], **problem[1])
        word = " ".join(rest[:-1])
        problem = self.clue_problem(word)
        if problem is not None and (not self.game.options["strict_penalty"] or problem[0] in FORMAT_PROBLEMS):
            raise IllegalAction(problem[0], **problem[1])
        # The typed case is kept: a capital marks a proper noun, so replays must see it too.
        return self.game.clue_action(word, number)

    # ----- applying -----------------------------------------------------------------------------

    def _apply(self, action: Action) -> list[Event]:
        seat = self.current_player
        assert seat is not None
        player = seat_ref(seat)
        events: list[Event] = []
        game = self.game
        if action.index >= game.clue_base:
            self._give_clue(action, player, events)
        elif action.index == game.stop_index:
            events.append(Event("codenames_duet.event.stop", {"player": player}))
            self._end_turn(1, events)
        else:
            cell = self.cells.index(action.index)
            self._guess(cell, player, events)
        return events

    def _give_clue(self, action: Action, player: dict[str, int], events: list[Event]) -> None:
        parts = action.text.split()
        word, number = " ".join(parts[1:-1]), int(parts[-1])
        problem = self.clue_problem(word)
        if problem is not None:
            # strict_penalty: the clue is void and costs a timer token; the same side clues again.
            key, params = problem
            events.append(Event(key, params))
            self.tokens -= 1
            self.clues.append(
                {
                    "side": self.giver,
                    "seat": player["$seat"],
                    "word": word,
                    "number": number,
                    "guesses": [],
                    "penalty": key,
                }
            )
            events.append(Event("codenames_duet.event.penalty", {"player": player, "tokens": self.tokens}))
            if self.tokens <= 0:
                self._time_out(events)
            return
        self.gives[self.giver] += 1
        self.clue = {
            "side": self.giver,
            "seat": player["$seat"],
            "word": word,
            "number": number,
            "guesses": [],
            "penalty": None,
        }
        self.clues.append(self.clue)
        self.phase = "guess"
        events.append(Event("codenames_duet.event.clue", {"player": player, "word": word, "number": number}))

    def _guess(self, cell: int, player: dict[str, int], events: list[Event]) -> None:
        read = self.giver
        kind = self.key[read][cell]
        word = self.words[cell]
        if self.clue is not None:
            self.clue["guesses"].append({"word": word, "kind": KINDS[kind]})
        sudden = self.phase == "sudden"
        if kind == GREEN:
            self.agent[cell] = read
            events.append(Event("codenames_duet.event.green", {"player": player, "word": word}))
            if self.agents_left() == 0:
                self._finish("won", events)
            elif sudden:
                # Sudden death: one word at a time, the side's members taking turns to touch.
                self.guesses[self.guesser] += 1
                if self.greens_left(read) == 0:
                    self.giver = 1 - read
                    events.append(Event("codenames_duet.event.sudden_switch", {}))
            elif self.greens_left(read) == 0:
                # No green is left on the clue-giver's key: guessing on could only miss.
                events.append(Event("codenames_duet.event.side_done", {}))
                self._end_turn(1, events)
            return
        if kind == ASSASSIN:
            self.assassin = cell
            events.append(Event("codenames_duet.event.assassin", {"player": player, "word": word}))
            self._finish("assassin", events)
            return
        self.bystander[read][cell] = True
        events.append(Event("codenames_duet.event.bystander", {"player": player, "word": word}))
        if sudden:
            self._finish("sudden_death", events)
            return
        if self.mistakes < self.game.mistakes:
            self.mistakes += 1
            self._end_turn(1, events)
            return
        # Beyond the mission's allowed mistakes a mistake costs two tokens; on the last token it loses.
        self.mistakes += 1
        if self.tokens <= 1:
            events.append(Event("codenames_duet.event.mistake_last", {}))
            self._finish("time_mistake", events)
            return
        events.append(Event("codenames_duet.event.mistake_extra", {}))
        self._end_turn(2, events)

    def _end_turn(self, cost: int, events: list[Event]) -> None:
        self.tokens = max(0, self.tokens - cost)
        self.turns += 1
        self.guesses[self.guesser] += 1
        self.clue = None
        events.append(Event("codenames_duet.event.turn_end", {"tokens": self.tokens}))
        if self.tokens == 0:
            self._time_out(events)
            return
        self.phase = "clue"
        self.giver = self.next_giver()

    def _time_out(self, events: list[Event]) -> None:
        """No clues remain: the sides with greens left are guessed without clues (seed)."""
        self.clue = None
        self.phase = "sudden"
        first = self.next_giver()
        self.giver = first if self.greens_left(first) else 1 - first
        events.append(Event("codenames_duet.event.sudden_death", {}))

    def _finish(self, ending: str, events: list[Event]) -> None:
        self.phase = "over"
        self.ending = ending
        self.clue = None
        events.append(Event(f"codenames_duet.end.{ending}", {}))

    # ----- explaining illegal actions -----------------------------------------------------------

    def explain(self, text: str) -> IllegalAction:
        words = normalize_text(text).split()
        verb = words[0] if words else ""
        phase = self.phase
        if phase == "over":
            return IllegalAction("core.illegal.game_over")
        if verb == "clue":
            if phase == "guess":
                return IllegalAction("codenames_duet.illegal.clue_while_guessing")
            return IllegalAction("codenames_duet.illegal.clue_sudden")
        if verb == "stop":
            if len(words) > 1:
                return IllegalAction("codenames_duet.illegal.unknown", action=text)
            if phase == "clue":
                return IllegalAction("codenames_duet.illegal.stop_before_clue")
            if phase == "sudden":
                return IllegalAction("codenames_duet.illegal.stop_sudden")
            return IllegalAction("codenames_duet.illegal.guess_first")
        if verb == "guess":
            if len(words) != 2:
                return IllegalAction("codenames_duet.illegal.guess_format", action=text)
            if phase == "clue":
                return IllegalAction("codenames_duet.illegal.guess_before_clue")
            word = words[1]
            board = self.words
            if word not in board:
                return IllegalAction("codenames_duet.illegal.not_on_board", word=word)
            cell = board.index(word)
            if self.agent[cell] is not None:
                return IllegalAction("codenames_duet.illegal.covered", word=word)
            return IllegalAction("codenames_duet.illegal.known_bystander", word=word)
        return IllegalAction("codenames_duet.illegal.unknown", action=text)

    # ----- views --------------------------------------------------------------------------------

    def public_view(self) -> dict[str, Any]:
        return snapshot.public_view(self)

    def view(self, seat: int) -> dict[str, Any]:
        if not isinstance(seat, int) or not 0 <= seat < self.game.players:
            raise ValueError(f"no seat {seat!r} in a {self.game.players}-player game")
        view = self.public_view()
        side = self.game.side_of[seat]
        view["seat"] = seat
        view["side"] = side
        view["key"] = [KINDS[k] for k in self.key[side]]
        return view

    # ----- copies, search, serialization --------------------------------------------------------

    def clone(self) -> DuetState:
        other = DuetState.__new__(DuetState)
        self._copy_base_into(other, copy_rng(self.rng))
        other.cells = list(self.cells)
        other.key = [list(k) for k in self.key]
        other.agent = list(self.agent)
        other.bystander = [list(b) for b in self.bystander]
        other.assassin = self.assassin
        other.tokens = self.tokens
        other.mistakes = self.mistakes
        other.turns = self.turns
        other.gives = list(self.gives)
        other.guesses = list(self.guesses)
        other.phase = self.phase
        other.giver = self.giver
        other.clues = [copy_clue(c) for c in self.clues]
        other.clue = other.clues[-1] if self.clue is not None else None
        other.ending = self.ending
        return other

    def determinize(self, seat: int, rng: random.Random) -> DuetState:
        """The partner's key side resampled from the table, keeping every revealed cell."""
        other = self.clone()
        other.rng = make_rng(rng.getrandbits(63))
        side = self.game.side_of[seat]
        partner = 1 - side
        fixed: dict[int, int] = {}
        for c in range(BOARD_SIZE):
            if self.agent[c] == partner:
                fixed[c] = GREEN
            elif self.bystander[partner][c]:
                fixed[c] = BYSTANDER
            elif self.assassin == c and self.giver == partner:
                fixed[c] = ASSASSIN
        other.key[partner] = sample_partner_side(self.key[side], side, fixed, rng)
        return other

    def _dump(self) -> dict[str, Any]:
        return snapshot.dump(self)

    def _load(self, data: Mapping[str, Any]) -> None:
        snapshot.load(self, data)

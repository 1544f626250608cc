"""Codenames Duet's transitions (docs/rules/codenames-duet.md): which moves are legal, what a move does,
and why a move is refused.

A turn: the clue-giver's side gives ``clue <word> <n>``, the other side guesses (``guess <word>``,
at least once, read on the clue-giver's key) and may ``stop`` after a green. One check per kind of
move (``clue_phase_problem`` with ``clue_problem``, ``guess_problem``, ``stop_problem``) says why it
is not allowed now, or None: the legal moves are the candidates whose check is None, and an illegal
move's reason is its check's answer, so the rules are written once.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.events import Event, seat_ref
from tabletrek.core.numeric import ascii_digits, ascii_whole
from tabletrek.core.rng import derive_seed
from tabletrek.core.state import normalize_text
from tabletrek.games.codenames_duet.clues import clue_problem, number_problem
from tabletrek.games.codenames_duet.key import ASSASSIN, GREEN, KINDS
from tabletrek.games.codenames_duet.words import BOARD_SIZE

if TYPE_CHECKING:
    from tabletrek.games.codenames_duet.state import DuetState

MAX_NUMBER = 9  # 1-9, not capped by the greens left (docs/rules/codenames-duet.md, "A turn")
MAX_TOKENS = 11  # the box holds 11 timer tokens
CLUE_SAMPLE = 6  # clue suggestions offered by legal_actions (any valid word may be typed)
# Clue problems that are a violation of the word rules (cost a token with strict_penalty), as
# opposed to a malformed move (no number, number out of range), which is simply refused.
FORMAT_PROBLEMS = frozenset({"codenames_duet.clue.empty", "codenames_duet.clue.number_range"})

# ----- the checks: None, or why the move is not allowed now -----------------------------------------


def clue_phase_problem(state: DuetState) -> IllegalAction | None:
    """Whether a clue may be given now at all (its word and number are checked by ``word_problem``)."""
    if state.phase == "over":
        return IllegalAction("core.illegal.game_over")
    if state.phase == "guess":
        return IllegalAction("codenames_duet.illegal.clue_while_guessing")
    if state.phase == "sudden":
        return IllegalAction("codenames_duet.illegal.clue_sudden")
    return None


def word_problem(state: DuetState, word: str, number: int | None = None) -> tuple[str, dict[str, Any]] | None:
    """Why ``clue <word> <number>`` breaks the clue rules (i18n key, params), or None;
    ``number=None`` checks the word alone."""
    if number is not None:
        problem = number_problem(number, *number_range(state))
        if problem is not None:
            return problem
    options = state.game.options
    return clue_problem(
        word,
        state.visible_words(),
        state.game.pack.language,
        options["relaxed_clues"],
        options["compound_check"],
    )


def guess_problem(state: DuetState, cell: int) -> IllegalAction | None:
    """Whether the word in ``cell`` may be touched now: not before a clue, not a covered word, not
    a word already known to be a bystander on the key read."""
    if state.phase == "over":
        return IllegalAction("core.illegal.game_over")
    if state.phase == "clue":
        return IllegalAction("codenames_duet.illegal.guess_before_clue")
    word = state.words[cell]
    if state.agent[cell] is not None:
        return IllegalAction("codenames_duet.illegal.covered", word=word)
    if state.bystander[state.giver][cell]:
        return IllegalAction("codenames_duet.illegal.known_bystander", word=word)
    return None


def stop_problem(state: DuetState) -> IllegalAction | None:
    """Whether the guessers may stop now: only in a clue's turn, after at least one guess."""
    if state.phase == "over":
        return IllegalAction("core.illegal.game_over")
    if state.phase == "clue":
        return IllegalAction("codenames_duet.illegal.stop_before_clue")
    if state.phase == "sudden":
        return IllegalAction("codenames_duet.illegal.stop_sudden")
    if state.clue is None or not state.clue["guesses"]:
        return IllegalAction("codenames_duet.illegal.guess_first")
    return None


def number_range(state: DuetState) -> tuple[int, int]:
    """The numbers a clue may carry: 1-9 (0-9 with ``zero_clues``), whatever the greens left;
    "one word and one number", with no cap (docs/rules/codenames-duet.md, "A turn")."""
    low = 0 if state.game.options["zero_clues"] else 1
    return low, MAX_NUMBER


# ----- legal moves --------------------------------------------------------------------------------


def guessable(state: DuetState) -> list[int]:
    """Cells the guesser may touch now."""
    return [c for c in range(BOARD_SIZE) if guess_problem(state, c) is None]


def clue_suggestions(state: DuetState) -> list[Action]:
    """A few valid clues from the pack's off-board words, each with a number in range.

    Any valid word may be given as a clue, so the clue phase's legal actions are only these
    suggestions: enough for a menu and the random bot. They are picked per position without
    touching the game's RNG, so listing legal actions never changes the game.
    """
    game = state.game
    pack = game.pack
    taken = set(state.cells)
    picker = random.Random(derive_seed(state.seed, len(state.history)))
    visible = state.visible_words()
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
    low = number_range(state)[0]
    high = max(low, min(MAX_NUMBER, state.greens_left(state.giver)))
    return [game.clue_action(w, picker.randint(low, high)) for w in words]


def legal_actions(state: DuetState) -> list[Action]:
    if clue_phase_problem(state) is None:
        return clue_suggestions(state)
    game = state.game
    actions = [game.action(state.cells[c]) for c in guessable(state)]
    if stop_problem(state) is None:
        actions.append(game.stop_action())
    return actions


def parse_clue(state: DuetState, rest: list[str], text: str) -> Action:
    """``clue <word...> <number>`` as an action, or the reason it is refused."""
    problem = clue_phase_problem(state)
    if problem is not None:
        raise problem
    if len(rest) < 2:
        raise IllegalAction("codenames_duet.illegal.clue_format", action=text.strip())
    number_text = rest[-1]
    digits = number_text.removeprefix("-")
    if not ascii_digits(digits):
        raise IllegalAction("codenames_duet.illegal.clue_number", action=text.strip(), number=number_text)
    magnitude = ascii_whole(digits)
    if magnitude is None:  # past nine digits: out of any range, and shown cut
        low, high = number_range(state)
        raise IllegalAction(
            "codenames_duet.clue.number_range", number=f"{number_text[:10]}…", low=low, high=high
        )
    number = -magnitude if number_text.startswith("-") else magnitude
    problem_args = number_problem(number, *number_range(state))
    if problem_args is not None:
        raise IllegalAction(problem_args[0], **problem_args[1])
    word = " ".join(rest[:-1])
    problem_args = word_problem(state, word)
    if problem_args is not None and (
        not state.game.options["strict_penalty"] or problem_args[0] in FORMAT_PROBLEMS
    ):
        raise IllegalAction(problem_args[0], **problem_args[1])
    # The typed case is kept: a capital marks a proper noun, so replays must see it too.
    return state.game.clue_action(word, number)


# ----- why a move is refused ----------------------------------------------------------------------


def explain(state: DuetState, text: str) -> IllegalAction:
    """The reason ``text`` is not a legal move now: the move's own check, after its syntax."""
    words = normalize_text(text).split()
    verb = words[0] if words else ""
    if state.phase == "over":
        return IllegalAction("core.illegal.game_over")
    if verb == "clue":
        try:
            parse_clue(state, words[1:], text)
        except IllegalAction as problem:
            return problem
    elif verb == "stop" and len(words) == 1:
        return stop_problem(state) or unknown(text)
    elif verb == "guess":
        return guess_reason(state, words, text)
    return unknown(text)


def guess_reason(state: DuetState, words: list[str], text: str) -> IllegalAction:
    if len(words) != 2:
        return IllegalAction("codenames_duet.illegal.guess_format", action=text)
    if state.phase == "clue":
        return IllegalAction("codenames_duet.illegal.guess_before_clue")
    if words[1] not in state.words:
        return IllegalAction("codenames_duet.illegal.not_on_board", word=words[1])
    return guess_problem(state, state.words.index(words[1])) or unknown(text)


def unknown(text: str) -> IllegalAction:
    return IllegalAction("codenames_duet.illegal.unknown", action=text)


# ----- applying a move ----------------------------------------------------------------------------


def apply_action(state: DuetState, action: Action) -> list[Event]:
    seat = state.current_player
    assert seat is not None
    player = seat_ref(seat)
    events: list[Event] = []
    game = state.game
    if action.index >= game.clue_base:
        give_clue(state, action, player, events)
    elif action.index == game.stop_index:
        events.append(Event("codenames_duet.event.stop", {"player": player}))
        end_turn(state, 1, events)
    else:
        guess(state, state.cells.index(action.index), player, events)
    return events


def give_clue(state: DuetState, action: Action, player: dict[str, int], events: list[Event]) -> None:
    parts = action.text.split()
    word, number = " ".join(parts[1:-1]), int(parts[-1])
    clue = {"side": state.giver, "seat": player["$seat"], "word": word, "number": number, "guesses": []}
    problem = word_problem(state, word)
    if problem is not None:
        # strict_penalty: the clue is void and costs a timer token; the same side clues again.
        key, params = problem
        events.append(Event(key, params))
        state.tokens -= 1
        state.clues.append({**clue, "penalty": key})
        events.append(Event("codenames_duet.event.penalty", {"player": player, "tokens": state.tokens}))
        if state.tokens <= 0:
            time_out(state, events)
        return
    state.gives[state.giver] += 1
    state.clue = {**clue, "penalty": None}
    state.clues.append(state.clue)
    state.phase = "guess"
    events.append(Event("codenames_duet.event.clue", {"player": player, "word": word, "number": number}))


def guess(state: DuetState, cell: int, player: dict[str, int], events: list[Event]) -> None:
    read = state.giver
    kind = state.key[read][cell]
    word = state.words[cell]
    if state.clue is not None:
        state.clue["guesses"].append({"word": word, "kind": KINDS[kind]})
    if kind == GREEN:
        found_agent(state, cell, player, events)
        return
    if kind == ASSASSIN:
        state.assassin = cell
        events.append(Event("codenames_duet.event.assassin", {"player": player, "word": word}))
        finish(state, "assassin", events)
        return
    state.bystander[read][cell] = True
    events.append(Event("codenames_duet.event.bystander", {"player": player, "word": word}))
    missed(state, events)


def found_agent(state: DuetState, cell: int, player: dict[str, int], events: list[Event]) -> None:
    read = state.giver
    state.agent[cell] = read
    events.append(Event("codenames_duet.event.green", {"player": player, "word": state.words[cell]}))
    if state.agents_left() == 0:
        finish(state, "won", events)
    elif state.phase == "sudden":
        # Sudden death: one word at a time, the side's members taking turns to touch.
        state.guesses[state.guesser] += 1
        if state.greens_left(read) == 0:
            state.giver = 1 - read
            events.append(Event("codenames_duet.event.sudden_switch", {}))
    elif state.greens_left(read) == 0:
        # No green is left on the clue-giver's key: guessing on could only miss.
        events.append(Event("codenames_duet.event.side_done", {}))
        end_turn(state, 1, events)


def missed(state: DuetState, events: list[Event]) -> None:
    """A bystander was touched: the turn ends, at a price that depends on the mistakes so far."""
    if state.phase == "sudden":
        finish(state, "sudden_death", events)
        return
    if state.mistakes < state.game.mistakes:
        state.mistakes += 1
        end_turn(state, 1, events)
        return
    # Beyond the mission's allowed mistakes a mistake costs two tokens; on the last token it loses.
    state.mistakes += 1
    if state.tokens <= 1:
        events.append(Event("codenames_duet.event.mistake_last", {}))
        finish(state, "time_mistake", events)
        return
    events.append(Event("codenames_duet.event.mistake_extra", {}))
    end_turn(state, 2, events)


def end_turn(state: DuetState, cost: int, events: list[Event]) -> None:
    state.tokens = max(0, state.tokens - cost)
    state.turns += 1
    state.guesses[state.guesser] += 1
    state.clue = None
    events.append(Event("codenames_duet.event.turn_end", {"tokens": state.tokens}))
    if state.tokens == 0:
        time_out(state, events)
        return
    state.phase = "clue"
    state.giver = state.next_giver()


def time_out(state: DuetState, events: list[Event]) -> None:
    """No clues remain: the sides with greens left are guessed without clues (seed)."""
    state.clue = None
    state.phase = "sudden"
    first = state.next_giver()
    state.giver = first if state.greens_left(first) else 1 - first
    events.append(Event("codenames_duet.event.sudden_death", {}))


def finish(state: DuetState, ending: str, events: list[Event]) -> None:
    state.phase = "over"
    state.ending = ending
    state.clue = None
    events.append(Event(f"codenames_duet.end.{ending}", {}))

"""Mexican Train's transitions (``rules/en.md``): what may be played now, what a move does, and why a
move is refused.

One copy of the rules: each kind of move has one check that gives None or the reason the move is
refused (a key under ``mexican_train.illegal``): a tile play's is ``play_problem`` (``tile_problem``,
then ``train_problems``, then the match of the tile with the train's open end), and draw, pass and end
share ``turn_problems``. ``legal_actions`` offers exactly the moves whose check passes and ``explain``
reports the failing check's reason, so the moves offered and the reasons given cannot disagree. The
train and turn checks answer for every train (every turn move) at once: the legal moves need them all,
and one call costs what a comparison or two does.

A turn moves through phases: ``FIRST`` (a seat's first turn of the round: a run on its own train,
nothing else, no drawing), ``PLAY`` (one tile; again after a double) and ``DRAWN`` (after drawing
one tile because nothing could be played: play the drawn tile or pass and mark the train public).
Rounds follow one another inside the state, so a whole 13-round match is one game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.events import Event, seat_ref
from tabletrek.core.rng import shuffle
from tabletrek.core.state import normalize_text

if TYPE_CHECKING:
    from tabletrek.games.mexican_train.state import MexicanTrainState

FIRST, PLAY, DRAWN = 0, 1, 2
PHASE_NAMES = ("first", "play", "drawn")
NO_TILE = -1
# Event keys of a play, by [train already started][own, another player's, the Mexican train].
PLAY_KEYS = tuple(
    tuple(f"mexican_train.event.{verb}_{kind}" for kind in ("own", "other", "mexican"))
    for verb in ("start", "play")
)
TRAIN_ALIASES = {"mexican": "mx", "mex": "mx", "m": "mx"}
OWN_ALIASES = ("own", "mine", "me")
TURN_MOVES = ("draw", "pass", "end")  # the moves other than plays, in the order turn_problems gives them

# The reasons a move is refused: keys of mexican_train.illegal in the catalogs. A check returns one
# of these or None; ``explain`` adds the details its message names (``_details``).
NOT_IN_HAND = "mexican_train.illegal.not_in_hand"
ONLY_DRAWN = "mexican_train.illegal.only_drawn"
FIRST_OWN_ONLY = "mexican_train.illegal.first_own_only"
PRIVATE_TRAIN = "mexican_train.illegal.private_train"
MUST_SATISFY = "mexican_train.illegal.must_satisfy"
NO_MATCH = "mexican_train.illegal.no_match"
FIRST_NO_DRAW = "mexican_train.illegal.first_no_draw"
ALREADY_DREW = "mexican_train.illegal.already_drew"
BONEYARD_EMPTY = "mexican_train.illegal.boneyard_empty"
MUST_PLAY = "mexican_train.illegal.must_play"
MUST_DRAW = "mexican_train.illegal.must_draw"
MUST_START = "mexican_train.illegal.must_start"
PASS_IN_RUN = "mexican_train.illegal.pass_in_run"
END_FIRST_ONLY = "mexican_train.illegal.end_first_only"
END_NOTHING = "mexican_train.illegal.end_nothing"
DOUBLE_CONTINUE = "mexican_train.illegal.double_continue"


# ----- the checks -------------------------------------------------------------------------------


def offered_tiles(state: MexicanTrainState) -> Sequence[Sequence[int]]:
    """The tiles the seat to act may play from: its hand, or after a draw the drawn tile only;
    grouped by the values they show (``[v]``: the offered tiles showing ``v``, in the hand's order),
    since a tile joins a train where it shows the train's open end."""
    if state.phase == DRAWN:
        return state.game.tileset.alone[state.drawn]
    return state.showing[state.to_act]


def tile_problem(state: MexicanTrainState, tile: int) -> str | None:
    """Why the seat to act may not play ``tile`` anywhere now, or None."""
    if tile not in state.hands[state.to_act]:
        return NOT_IN_HAND
    # Every tile shows its low value, so that group holds it if it is offered at all.
    if tile not in offered_tiles(state)[state.game.tileset.tiles[tile][0]]:
        return ONLY_DRAWN
    return None


def train_problems(state: MexicanTrainState) -> list[str | None]:
    """For each train (the seats' trains, then the Mexican train): why the seat to act may not add a
    tile to it now, or None where it may."""
    game = state.game
    seat = state.to_act
    if state.phase == FIRST:
        # "Your first turn": one's own train, nowhere else.
        problems: list[str | None] = [FIRST_OWN_ONLY] * game.slots
        problems[seat] = None
        return problems
    # "Later turns": one's own train, the Mexican train (the last) and public (marked) trains; no
    # private one. (A plain loop: in CPython 3.11 a comprehension makes a function object and a
    # frame on every call, about 700 machine instructions here, a fortieth of a whole move.)
    problems = []
    for public in state.markers:
        problems.append(None if public else PRIVATE_TRAIN)
    problems[seat] = None
    problems.append(None)
    # "Doubles": while a double is open, nothing but an open double takes a tile, except the tile
    # right after one's own double unless ``relaxed_doubles`` is off.
    if state.open and not (state.bonus and game.relaxed_doubles):
        for train in range(game.slots):
            if problems[train] is None and train not in state.open:
                problems[train] = MUST_SATISFY
    return problems


def play_problem(state: MexicanTrainState, tile: int, train: int) -> str | None:
    """Why ``tile`` may not go on ``train`` now, or None: the tile, the train, then the match."""
    problem = tile_problem(state, tile) or train_problems(state)[train]
    # A tile joins a train only where it shows the train's open end.
    if problem is None and tile not in state.game.tileset.with_value[state.ends[train]]:
        return NO_MATCH
    return problem


def turn_problems(state: MexicanTrainState, can_play: bool) -> tuple[str | None, str | None, str | None]:
    """Why the seat to act may not draw, pass, or end its run now (None where it may), by phase;
    ``can_play``: some tile play is legal."""
    if state.phase == FIRST:
        # "Your first turn": no drawing; pass only when no tile starts the train; a run may end
        # anywhere but right after a double (the run ends by itself when nothing can follow it).
        pass_problem = PASS_IN_RUN if state.run else MUST_START if can_play else None
        if state.run == 0:
            end_problem = END_NOTHING
        elif state.game.tileset.is_double[state.trains[state.to_act][-1]]:
            end_problem = DOUBLE_CONTINUE
        else:
            end_problem = None
        return FIRST_NO_DRAW, pass_problem, end_problem
    if state.phase == DRAWN:
        # "When you cannot play": after the draw, play the drawn tile or pass.
        return ALREADY_DREW, None, END_FIRST_ONLY
    # "Later turns": play if you can; if not, draw; with the boneyard empty, pass.
    if can_play:
        return (MUST_PLAY if state.boneyard else BONEYARD_EMPTY), MUST_PLAY, END_FIRST_ONLY
    if state.boneyard:
        return None, MUST_DRAW, END_FIRST_ONLY
    return BONEYARD_EMPTY, None, END_FIRST_ONLY


# ----- the legal moves ----------------------------------------------------------------------------


def legal_actions(state: MexicanTrainState) -> list[Action]:
    """The moves whose check passes: tile plays train by train (own, Mexican, then the other seats in
    order), each in the hand's order, then whichever of draw, pass and end is allowed."""
    game = state.game
    offered = offered_tiles(state)
    ends = state.ends
    problems = train_problems(state)
    plays: list[Action] = []
    for train in game.train_order[state.to_act]:
        if problems[train] is None:
            # The offered tiles that show the train's open end: the ones that join it.
            on_train = game.train_plays[train]
            for tile in offered[ends[train]]:
                plays.append(on_train[tile])
    draw, pass_, end = turn_problems(state, bool(plays))
    if draw is None:
        plays.append(game.draw_action)
    if pass_ is None:
        plays.append(game.pass_action)
    if end is None:
        plays.append(game.end_action)
    return plays


# ----- texts: lenient parsing and explanations ----------------------------------------------------


def canonical(state: MexicanTrainState, text: str) -> str:
    """Normalize a typed move: tiles in either order, train aliases, the train left out when only one fits."""
    words = normalize_text(text).split()
    if len(words) < 2 or words[0] != "play":
        return " ".join(words)
    ts = state.game.tileset
    tile = ts.parse_tile(words[1])
    if tile is None:
        return " ".join(words)
    words[1] = ts.texts[tile]
    if len(words) == 2:
        fits = _plays_of(state, tile)
        if len(fits) == 1:
            return fits[0].text
    elif len(words) == 3:
        if words[2] in OWN_ALIASES and state.current_player is not None:
            words[2] = state.game.train_names[state.current_player]
        words[2] = TRAIN_ALIASES.get(words[2], words[2])
    return " ".join(words)


def _plays_of(state: MexicanTrainState, tile: int) -> list[Action]:
    slots = state.game.slots
    return [a for a in state.legal_actions() if a.index // slots == tile and a.index < state.game.draw_index]


def explain(state: MexicanTrainState, text: str) -> IllegalAction:
    """Why ``text`` is not a legal move now: the reason of the check that refuses it."""
    words = normalize_text(text).split()
    if not words:
        return IllegalAction("core.illegal.empty")
    if state.is_over:
        return IllegalAction("core.illegal.game_over")
    verb = words[0]
    if len(words) == 1 and verb in TURN_MOVES:
        problem = turn_problems(state, can_play(state))[TURN_MOVES.index(verb)]
        return IllegalAction(problem) if problem else IllegalAction("core.illegal.not_legal", action=text)
    if verb == "play" and len(words) in (2, 3):
        return _explain_play(state, words, text)
    return IllegalAction("mexican_train.illegal.unknown", action=text)


def can_play(state: MexicanTrainState) -> bool:
    """Whether some tile play is legal now."""
    return state.legal_actions()[0].index < state.game.draw_index


def _explain_play(state: MexicanTrainState, words: list[str], text: str) -> IllegalAction:
    """``play TILE [TRAIN]``: a tile of the set, a train of the table, then ``play_problem``."""
    game = state.game
    ts = game.tileset
    tile = ts.parse_tile(words[1])
    if tile is None:
        return IllegalAction("mexican_train.illegal.unknown_tile", tile=words[1], high=ts.high)
    tile_text = ts.texts[tile]
    if len(words) == 2:
        problem = tile_problem(state, tile)
        if problem is not None:
            return IllegalAction(problem, **_details(state, problem, tile, None))
        places = [a.text.rsplit(" ", 1)[1] for a in _plays_of(state, tile)]
        if places:
            return IllegalAction("mexican_train.illegal.which_train", tile=tile_text, trains=places)
        return IllegalAction("mexican_train.illegal.no_place", tile=tile_text)
    if words[2] not in game.train_names:
        return IllegalAction("mexican_train.illegal.bad_train", train=words[2], trains=list(game.train_names))
    train = game.train_names.index(words[2])
    problem = play_problem(state, tile, train)
    if problem is None:
        return IllegalAction("core.illegal.not_legal", action=text)
    return IllegalAction(problem, **_details(state, problem, tile, train))


def _details(state: MexicanTrainState, problem: str, tile: int, train: int | None) -> dict[str, Any]:
    """The values a refusal's message names."""
    game = state.game
    texts = game.tileset.texts
    if problem == NOT_IN_HAND:
        return {"tile": texts[tile]}
    if problem == ONLY_DRAWN:
        return {"tile": texts[state.drawn]}
    assert train is not None
    if problem == PRIVATE_TRAIN:
        return {"owner": seat_ref(train)}
    if problem == MUST_SATISFY:
        return {"trains": [game.train_names[r] for r in state.open]}
    if problem == NO_MATCH:
        return {"tile": texts[tile], "train": game.train_names[train], "end": state.ends[train]}
    return {}


# ----- applying -----------------------------------------------------------------------------------


def apply(state: MexicanTrainState, action: Action) -> list[Event]:
    """Carry out a legal action: a tile play here (most moves are; one call fewer for them), draw,
    pass and end in ``turn_move``."""
    game = state.game
    index = action.index
    if index >= game.draw_index:
        return turn_move(state, action)
    tile, train = game.tile_train[index]
    ts = game.tileset
    seat = state.to_act
    hand = state.hands[seat]
    hand.remove(tile)
    showing = state.showing[seat]  # the hand grouped by value follows the hand
    low, high = ts.tiles[tile]
    showing[low].remove(tile)
    if high != low:
        showing[high].remove(tile)
    line = state.trains[train]
    started = 1 if line else 0
    made = game.play_events[seat][started]
    event = made[index]
    if event is None:
        kind = 2 if train == game.mexican else 0 if train == seat else 1
        args = {"player": game.seat_refs[seat], "tile": ts.texts[tile], "owner": game.seat_refs[train]}
        event = made[index] = Event(PLAY_KEYS[started][kind], args)
    events = [event]
    line.append(tile)
    state.ends[train] = ts.other[tile][state.ends[train]]
    double = ts.is_double[tile]
    if double:
        state.open.append(train)
    elif train in state.open:
        state.open.remove(train)
    state.passes = 0
    if train == seat and state.markers[seat]:
        state.markers[seat] = False
        events.append(game.seat_events["marker_off"][seat])
    if not hand:
        end_round(state, seat, events)
        return events
    if state.phase == FIRST:
        state.run += 1
        # The run goes on while a tile in hand fits the own train.
        if showing[state.ends[seat]]:
            return events
        if double:
            events.append(game.seat_events["run_ends_double"][seat])
        end_turn(state)
    elif double:
        state.bonus = True
        state.phase = PLAY
        state.drawn = NO_TILE
        events.append(game.double_events[seat][tile])
    else:
        end_turn(state)
    return events


def turn_move(state: MexicanTrainState, action: Action) -> list[Event]:
    """Carry out a legal draw, pass or end."""
    game = state.game
    events: list[Event] = []
    if action is game.draw_action:
        draw(state, events)
    elif action is game.pass_action:
        pass_turn(state, events)
    else:
        events.append(game.seat_events["end_run"][state.to_act])
        end_turn(state)
    return events


def draw(state: MexicanTrainState, events: list[Event]) -> None:
    game = state.game
    seat = state.to_act
    tile = state.boneyard.pop()
    state.hands[seat].append(tile)
    showing = state.showing[seat]
    low, high = game.tileset.tiles[tile]
    showing[low].append(tile)
    if high != low:
        showing[high].append(tile)
    state.drawn = tile
    state.phase = DRAWN
    events.append(
        Event(
            "mexican_train.event.draw",
            {"player": game.seat_refs[seat], "left": len(state.boneyard)},
            {"tile": game.tileset.texts[tile]},
            game.audiences[seat],
        )
    )


def pass_turn(state: MexicanTrainState, events: list[Event]) -> None:
    game = state.game
    seat = state.to_act
    if state.phase == FIRST:
        events.append(game.seat_events["first_pass"][seat])
    else:
        events.append(game.seat_events["pass"][seat])
        if not state.markers[seat]:
            state.markers[seat] = True
            events.append(game.seat_events["marker_on"][seat])
    if not state.boneyard:
        state.passes += 1
        if state.passes >= game.players:
            end_round(state, None, events)
            return
    end_turn(state)


def end_turn(state: MexicanTrainState) -> None:
    seat = state.to_act
    if state.phase == FIRST:
        state.first_pending[seat] = False
    nxt = (seat + 1) % state.game.players
    state.to_act = nxt
    state.phase = FIRST if state.first_pending[nxt] else PLAY
    state.bonus = False
    state.drawn = NO_TILE
    state.run = 0


# ----- rounds -------------------------------------------------------------------------------------


def start_round(state: MexicanTrainState, round_index: int, events: list[Event]) -> None:
    """Shuffle and deal, then place the engine double (or set it aside: ``rotate_start``)."""
    game = state.game
    ts = game.tileset
    players = game.players
    state.round_index = round_index
    state.engine = engine = game.engine_for_round(round_index)
    engine_tile = ts.double_of[engine]
    pool = list(range(ts.size))
    if game.rotate_start:
        pool.remove(engine_tile)
    shuffle(state.rng, pool)
    size = game.hand_size
    state.hands = [pool[s * size : (s + 1) * size] for s in range(players)]
    state.boneyard = pool[players * size :]
    state.trains = [[] for _ in range(game.slots)]
    state.open = []
    state.ends = [engine] * game.slots
    state.markers = [False] * players
    state.first_pending = [True] * players
    state.phase = FIRST
    state.bonus = False
    state.drawn = NO_TILE
    state.run = 0
    state.passes = 0
    engine_text = ts.texts[engine_tile]
    events.append(
        Event(
            "mexican_train.event.round_start",
            {"round": round_index + 1, "rounds": game.num_rounds, "engine": engine_text},
        )
    )
    if game.rotate_start:
        state.engine_placer = None
        state.to_act = round_index % players
        state.showing = [ts.by_value(hand) for hand in state.hands]
        events.append(Event("mexican_train.event.engine_aside", {"engine": engine_text}))
        return
    holder = next((s for s in range(players) if engine_tile in state.hands[s]), None)
    seat = round_index % players
    while holder is None:
        # Nobody holds the engine: draw one tile each in turn order until it appears [seed].
        tile = state.boneyard.pop()
        state.hands[seat].append(tile)
        events.append(
            Event(
                "mexican_train.event.engine_draw",
                {"player": seat_ref(seat)},
                secret={"tile": ts.texts[tile]},
                audience=frozenset({seat}),
            )
        )
        if tile == engine_tile:
            holder = seat
        seat = (seat + 1) % players
    state.hands[holder].remove(engine_tile)
    state.showing = [ts.by_value(hand) for hand in state.hands]
    state.engine_placer = holder
    state.to_act = (holder + 1) % players
    events.append(Event("mexican_train.event.engine", {"player": seat_ref(holder), "engine": engine_text}))


def end_round(state: MexicanTrainState, out: int | None, events: list[Event]) -> None:
    """Score the hands; start the next round or end the match. ``out``: who went out (None: blocked)."""
    game = state.game
    scores = [state.hand_points(s) for s in range(game.players)]
    state.round_scores.append(scores)
    for s, points in enumerate(scores):
        state.totals[s] += points
    if out is None:
        events.append(Event("mexican_train.event.blocked", {"round": state.round_index + 1}))
    else:
        events.append(Event("mexican_train.event.domino", {"player": seat_ref(out)}))
    for s, points in enumerate(scores):
        events.append(
            Event(
                "mexican_train.event.score",
                {"player": seat_ref(s), "points": points, "total": state.totals[s]},
            )
        )
    if state.round_index + 1 < game.num_rounds:
        start_round(state, state.round_index + 1, events)
        return
    state.is_over = True
    result = state.result
    assert result is not None
    for s in result.winners:
        events.append(
            Event("mexican_train.event.match_end", {"player": seat_ref(s), "total": state.totals[s]})
        )

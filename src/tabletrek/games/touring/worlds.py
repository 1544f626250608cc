"""The search's worlds in compiled Touring: dealing what a seat cannot see, what the other players'
moves reveal about their hands, and a move's whole paired comparison in one call.

A world deals the cards the seat cannot see (the draw pile and the other hands). Uniformly at
random ignores what the other players showed: a greedy player who discarded held nothing it
could play; one who played mileage while it could have stopped us held no hazard (the belief
below holds 3.2 of the opponent's 5 cards right where a uniform deal holds 2.1:
``docs/research.md``). ``HandBelief`` keeps what the moves say as particles (sampled sets of the
other players' hands): at each of their moves every particle draws the card the player drew, survives
only if greedy, holding that hand, would have made the move, and gives up the card played. Dead
particles are replaced by copies of survivors and by a share of fresh deals that explain the
latest move, so that a player who does not play like greedy (a person, another bot) leaves a
belief no worse than a uniform deal. Worlds then deal the other hands from a particle.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tabletrek.core.mt19937 import njit
from tabletrek.games.touring import evaluation
from tabletrek.games.touring.kernel import (
    CFG_P,
    DRAW,
    DRAW_N,
    ENDED,
    HANDS,
    MAX_LEGAL,
    MAX_PLAYERS,
    TO_ACT,
    WEIGHTS,
    C,
    apply,
    config,
    greedy_move,
    legal_actions,
    pack,
    reward,
    score,
    seed,
    shuffle,
    unseen,
)
from tabletrek.games.touring.rules import ACTION_CARD

if TYPE_CHECKING:
    from tabletrek.core.actions import Action
    from tabletrek.core.search import Belief, PlayoutRunner
    from tabletrek.games.touring.state import TouringState

PARTICLES = 1024
# Share of the dead particles replaced by fresh deals (the rest copy survivors).
FRESH = 0.1
# Deals tried for a fresh particle, or particles tried for a world, before settling for less.
TRIES = 40


CARD_OF = np.array(ACTION_CARD, dtype=np.int64)
"""The card each move takes from the hand (-1 for the pass): ``rules.ACTION_CARD`` as an array the
compiled filter below can read."""


@njit
def would_play(
    position: np.ndarray,
    hand: np.ndarray,
    cfg: np.ndarray,
    w: np.ndarray,
    move: int,
    scratch: np.ndarray,
    legal: np.ndarray,
) -> bool:
    """Would greedy, holding ``hand`` as the player to act in ``position``, make ``move`` (as its
    best-scored move, or one tied with it)?"""
    actor = position[TO_ACT]
    scratch[:] = position
    for card in range(C):
        scratch[HANDS + actor * C + card] = hand[card]
    n = legal_actions(scratch, cfg, legal)
    best = -1e18
    mine = -1e18
    for i in range(n):
        value = score(scratch, cfg, w, legal[i])
        best = max(best, value)
        if legal[i] == move:
            mine = value
    return mine >= best


@njit
def free_cards(particle: np.ndarray, pool: np.ndarray, seat: int, players: int, free: np.ndarray) -> bool:
    """``free`` := the unseen cards (counts) not in the particle's hands; False if a hand holds a
    card the unseen cards lack (the seat has since seen it: that particle is impossible)."""
    for card in range(C):
        used = 0
        for p in range(players):
            if p != seat:
                used += particle[p, card]
        free[card] = pool[card] - used
        if free[card] < 0:
            return False
    return True


@njit
def fill(particle: np.ndarray, free: np.ndarray, sizes: np.ndarray, seat: int, players: int) -> bool:
    """Deals each other hand of the particle up to its size from ``free`` (which it uses up);
    False if a hand is larger than its size or the cards run out."""
    total = 0
    for card in range(C):
        total += free[card]
    for p in range(players):
        if p == seat:
            continue
        held = 0
        for card in range(C):
            held += particle[p, card]
        if held > sizes[p]:
            return False
        while held < sizes[p]:
            if total <= 0:
                return False
            r = np.random.randint(0, total)
            card = 0
            while r >= free[card]:
                r -= free[card]
                card += 1
            particle[p, card] += 1
            free[card] -= 1
            total -= 1
            held += 1
    return True


@njit
def observe_move(
    particles: np.ndarray,
    position: np.ndarray,
    pool: np.ndarray,
    sizes: np.ndarray,
    seat: int,
    cfg: np.ndarray,
    w: np.ndarray,
    move: int,
    seed: int,
    fresh: float,
) -> int:
    """Updates the particles with another player's ``move`` in ``position`` (see the module
    docstring); returns how many particles explained it."""
    np.random.seed(seed)
    n = particles.shape[0]
    players = cfg[CFG_P]
    actor = position[TO_ACT]
    free = np.zeros(C, dtype=np.int64)
    scratch = np.empty_like(position)
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    survivors = np.empty(n, dtype=np.int64)
    alive = np.zeros(n, dtype=np.bool_)
    count = 0
    for i in range(n):
        if (
            free_cards(particles[i], pool, seat, players, free)
            and fill(particles[i], free, sizes, seat, players)
            and would_play(position, particles[i, actor], cfg, w, move, scratch, legal)
        ):
            survivors[count] = i
            alive[i] = True
            count += 1
    played = CARD_OF[move]
    for i in range(n):
        if alive[i]:
            continue
        if count > 0 and np.random.random() >= fresh:
            particles[i] = particles[survivors[np.random.randint(0, count)]]
            continue
        # A fresh deal: the player surely held the card it played; the rest at random, kept
        # once greedy would have made the move with it (else the last deal stands).
        for _ in range(TRIES):
            particles[i] = 0
            free[:] = pool
            if played >= 0:
                particles[i, actor, played] = 1
                free[played] -= 1
            fill(particles[i], free, sizes, seat, players)
            if would_play(position, particles[i, actor], cfg, w, move, scratch, legal):
                break
    if played >= 0:
        for i in range(n):
            if particles[i, actor, played] > 0:
                particles[i, actor, played] -= 1
    return count


@njit
def deal_uniform(world: np.ndarray, seat: int, cards: np.ndarray, sizes: np.ndarray, cfg: np.ndarray) -> None:
    """The unseen ``cards`` shuffled: the other hands at their real sizes, the rest the draw pile."""
    n = cards.shape[0]
    shuffle(cards, 0, n)
    k = 0
    for p in range(cfg[CFG_P]):
        if p == seat:
            continue
        for card in range(C):
            world[HANDS + p * C + card] = 0
        for _ in range(sizes[p]):
            world[HANDS + p * C + cards[k]] += 1
            k += 1
    world[DRAW_N] = n - k
    for i in range(n - k):
        world[DRAW + i] = cards[k + i]


@njit
def deal_from(
    world: np.ndarray,
    seat: int,
    particle: np.ndarray,
    free: np.ndarray,
    cfg: np.ndarray,
) -> None:
    """The other hands from ``particle``, the ``free`` cards shuffled as the draw pile."""
    for p in range(cfg[CFG_P]):
        if p != seat:
            for card in range(C):
                world[HANDS + p * C + card] = particle[p, card]
    n = 0
    for card in range(C):
        for _ in range(free[card]):
            world[DRAW + n] = card
            n += 1
    shuffle(world, DRAW, n)
    world[DRAW_N] = n


@njit
def deal(
    world: np.ndarray,
    base: np.ndarray,
    seat: int,
    pool: np.ndarray,
    counts: np.ndarray,
    sizes: np.ndarray,
    particles: np.ndarray,
    cfg: np.ndarray,
    free: np.ndarray,
    cards: np.ndarray,
) -> None:
    """A world the seat cannot tell from the real one: from a particle that is still possible
    (its hands the right sizes, no card the seat has since seen), else uniformly at random."""
    world[:] = base
    players = cfg[CFG_P]
    for _ in range(TRIES if particles.shape[0] > 0 else 0):
        particle = particles[np.random.randint(0, particles.shape[0])]
        if not free_cards(particle, counts, seat, players, free):
            continue
        fits = True
        for p in range(players):
            if p != seat and particle[p].sum() != sizes[p]:
                fits = False
        if fits:
            deal_from(world, seat, particle, free, cfg)
            return
    cards[:] = pool
    deal_uniform(world, seat, cards, sizes, cfg)


@njit
def paired_rewards(
    base: np.ndarray,
    cfg: np.ndarray,
    w: np.ndarray,
    seat: int,
    pool: np.ndarray,
    sizes: np.ndarray,
    particles: np.ndarray,
    moves: np.ndarray,
    seeds: np.ndarray,
    depth: int,
    out: np.ndarray,
    net: evaluation.Net,
) -> None:
    """``out[m, k]``: the seat's reward when it plays ``moves[m]`` in world ``k`` and greedy plays
    the rest (for ``depth`` moves and then the evaluation, if ``depth`` > 0). World ``k`` is dealt
    from ``seeds[k]`` (from ``particles`` when there are any), and every move's playout in it then
    draws the same random numbers (common random numbers), so moves are compared on equal luck."""
    world = np.empty_like(base)
    trial = np.empty_like(base)
    cards = np.empty_like(pool)
    free = np.zeros(C, dtype=np.int64)
    counts = np.zeros(C, dtype=np.int64)
    for card in pool:
        counts[card] += 1
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    scratch = np.empty(evaluation.SCRATCH, dtype=np.float64)
    for k in range(seeds.shape[0]):
        np.random.seed(seeds[k])
        deal(world, base, seat, pool, counts, sizes, particles, cfg, free, cards)
        play_each(world, trial, cfg, w, legal, seat, moves, depth, out, k, net, scratch)


@njit
def play_each(
    world: np.ndarray,
    trial: np.ndarray,
    cfg: np.ndarray,
    w: np.ndarray,
    legal: np.ndarray,
    seat: int,
    moves: np.ndarray,
    depth: int,
    out: np.ndarray,
    k: int,
    net: evaluation.Net,
    scratch: np.ndarray,
) -> None:
    """``out[m, k]``: each move played in ``world`` and finished (``finish``), every one on the
    same random numbers (common random numbers): the world's own generator, seeded once here,
    is copied with it into every move's trial."""
    seed(world, np.random.randint(0, 2**31 - 1))
    for m in range(moves.shape[0]):
        trial[:] = world
        apply(trial, cfg, moves[m])
        out[m, k] = finish(trial, cfg, w, legal, seat, depth, net, scratch)


@njit
def finish(
    s: np.ndarray,
    cfg: np.ndarray,
    w: np.ndarray,
    legal: np.ndarray,
    seat: int,
    depth: int,
    net: evaluation.Net,
    scratch: np.ndarray,
) -> float:
    """Greedy plays on, to the end or for ``depth`` moves (0: to the end), then the seat's reward:
    1 won, 0 lost, the evaluation's chance to win where the playout was cut (``cut_value``)."""
    moves = 0
    while s[ENDED] == 0:
        if depth > 0 and moves >= depth:
            return evaluation.cut_value(s, cfg, seat, net, scratch)
        apply(s, cfg, greedy_move(s, cfg, w, legal))
        moves += 1
    return reward(s, cfg, seat)


NO_PARTICLES = np.zeros((0, MAX_PLAYERS, C), dtype=np.int32)


class HandBelief:
    """A seat's belief about the other players' hands (``Game.search_belief``)."""

    def __init__(self, seat: int, seed: int, particles: int = PARTICLES) -> None:
        self.seat = seat
        self.rng = random.Random(seed)
        self.particles = np.zeros((particles, MAX_PLAYERS, C), dtype=np.int32)
        self.observed = 0
        self.explained = 0
        """How many particles explained the last move (0: the player did not play like greedy)."""

    def observe(self, position: TouringState, action: Action) -> None:
        pool, sizes = unseen(position, self.seat)
        counts = np.bincount(pool, minlength=C).astype(np.int64)
        self.explained = observe_move(
            self.particles,
            pack(position, self.seat),
            counts,
            sizes,
            self.seat,
            config(position),
            WEIGHTS,
            action.index,
            self.rng.getrandbits(62),
            FRESH,
        )
        self.observed += 1


def prepare(
    state: TouringState, seat: int, belief: Belief[TouringState] | None = None, depth: int | None = None
) -> PlayoutRunner:
    """``Game.paired_playouts`` for Touring: the position packed once, then a runner for batches
    of worlds in which greedy (default weights) finishes every playout, or plays ``depth`` moves
    and the fitted evaluation scores the rest; with a ``HandBelief`` that has seen moves, the
    other hands are dealt from it. The runner only reads what it holds, so threads may share it."""
    base = pack(state, seat)
    cfg = config(state)
    pool, sizes = unseen(state, seat)
    particles = NO_PARTICLES
    if isinstance(belief, HandBelief) and belief.observed and belief.seat == seat:
        particles = belief.particles
    cut = 0 if depth is None else int(depth)
    net = evaluation.network()

    def run(moves: Sequence[int], seeds: Sequence[int]) -> np.ndarray:
        out = np.zeros((len(moves), len(seeds)), dtype=np.float64)
        paired_rewards(
            base,
            cfg,
            WEIGHTS,
            seat,
            pool,
            sizes,
            particles,
            np.asarray(moves, dtype=np.int64),
            np.asarray(seeds, dtype=np.int64),
            cut,
            out,
            net,
        )
        return out

    return run


def paired_playouts(
    state: Any, seat: int, moves: Any, seeds: Any, belief: Any = None, depth: int | None = None
) -> np.ndarray:
    """One batch of ``prepare``'s playouts: a moves x worlds array of the seat's rewards."""
    return prepare(state, seat, belief, depth)(moves, seeds)


@njit
def known_rewards(
    full: np.ndarray,
    cfg: np.ndarray,
    w: np.ndarray,
    seat: int,
    moves: np.ndarray,
    seeds: np.ndarray,
    out: np.ndarray,
) -> None:
    """``paired_rewards`` with every hand known: only the draw pile's order is drawn again per
    world. For analysis (``benchmarks/touring_headroom.py``): what a move is worth in the real
    position, which no player can know."""
    world = np.empty_like(full)
    trial = np.empty_like(full)
    legal = np.empty(MAX_LEGAL, dtype=np.int64)
    scratch = np.empty(evaluation.SCRATCH, dtype=np.float64)
    n = full[DRAW_N]
    for k in range(seeds.shape[0]):
        np.random.seed(seeds[k])
        world[:] = full
        shuffle(world, DRAW, n)
        play_each(world, trial, cfg, w, legal, seat, moves, 0, out, k, evaluation.NO_NET, scratch)


def known_playouts(state: Any, seat: int, moves: Any, seeds: Any) -> np.ndarray:
    """``known_rewards`` for a state: moves x worlds of the seat's rewards."""
    st: TouringState = state
    out = np.zeros((len(moves), len(seeds)), dtype=np.float64)
    known_rewards(
        pack(st),
        config(st),
        WEIGHTS,
        seat,
        np.asarray(moves, dtype=np.int64),
        np.asarray(seeds, dtype=np.int64),
        out,
    )
    return out

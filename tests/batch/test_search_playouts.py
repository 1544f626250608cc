"""The search's compiled paired playouts (``SearchSupport.paired``) play the Python playouts move for
move: for each world seed, the compiled world is ``state.determinize(seat, Random(seed))``, each
candidate move and every policy move after it are the Python bot's, and the rewards are the ones
``SearchBot._rollout`` scores (the horizon, the cut, the evaluation, the margin)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import tabletrek
from tabletrek.bots.search import make_search_bot
from tabletrek.core import mt19937
from tabletrek.core.rng import make_rng
from tabletrek.games.double_crossing.evaluation import evaluate

pytestmark = pytest.mark.skipif(not mt19937.HAVE_NUMBA, reason="numba (extra [search]) is not installed")


def positions(name: str, players: int, count: int, seed: int, **options: Any) -> list[tabletrek.State]:
    """Positions from random games, at random depths, with a choice to make."""
    game = tabletrek.load(name, players=players, **options)
    rng = random.Random(seed)
    out: list[tabletrek.State] = []
    while len(out) < count:
        state = game.new_game(seed=rng.getrandbits(32))
        for _ in range(rng.randrange(0, 120)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over and len(state.legal_actions()) > 1:
            out.append(state)
    return out


# ----- Mexican Train ------------------------------------------------------------------------------

MT_CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (4, {}),
    (2, {"rounds": 1}),
    (3, {"rounds": 2, "relaxed_doubles": False}),
    (6, {"rotate_start": True}),
]


@pytest.mark.parametrize("config", MT_CONFIGS, ids=lambda c: f"{c[0]}p-{c[1]}")
def test_mexican_train_playouts_are_the_python_playouts(config: tuple[int, dict[str, Any]]) -> None:
    from tabletrek.games.mexican_train import batch, playouts
    from tabletrek.games.mexican_train.bots import GreedyBot

    players, options = config
    states = positions("mexican-train", players, 12, seed=players, **options)
    game = states[0].game
    cfg = batch.config(game)
    greedy = [GreedyBot(game, seat=s, seed=0) for s in range(players)]
    mask = np.zeros(game.num_actions, dtype=np.bool_)
    moves_checked = 0
    for n, state in enumerate(states):
        seat = state.current_player
        assert seat is not None
        bot = make_search_bot(game, seat=seat, seed=n, paired=True, rollout="greedy", margin=n % 2 == 0)
        base, _ = playouts.pack(state)
        legal = [a.index for a in state.legal_actions()]
        seeds = [random.Random(n).getrandbits(62) for _ in range(3)]
        depth = None if n % 3 else 25
        bot_depth = make_search_bot(
            game, seat=seat, seed=n, paired=True, rollout="greedy", margin=n % 2 == 0, rollout_depth=depth
        )
        rewards = playouts.prepare(state, seat, None, depth, margin=n % 2 == 0)(legal, seeds)
        for k, seed in enumerate(seeds):
            world = state.determinize(seat, make_rng(seed))
            g = np.empty(mt19937.SIZE, dtype=np.uint32)
            mt19937.seed(g, seed)
            row = np.empty_like(base)
            wg = np.empty(mt19937.SIZE, dtype=np.uint32)
            playouts.determinize(row, wg, base, cfg, seat, g)
            assert batch.canonical(batch.to_python_state(game, row, wg, 0)) == batch.canonical(world)
            for m, move in enumerate(legal):
                trial, s, tg = world.clone(), row.copy(), wg.copy()
                trial.apply(game.action(move))
                batch.apply(s, tg, cfg, move)
                start, steps = trial.round_index, 0
                while not trial.is_over and trial.round_index == start and (depth is None or steps < depth):
                    actor = trial.current_player
                    assert actor is not None
                    expected = greedy[actor].act(trial).index
                    assert playouts.greedy_move(s, cfg, mask) == expected
                    trial.apply(game.action(expected))
                    batch.apply(s, tg, cfg, expected)
                    steps += 1
                    moves_checked += 1
                assert batch.canonical(batch.to_python_state(game, s, tg, 0)) == batch.canonical(trial)
                replay = world.clone()
                replay.apply(game.action(move))
                python = bot_depth._rollout(replay)[seat]
                assert rewards[m, k] == pytest.approx(python, abs=1e-12)
        assert bot.compiled is not None if n % 2 == 0 else bot.compiled is None
    assert moves_checked > 500


# ----- Double Crossing ----------------------------------------------------------------------------

DC_CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (4, {}),
    (3, {"exact_return": True, "connections_needs_cars": True}),
    (5, {"forced_moves": True, "tower_to_tower": False, "crew_per_roll": True}),
]


@pytest.mark.parametrize("config", DC_CONFIGS, ids=lambda c: f"{c[0]}p-{c[1]}")
def test_double_crossing_playouts_are_the_python_playouts(config: tuple[int, dict[str, Any]]) -> None:
    from tabletrek.games.double_crossing import batch, playouts
    from tabletrek.games.double_crossing.bots import TraderBot

    players, options = config
    states = positions("double-crossing", players, 8, seed=players, **options)
    game = states[0].game
    cfg = batch.config(game)
    trader = [TraderBot(game, seat=s, seed=0) for s in range(players)]
    buf = np.zeros(batch.NA_MAX, dtype=np.int64)
    reserve = playouts.reserve_of(game)
    moves_checked = 0
    for n, state in enumerate(states):
        seat = state.current_player
        assert seat is not None
        base, g0 = playouts.pack(state)
        assert batch.canonical(batch.to_python_state(game, base, g0, 0)) == batch.canonical(state)
        legal = [a.index for a in state.legal_actions()]
        seeds = [random.Random(n).getrandbits(62) for _ in range(2)]
        depth = (None, 40, 0, 120)[n % 4]
        bot = make_search_bot(game, seat=seat, seed=n, paired=True, rollout="trader", rollout_depth=depth)
        assert bot.compiled is not None
        rewards = playouts.prepare(state, seat, None, depth)(legal, seeds)
        for k, seed in enumerate(seeds):
            world = state.determinize(seat, make_rng(seed))
            g = np.empty(mt19937.SIZE, dtype=np.uint32)
            mt19937.seed(g, seed)
            row = np.empty_like(base)
            wg = np.empty(mt19937.SIZE, dtype=np.uint32)
            playouts.determinize(row, wg, base, cfg, seat, g)
            assert batch.canonical(batch.to_python_state(game, row, wg, 0)) == batch.canonical(world)
            for m, move in enumerate(legal):
                trial, s, tg = world.clone(), row.copy(), wg.copy()
                trial.apply(game.action(move))
                batch.apply(s, tg, cfg, move, buf)
                steps = 0
                while not trial.is_over and (depth is None or steps < depth):
                    actor = trial.current_player
                    assert actor is not None
                    expected = trader[actor].act(trial).index
                    assert playouts.trader_move(s, cfg, buf, reserve) == expected
                    trial.apply(game.action(expected))
                    batch.apply(s, tg, cfg, expected, buf)
                    steps += 1
                    moves_checked += 1
                assert batch.canonical(batch.to_python_state(game, s, tg, 0)) == batch.canonical(trial)
                if not trial.is_over:
                    for p in range(players):
                        assert playouts.evaluate(s, cfg, playouts.WEIGHTS, p) == pytest.approx(
                            evaluate(trial, p), abs=1e-12
                        )
                replay = world.clone()
                replay.apply(game.action(move))
                assert rewards[m, k] == pytest.approx(bot._rollout(replay)[seat], abs=1e-12)
    assert moves_checked > 1000


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("mexican-train", {}),  # the default: greedy playouts, compiled
        ("double-crossing", {"compiled": True, "iterations": 600}),
    ],
)
def test_the_search_on_compiled_playouts_picks_legal_moves_the_same_for_a_seed(
    name: str, params: dict[str, Any]
) -> None:
    for players in (2, 3):
        for n, state in enumerate(positions(name, players, 3, seed=10 + players)):
            seat = state.current_player
            assert seat is not None
            picks = []
            for _ in range(2):
                bot = state.game.bot("ismcts", seat=seat, seed=n, **params)
                assert bot.compiled is not None
                picks.append(bot.act(state.clone()).index)
                assert bot.last_iterations > 0 or len(state.legal_actions()) == 1
            assert picks[0] == picks[1]
            assert picks[0] in {a.index for a in state.legal_actions()}

"""A fingerprint of the public API's behaviour under random play, for speed work on the rules.

    python -m benchmarks.api_fingerprint [GAME ...] [--games N]

Plays seeded random games of each game under several player counts and option sets through the
public API and hashes everything a caller can observe: each legal list (indices and texts, in
order), every event as each viewer sees it, each seat's view, the saved JSON, the result, and the
reason given for illegal actions tried along the way (texts of other moves, and equal-but-new
``Action`` objects). A change meant to be a pure speed-up must leave every printed hash unchanged.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

import tabletrek
from tabletrek.core.actions import Action, IllegalAction
from tabletrek.core.events import OMNISCIENT

CONFIGS: dict[str, list[dict[str, Any]]] = {
    "touring": [
        {"players": 2},
        {"players": 3, "free_discard": True},
        {"players": 4, "country_first": True},
        {"players": 6, "max_turns": 150},
        {"players": 5},
    ],
    "mexican-train": [
        {"players": 2},
        {"players": 4, "rounds": 1, "set_size": 9},
        {"players": 3, "rounds": 2, "rotate_start": True, "relaxed_doubles": False},
        {"players": 5, "rounds": 2, "double_blank_points": 50, "engine": 6},
    ],
    "double-crossing": [
        {"players": 2},
        {"players": 3, "exact_return": True, "stops_per_turn": 2},
        {"players": 4, "connections_needs_cars": True, "crew_per_roll": True, "forced_moves": True},
        {"players": 2, "tower_to_tower": False, "max_rounds": 30},
    ],
}


def _every_action(game: Any) -> list[Action]:
    found = []
    for index in range(game.num_actions):
        try:
            found.append(game.action(index))
        except ValueError:  # an index some player counts leave unused
            continue
    return found


def fingerprint(name: str, config: dict[str, Any], games: int) -> tuple[str, int]:
    game = tabletrek.load(name, **config)
    digest = hashlib.sha256()
    rng = random.Random(7)
    viewers = [None, OMNISCIENT, *range(game.players)]
    actions = 0
    texts = [action.text for action in _every_action(game)]

    def put(value: Any) -> None:
        digest.update(json.dumps(value, sort_keys=True, default=repr).encode())

    for seed in range(games):
        state = game.new_game(seed=seed)
        while not state.is_over:
            legal = state.legal_actions()
            put([(a.index, a.text) for a in legal])
            if rng.random() < 0.3:
                probe = texts[rng.randrange(len(texts))]
                try:
                    state.clone().apply(probe)
                    put(["ok", probe])
                except IllegalAction as error:
                    put(error.to_dict())
            action = rng.choice(legal)
            if rng.random() < 0.2:
                action = Action(action.index, action.text)  # equal, not identical
            events = state.apply(action)
            actions += 1
            put([[e.for_viewer(v) for v in viewers] for e in events])
            if rng.random() < 0.1:
                put([state.view(s) for s in range(game.players)])
                put(state.public_view())
                put(state.to_json())
        put(state.to_json())
        put(state.result.to_dict() if state.result else None)
        try:
            state.apply(legal[0])
        except IllegalAction as error:
            put(error.to_dict())
    return digest.hexdigest()[:16], actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(CONFIGS))
    parser.add_argument("--games", dest="count", type=int, default=20, help="seeded games per option set")
    args = parser.parse_args()
    for name in args.games:
        for config in CONFIGS[name]:
            digest, actions = fingerprint(name, config, args.count)
            print(f"{name:16s} {json.dumps(config, sort_keys=True):80s} {actions:7d} actions {digest}")


if __name__ == "__main__":
    main()

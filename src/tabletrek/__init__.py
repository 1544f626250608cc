"""tabletrek: four travel-themed tabletop games to play and to study.

>>> import tabletrek
>>> game = tabletrek.load("touring", players=2)
>>> state = game.new_game(seed=7)
>>> state.current_player
0
"""

# The games package is imported before the ``games`` function is bound, so that the function, not
# the package, is what ``tabletrek.games`` names (a package import would otherwise rebind it).
# The generic bots (random, the search) offer themselves to every game when tabletrek loads.
import tabletrek.bots as _bots_package  # noqa: F401 - imported for its registrations (above)
import tabletrek.games as _games_package  # noqa: F401 - imported for its registrations (above)
from tabletrek.core import (
    Action,
    Event,
    Game,
    GameRecord,
    IllegalAction,
    Result,
    State,
    games,
    load,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Event",
    "Game",
    "GameRecord",
    "IllegalAction",
    "Result",
    "State",
    "__version__",
    "games",
    "load",
    "replay",
]

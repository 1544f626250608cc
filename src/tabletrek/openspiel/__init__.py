"""The OpenSpiel face (extra ``[openspiel]``): tabletrek games as OpenSpiel Python games.

>>> from tabletrek.openspiel import register
>>> import pyspiel
>>> name = register("touring")          # "python_tabletrek_touring"
>>> game = pyspiel.load_game(name)      # then OpenSpiel's MCTS/ISMCTS bots, random_sim_test, ...

Chance happens inside our moves (the state's own RNG), so the games are registered as
``SAMPLED_STOCHASTIC``; ``resample_from_infostate`` is our ``determinize``, which is what
OpenSpiel's ISMCTS asks of an imperfect-information game.
"""

from tabletrek.openspiel.game import TabletrekOSGame, TabletrekOSState, register, register_all

__all__ = ["TabletrekOSGame", "TabletrekOSState", "register", "register_all"]

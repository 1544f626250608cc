"""The OpenSpiel face (extra ``[openspiel]``): tabletrek games as OpenSpiel Python games.

>>> from tabletrek.openspiel import register
>>> import pyspiel
>>> name = register("touring")          # "python_tabletrek_touring"
>>> game = pyspiel.load_game(name)      # then random_sim_test, ISMCTS, MCCFR, ...
>>> game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
True

Every random draw of a game (the deal, reshuffles, dice) is an explicit chance node with
``chance_outcomes()``; ``resample_from_infostate`` is our ``determinize``; observation and
information-state tensors are the documented layouts (``docs/observations.md``). Codenames Duet is
refused (its clues are free text).
"""

from tabletrek.openspiel.game import TabletrekOSGame, TabletrekOSState, register, register_all

__all__ = ["TabletrekOSGame", "TabletrekOSState", "register", "register_all"]

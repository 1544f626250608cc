"""The games that ship with tabletrek: importing a game's spec registers it (one line per game)."""

import tabletrek.games.codenames_duet.spec
import tabletrek.games.double_crossing.spec
import tabletrek.games.goofspiel.spec
import tabletrek.games.mexican_train.spec
import tabletrek.games.touring.spec  # noqa: F401 - imported to register the game

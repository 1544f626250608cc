"""Goofspiel's declaration (see ``tabletrek.core.spec``)."""

from tabletrek.core.spec import Chance, GameSpec, Information, register_game

SPEC = register_game(
    GameSpec(
        name="goofspiel",
        package="tabletrek.games.goofspiel",
        game="tabletrek.games.goofspiel.game:Goofspiel",
        rules_version=1,
        information=Information.IMPERFECT,
        chance=Chance.EXPLICIT,
        probe="tabletrek.games.goofspiel.probes:GoofspielProbe",
        scenarios="rules/scenarios.toml",
    )
)

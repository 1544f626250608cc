"""double-crossing's declaration (see ``tabletrek.core.spec``)."""

from tabletrek.core.spec import Chance, GameSpec, Information, register_game

SPEC = register_game(
    GameSpec(
        name="double-crossing",
        package="tabletrek.games.double_crossing",
        game="tabletrek.games.double_crossing.game:DoubleCrossing",
        rules_version=1,
        information=Information.IMPERFECT,
        chance=Chance.EXPLICIT,
        cooperative=False,
        probe="tabletrek.games.double_crossing.probes:DoubleCrossingProbe",
        web_module="web/page.js",
        web_style="web/style.css",
        batch="tabletrek.games.double_crossing.batch",
        random_games="tabletrek.games.double_crossing.random_play:play",
    )
)

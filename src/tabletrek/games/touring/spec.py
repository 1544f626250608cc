"""touring's declaration (see ``tabletrek.core.spec``)."""

from tabletrek.core.spec import Chance, GameSpec, Information, register_game

SPEC = register_game(
    GameSpec(
        name="touring",
        package="tabletrek.games.touring",
        game="tabletrek.games.touring.game:Touring",
        rules_version=1,
        information=Information.IMPERFECT,
        chance=Chance.EXPLICIT,
        cooperative=False,
        probe="tabletrek.games.touring.probes:TouringProbe",
        web_module="web/page.js",
        web_style="web/style.css",
        batch="tabletrek.games.touring.batch",
        random_games="tabletrek.games.touring.random_play:play",
    )
)

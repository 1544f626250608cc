"""mexican-train's declaration (see ``tabletrek.core.spec``)."""

from tabletrek.core.spec import Chance, GameSpec, Information, register_game

SPEC = register_game(
    GameSpec(
        name="mexican-train",
        package="tabletrek.games.mexican_train",
        game="tabletrek.games.mexican_train.game:MexicanTrain",
        rules_version=1,
        information=Information.IMPERFECT,
        chance=Chance.EXPLICIT,
        cooperative=False,
        probe="tabletrek.games.mexican_train.probes:MexicanTrainProbe",
        web_module="web/page.js",
        web_style="web/style.css",
        batch="tabletrek.games.mexican_train.batch",
        random_games="tabletrek.games.mexican_train.random_play:play",
    )
)

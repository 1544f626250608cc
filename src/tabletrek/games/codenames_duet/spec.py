"""codenames-duet's declaration (see ``tabletrek.core.spec``)."""

from tabletrek.core.spec import Chance, CliCommand, GameSpec, Information, register_game

SPEC = register_game(
    GameSpec(
        name="codenames-duet",
        package="tabletrek.games.codenames_duet",
        game="tabletrek.games.codenames_duet.game:Duet",
        rules_version=1,
        information=Information.IMPERFECT,
        chance=Chance.DETERMINISTIC,
        cooperative=True,
        probe="tabletrek.games.codenames_duet.probes:DuetProbe",
        web_module="web/page.js",
        web_style="web/style.css",
        cli=(
            CliCommand(
                name="campaign",
                app="tabletrek.games.codenames_duet.cli:app",
                help="codenames_duet.campaign.help",
            ),
        ),
        openspiel_refusal=(
            "codenames-duet is not registered with OpenSpiel: a clue is free text, and even the RL "
            "faces' finite clue space (every pack word x every number, ~6,000 actions) has no "
            "chance-free way to rank clues by meaning, which is the game; use tabletrek.rl for it"
        ),
    )
)

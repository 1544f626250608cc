"""The ``tabletrek`` command: play, simulate, replay, rules (and more as features land).

Each command lives in a module of its own; this file only assembles them, so heavy imports (the
web server, numpy) happen only when their command runs.
"""

from __future__ import annotations

import typer

from tabletrek.cli import analyze, games_cmd, play, replay, rules, serve, simulate, tournament
from tabletrek.cli.common import help_text
from tabletrek.cli.frame import FrameGroup
from tabletrek.core.registry import specs
from tabletrek.core.spec import load_attribute

app = typer.Typer(
    name="tabletrek",
    cls=FrameGroup,
    help=help_text("cli.app.help"),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)
app.command("play", help=help_text("cli.play.help"))(play.play)
app.command("simulate", help=help_text("cli.simulate.help"))(simulate.simulate_cmd)
app.command("replay", help=help_text("cli.replay.help"))(replay.replay_cmd)
app.command("rules", help=help_text("cli.rules.help"))(rules.rules_cmd)
app.command("games", help=help_text("cli.games.help"))(games_cmd.games_cmd)
app.command("serve", help=help_text("web.serve.help"))(serve.serve)
app.command("tournament", help=help_text("cli.tournament.help"))(tournament.tournament_cmd)
app.command("analyze", help=help_text("cli.analyze.help"))(analyze.analyze_cmd)

# A game's own command groups (Codenames Duet's campaign), as its spec declares them.
for _spec in specs().values():
    for _command in _spec.cli:
        app.add_typer(load_attribute(_command.app), name=_command.name, help=help_text(_command.help))


def main() -> None:
    app()

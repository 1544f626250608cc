"""The ``tabletrek`` command: play, simulate, replay, rules (and more as features land).

Each command lives in a module of its own; this file only assembles them, so heavy imports (the
web server, numpy) happen only when their command runs.
"""

from __future__ import annotations

import typer

from tabletrek.cli import analyze, games_cmd, play, replay, rules, serve, simulate, tournament
from tabletrek.cli.common import tr
from tabletrek.cli.frame import FrameGroup
from tabletrek.core.registry import specs
from tabletrek.core.spec import load_attribute

app = typer.Typer(
    name="tabletrek",
    cls=FrameGroup,
    help=tr("cli.app.help"),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)
app.command("play", help=tr("cli.play.help"))(play.play)
app.command("simulate", help=tr("cli.simulate.help"))(simulate.simulate_cmd)
app.command("replay", help=tr("cli.replay.help"))(replay.replay_cmd)
app.command("rules", help=tr("cli.rules.help"))(rules.rules_cmd)
app.command("games", help=tr("cli.games.help"))(games_cmd.games_cmd)
app.command("serve", help=tr("web.serve.help"))(serve.serve)
app.command("tournament", help=tr("cli.tournament.help"))(tournament.tournament_cmd)
app.command("analyze", help=tr("cli.analyze.help"))(analyze.analyze_cmd)

# A game's own command groups (Codenames Duet's campaign), as its spec declares them.
for _spec in specs().values():
    for _command in _spec.cli:
        app.add_typer(load_attribute(_command.app), name=_command.name, help=tr(_command.help))


def main() -> None:
    app()

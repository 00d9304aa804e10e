"""The Typer application: one registration line per subcommand."""

from __future__ import annotations

import typer

from bridgescore.cli import deal as deal_cli
from bridgescore.cli import demo, score, serve
from bridgescore.cli import game as game_cli
from bridgescore.cli import handrecord as handrecord_cli
from bridgescore.cli import par as par_cli
from bridgescore.cli import rubber as rubber_cli
from bridgescore.cli import session as session_cli
from bridgescore.cli import solve as solve_cli
from bridgescore.cli import study as study_cli

app = typer.Typer(
    name="bridgescore",
    help="Exact contract bridge scoring, double-dummy tables and par.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)

app.command("score")(score.score_command)
app.command("demo")(demo.demo_command)
app.command("serve")(serve.serve_command)
app.command("rubber")(rubber_cli.rubber_command)
app.command("chicago")(rubber_cli.chicago_command)
app.command("solve")(solve_cli.solve_command)
app.command("deal")(deal_cli.deal_command)
app.command("game")(game_cli.game_command)
app.command("handrecord")(handrecord_cli.handrecord_command)
app.command("par")(par_cli.par_command)
app.add_typer(study_cli.app, name="study")
app.add_typer(session_cli.app, name="session")

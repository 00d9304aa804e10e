"""``bridgescore session``: import travellers into an event file, score it, report it.

\b
  bridgescore session new club.db --movement mitchell --tables 7 --boards-per-round 3
  bridgescore session import club.db travellers.csv hands.pbn
  bridgescore session score club.db --method mp
  bridgescore session report club.db --html club.html
  bridgescore session export club.db club.xml
  bridgescore session correct club.db 3 1 8 4SN+1 --reason "scorer's slip"
  bridgescore session log club.db

The commands live in this package's modules, one per group: :mod:`.results` (import,
correct, log), :mod:`.reports` (score, report, export), :mod:`.night` (new, live, reissue,
password, backup), :mod:`.changes` (add-pair, swap, draw), :mod:`.sim` and :mod:`.combine`. They are
registered here in the order ``session --help`` lists them.
"""

from __future__ import annotations

from bridgescore.cli.common import command_group
from bridgescore.cli.session.changes import add_pair_command, draw_command, swap_command
from bridgescore.cli.session.combine import combine_command
from bridgescore.cli.session.night import (
    backup_command,
    live_command,
    new_command,
    password_command,
    reissue_command,
)
from bridgescore.cli.session.reports import export_command, report_command, score_command
from bridgescore.cli.session.results import correct_command, import_command, log_command
from bridgescore.cli.session.sim import sim_command
from bridgescore.cli.words import WORD_SETTINGS

__all__ = ["app"]

app = command_group(
    "Duplicate sessions: matchpoints, Butler, cross-IMPs, teams IMPs and board-a-match."
)
app.command("new")(new_command)
app.command("import")(import_command)
app.command("score")(score_command)
app.command("report")(report_command)
app.command("export")(export_command)
app.command("correct", context_settings=WORD_SETTINGS)(correct_command)
app.command("log")(log_command)
app.command("live")(live_command)
app.command("sim")(sim_command)
app.command("combine")(combine_command)
app.command("reissue")(reissue_command)
app.command("password")(password_command)
app.command("backup")(backup_command)
app.command("draw")(draw_command)
app.command("add-pair")(add_pair_command)
app.command("swap")(swap_command)

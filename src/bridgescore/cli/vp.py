"""``bridgescore vp``: victory points of a team match on the WBF continuous scale.

\b
  bridgescore vp 10 --boards 10
"""

from __future__ import annotations

from typing import Annotated

import typer

from bridgescore.cli.common import echo_json, fail
from bridgescore.cli.words import check_words
from bridgescore.errors import InvalidArgumentError

__all__ = ["vp_command"]

Json = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]


def vp_command(
    context: typer.Context,
    margin: Annotated[
        list[str],
        typer.Argument(
            help="The IMP margin: positive for a win, negative (-10) for a loss.",
            metavar="MARGIN",
            show_default=False,
        ),
    ],
    # Not required at click's level: click would report a missing --boards before an
    # unknown option taken among the words (check_words), which must come first.
    boards: Annotated[
        int | None, typer.Option("--boards", "-n", help="Boards in the match (required).")
    ] = None,
    as_json: Json = False,
) -> None:
    """Victory points of a team match on the WBF continuous scale (2013).

    Prints the winner's and the loser's VPs for a margin of MARGIN IMPs over N
    boards; a negative margin is the same match seen from the losing side (the
    winner and loser are the same, the text says which side you are).

    \b
      bridgescore vp 10 --boards 10          (winner 13.43, loser 6.57)
      bridgescore vp -10 --boards 10 --json  ({"winner": 13.43, "loser": 6.57})
    """
    from bridgescore.movement.vp import victory_points

    check_words(margin, context)
    if boards is None:
        context.fail("Missing option '--boards' / '-n'.")
    if len(margin) != 1:
        raise fail(f"expected one margin, got {len(margin)} words: {' '.join(margin)!r}", 2)
    text = margin[0].strip()
    digits = text[1:] if text[:1] in "+-" else text
    if not digits.isdigit():
        raise fail(f"margin {text!r}: expected a whole number of IMPs such as 10 or -10", 2)
    imps = int(text)
    try:
        winner = victory_points(abs(imps), boards=boards)
    except InvalidArgumentError as error:
        raise fail(error, code=2) from None
    loser = round(20 - winner, 2)
    if as_json:
        echo_json({"winner": winner, "loser": loser})
        return
    side = ""
    if imps < 0:
        side = f" (your side lost: {loser:.2f})"
    elif imps > 0:
        side = f" (your side won: {winner:.2f})"
    typer.echo(
        f"{abs(imps)} IMPs over {boards} boards: winner {winner:.2f} VP, loser {loser:.2f} VP{side}"
    )

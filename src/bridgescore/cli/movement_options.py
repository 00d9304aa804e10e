"""The movement generators' options, shared by ``movement mitchell``, ``howell`` and
``cards`` and by ``session new``: the options themselves, and the movement they name
(generated, or read from a .json or .asc file), with the usage errors (exit 2) of each.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from bridgescore.cli.common import fail, read_input
from bridgescore.errors import BridgeError
from bridgescore.movement.model import Movement
from bridgescore.movement.text import MOVEMENT_SUFFIXES, asc_boards_per_round, read_movement

__all__ = [
    "INDIVIDUAL_BOARDS",
    "MOST_BOARDS_A_ROUND",
    "ArrowSwitch",
    "BoardsPerRound",
    "GeneratorOptions",
    "NamedBoardsPerRound",
    "NamedTables",
    "Pairs",
    "Relay",
    "Rounds",
    "SwissSeed",
    "Tables",
    "generate_howell",
    "generate_individual",
    "generate_mitchell",
    "named_movement",
    "read_movement_file",
    "swiss_options",
    "swiss_pairs_options",
]

Tables = Annotated[int, typer.Option("--tables", "-t", help="Tables in play (2 to 30).")]
BoardsPerRound = Annotated[
    int, typer.Option("--boards-per-round", "-b", help="Boards each table plays a round.")
]
# The generator's options, shared by `movement mitchell`, `movement cards` and `session
# new`; the last two name a generator or a file, so tables and boards are optional there.
NamedTables = Annotated[
    int | None,
    typer.Option("--tables", "-t", help="Tables (generated movements; a Howell: or --pairs)."),
]
NamedBoardsPerRound = Annotated[
    int | None,
    typer.Option(
        "--boards-per-round",
        "-b",
        help="Boards a round (generated movements; for an .asc file, the boards of a board "
        "group when the file does not say).",
    ),
]
Rounds = Annotated[
    int | None,
    typer.Option(help="Rounds to play, fewer than the movement has (default: all of them)."),
]
Pairs = Annotated[
    int | None,
    typer.Option(help="Pairs: 2T, or 2T-1 for one sit-out each round (default: 2T)."),
]
Relay = Annotated[
    bool,
    typer.Option(
        "--relay",
        help="Mitchell, even tables: share-and-relay (tables 1 and T share, a bye stand"
        " between T/2 and T/2+1) instead of the skip.",
    ),
]
ArrowSwitch = Annotated[
    bool,
    typer.Option(
        "--arrow-switch",
        help="Mitchell: arrow-switch the last rounds (about one in eight) for one winner.",
    ),
]

SwissSeed = Annotated[
    int | None,
    typer.Option(
        "--seed",
        help="--movement swiss: draw round 1 at random, from this seed (the same seed, the "
        "same draw); default: by seeding order, 1 v 2, 3 v 4, ...",
    ),
]


@dataclass(frozen=True)
class GeneratorOptions:
    """The generator's options as the command line gives them (None: not given)."""

    tables: int | None = None
    boards_per_round: int | None = None
    rounds: int | None = None
    pairs: int | None = None
    relay: bool = False
    arrow_switch: bool = False
    boards: int | None = None
    teams: int | None = None  # a teams round robin's or a Swiss's teams
    seed: int | None = None  # a Swiss's random first round
    players: int | None = None  # an individual's players


def _given(given: GeneratorOptions, *options: str) -> list[str]:
    """Which of ``options`` (``--tables``, ``--rounds``, ``--pairs``, ``--relay``,
    ``--arrow-switch``) the command line gave, in that order."""
    values = {
        "--tables": given.tables,
        "--rounds": given.rounds,
        "--pairs": given.pairs,
        "--relay": given.relay or None,
        "--arrow-switch": given.arrow_switch or None,
    }
    return [option for option in options if values[option] is not None]


def swiss_options(given: GeneratorOptions) -> tuple[int, int, int]:
    """A Swiss's teams, rounds and boards a round, as ``session new --movement swiss``
    gives them; a missing or foreign option is a usage error (exit 2)."""
    extra = _given(given, "--tables", "--pairs", "--relay", "--arrow-switch")
    return _swiss_sizes("a Swiss", "--teams", given.teams, "the number of teams", extra, given)


def swiss_pairs_options(given: GeneratorOptions) -> tuple[int, int, int]:
    """A Swiss pairs' pairs, rounds and boards a round, as ``session new --movement
    swiss-pairs`` gives them; a missing or foreign option is a usage error (exit 2)."""
    extra = _given(given, "--tables", "--relay", "--arrow-switch")
    if given.teams is not None:
        extra.insert(0, "--teams")
    if given.players is not None:
        extra.insert(0, "--players")
    pairs = given.pairs
    return _swiss_sizes("a Swiss pairs", "--pairs", pairs, "the number of pairs", extra, given)


def _swiss_sizes(
    kind: str, option: str, field: int | None, what: str, extra: list[str], given: GeneratorOptions
) -> tuple[int, int, int]:
    """The field, rounds and boards a round of ``kind`` (whose field is counted by
    ``option``); the first foreign option in ``extra``, or a missing one, is refused."""
    if extra:
        raise fail(f"{extra[0]} is not an option of {kind}: give {option}", code=2)
    for value, name, said in (
        (field, option, what),
        (given.rounds, "--rounds", "the rounds to play"),
        (given.boards_per_round, "--boards-per-round", "the boards of a match"),
    ):
        if value is None:
            raise fail(f"{kind} needs {name} ({said})", code=2)
    assert field is not None and given.rounds is not None
    assert given.boards_per_round is not None
    return field, given.rounds, given.boards_per_round


def generate_mitchell(given: GeneratorOptions) -> Movement:
    from bridgescore.movement.mitchell import mitchell

    if given.tables is None or given.boards_per_round is None:
        missing = "--tables" if given.tables is None else "--boards-per-round"
        raise fail(f"a Mitchell needs {missing}", code=2)
    try:
        return mitchell(
            tables=given.tables,
            boards_per_round=given.boards_per_round,
            rounds=given.rounds,
            pairs=given.pairs,
            relay=given.relay,
            arrow_switch=given.arrow_switch,
        )
    except BridgeError as error:
        raise fail(error, code=2) from None


MOST_BOARDS_A_ROUND = 9


def generate_howell(given: GeneratorOptions) -> Movement:
    from bridgescore.movement.howell import howell

    if given.tables is None and given.pairs is None:
        raise fail("a Howell needs --tables or --pairs", code=2)
    per_round, boards = given.boards_per_round, given.boards
    if boards is None and per_round is not None and per_round > MOST_BOARDS_A_ROUND:
        per_round, boards = None, per_round
        typer.echo(
            f"note: -b {boards} is more than a Howell's round holds"
            f" ({MOST_BOARDS_A_ROUND}): read as {boards} boards in all",
            err=True,
        )
    if per_round is None and boards is None:
        raise fail("a Howell needs --boards-per-round (or --boards)", code=2)
    try:
        return howell(
            tables=given.tables,
            pairs=given.pairs,
            boards_per_round=per_round,
            rounds=given.rounds,
            boards=boards,
        )
    except BridgeError as error:
        raise fail(error, code=2) from None


#: An individual's boards a round unless ``--boards-per-round`` says: N - 1 rounds of 2
#: (14 boards for 8 players, 30 for 16) keep an evening of any size in reach.
INDIVIDUAL_BOARDS = 2


def generate_individual(given: GeneratorOptions) -> Movement:
    """The individual movement of ``--players`` (``--boards-per-round`` default
    :data:`INDIVIDUAL_BOARDS`; exit 2 when an option is wrong)."""
    from bridgescore.movement.individual import individual

    extra = _given(given, "--tables", "--pairs", "--relay", "--arrow-switch")
    if extra:
        raise fail(f"{extra[0]} is not an option of an individual: give --players", code=2)
    if given.players is None:
        raise fail("an individual needs --players (a multiple of four, 8 to 40)", code=2)
    per_round = INDIVIDUAL_BOARDS if given.boards_per_round is None else given.boards_per_round
    try:
        return individual(given.players, boards_per_round=per_round, rounds=given.rounds)
    except BridgeError as error:
        raise fail(error, code=2) from None


def _generate_round_robin(given: GeneratorOptions) -> Movement:
    from bridgescore.movement.teams import round_robin

    extra = _given(given, "--tables", "--pairs", "--relay", "--arrow-switch")
    if extra:
        raise fail(f"{extra[0]} is not an option of a teams round robin: give --teams", code=2)
    if given.teams is None:
        raise fail("a teams round robin needs --teams (the number of teams)", code=2)
    if given.boards_per_round is None:
        raise fail("a teams round robin needs --boards-per-round (the boards of a match)", code=2)
    try:
        return round_robin(
            given.teams, boards_per_round=given.boards_per_round, rounds=given.rounds
        )
    except BridgeError as error:
        raise fail(error, code=2) from None


def read_movement_file(path: str, boards_per_round: int | None) -> tuple[Movement, str | None]:
    """The movement in a .json or .asc file, and a note for the reader (or None).

    An .ASC file from another program does not say how many boards a group holds;
    without --boards-per-round the check counts each group as one board, and says so.
    """
    if Path(path).suffix.lower() not in MOVEMENT_SUFFIXES:
        raise fail(
            f"{path!r}: expected mitchell, howell or a movement file ending in .json or .asc",
            code=2,
        )
    text = read_input(path)
    note = None
    try:
        if (
            Path(path).suffix.lower() == ".asc"
            and boards_per_round is None
            and asc_boards_per_round(text) is None
        ):
            boards_per_round = 1
            note = (
                f"{path} does not say how many boards a group holds: each board group is"
                " counted as one board (give --boards-per-round)"
            )
        return read_movement(text, name=path, boards_per_round=boards_per_round), note
    except BridgeError as error:
        raise fail(f"{path}: {error}") from None


def named_movement(source: str, given: GeneratorOptions) -> Movement:
    """The movement a command line names: ``mitchell`` or ``howell`` with the generator's
    options, or a movement file (.json or .asc). Not yet checked sound: the caller says
    what an unsound one means. A usage error exits 2.
    """
    kind = source.lower()
    if given.seed is not None and kind not in ("swiss", "swiss-pairs"):
        raise fail(f"--seed is an option of a Swiss (--movement swiss), not of {source!r}", 2)
    if kind == "mitchell":
        return generate_mitchell(given)
    if kind == "teams":
        return _generate_round_robin(given)
    if kind == "individual":
        return generate_individual(given)
    if given.players is not None:
        raise fail(
            f"--players is an option of an individual (--movement individual), not of {source!r}",
            code=2,
        )
    if given.teams is not None:
        raise fail(
            f"--teams is an option of a teams round robin (--movement teams) or a Swiss "
            f"(--movement swiss), not of {source!r}",
            code=2,
        )
    if kind == "howell":
        if given.relay or given.arrow_switch:
            option = "--relay" if given.relay else "--arrow-switch"
            raise fail(f"{option} is an option of a Mitchell, not of a Howell", code=2)
        return generate_howell(given)
    extra = _given(given, "--tables", "--rounds", "--pairs", "--relay", "--arrow-switch")
    if extra:
        raise fail(
            f"{extra[0]} is an option of a generated movement (mitchell, howell), not of the "
            f"file {source!r}, which says its own tables and rounds",
            code=2,
        )
    movement, note = read_movement_file(source, given.boards_per_round)
    if note is not None:
        raise fail(
            f"{source} does not say how many boards a group holds: give --boards-per-round",
            code=2,
        )
    return movement

"""``bridgescore movement``: generate, check and print movements.

\b
  bridgescore movement mitchell --tables 7 --boards-per-round 3
  bridgescore movement mitchell --tables 8 --boards-per-round 3 --relay --json
  bridgescore movement howell --tables 4 --boards-per-round 3
  bridgescore movement individual --players 12 --boards-per-round 2
  bridgescore movement suggest --pairs 14 --boards 24
  bridgescore movement check club.asc
  bridgescore movement cards mitchell --tables 7 --boards-per-round 3 --pdf cards.pdf
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer

from bridgescore.cli.common import command_group, echo_json, fail
from bridgescore.cli.movement_options import (
    ArrowSwitch,
    BoardsPerRound,
    GeneratorOptions,
    NamedBoardsPerRound,
    NamedTables,
    Pairs,
    Relay,
    Rounds,
    Tables,
    generate_howell,
    generate_mitchell,
    named_movement,
    read_movement_file,
)
from bridgescore.cli.outputs import check_output_path
from bridgescore.errors import BridgeError, MovementError
from bridgescore.movement.check import MovementCheck, check_movement, require_sound
from bridgescore.movement.model import Movement
from bridgescore.movement.suggest import Suggestion
from bridgescore.movement.text import (
    MOVEMENT_SUFFIXES,
    movement_to_asc,
    movement_to_json,
)

__all__ = [
    "ArrowSwitch",
    "GeneratorOptions",
    "NamedBoardsPerRound",
    "NamedTables",
    "Pairs",
    "Relay",
    "Rounds",
    "app",
    "cards_command",
    "check_command",
    "format_check",
    "format_movement",
    "mitchell_command",
    "named_movement",
]

app = command_group(
    "Movements: suggest, generate (Mitchell, Howell) and check them, print the cards."
)

Out = Annotated[
    str | None,
    typer.Option("--out", "-o", help="Also write the movement to a .json or .asc file."),
]
Json = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]


_KIND_TITLES = {
    "mitchell": "Mitchell",
    "howell": "Howell",
    "teams": "Teams",
    "custom": "Movement",
    "individual": "Individual",
    "swiss-pairs": "Swiss pairs",
}


def _contestant(movement: Movement) -> str:
    """What a movement's places hold: pairs, teams or (an individual) players."""
    return {"teams": "team", "individual": "player"}.get(movement.kind, "pair")


def _board_list(boards: tuple[int, ...]) -> str:
    """``1-3`` for a run of boards, ``1, 4, 7`` otherwise."""
    if len(boards) > 1 and boards == tuple(range(boards[0], boards[-1] + 1)):
        return f"{boards[0]}-{boards[-1]}"
    return ", ".join(str(board) for board in boards)


def _count(number: int, noun: str) -> str:
    """``1 table``, ``7 tables``."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _places(movement: Movement) -> tuple[str, ...]:
    """Who a movement's guide cards follow: its pairs (teams), or an individual's players."""
    return movement.players if movement.kind == "individual" else movement.pairs


def _summary(movement: Movement) -> str:
    title = _KIND_TITLES.get(movement.kind, movement.kind)
    who = _contestant(movement)
    places = _places(movement)
    return (
        f"{title}: {_count(movement.tables, 'table')}, {_count(movement.rounds, 'round')} of"
        f" {_count(movement.boards_per_round, 'board')}{_in_sets(movement)},"
        f" {_count(len(places), who)}, {_count(len(movement.boards), 'board')}"
    )


def _in_sets(movement: Movement) -> str:
    """`` in half-sets of 2`` when each table plays more than one set a round."""
    if movement.sets_per_round == 1:
        return ""
    name = "half-sets" if movement.sets_per_round == 2 else "sets"
    return f" in {name} of {movement.boards_per_set}"


def _format_individual(movement: Movement) -> str:
    """An individual movement by round: each table's four players, seat by seat."""
    from bridgescore.movement.check import seated

    lines = [_summary(movement)]
    width = max(2, *(len(player) for player in movement.players))
    seats = "  ".join(f"{seat:<{width}}" for seat in ("N", "S", "E", "W"))
    for round_number in range(1, movement.rounds + 1):
        lines += ["", f"Round {round_number}", f"  {'Table':>5}  {seats}  Boards"]
        for row in movement.rows_in_round(round_number):
            players = "  ".join(f"{player:<{width}}" for player in seated(row))
            lines.append(f"  {row.table:>5}  {players}  {_board_list(row.boards)}")
    return "\n".join(lines)


def format_movement(movement: Movement) -> str:
    """The movement as a table by round, for people."""
    if movement.kind == "individual":
        return _format_individual(movement)
    lines = [_summary(movement)]
    if movement.arrow_switch:
        rounds = ", ".join(str(r) for r in movement.arrow_switch)
        lines.append(f"Arrow switch in round {rounds}: the pairs play the other direction's cards.")
    width = max(2, *(len(pair) for pair in movement.pairs))
    for round_number in range(1, movement.rounds + 1):
        switched = " (arrow switch)" if movement.is_arrow_switched(round_number) else ""
        lines += ["", f"Round {round_number}{switched}"]
        lines.append(f"  {'Table':>5}  {'NS':<{width}}  {'EW':<{width}}  Boards")
        for row in movement.rows_in_round(round_number):
            lines.append(
                f"  {row.table:>5}  {row.ns:<{width}}  {row.ew:<{width}}  {_board_list(row.boards)}"
            )
        out = movement.sitting_out(round_number)
        if out:
            lines.append(f"  Sits out: {', '.join(out)}")
    return "\n".join(lines)


def _check_out(out: str | None) -> None:
    if out is None:
        return
    if Path(out).suffix.lower() not in MOVEMENT_SUFFIXES:
        raise fail(f"--out {out!r}: expected a file name ending in .json or .asc", code=2)
    check_output_path(out, "--out")


def _emit(movement: Movement, as_json: bool, out: str | None) -> None:
    """Print the movement (text or JSON), then write it to ``out`` if asked."""
    if as_json:
        echo_json(movement_to_json(movement))
    else:
        typer.echo(format_movement(movement))
    if out is None:
        return
    try:
        if Path(out).suffix.lower() == ".asc":
            text = movement_to_asc(movement)
        else:
            text = json.dumps(movement_to_json(movement), indent=2) + "\n"
    except MovementError as error:
        raise fail(error) from None
    try:
        Path(out).write_text(text, encoding="utf-8")
    except OSError as error:
        raise fail(f"cannot write {out!r}: {error.strerror}", code=2) from None
    typer.echo(f"movement written to {out}", err=True)


@app.command("mitchell")
def mitchell_command(
    tables: Tables,
    boards_per_round: BoardsPerRound,
    rounds: Rounds = None,
    pairs: Pairs = None,
    relay: Relay = False,
    arrow_switch: ArrowSwitch = False,
    out: Out = None,
    as_json: Json = False,
) -> None:
    """A Mitchell movement: NS pairs stay, EW pairs move up a table, boards down.

    Pairs are 1N..TN (NS, by table) and 1E..TE (EW, by starting table). An even
    number of tables skips after half the rounds, or with --relay shares boards
    between tables 1 and T with a bye stand in the middle. With 2T-1 pairs, EW pair
    TE is missing and the NS pair it would meet sits out.

    \b
      bridgescore movement mitchell --tables 7 --boards-per-round 3
      bridgescore movement mitchell -t 8 -b 3 --relay --arrow-switch --out club.asc
    """
    _check_out(out)
    given = GeneratorOptions(tables, boards_per_round, rounds, pairs, relay, arrow_switch)
    movement = generate_mitchell(given)
    _emit(movement, as_json, out)


#: The most boards a Howell's round holds (two tables: three rounds of up to 9). A larger
#: ``-b`` given to a Howell is read as the session's boards, as `movement suggest` counts
#: them (``--pairs 10 -b 24``: 8 rounds of 3), and a note says so.
@app.command("howell")
def howell_command(
    boards_per_round: Annotated[
        int | None,
        typer.Option(
            "--boards-per-round",
            "-b",
            help="Boards each table plays a round (above 9: the boards in all, as --boards).",
        ),
    ] = None,
    boards: Annotated[
        int | None,
        typer.Option(
            "--boards",
            "-n",
            help="Boards in all, a multiple of the rounds (10 pairs: 24 is 8 rounds of 3).",
        ),
    ] = None,
    tables: Annotated[
        int | None, typer.Option("--tables", "-t", help="Tables in play (or give --pairs).")
    ] = None,
    pairs: Annotated[
        int | None,
        typer.Option(help="Pairs (or give --tables); an odd number: one sits out each round."),
    ] = None,
    rounds: Rounds = None,
    out: Out = None,
    as_json: Json = False,
) -> None:
    """A Howell movement: every pair meets every other (a 3/4 Howell with --rounds).

    Pairs are numbered 1 .. 2T and change direction from round to round; from 5 to 9
    pairs the Howell is as balanced as the best published one of its shape
    (docs/howell.md).
    Five and six pairs with an even number of boards a round play in half-sets; 10
    pairs on 24 boards play 8 rounds of 3 with a relay.

    \b
      bridgescore movement howell --tables 4 --boards-per-round 3
      bridgescore movement howell --pairs 9 --boards-per-round 3 --json
      bridgescore movement howell --pairs 10 --boards 24
    """
    _check_out(out)
    given = GeneratorOptions(tables, boards_per_round, rounds, pairs, boards=boards)
    movement = generate_howell(given)
    _emit(movement, as_json, out)


@app.command("individual")
def individual_command(
    players: Annotated[
        int, typer.Option("--players", "-p", help="Players: a multiple of four, 8 to 40.")
    ],
    boards_per_round: Annotated[
        int | None,
        typer.Option(
            "--boards-per-round", "-b", help="Boards each table plays a round (default 2)."
        ),
    ] = None,
    rounds: Rounds = None,
    out: Out = None,
    as_json: Json = False,
) -> None:
    """An individual movement: every player partners every other player once.

    N players sit at N/4 tables for N-1 rounds; player N stays at table 1 North and the
    others move on one place a round. Every table plays the round's boards (deal N/4
    copies of each), so each player plays each board once. Rows name the players by
    seat (the JSON form: "ns": "8-1" is player 8 North, player 1 South).

    \b
      bridgescore movement individual --players 8 --boards-per-round 3
      bridgescore movement individual --players 16 -b 2 --rounds 10 --out indy.json
    """
    from bridgescore.cli.movement_options import generate_individual

    _check_out(out)
    given = GeneratorOptions(boards_per_round=boards_per_round, rounds=rounds, players=players)
    _emit(generate_individual(given), as_json, out)


@app.command("suggest")
def suggest_command(
    pairs: Annotated[int, typer.Option("--pairs", "-p", help="Pairs in the room.")],
    boards: Annotated[int, typer.Option("--boards", "-n", help="Boards you would like to play.")],
    minutes_per_board: Annotated[
        float, typer.Option("--minutes-per-board", help="Playing time a board, moves included.")
    ] = 7.5,
    as_json: Json = False,
) -> None:
    """The movements that fit N pairs and about B boards, with their time.

    \b
      bridgescore movement suggest --pairs 14 --boards 24
      bridgescore movement suggest --pairs 9 --boards 27 --minutes-per-board 8 --json
    """
    from bridgescore.movement.suggest import suggest

    try:
        found = suggest(pairs=pairs, boards=boards, minutes_per_board=minutes_per_board)
    except BridgeError as error:
        raise fail(error, code=2) from None
    rows = [
        {
            "kind": s.kind,
            "tables": s.tables,
            "rounds": s.rounds,
            "boards_per_round": s.boards_per_round,
            "boards": s.boards,
            "minutes": s.minutes,
            "relay": s.relay,
            "arrow_switch": s.arrow_switch,
            "description": s.description,
        }
        for s in found
    ]
    if as_json:
        echo_json(rows)
        return
    if not rows:
        typer.echo(f"No movement fits {pairs} pairs and about {boards} boards.")
        return
    typer.echo(f"Movements for {pairs} pairs and about {boards} boards, best fit first:")
    for suggestion in found:
        hours, minutes = divmod(round(suggestion.minutes), 60)
        typer.echo(f"\n  {suggestion.description}")
        typer.echo(f"  about {hours}h{minutes:02d} at {minutes_per_board:g} minutes a board")
        typer.echo(f"    {_generator_command(suggestion, pairs)}")


def _generator_command(suggestion: Suggestion, pairs: int) -> str:
    """The command that generates a suggested movement."""
    words = ["bridgescore movement", suggestion.kind]
    if suggestion.kind == "mitchell":
        words.append(f"--tables {(pairs + 1) // 2}")
        if pairs % 2:
            words.append(f"--pairs {pairs}")
    else:
        words.append(f"--pairs {pairs}")
    words += [f"--boards-per-round {suggestion.boards_per_round}", f"--rounds {suggestion.rounds}"]
    if suggestion.relay and suggestion.kind == "mitchell":
        words.append("--relay")
    if suggestion.arrow_switch:
        words.append("--arrow-switch")
    return " ".join(words)


_TIMES = {0: "never:", 1: "once:", 2: "twice:"}


def _spread(values: list[int]) -> str:
    return str(values[0]) if min(values) == max(values) else f"{min(values)} to {max(values)}"


def _counted(counts: dict[Any, int], noun: str) -> str:
    """``21 (all 14 pairs)`` or ``21 (12 pairs), 18 (2 pairs)``."""
    by_value = Counter(counts.values())
    if len(by_value) == 1:
        value, count = next(iter(by_value.items()))
        return f"{value} (all {_count(count, noun)})"
    return ", ".join(
        f"{value} ({_count(count, noun)})" for value, count in sorted(by_value.items())
    )


def format_check(movement: Movement, check: MovementCheck) -> str:
    """The checker's report for people."""
    who = _contestant(movement) + "s"
    lines = [_summary(movement)]
    lines.append(f"Boards per {who[:-1]}: {_counted(check.boards_per_pair, who[:-1])}")
    lines.append(f"Times each board is played: {_counted(check.times_played, 'board')}")
    if check.meetings:
        meets = Counter(check.meetings.values())
        parts = [
            f"{_TIMES.get(times, f'{times} times:')} {count}"
            for times, count in sorted(meets.items())
        ]
        verb = "partner" if movement.kind == "individual" else "meet"
        lines.append(f"Twos of {who} that {verb} " + ", ".join(parts))
    if check.comparisons:
        same = [c.same for c in check.comparisons.values()]
        opposite = [c.opposite for c in check.comparisons.values()]
        lines.append(
            f"Boards on which two pairs are compared: same direction {_spread(same)},"
            f" opposite direction {_spread(opposite)}"
        )
    spread = check.same_direction_range
    if spread is not None:
        fewest, most = spread
        lines.append(
            f"Same-direction spread: {most - fewest} (every two pairs compared sitting the"
            f" same direction on {_spread([fewest, most])} boards)"
        )
    if check.sound and movement.kind == "individual":
        lines.append(
            "Sound: four different players at each table, no player at two tables in a"
            " round, no board played twice by a player, no two players partner twice."
        )
    elif check.sound:
        lines.append("Sound: no pair at two tables in a round, no board played twice by a pair.")
    else:
        lines.append(f"Unsound: {len(check.problems)} problem(s)")
        lines += [f"  {problem}" for problem in check.problems]
    return "\n".join(lines)


def check_json(movement: Movement, check: MovementCheck) -> dict[str, Any]:
    """The checker's report as JSON (an individual's also by player: its boards per
    player and how often each two players partner)."""
    document = _check_document(movement, check)
    if movement.kind == "individual":
        document["boards_per_player"] = check.boards_per_pair
        document["partnerships"] = [
            {"players": list(key), "times": times} for key, times in check.meetings.items()
        ]
    return document


def _check_document(movement: Movement, check: MovementCheck) -> dict[str, Any]:
    return {
        "kind": movement.kind,
        "tables": movement.tables,
        "rounds": movement.rounds,
        "boards_per_round": movement.boards_per_round,
        "sound": check.sound,
        "problems": [
            {"round": p.round, "table": p.table, "message": p.message} for p in check.problems
        ],
        "boards_per_pair": check.boards_per_pair,
        "times_played": {str(board): times for board, times in check.times_played.items()},
        "meetings": [{"pairs": list(key), "times": times} for key, times in check.meetings.items()],
        "comparisons": [
            {"pairs": list(key), "same": c.same, "opposite": c.opposite}
            for key, c in check.comparisons.items()
        ],
        "same_direction_spread": _spread_json(check),
    }


def _spread_json(check: MovementCheck) -> dict[str, int] | None:
    """The fewest and most boards two pairs are compared on sitting the same way, and
    the spread between them (null for teams)."""
    spread = check.same_direction_range
    if spread is None:
        return None
    return {"fewest": spread[0], "most": spread[1], "spread": spread[1] - spread[0]}


@app.command("check")
def check_command(
    file: Annotated[str, typer.Argument(help="A movement file: .json or .asc.", metavar="FILE")],
    boards_per_round: Annotated[
        int | None,
        typer.Option(
            "--boards-per-round",
            "-b",
            help="Boards in an .ASC board group (files of other programs do not say).",
        ),
    ] = None,
    as_json: Json = False,
) -> None:
    """Check a movement: boards per pair, meetings, comparisons; exit 1 if unsound.

    Unsound is a pair at two tables in one round, a pair that plays a board twice,
    or a sit-out that plays; each problem names its round and table.

    \b
      bridgescore movement check club.json
      bridgescore movement check howell.asc --boards-per-round 3 --json
    """
    movement, note = read_movement_file(file, boards_per_round)
    if note is not None:
        typer.echo(f"note: {note}", err=True)
    check = check_movement(movement)
    if as_json:
        echo_json(check_json(movement, check))
    else:
        typer.echo(format_check(movement, check))
    if not check.sound:
        # The report (JSON included) is on standard output already: the error goes to
        # standard error alone, so a script still reads one JSON document.
        more = len(check.problems) - 1
        tail = f" (and {more} more)" if more else ""
        typer.echo(f"error: unsound movement: {check.problems[0]}{tail}", err=True)
        raise typer.Exit(1)


@app.command("cards")
def cards_command(
    source: Annotated[
        str,
        typer.Argument(
            help="mitchell, howell, individual (with --players), or a movement file (.json "
            "or .asc)."
        ),
    ],
    tables: NamedTables = None,
    boards_per_round: NamedBoardsPerRound = None,
    rounds: Rounds = None,
    pairs: Pairs = None,
    players: Annotated[
        int | None, typer.Option("--players", help="individual: the players (8 to 40).")
    ] = None,
    relay: Relay = False,
    arrow_switch: ArrowSwitch = False,
    pdf: Annotated[str | None, typer.Option("--pdf", help="Write the cards as PDF here.")] = None,
    html: Annotated[
        str | None, typer.Option("--html", help="Write the cards as HTML here.")
    ] = None,
    event: Annotated[
        str | None, typer.Option("--event", help="The event's name, printed on every card.")
    ] = None,
    paper: Annotated[str, typer.Option(help="Paper size: a4 or letter.")] = "a4",
) -> None:
    """Guide cards (one per pair, or per player of an individual) and table cards (one per
    table) as PDF and/or HTML.

    SOURCE is a generator (mitchell or howell, with its options) or a movement file; the
    movement is checked first, and an unsound one is refused (exit 1).

    \b
      bridgescore movement cards mitchell --tables 7 --boards-per-round 3 --pdf cards.pdf
      bridgescore movement cards howell --tables 4 -b 3 --pdf cards.pdf
      bridgescore movement cards individual --players 12 --html cards.html
      bridgescore movement cards club.json --html cards.html --event "Tuesday pairs"
    """
    if pdf is None and html is None:
        raise fail("give --pdf OUT.pdf and/or --html OUT.html", code=2)
    for path, option, suffixes in ((pdf, "--pdf", (".pdf",)), (html, "--html", (".html", ".htm"))):
        if path is None:
            continue
        if Path(path).suffix.lower() not in suffixes:
            raise fail(f"{option} {path!r}: expected a file name ending in {suffixes[0]}", code=2)
        check_output_path(path, option)
    chosen = paper.lower()
    if chosen not in ("a4", "letter"):
        raise fail(f"--paper {paper!r}: expected a4 or letter", code=2)
    given = GeneratorOptions(
        tables, boards_per_round, rounds, pairs, relay, arrow_switch, players=players
    )
    movement = named_movement(source, given)
    try:
        require_sound(movement)
    except MovementError as error:
        raise fail(error) from None
    from bridgescore.boardset.pdf import PdfUnavailableError
    from bridgescore.session.reports.cards import write_cards

    try:
        write_cards(
            movement,
            pdf=pdf,
            html=html,
            event=event,
            paper="letter" if chosen == "letter" else "a4",
        )
    except PdfUnavailableError as error:
        raise fail(str(error)) from None
    except BridgeError as error:
        raise fail(error) from None
    except OSError as error:
        raise fail(f"cannot write the cards: {error.strerror}", code=2) from None
    written = " and ".join(path for path in (pdf, html) if path)
    typer.echo(
        f"cards for {_count(len(_places(movement)), _contestant(movement))} and"
        f" {movement.tables} tables written to {written}",
        err=True,
    )

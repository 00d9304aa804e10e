"""A BBO vugraph archive (LIN) as a teams match: both rooms of every board.

:func:`bridgescore.formats.read_records` reads the archive (the ``vg`` header
names the teams; ``qx|o5|`` and ``qx|c5|`` split board 5 into its open and
closed room). As in BBO's vugraph, the first team of the header sits
North-South in the open room and East-West in the closed room, so the two
tables of a board carry the same two teams with seats swapped and the match
is scored by IMPs. A board whose other room is missing, or that was played in
a room twice, is reported and never scored on its own.

>>> text = ("vg|Cup,Final,I,1,1,Lions,0,Tigers,0|\\n"
...         "qx|o1|md|3,,,|mb|1n|mb|p|mb|p|mb|p|mc|8|\\n"
...         "qx|c1|md|3,,,|mb|1n|mb|p|mb|p|mb|p|mc|6|\\n")
>>> match = parse_vugraph(text, "final.lin")
>>> [(r.board, r.ns, r.ew, str(r.result)) for r, _ in match.parsed.results]
[(1, 'Lions', 'Tigers', '1NTN+1'), (1, 'Tigers', 'Lions', '1NTN-1')]
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from bridgescore.errors import BridgeError
from bridgescore.formats import BoardRecord, read_records
from bridgescore.notation import Result
from bridgescore.session.event import Board, TableResult
from bridgescore.session.importer import LineProblem, Parsed
from bridgescore.session.store import Origin

__all__ = ["VugraphMatch", "parse_vugraph"]


@dataclass(slots=True)
class VugraphMatch:
    """What an archive gave: results and hand records, the event's name (the ``vg``
    header's event and segment, ``""`` when it has none) and the problems."""

    parsed: Parsed = field(default_factory=Parsed)
    name: str = ""


def _result(record: BoardRecord) -> Result:
    if record.passed_out:
        return Result(None)
    contract = record.contract
    if contract is None or contract.declarer is None:
        raise BridgeError(
            f"board {record.board}: no contract (the auction is missing or unfinished): "
            "expected mb| calls ending in three passes"
        )
    if record.result is None:
        raise BridgeError(
            f"board {record.board}: {contract} has no result: expected the play (pc|) "
            "or a claim (mc|)"
        )
    return Result(contract, record.result)


def _seats(record: BoardRecord) -> tuple[str, str]:
    home, visit = record.home_team.strip(), record.visit_team.strip()
    if not home or not visit:
        raise BridgeError(
            f"board {record.board}: the archive does not name both teams: expected a vg| "
            "header such as 'vg|Event,Segment,I,1,16,Lions,0,Tigers,0|'"
        )
    # BBO's convention: the header's first team sits North-South in the open room.
    return (home, visit) if record.room == "open" else (visit, home)


def parse_vugraph(text: str, source: str) -> VugraphMatch:
    """The results of both rooms of a vugraph archive's ``text``, read from ``source``."""
    match = VugraphMatch()
    parsed = match.parsed
    rooms: dict[int, list[tuple[BoardRecord, TableResult]]] = defaultdict(list)
    hands: dict[int, tuple[Board, Origin]] = {}
    for record in read_records(text=text, format="lin"):
        line = record.source.line
        errors = [problem for problem in record.problems if not problem.notice]
        parsed.problems.extend(
            LineProblem(source, problem.line or line, problem.message) for problem in errors
        )
        if errors:
            continue
        if not match.name and record.event:
            match.name = record.event
        try:
            if record.board is None:
                raise BridgeError("a board with no number: expected qx|o5| or qx|c5|")
            if record.room is None:
                raise BridgeError(
                    f"board {record.board} names no room: a session import of LIN takes a "
                    "vugraph archive, whose qx| tags (o5 open room, c5 closed) split each board"
                )
            ns, ew = _seats(record)
            rooms[record.board].append((record, TableResult(record.board, ns, ew, _result(record))))
            if record.deal is not None and record.board not in hands:
                hands[record.board] = (Board(record.board, record.deal), Origin(source, line))
        except BridgeError as error:
            parsed.problems.append(LineProblem(source, line, str(error)))
    for board, tables in sorted(rooms.items()):
        played = sorted(record.room or "" for record, _ in tables)
        if played != ["closed", "open"]:
            parsed.problems.append(
                LineProblem(
                    source,
                    tables[0][0].source.line,
                    f"board {board} was played in {' and '.join(played)} room(s): expected "
                    "the open and the closed room once each; the board is not scored",
                )
            )
            continue
        parsed.results.extend(
            (result, Origin(source, record.source.line)) for record, result in tables
        )
    parsed.boards.extend(hands[board] for board in sorted(hands))
    return match

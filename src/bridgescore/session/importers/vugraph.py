"""A BBO vugraph archive (LIN) as a teams match: both rooms of every board.

:func:`bridgescore.formats.read_records` reads the archive (the ``vg`` header
names the teams; ``qx|o5|`` and ``qx|c5|`` split board 5 into its open and
closed room). As in BBO's vugraph, the first team of the header sits
North-South in the open room and East-West in the closed room, so the two
tables of a board carry the same two teams with seats swapped. The header's
scoring letter picks the method (``I`` IMPs, ``B`` board-a-match; any other is
scored by IMPs and said so), its segment names the event's part, and the scores
it carries over from earlier segments are added to the teams' totals when the
event is scored (:func:`~bridgescore.session.scoring.carry_over.with_carried_over`).
A board whose other room is missing, or that was played in a room twice, is
reported and never scored on its own.

>>> text = ("vg|Cup,Final,I,1,1,Lions,0,Tigers,0|\\n"
...         "qx|o1|md|3,,,|mb|1n|mb|p|mb|p|mb|p|mc|8|\\n"
...         "qx|c1|md|3,,,|mb|1n|mb|p|mb|p|mb|p|mc|6|\\n")
>>> match = parse_vugraph(text, "final.lin")
>>> [(r.board, r.ns, r.ew, str(r.result)) for r, _ in match.parsed.results]
[(1, 'Lions', 'Tigers', '1NTN+1'), (1, 'Tigers', 'Lions', '1NTN-1')]
>>> match.method, match.segment
('imps', 'Final')
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bridgescore.errors import BridgeError, RecordError
from bridgescore.formats import BoardRecord, read_records
from bridgescore.formats.record import MatchHeader
from bridgescore.notation import Result
from bridgescore.session.importers.parsed import BoardsStated, Parsed, line_problem
from bridgescore.session.scoring.event import TableResult
from bridgescore.session.store.events import Origin

if TYPE_CHECKING:
    from bridgescore.session.store.events import EventStore

__all__ = ["VugraphMatch", "parse_vugraph"]


@dataclass(slots=True)
class VugraphMatch:
    """What an archive gave: results and hand records, the event's name (the ``vg``
    header's event, ``""`` when it has none), the header itself and the problems."""

    parsed: Parsed = field(default_factory=Parsed)
    name: str = ""
    header: MatchHeader | None = None

    @property
    def method(self) -> str:
        """The scoring method the header names (``imps``, ``bam``); IMPs otherwise."""
        named = None if self.header is None else self.header.scoring_method
        return named or "imps"

    @property
    def segment(self) -> str:
        return "" if self.header is None else self.header.segment

    def describe(self, source: str) -> list[str]:
        """What the import says about the archive: the match, its method, its carry-over."""
        header = self.header
        scoring = "IMPs" if self.method == "imps" else "board-a-match"
        notes = [
            f"{source}: a vugraph archive: a teams match scored by {scoring} (the vg "
            "header's first team sits NS in the open room)"
        ]
        if header is None:
            return notes
        if header.scoring and header.scoring_method is None:
            notes.append(
                f"{source}: the vg header's scoring {header.scoring!r} "
                f"({header.scoring_text}) is not a way bridgescore scores a teams match: "
                "expected I (IMPs) or B (board-a-match); scored by IMPs"
            )
        carried = header.carried_over
        if carried and any(carried.values()):
            shown = ", ".join(f"{team} {value}" for team, value in carried.items())
            notes.append(f"{source}: carried over from earlier segments: {shown}")
        return notes

    def settings(self, store: EventStore) -> dict[str, str | None]:
        """The event settings the archive implies, given what ``store`` already holds:
        a teams event, the header's method (unless the event has one), its name and
        segment (unless it has them), and the carried-over scores of the earliest
        segment imported (a later segment's carry-over already counts the boards of
        the earlier ones, so it is never added twice)."""
        info: dict[str, str | None] = {
            "kind": "teams",
            "method": None if store.method else self.method,
            "name": None if store.name or not self.name else self.name,
        }
        header = self.header
        if header is None:
            return info
        first = header.first_board or min(
            (result.board for result, _ in self.parsed.results), default=0
        )
        earlier = store.carry_over_from
        if earlier is None or first < earlier:
            info["segment"] = header.segment or None
            carried = {team: str(value) for team, value in header.carried_over.items()}
            info["carry_over"] = json.dumps(carried, ensure_ascii=False)
            info["carry_over_from"] = str(first)
        return info


def _result(record: BoardRecord) -> Result:
    if record.passed_out:
        return Result(None)
    contract = record.contract
    if contract is None or contract.declarer is None:
        raise RecordError(
            f"board {record.board}: no contract (the auction is missing or unfinished): "
            "expected mb| calls ending in three passes"
        )
    if record.result is None:
        raise RecordError(
            f"board {record.board}: {contract} has no result: expected the play (pc|) "
            "or a claim (mc|)"
        )
    return Result(contract, record.result)


def _seats(record: BoardRecord) -> tuple[str, str]:
    home, visit = record.home_team.strip(), record.visit_team.strip()
    if not home or not visit:
        raise RecordError(
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
    stated = BoardsStated(source, parsed)
    for record in read_records(text=text, format="lin"):
        line = record.source.line
        errors = [problem for problem in record.problems if not problem.notice]
        parsed.problems.extend(
            line_problem(source, problem.line or line, problem.message) for problem in errors
        )
        if errors:
            continue
        if not match.name and record.event:
            match.name = record.event
        if match.header is None and record.match is not None:
            match.header = record.match
        try:
            if record.board is None:
                raise RecordError("a board with no number: expected qx|o5| or qx|c5|")
            if record.room is None:
                raise RecordError(
                    f"board {record.board} names no room: a session import of LIN takes a "
                    "vugraph archive, whose qx| tags (o5 open room, c5 closed) split each board"
                )
            ns, ew = _seats(record)
            result = TableResult(record.board, ns, ew, _result(record))
            # md| gives the dealer, sv| the vulnerability: the board as the archive deals it.
            if stated.add(record.as_board(), line):
                rooms[record.board].append((record, result))
        except BridgeError as error:
            parsed.problems.append(line_problem(source, line, str(error)))
    for board, tables in sorted(rooms.items()):
        played = sorted(record.room or "" for record, _ in tables)
        if played != ["closed", "open"]:
            parsed.problems.append(
                line_problem(
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
    return match

"""Online teams PBN: one board played at many tables, each table a ``Table`` tag.

Online platforms write a teams event as PBN games with ``HomeTeam``,
``VisitTeam`` and ``Table`` tags and no ``Room`` tag. The team named HomeTeam
sits North-South at that table. The two tables where the same two teams meet,
seats swapped, are the two rooms of the board; a table whose other room is
missing (or a match with more than two tables) is reported, never scored.

The file's own ``Score``, ``ScoreIMP``, ``ScoreMP`` and ``ScorePercentage``
tags are checked against what bridgescore computes: the table's NS score by
the Laws, the home team's IMPs against the other room, and the NS matchpoints
and percentage against every table that played the board. Each disagreement
names the board, the table and both values.

>>> text = '''[Board "1"]\\n[HomeTeam "Aces"]\\n[VisitTeam "Kings"]\\n[Table "1"]
... [Contract "4S"]\\n[Declarer "N"]\\n[Result "10"]\\n[ScoreIMP "NS 7"]
...
... [Board "1"]\\n[HomeTeam "Kings"]\\n[VisitTeam "Aces"]\\n[Table "2"]
... [Contract "2S"]\\n[Declarer "S"]\\n[Result "9"]\\n[ScoreIMP "EW 7"]'''
>>> is_online_teams(text.splitlines())
True
>>> read = parse_online_teams(text.splitlines(), "m.pbn")
>>> [(r.board, r.ns, r.ew, str(r.result)) for r, _ in read.parsed.results]
[(1, 'Aces', 'Kings', '4SN='), (1, 'Kings', 'Aces', '2SS+1')]
>>> read.disagreements
[]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from bridgescore.compare.scalar import imps
from bridgescore.core import Vulnerability
from bridgescore.formats.crosscheck import ns_value
from bridgescore.formats.pbn import read_pbn
from bridgescore.formats.record import BoardRecord
from bridgescore.session.importers.parsed import BoardsStated, Parsed, line_problem
from bridgescore.session.importers.records import add_hand_record, reading_problems, table_result
from bridgescore.session.scoring.event import TableResult
from bridgescore.session.store.events import Origin

__all__ = [
    "Disagreement",
    "OnlineTeams",
    "is_online_teams",
    "parse_online_teams",
    "records_are_online_teams",
    "teams_from_records",
]


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A score the file states that differs from ours: the file's error or ours."""

    board: int
    table: str
    tag: str
    file_value: str
    ours: str
    line: int = 0

    def __str__(self) -> str:
        return (
            f"board {self.board} table {self.table}: {self.tag} {self.file_value!r} in the file, "
            f"bridgescore {self.ours}"
        )


@dataclass(slots=True)
class OnlineTeams:
    """An online teams file read: results of paired tables, hand records, problems, checks."""

    parsed: Parsed
    disagreements: list[Disagreement] = field(default_factory=list)
    name: str = ""  # the file's Event tag


def _is_online_table(record: BoardRecord) -> bool:
    return bool(record.home_team and record.visit_team and record.table) and record.room is None


def is_online_teams(lines: Iterable[str]) -> bool:
    """Whether a PBN file is written the online-teams way (Table tags, no Room tag)."""
    lines = list(lines)
    # Most PBN files have no Table tag at all: say so without reading their games.
    if not any(line.lstrip().startswith("[Table ") for line in lines):
        return False
    return records_are_online_teams(read_pbn(lines))


def records_are_online_teams(records: Iterable[BoardRecord]) -> bool:
    """Whether board records (of any format) are an online teams file's: a table
    with HomeTeam, VisitTeam and Table, and no room."""
    return any(_is_online_table(record) for record in records)


@dataclass(frozen=True, slots=True)
class _Table:
    result: TableResult
    table: str
    line: int
    record: BoardRecord
    vulnerability: Vulnerability  # the board's, as the file deals it

    @property
    def ns_score(self) -> int | None:
        return self.result.ns_score(self.vulnerability)


def parse_online_teams(lines: Iterable[str], source: str = "(input)") -> OnlineTeams:
    """Read an online teams PBN file: pair its tables into rooms and check its scores."""
    return teams_from_records(read_pbn(lines, source), source)


def teams_from_records(records: Iterable[BoardRecord], source: str = "(input)") -> OnlineTeams:
    """The online teams file ``source`` read into ``records`` (as
    :func:`bridgescore.formats.read_records` reads it): its tables paired into rooms,
    its scores checked."""
    out = OnlineTeams(Parsed())
    parsed = out.parsed
    tables: dict[int, list[_Table]] = defaultdict(list)
    dealt = BoardsStated(source, parsed)
    for record in records:
        errors = reading_problems(record, source, parsed)
        line = record.source.line_of("Board")
        out.name = out.name or record.event
        board = record.board
        if board is None:
            if not errors:
                message = "no board number: expected a Board tag"
                parsed.problems.append(line_problem(source, line, message))
            continue
        if not add_hand_record(record, board, source, parsed, dealt):
            continue
        stated = record.contract is not None or record.passed_out or record.result is not None
        if not stated and record.score_tag("Score") is None:
            continue
        if not _is_online_table(record):
            parsed.problems.append(
                line_problem(
                    source,
                    line,
                    f"board {board}: a game without HomeTeam, VisitTeam and Table in an "
                    "online teams file: expected all three",
                )
            )
            continue
        # The home team sits North-South at its table; its Score is checked below.
        seats = (record.home_team, record.visit_team)
        result = table_result(
            record, board, seats, source, parsed, errors=errors, check_score=False
        )
        if result is not None:
            vulnerability = dealt.board(board).vulnerability
            tables[board].append(_Table(result, record.table, line, record, vulnerability))
    for board in sorted(tables):
        _pair_rooms(board, tables[board], source, out)
    return out


def _pair_rooms(board: int, tables: list[_Table], source: str, out: OnlineTeams) -> None:
    matches: dict[frozenset[str], list[_Table]] = defaultdict(list)
    for table in tables:
        matches[frozenset((table.result.ns, table.result.ew))].append(table)
    scores = [t.ns_score for t in tables]
    field_scores = [s for s in scores if s is not None]
    for table in tables:
        _check_score(board, table, out)
    for table, score in zip(tables, scores):
        if score is not None and len(field_scores) > 1:
            _check_field(board, table, score, field_scores, out)
    for rooms in matches.values():
        first = rooms[0]
        names = f"{first.result.ns} v {first.result.ew}"
        if len(rooms) == 1:
            out.parsed.problems.append(
                line_problem(
                    source,
                    first.line,
                    f"board {board} table {first.table}: {names}: the other room (the same "
                    "teams, seats swapped) is missing; the table is not scored",
                )
            )
            continue
        seats = {(t.result.ns, t.result.ew) for t in rooms}
        if len(rooms) != 2 or len(seats) != 2:
            where = ", ".join(f"table {t.table}" for t in rooms)
            out.parsed.problems.append(
                line_problem(
                    source,
                    first.line,
                    f"board {board}: {names} at {where}: expected exactly two tables with the "
                    "seats swapped (the two rooms of a match); not scored",
                )
            )
            continue
        for here, there in ((rooms[0], rooms[1]), (rooms[1], rooms[0])):
            out.parsed.results.append((here.result, Origin(source, here.line)))
            _check_imps(board, here, there, out)


def _disagree(board: int, table: _Table, tag: str, ours: str, out: OnlineTeams) -> None:
    written = (table.record.score_tag(tag) or "").strip()
    out.disagreements.append(Disagreement(board, table.table, tag, written, ours, table.line))


def _check_score(board: int, table: _Table, out: OnlineTeams) -> None:
    written = (table.record.score_tag("Score") or "").strip()
    ours = table.ns_score
    if not written or ours is None or table.result.result is None:
        return
    given = ns_value(written)
    if given is None or given != ours:
        _disagree(board, table, "Score", f"NS {ours:+d}", out)


def _check_imps(board: int, here: _Table, there: _Table, out: OnlineTeams) -> None:
    written = (here.record.score_tag("ScoreIMP") or "").strip()
    s1, s2 = here.ns_score, there.ns_score
    if not written or s1 is None or s2 is None:
        return
    ours = imps(s1 - s2)
    given = ns_value(written)
    if given is None or abs(given - ours) > 1e-9:
        _disagree(board, here, "ScoreIMP", f"NS {ours:+d}", out)


def _check_field(
    board: int, table: _Table, score: int, field_scores: list[int], out: OnlineTeams
) -> None:
    """ScoreMP and ScorePercentage: NS matchpoints of this table against the whole field."""
    top = len(field_scores) - 1
    wins = sum(1 for s in field_scores if s < score)
    ties = sum(1 for s in field_scores if s == score) - 1
    percent = 100.0 * (wins + ties / 2) / top
    written = (table.record.score_tag("ScorePercentage") or "").strip()
    if written:
        value = ns_value(written, 100)
        if value is None or abs(value - percent) > 0.05:
            _disagree(board, table, "ScorePercentage", f"NS {percent:.2f}", out)
    written = (table.record.score_tag("ScoreMP") or "").strip()
    if written:
        # Either scale: 2 per score beaten (EBU, WBF) or 1 (ACBL).
        candidates = (2 * wins + ties, wins + ties / 2)
        tops = (2 * top, top)
        fits = False
        for mp, full in zip(candidates, tops):
            given = ns_value(written, full)
            fits = fits or (given is not None and abs(given - mp) <= 0.05)
        if not fits:
            _disagree(board, table, "ScoreMP", f"NS {candidates[0]:g} (of {tops[0]})", out)

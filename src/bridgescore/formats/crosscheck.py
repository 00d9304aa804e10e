"""The file's own comparison scores against ours: ScoreIMP between the two rooms of a
teams board, ScoreMP and ScorePercentage across a pairs board's field.

These scores compare several tables, so they are checked once the whole file is
read: :func:`cross_check` takes the checked records in file order and returns,
for each, the disagreements found (board, table, both values).

Teams tables pair up as the two rooms of a board: by ``Room`` (open, closed)
when the file names rooms, else (online teams files) by the two tables where
the same two teams meet with seats swapped (the HomeTeam sits NS at its table).
A table whose other room is missing is reported, never silently scored.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from bridgescore.compare.scalar import imps, matchpoints
from bridgescore.ddtable import DDTable
from bridgescore.errors import BridgeError
from bridgescore.formats.check import CheckedRecord
from bridgescore.formats.record import Problem

__all__ = ["cross_check", "dd_disagreements", "ns_value"]

# One side's value: "NS 6", "E-W -6", "-6" (NS), "66.67%"; the sign may be a Unicode
# minus and the decimal mark a comma, as spreadsheets write them.
_ONE_SIDE = (
    r"(?:(?P<side{n}>NS|EW|N-S|E-W)\s*)?(?P<value{n}>[+\-\u2212]?\s*[0-9]+(?:[.,][0-9]+)?)\s*%?"
)
_SIDE_VALUES = re.compile(
    rf"^\s*{_ONE_SIDE.format(n=1)}(?:\s*[,;]?\s+{_ONE_SIDE.format(n=2)})?\s*$", re.I
)


def ns_value(text: str, total: float = 0.0) -> float | None:
    """The NS value a score tag states, or ``None`` when it is not one.

    A tag names one side (``NS 6``, ``EW -6``; a bare ``6`` is NS's) or both, as
    RealBridge writes them (``NS 4 EW -4``). The two sides' values add up to
    ``total``: 0 for scores and IMPs, 100 for percentages, the top for
    matchpoints; so ``EW 4`` is NS ``total - 4``, and two sides that do not add
    up are not a value.

    >>> ns_value("NS 4 EW -4"), ns_value("EW 6"), ns_value("EW 40", 100), ns_value("NS 4 EW 4")
    (4.0, -6.0, 60.0, None)
    """
    match = _SIDE_VALUES.match(text)
    if match is None:
        return None
    stated: dict[str, float] = {}
    for n in (1, 2):
        value = match[f"value{n}"]
        if value is None:
            continue
        side = (match[f"side{n}"] or "NS").upper().replace("-", "")
        if side in stated:
            return None  # "NS 4 NS 4": one side twice
        stated[side] = float(re.sub(r"\s", "", value).replace("\u2212", "-").replace(",", "."))
    ns = stated["NS"] if "NS" in stated else total - stated["EW"]
    if "EW" in stated and abs(ns + stated["EW"] - total) > 0.005:
        return None
    return ns


def _where(checked: CheckedRecord) -> str:
    record = checked.record
    table = f", table {record.table}" if record.table else ""
    room = f", {record.room} room" if record.room else ""
    return f"board {record.board}{table}{room}"


def _teams_key(checked: CheckedRecord) -> tuple[int | None, frozenset[str]] | None:
    record = checked.record
    if not (record.home_team and record.visit_team):
        return None
    return record.board, frozenset((record.home_team, record.visit_team))


def cross_check(records: Sequence[CheckedRecord]) -> list[list[Problem]]:
    """For each record (same order), the disagreements of its ScoreIMP, ScoreMP and
    ScorePercentage tags with the scores computed from the results of all tables."""
    found: list[list[Problem]] = [[] for _ in records]
    _check_teams(records, found)
    _check_pairs(records, found)
    return found


def _check_teams(records: Sequence[CheckedRecord], found: list[list[Problem]]) -> None:
    groups: dict[tuple[int | None, frozenset[str]], list[int]] = defaultdict(list)
    for index, checked in enumerate(records):
        key = _teams_key(checked)
        if key is not None and checked.record.board is not None:
            groups[key].append(index)
    for indexes in groups.values():
        unpaired = list(indexes)
        while unpaired:
            first = unpaired.pop(0)
            other = next(
                (index for index in unpaired if _other_room(records[first], records[index])),
                None,
            )
            if other is None:
                record = records[first].record
                found[first].append(
                    Problem(
                        record.source.line,
                        f"{_where(records[first])}: {record.home_team} v {record.visit_team} "
                        "has no other room in this file, so its IMPs cannot be checked",
                    )
                )
                continue
            unpaired.remove(other)
            _compare_imps(records, first, other, found)
            _compare_imps(records, other, first, found)


def _other_room(one: CheckedRecord, two: CheckedRecord) -> bool:
    a, b = one.record, two.record
    if a.room is not None and b.room is not None:
        return a.room != b.room
    # Online teams: the home team sits NS, so the other room has the teams swapped.
    return a.home_team == b.visit_team and a.visit_team == b.home_team


def _compare_imps(
    records: Sequence[CheckedRecord], index: int, other: int, found: list[list[Problem]]
) -> None:
    checked = records[index]
    text = checked.record.score_tag("ScoreIMP")
    if text is None:
        return
    here, there = checked.played, records[other].played
    if here is None or there is None:
        return
    stated = ns_value(text)
    ours = imps(here.score - there.score)
    if stated is None:
        found[index].append(
            Problem(checked.record.source.line, f"ScoreIMP {text!r} is not a number of IMPs")
        )
    elif stated != ours:
        found[index].append(
            Problem(
                checked.record.source.line,
                f"{_where(checked)}: the file's ScoreIMP {text!r} disagrees with ours, "
                f"NS {ours:+d} (NS {here.score:+d} here, {there.score:+d} in the other room)",
            )
        )


def _check_pairs(records: Sequence[CheckedRecord], found: list[list[Problem]]) -> None:
    boards: dict[int, list[int]] = defaultdict(list)
    for index, checked in enumerate(records):
        record = checked.record
        if _teams_key(checked) is None and record.board is not None and checked.played:
            boards[record.board].append(index)
    for indexes in boards.values():
        tagged = [
            index
            for index in indexes
            if records[index].record.score_tag("ScoreMP") is not None
            or records[index].record.score_tag("ScorePercentage") is not None
        ]
        if not tagged:
            continue
        scores = [records[index].played.score for index in indexes]  # type: ignore[union-attr]
        points = matchpoints(scores)
        top = 2 * (len(indexes) - 1)
        for position, index in enumerate(indexes):
            record = records[index].record
            mp_text = record.score_tag("ScoreMP")
            if mp_text is not None:
                stated = ns_value(mp_text, top)
                if stated is None or abs(stated - points[position]) > 0.05:
                    found[index].append(
                        Problem(
                            record.source.line,
                            f"{_where(records[index])}: the file's ScoreMP {mp_text!r} "
                            f"disagrees with ours, NS {points[position]:g} of {top} "
                            f"over {len(indexes)} result(s) in this file",
                        )
                    )
            pct_text = record.score_tag("ScorePercentage")
            if pct_text is not None and top:
                stated = ns_value(pct_text, 100)
                ours = 100 * points[position] / top
                if stated is None or abs(stated - ours) > 0.05:
                    found[index].append(
                        Problem(
                            record.source.line,
                            f"{_where(records[index])}: the file's ScorePercentage "
                            f"{pct_text!r} disagrees with ours, NS {ours:.2f}% over "
                            f"{len(indexes)} result(s) in this file",
                        )
                    )


def dd_disagreements(checked: CheckedRecord, solved: DDTable) -> list[Problem]:
    """The record's DoubleDummyTricks tag against ``solved``, the table of its deal
    as the solver gives it: one problem naming both tables when they differ."""
    record = checked.record
    if not record.dd_tricks:
        return []
    line = record.source.line_of("DoubleDummyTricks")
    try:
        stated = DDTable.parse(record.dd_tricks)
    except BridgeError as error:
        return [Problem(line, f"DoubleDummyTricks: {error}")]
    if stated == solved:
        return []
    return [
        Problem(
            line,
            f"{_where(checked)}: the file's DoubleDummyTricks {record.dd_tricks!r} disagrees "
            f"with DDS, {str(solved)!r}",
        )
    ]

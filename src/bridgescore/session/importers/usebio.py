"""USEBIO results files in and out of an event.

Import: the file's pairs keep its own numbering (a pair with a direction is
``1NS``, ``13EW``; one without, as in a Howell, its number) and teams their
names as written; the event remembers the scoring method the file names
(``MP_PAIRS`` -> ``mp``, ``BUTLER_PAIRS`` -> ``butler``, ``CROSS_IMP`` ->
``cross-imps``, teams -> ``imps``); ``A6040``-style scores are artificial
adjusted scores (NS then EW percentage: 60, 50 or 40). The points the file's
scorer gave each line are kept aside and compared with ours
(:func:`cross_check`). Each participant's ``PLAYER`` elements (name and
membership number) become the event's members of that pair or team; in a file whose
sections list their own pairs, each section's (``B:1NS``, as a live event keeps them).

Export, the other way: :mod:`bridgescore.session.reports.usebio`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from bridgescore.compare.scalar import Award
from bridgescore.core import Vulnerability
from bridgescore.errors import BridgeError, RecordError
from bridgescore.formats.usebio import (
    Participant,
    TravellerLine,
    UsebioFile,
    dealt_board,
    read_usebio,
)
from bridgescore.notation import Result, means_passed_out, parse_result
from bridgescore.session.importers.parsed import BoardsStated, Parsed, line_problem
from bridgescore.session.scoring.event import (
    Adjusted,
    Event,
    Member,
    TableResult,
    participant_key,
)
from bridgescore.session.store.events import Origin
from bridgescore.validate import date_text

if TYPE_CHECKING:
    from bridgescore.session.scoring.methods import Method
    from bridgescore.session.scoring.scored import SessionScore

__all__ = [
    "FileCheck",
    "FilePoints",
    "UsebioImport",
    "check_file",
    "cross_check",
    "read_usebio_event",
]

# EVENT_TYPE and BOARD_SCORING_METHOD values, as real files spell them.
_METHODS = {
    "MP_PAIRS": "mp",
    "MATCH_POINTS": "mp",
    "MATCHPOINTS": "mp",
    "MP": "mp",
    "BUTLER_PAIRS": "butler",
    "BUTLER_IMPS": "butler",
    "BUTLER": "butler",
    "CROSS_IMP": "cross-imps",
    "CROSS_IMPS": "cross-imps",
    "XIMP": "cross-imps",
    "IMPS": "imps",
    "IMP": "imps",
    "BAM": "bam",
}
_ARTIFICIAL = re.compile(r"^\s*A\s*(?P<ns>\d{2})\s*(?P<ew>\d{2})\s*$", re.I)
_SUFFIX = re.compile(r"^(?P<number>.+?)\s*(?P<direction>NS|EW)$", re.I)


@dataclass(frozen=True, slots=True)
class FilePoints:
    """What the file's scorer gave one table: NS and EW points, as written."""

    ns: str
    ew: str
    line: int


@dataclass(slots=True)
class UsebioImport:
    """A USEBIO file read into event records, with what the file says about the event."""

    parsed: Parsed
    name: str = ""
    kind: str = "pairs"
    method: str | None = None
    club: str = ""  # the file's CLUB_NAME
    date: str = ""  # the file's DATE, as year-month-day ("" when it gives none we can read)
    points: dict[tuple[str, int, str, str], FilePoints] = field(default_factory=dict)
    board_imps: dict[tuple[str, str, int], str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    # Each participant's PLACE as written, by (the SECTION listing it, its name).
    places: dict[tuple[str, str], str] = field(default_factory=dict)


def method_of(file: UsebioFile) -> str | None:
    """The bridgescore scoring method a file names, or ``None`` if it names none we know."""
    # A specific EVENT_TYPE (MP_PAIRS, BUTLER_PAIRS, CROSS_IMP) names the method;
    # a general one (PAIRS, TEAMS) leaves it to BOARD_SCORING_METHOD.
    for text in (file.event_type, file.scoring):
        method = _METHODS.get(text.strip().upper().replace(" ", "_"))
        if method is not None:
            return method
    if file.kind == "teams":
        return "imps"
    return None


def read_usebio_event(data: bytes | str, source: str) -> UsebioImport:
    """Read a USEBIO file into results, hand records and the event's settings.

    Raises :class:`~bridgescore.formats.usebio.UsebioError` for a file that is
    not USEBIO XML; each bad traveller line is a problem with its line number.
    """
    file = read_usebio(data, source)
    parsed = Parsed()
    parsed.problems.extend(line_problem(source, p.line, p.message) for p in file.problems)
    kind = file.kind
    out = UsebioImport(parsed, file.description, kind, method_of(file), file.club_name.strip())
    out.date = _date(file.date)
    if file.date.strip() and not out.date:
        out.notes.append(
            f"{source}: DATE {file.date.strip()[:40]!r} is not a date: expected day/month/year "
            "(16/11/2026) or year-month-day; the event is left undated"
        )
    named = {
        _METHODS.get(t.strip().upper().replace(" ", "_")) for t in (file.event_type, file.scoring)
    }
    named.discard(None)
    if len(named) > 1:
        out.notes.append(
            f"{source}: EVENT_TYPE {file.event_type!r} and BOARD_SCORING_METHOD "
            f"{file.scoring!r} name different methods: scored by {out.method}, the EVENT_TYPE's"
        )
    if out.method is None:
        out.notes.append(
            f"{source}: scoring {file.scoring or file.event_type or '(none)'!r} is not one "
            "bridgescore scores: expected MP_PAIRS, BUTLER_PAIRS, CROSS_IMP or a teams event"
        )
    names = _names(file.participants, kind)
    # Pairs listed in two sections or more are kept apart (participant_key: ``B:1NS``);
    # a file of one section keeps its pairs' bare names, as it always has.
    sectioned = kind != "teams" and len({who.section for who in file.participants}) > 1
    for who in file.participants:
        if who.place.strip():
            place = _name(names, who.number, who.direction)
            out.places[(who.section if sectioned else "", place)] = who.place.strip()
        if who.players:
            participant = _name(names, who.number, who.direction)
            key = participant_key(who.section if sectioned else "", participant)
            parsed.members[key] = tuple(Member(p.name, p.national_id) for p in who.players)
    # The hand records first: a line's score is checked on its board as the file deals it.
    stated = BoardsStated(source, parsed)
    for hand in file.hands:
        try:
            stated.add(dealt_board(hand), hand.line)
        except BridgeError as error:
            parsed.problems.append(line_problem(source, hand.line, str(error)))
    for line in file.lines:
        ns, ew = _name(names, line.ns, "NS"), _name(names, line.ew, "EW")
        vulnerability = stated.board(line.board).vulnerability
        try:
            result = _result(line, ns, ew, vulnerability)
        except BridgeError as error:
            parsed.problems.append(line_problem(source, line.line, str(error)))
            continue
        parsed.results.append((result, Origin(source, line.line)))
        if line.ns_points or line.ew_points:
            out.points[result.key] = FilePoints(line.ns_points, line.ew_points, line.line)
        checked = _score_disagreement(line, result, vulnerability)
        if checked:
            out.notes.append(f"{source}:{line.line}: {checked}")
    for (team, opponents, board), imps in file.board_imps.items():
        out.board_imps[(_name(names, team, ""), _name(names, opponents, ""), board)] = imps
    return out


_DAY_MONTH_YEAR = re.compile(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})")


def _date(text: str) -> str:
    """A USEBIO ``DATE`` (day/month/year, as the format writes it, or year-month-day) as
    year-month-day; ``""`` when it is neither."""
    written = text.strip()
    found = _DAY_MONTH_YEAR.fullmatch(written)
    if found is not None:
        day, month, year = found.groups()
        written = f"{year}-{int(month):02d}-{int(day):02d}"
    try:
        return date_text(written, "DATE", error=RecordError)
    except RecordError:
        return ""


def _names(participants: Iterable[Participant], kind: str) -> dict[tuple[str, str], str]:
    """(number as written, direction) -> the name the event uses."""
    names: dict[tuple[str, str], str] = {}
    for who in participants:
        if kind == "teams":
            names[(who.number, "")] = who.name or who.number
            names[(who.name, "")] = who.name or who.number
        elif who.direction and not _SUFFIX.match(who.number):
            names[(who.number, who.direction)] = f"{who.number}{who.direction}"
        else:
            names[(who.number, who.direction)] = who.number
    return names


def _name(names: dict[tuple[str, str], str], number: str, direction: str) -> str:
    return names.get((number, direction)) or names.get((number, "")) or number


def _result(
    line: TravellerLine, ns: str, ew: str, vulnerability: Vulnerability | None = None
) -> TableResult:
    board, where = line.board, f"board {line.board} {ns} v {ew}"
    artificial = _ARTIFICIAL.match(line.score)
    if artificial:
        try:
            awards = Adjusted(Award.parse(artificial["ns"]), Award.parse(artificial["ew"]))
        except BridgeError:
            # Another adjusted score, its points stated (bridgescore writes a weighted
            # score so): no result of ours holds stated points, so none is guessed.
            stated = (
                f" with points stated, {line.ns_points or '-'}/{line.ew_points or '-'} (a "
                "weighted or split score, as bridgescore exports a weighted one: enter it "
                "again as the director's weighted score)"
                if line.ns_points or line.ew_points
                else ""
            )
            raise RecordError(
                f"{where}: adjusted score {line.score!r}{stated}: expected NS and EW "
                "percentages of 60, 50 or 40, as in A6040 or A5050"
            ) from None
        return TableResult(
            board, ns, ew, adjusted=awards, section=line.section, variant=line.variant
        )
    contract = line.contract.strip()
    if means_passed_out(contract):
        return TableResult(
            board, ns, ew, result=Result(None), section=line.section, variant=line.variant
        )
    if contract:
        text = f"{contract} {line.played_by}".strip()
        if not line.tricks.strip() and re.fullmatch(r"[+\-]?\d+", line.score.strip()):
            return _from_score(line, ns, ew, text, where, vulnerability)
        if not line.tricks.strip().isdigit():
            raise RecordError(
                f"{where}: TRICKS {line.tricks!r} for {contract!r}: expected the tricks "
                "declarer took, 0-13"
            )
        played = _parse_result(text, int(line.tricks))
        if played.contract is None or played.contract.declarer is None:
            raise RecordError(
                f"{where}: {contract!r} has no declarer: expected PLAYED_BY N, E, S or W"
            )
        return TableResult(board, ns, ew, result=played, section=line.section, variant=line.variant)
    score = line.score.strip().lstrip("+")
    if re.fullmatch(r"-?\d+", score):
        return TableResult(
            board, ns, ew, score=int(score), section=line.section, variant=line.variant
        )
    raise RecordError(
        f"{where}: no CONTRACT and SCORE {line.score!r}: expected a contract with PLAYED_BY "
        "and TRICKS, a NS score such as 420 or -100, or an adjusted score such as A6040"
    )


@lru_cache(maxsize=4096)
def _parse_result(text: str, tricks: int) -> Result:
    """Results are immutable, and a file repeats the same few contracts: read each once."""
    return parse_result(text, tricks=tricks)


def _from_score(
    line: TravellerLine,
    ns: str,
    ew: str,
    text: str,
    where: str,
    vulnerability: Vulnerability | None,
) -> TableResult:
    """A line without TRICKS: the one trick count whose score by the Laws (on the board's
    ``vulnerability``) is the file's SCORE."""
    score = int(line.score.strip())
    fits = []
    for tricks in range(14):
        candidate = TableResult(
            line.board,
            ns,
            ew,
            result=parse_result(text, tricks=tricks),
            section=line.section,
            variant=line.variant,
        )
        if candidate.ns_score(vulnerability) == score:
            fits.append(candidate)
    if len(fits) != 1:
        raise RecordError(
            f"{where}: no TRICKS, and SCORE {line.score!r} is not the score of {text!r} "
            "with any number of tricks: expected TRICKS 0-13"
        )
    return fits[0]


def _score_disagreement(
    line: TravellerLine, result: TableResult, vulnerability: Vulnerability | None = None
) -> str:
    """The file's own SCORE against the Laws' score of its contract, when they differ."""
    if result.result is None or result.result.contract is None:
        return ""
    written = line.score.strip().lstrip("+")
    if not re.fullmatch(r"-?\d+", written):
        return ""
    ours = result.ns_score(vulnerability)
    if ours is None or ours == int(written):
        return ""
    return (
        f"board {line.board} {result.ns} v {result.ew}: {result.describe()} scores {ours:+d} "
        f"for NS by the Laws, the file says {int(written):+d}"
    )


# -------------------------------------------------------------- cross-check


@dataclass(frozen=True, slots=True)
class FileCheck:
    """The file's figures against ours: every line that differs (``disagreements``), and
    how the file's sections were compared as its figures tell (``per_section``: True
    within each section, False across the field, None when the file has no sections or
    its figures do not tell)."""

    disagreements: list[str]
    per_section: bool | None = None


def cross_check(imported: UsebioImport, tolerance: float = 0.1) -> list[str]:
    """Score the file's results as its scorer would and list every line that differs.

    Pairs: each line's NS and EW match points (or IMPs) against the file's, on
    the matchpoint scale that fits the file (2/1, else 1/0.5), Neuberg'd to the
    largest board, across the field or (if that fits) within each section.
    Teams: each board's IMPs against the file's ``IMPS``.
    """
    return check_file(imported, tolerance).disagreements


def check_file(imported: UsebioImport, tolerance: float = 0.1) -> FileCheck:
    """:func:`cross_check`'s disagreements, and how the file compared its sections: the
    way (within each section or across) whose points fit the file's; when both fit (or
    neither), the one whose ranking gives the file's ``PLACE``s, if only one does."""
    from bridgescore.session.scoring.methods import ScoringOptions
    from bridgescore.session.scoring.scorer import score_event

    method = imported.method
    results = tuple(result for result, _ in imported.parsed.results)
    if method is None or not results:
        return FileCheck([])
    event = Event(imported.name, "teams" if imported.kind == "teams" else "pairs")
    event = event.with_results(results)
    # A file with sections may have been scored within each section.
    sectioned = imported.kind != "teams" and len({r.section for r in results}) > 1
    if not imported.points and not imported.board_imps and not sectioned:
        return FileCheck([])
    try:
        if imported.kind == "teams":
            scored = score_event(event, _method(method))
            return FileCheck(_teams_check(imported, scored, tolerance))
        found: dict[bool, tuple[list[str], SessionScore]] = {}
        scales = ("2/1", "1/0.5") if method == "mp" else ("2/1",)
        for scale in scales:
            for per_section in (False, True) if sectioned else (False,):
                options = ScoringOptions(scale=scale, per_section=per_section)  # type: ignore[arg-type]
                scored = score_event(event, _method(method), options)
                differ = _pairs_check(imported, scored, tolerance)
                if per_section not in found or len(differ) < len(found[per_section][0]):
                    found[per_section] = (differ, scored)
            if any(not differ for differ, _ in found.values()):
                break
    except BridgeError as error:
        return FileCheck([f"the file's results cannot be scored: {error}"])
    disagreements = min((differ for differ, _ in found.values()), key=len)
    if not sectioned:
        return FileCheck(disagreements)
    fits = {way for way, (differ, _) in found.items() if not differ and imported.points}
    if len(fits) != 1:
        placed = {way for way, (_, scored) in found.items() if _places_fit(imported, scored)}
        fits = placed if len(placed) == 1 else set()
    return FileCheck(disagreements, next(iter(fits)) if fits else None)


def _places_fit(imported: UsebioImport, scored: SessionScore) -> bool:
    """Whether every PLACE the file writes is the rank our ranking gives its pair."""
    if not imported.places:
        return False
    ranks = {(s.section, s.name): s.rank for s in scored.standings}
    named = {name: rank for (_, name), rank in ranks.items()}
    for (section, name), place in imported.places.items():
        rank = ranks.get((section, name)) if section else named.get(name)
        if rank is None or rank.rstrip("=") != place.rstrip("="):
            return False
    return True


def _method(name: str) -> Method:
    """A method name checked against the scorer's list (its error names the choices)."""
    from bridgescore.session.scoring.methods import METHODS

    for method in METHODS:
        if method == name:
            return method
    raise RecordError(f"unknown scoring method {name!r}: expected {', '.join(METHODS)}")


def _number(text: str) -> float | None:
    try:
        return float(text.strip().replace(",", "."))
    except ValueError:
        return None


def _pairs_check(imported: UsebioImport, scored: object, tolerance: float) -> list[str]:
    from bridgescore.session.scoring.scored import SessionScore

    assert isinstance(scored, SessionScore)
    out: list[str] = []
    for traveller in scored.travellers:
        for line in traveller.lines:
            given = imported.points.get(line.result.key)
            if given is None or line.ns is None or line.ew is None:
                continue
            theirs = (_number(given.ns), _number(given.ew))
            if any(v is None for v in theirs):
                out.append(
                    f"line {given.line}: board {line.result.board} {line.result.ns} v "
                    f"{line.result.ew}: the file's points {given.ns!r}/{given.ew!r} "
                    "are not numbers"
                )
                continue
            ns, ew = theirs
            assert ns is not None and ew is not None
            if abs(ns - line.ns) > tolerance + 1e-9 or abs(ew - line.ew) > tolerance + 1e-9:
                out.append(
                    f"line {given.line}: board {line.result.board} {line.result.ns} v "
                    f"{line.result.ew} ({line.result.describe()}): the file gives "
                    f"{given.ns}/{given.ew} {scored.unit}, bridgescore {line.ns:g}/{line.ew:g}"
                )
    return out


def _teams_check(imported: UsebioImport, scored: object, tolerance: float) -> list[str]:
    from bridgescore.session.scoring.scored import SessionScore

    assert isinstance(scored, SessionScore)
    ours: dict[tuple[str, str, int], float] = {}
    for traveller in scored.travellers:
        for line in traveller.lines:
            if line.ns is not None:
                ours[(line.result.ns, line.result.ew, line.result.board)] = line.ns
    out: list[str] = []
    for (team, opponents, board), written in sorted(imported.board_imps.items()):
        value = _number(written)
        mine = ours.get((team, opponents, board))
        if value is None or mine is None or abs(value - mine) > tolerance + 1e-9:
            shown = "not scored" if mine is None else f"{mine:+g}"
            out.append(
                f"board {board} {team} v {opponents}: the file gives {written} IMPs to "
                f"{team}, bridgescore {shown}"
            )
    return out

"""An event written out as a USEBIO 1.2 results file.

USEBIO numbers the pairs of a two-winner movement (a Mitchell) within their
direction: NS pair 1 and EW pair 1 are two pairs, each a ``PAIR`` with its
``PAIR_NUMBER`` and ``DIRECTION``, and a traveller line names them by number
alone (``NS_PAIR_NUMBER`` 1, ``EW_PAIR_NUMBER`` 1), its side telling which.
So a pair named by its number and home direction, as a live Mitchell names them
(``1N``, ``1E``) or an imported file did (``1NS``, ``1EW``), is written as its
number and direction; any other name (a Howell's ``1``..``8``) is its own
number, without a direction (a one-winner event).

Each player of a pair or team is one ``PLAYER`` (a pair of a section has its own,
written in its ``SECTION``); the club's name is the
``CLUB_NAME``; an opening lead a table entered in a live session is the line's
``LEAD``. A pair that sat the other way at a table (``session swap``, an arrow-switched
round) is named on the line with its home direction, ``2EW`` on the NS side: the number
alone would be the NS pair 2's. Read back by
:mod:`bridgescore.session.importers.usebio`, the file gives the same ranking.

>>> from bridgescore.session.scoring.event import Event, TableResult
>>> from bridgescore.session.importers.usebio import read_usebio_event
>>> event = Event("Club", "pairs", results=(TableResult.played(1, "1N", "1E", "4SN="),))
>>> text = export_usebio(event, club="Riverside BC")
>>> "<PAIR_NUMBER>1</PAIR_NUMBER>" in text, "<CLUB_NAME>Riverside BC</CLUB_NAME>" in text
(True, True)
>>> imported = read_usebio_event(text.encode(), "club.xml")
>>> [(r.ns, r.ew, str(r.result)) for r, _ in imported.parsed.results], imported.method
([('1NS', '1EW', '4SN=')], 'mp')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from bridgescore.compare.scalar import Award, round_half_away
from bridgescore.errors import RecordError
from bridgescore.formats.usebio import (
    HandRecord,
    Participant,
    Player,
    TravellerLine,
    UsebioFile,
    write_usebio,
)
from bridgescore.session.scoring.display import figure
from bridgescore.session.scoring.event import Event, TableResult, natural_key, players_of

if TYPE_CHECKING:
    from bridgescore.session.scoring.methods import Method, ScoringOptions

__all__ = ["export_usebio", "pair_numbers"]

# A Swiss pairs' boards are Butler IMPs; USEBIO has no word for its matches' VPs.
_EVENT_TYPES = {
    "mp": "MP_PAIRS",
    "butler": "BUTLER_PAIRS",
    "cross-imps": "CROSS_IMP",
    "butler-vp": "BUTLER_PAIRS",
}
_SCORING_NAMES = {
    "mp": "MATCH_POINTS",
    "butler": "BUTLER_IMPS",
    "cross-imps": "CROSS_IMPS",
    "imps": "IMPS",
    "bam": "BAM",
    "vp": "IMPS",  # the boards of a VP match are scored in IMPs
    "butler-vp": "BUTLER_IMPS",
}
# A pair named by its number and home direction: "1N", "12E" (a live Mitchell's
# labels, movement/mitchell.py) or "1NS", "12EW" (an imported file's).
_NUMBERED = re.compile(r"^(?P<number>\d+)\s*(?P<direction>NS|EW|N|E)$", re.I)
_DIRECTIONS = {"N": "NS", "NS": "NS", "E": "EW", "EW": "EW"}

Key = tuple[str, int, str, str]


def pair_numbers(names: Iterable[str]) -> dict[str, tuple[str, str]]:
    """Each pair's USEBIO ``PAIR_NUMBER`` and ``DIRECTION`` (``""`` when the movement
    has none).

    Pairs get a direction only when every pair is named by its number and home
    direction, each (number, direction) once: otherwise each name is its own number.

    >>> pair_numbers(["1N", "1E", "2N", "2E"])["1E"]
    ('1', 'EW')
    >>> pair_numbers(["1", "2", "3", "4"])["3"]
    ('3', '')
    """
    names = list(names)
    matched = {name: _NUMBERED.match(name.strip()) for name in names}
    numbered = {
        name: (str(int(m["number"])), _DIRECTIONS[m["direction"].upper()])
        for name, m in matched.items()
        if m is not None
    }
    if names and len(numbered) == len(names) and len(set(numbered.values())) == len(names):
        return numbered
    return {name: (name, "") for name in names}


def export_usebio(
    event: Event,
    method: str | None = None,
    *,
    club: str = "",
    date: str = "",
    leads: Mapping[Key, str] | None = None,
    options: ScoringOptions | None = None,
    home: Mapping[str, str] | None = None,
    notes: list[str] | None = None,
) -> str:
    """The event as a USEBIO 1.2 file, with each line's points by ``method``.

    ``method`` defaults to ``mp`` for pairs and ``imps`` for teams; lines the
    method cannot score (an event with no comparisons) are written without points.
    ``club`` is the ``CLUB_NAME``; ``leads`` the opening lead of a result (by its
    key, as ``HQ``), written as the line's ``LEAD``. ``options`` and ``home`` score
    it as ``session score`` does (sections compared apart or across, a Mitchell's
    pairs in their home directions: :func:`~bridgescore.session.scoring.scorer.score_event`).

    USEBIO holds no weighted score (Law 12C1c): such a line is written as USEBIO holds
    an adjusted score, ``SCORE`` ``A`` then the NS and EW shares of the board's top
    in whole percent (``A1783``; an IMP method's the artificial score of the stated
    IMPs' sign, ``A6040``, ``A5050`` or ``A4060``), with the points the weighting gave
    each side stated, and a line saying so is added to ``notes`` (when given).
    """
    from bridgescore.session.scoring.scorer import score_event

    teams = event.kind == "teams"
    method = method or ("imps" if teams else "mp")
    file = UsebioFile(
        event_type="TEAMS" if teams else _EVENT_TYPES.get(method, "PAIRS"),
        scoring=_SCORING_NAMES.get(method, method.upper()),
        description=event.name,
        club_name=club,
        date=date,
        program="bridgescore",
    )
    points: dict[Key, tuple[float | None, float | None]] = {}
    percents: dict[Key, tuple[float | None, float | None]] = {}
    team_imps: dict[tuple[str, str, int], float] = {}
    standings: dict[tuple[str, str], tuple[str, float | None, float]] = {}
    if event.results:
        scored = score_event(event, _method(method), options, home=home)
        for traveller in scored.travellers:
            for line in traveller.lines:
                points[line.result.key] = (line.ns, line.ew)
                percents[line.result.key] = (line.ns_percent, line.ew_percent)
                if line.ns is not None:
                    team_imps[(line.result.ns, line.result.ew, line.result.board)] = line.ns
        for standing in scored.standings:
            # A team's place is the team's, whatever section its boards were stored under.
            where = ("" if teams else standing.section, standing.name)
            standings[where] = (standing.rank, standing.percent, standing.total)
    participants = event.participants()
    numbers = pair_numbers(participants)
    file.winner_type = "" if teams else ("2" if all(d for _, d in numbers.values()) else "1")
    # Pair 1N of section A and pair 1N of section B are two pairs: each its own PAIR in
    # its SECTION, with its own players and place.
    sections: dict[str, set[str]] = {}
    for result in event.results:
        for name in (result.ns, result.ew):
            sections.setdefault(name, set()).add(result.section)
    for name in participants:
        places = sorted(sections[name], key=natural_key)
        # A team is one TEAM, whichever section its boards were stored under.
        for section in places[:1] if teams else places:
            place = ("" if teams else section, name)
            rank, percent, total = standings.get(place, ("", None, 0.0))
            score = f"{total:g}" if teams else ("" if percent is None else f"{percent:.2f}")
            players = tuple(
                Player(m.name, m.number) for m in players_of(event.members, section, name)
            )
            if teams:
                file.participants.append(Participant(name, "", name, players, rank, score))
            else:
                number, direction = numbers[name]
                file.participants.append(
                    Participant(number, direction, "", players, rank, score, section=section)
                )
    leads = leads or {}
    for result in sorted(event.results, key=lambda r: (r.section, r.board, natural_key(r.ns))):
        ns_points, ew_points = points.get(result.key, (None, None))
        ns = result.ns if teams else _seat_number(numbers[result.ns], "NS")
        ew = result.ew if teams else _seat_number(numbers[result.ew], "EW")
        lead = leads.get(result.key, "")
        ns_score = event.ns_score(result)  # on the board's stated vulnerability
        written = _line(result, ns, ew, (ns_points, ew_points), ns_score, lead)
        if result.weighted is not None:
            written = replace(written, score=_weighted_score(percents.get(result.key), ns_points))
            if notes is not None:
                in_section = f" (section {result.section})" if result.section else ""
                notes.append(
                    f"board {result.board}{in_section} {result.ns} v {result.ew}: the weighted "
                    f"score {result.weighted} is written as an adjusted score, {written.score}, "
                    f"with its points stated, {written.ns_points or '-'}/"
                    f"{written.ew_points or '-'}: USEBIO holds no weighted score"
                )
        file.lines.append(written)
    if teams:
        for (team, opponents, board), value in team_imps.items():
            if natural_key(team) <= natural_key(opponents):
                file.board_imps[(team, opponents, board)] = f"{value:g}"
    for board_number in sorted(event.boards):
        dealt = event.boards[board_number]
        # The dealer and vulnerability are written where the event's files stated them.
        dealer = "" if dealt.dealer_seat is None else dealt.dealer_seat.letter
        vulnerable = "" if dealt.vulnerable is None else dealt.vulnerable.to_pbn()
        if dealt.deal is not None or dealer or vulnerable:
            deal = "" if dealt.deal is None else dealt.deal.to_pbn()
            file.hands.append(HandRecord(board_number, deal, 0, dealer, vulnerable))
    return write_usebio(file)


def _method(name: str) -> Method:
    """A method name checked against the scorer's list (its error names the choices)."""
    from bridgescore.session.scoring.methods import METHODS

    for method in METHODS:
        if method == name:
            return method
    raise RecordError(f"unknown scoring method {name!r}: expected {', '.join(METHODS)}")


def _seat_number(number: tuple[str, str], side: str) -> str:
    """A line's pair number on its ``side``: the number alone for a pair at home, which
    its side names; a pair that sat the other way (a swapped table, an arrow-switched
    round) with its home direction too (``2EW`` on the NS side), since the number alone
    would name the other direction's pair of that number."""
    written, direction = number
    return f"{written}{direction}" if direction and direction != side else written


def _weighted_score(
    percents: tuple[float | None, float | None] | None, ns_points: float | None
) -> str:
    """A weighted line's SCORE as an adjusted score: ``A`` then NS's and EW's shares of
    the top, whole percent, two digits each (``A1783``; 100 % is ``100``); where the
    method has no top (IMPs), the artificial score of the points' sign."""
    ns_share, ew_share = percents or (None, None)
    if ns_share is not None and ew_share is not None:
        ns, ew = int(round_half_away(ns_share, 0)), int(round_half_away(ew_share, 0))
        return f"A{ns:02d}{ew:02d}"
    if ns_points is None or ns_points == 0:
        return "A5050"
    return "A6040" if ns_points > 0 else "A4060"


def _shown(value: float | None) -> str:
    # The figure the reports show (one rounding rule for every output).
    shown = figure(value)
    return "" if shown is None else f"{shown:g}"


def _line(
    result: TableResult,
    ns: str,
    ew: str,
    points: tuple[float | None, float | None],
    ns_score: int | None,
    lead: str,
) -> TravellerLine:
    contract = played_by = tricks = ""
    if result.weighted is not None:
        # USEBIO has artificial scores and played results, but nothing weighted: written
        # as a played result it would read back as another result, so it is written as
        # an adjusted score (its SCORE set by the caller) whose stated points are the
        # weighting's.
        score, lead = "A5050", ""
    elif result.adjusted is not None:
        percent = {Award.AVERAGE_PLUS: "60", Award.AVERAGE: "50", Award.AVERAGE_MINUS: "40"}
        score = f"A{percent[result.adjusted.ns]}{percent[result.adjusted.ew]}"
        lead = ""  # an artificial score has no play
    elif result.score is not None:
        score = str(result.score)
    elif result.result is not None and result.result.contract is not None:
        played = result.result
        assert played.contract is not None  # narrowed above, for mypy
        contract = str(played.contract.with_declarer(None))
        played_by = str(played.contract.declarer)
        tricks = str(played.tricks)
        score = str(ns_score)
    else:
        contract, score, lead = "PASS", "0", ""
    return TravellerLine(
        result.board,
        ns,
        ew,
        contract=contract,
        played_by=played_by,
        lead=lead,
        tricks=tricks,
        score=score,
        ns_points=_shown(points[0]),
        ew_points=_shown(points[1]),
        section=result.section,
        variant=result.variant,
    )

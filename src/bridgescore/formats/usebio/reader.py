"""USEBIO 1.2: the XML results files of club and congress scoring programs.

A USEBIO file holds one event: the club, the event's type and scoring method,
the participants (pairs with their players, or teams), each board's traveller
lines (contract, declarer, tricks, NS score and the points the scorer gave each
side) and, when the scorer had them, the hand records.

The DTD is not reachable from here; the element names, their nesting and their
order follow what real producers and readers of USEBIO 1.2 write and expect
(see docs/sessions.md). The reader is forgiving about order and about where
``BOARD`` and ``PARTICIPANTS`` sit (directly under ``EVENT`` or inside
``SESSION``/``SECTION``); a bad element is a
:class:`~bridgescore.formats.record.Problem` with its line, and the rest of the
file is still read.

Untrusted input is parsed safely: entity declarations, external entities and
undefined entities are refused (no entity expansion, nothing fetched), and a
file that is not well-formed XML raises :class:`UsebioError` naming the line.

>>> text = '''<USEBIO Version="1.2"><EVENT EVENT_TYPE="MP_PAIRS">
... <BOARD><BOARD_NUMBER>1</BOARD_NUMBER><TRAVELLER_LINE>
... <NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>
... <CONTRACT>4H</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>10</TRICKS><SCORE>420</SCORE>
... </TRAVELLER_LINE></BOARD></EVENT></USEBIO>'''
>>> [(t.board, t.ns, t.ew, t.contract, t.score) for t in read_usebio(text).lines]
[(1, '1', '2', '4H', '420')]
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from bridgescore.board import Board
from bridgescore.core import Seat, Strain, Vulnerability
from bridgescore.deal import Deal
from bridgescore.formats.record import Problem
from bridgescore.formats.usebio.safexml import MAX_BYTES, Element, UsebioError, decode, parse

__all__ = [
    "HandRecord",
    "Participant",
    "Player",
    "TravellerLine",
    "UsebioError",
    "UsebioFile",
    "dealt_board",
    "looks_like_usebio",
    "read_usebio",
]


VERSION = "1.2"
DOCTYPE = '<!DOCTYPE USEBIO SYSTEM "http://www.usebio.org/files/usebio_v1_2.dtd">'


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    national_id: str = ""


@dataclass(frozen=True, slots=True)
class Participant:
    """A pair (``number`` and ``direction`` as written) or a team (``number`` and ``name``)."""

    number: str
    direction: str = ""  # "NS", "EW" or "" (pairs that change direction, and teams)
    name: str = ""  # a team's name
    players: tuple[Player, ...] = ()
    place: str = ""
    score: str = ""  # PERCENTAGE or TOTAL_SCORE, as written
    line: int = 0
    # The SECTION_ID of the SECTION whose PARTICIPANTS list it ("": listed under EVENT):
    # pair 1 NS of section A and pair 1 NS of section B are two pairs, each with players.
    section: str = ""


@dataclass(frozen=True, slots=True)
class TravellerLine:
    """One result on a board's traveller, every field as written in the file.

    ``ns`` and ``ew`` are the participants' numbers (pair numbers, or team
    numbers in a teams match); ``ns_points``/``ew_points`` what the file's
    scorer gave each side (match points or IMPs; empty when not written).
    """

    board: int
    ns: str
    ew: str
    contract: str = ""
    played_by: str = ""
    lead: str = ""
    tricks: str = ""
    score: str = ""
    ns_points: str = ""
    ew_points: str = ""
    section: str = ""
    line: int = 0
    # A fouled board's version (Law 87): USEBIO has no field for it, so each version is
    # its own BOARD of the same BOARD_NUMBER in its section; "" for the first such BOARD,
    # "2", "3"... for the later ones.
    variant: str = ""


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A board's deal as PBN text (``N:...``; ``""``: not given), and its ``DEALER`` and
    ``VULNERABILITY`` as written (``""``: not given; the board follows its number)."""

    board: int
    deal: str
    line: int = 0
    dealer: str = ""
    vulnerability: str = ""


def dealt_board(hand: HandRecord) -> Board:
    """The board a hand record states: its deal, dealer and vulnerability, those given.
    Raises a :class:`~bridgescore.errors.BridgeError` naming a value that does not read."""
    return Board(
        hand.board,
        Deal.from_pbn(hand.deal) if hand.deal else None,
        dealer_seat=Seat.parse(hand.dealer) if hand.dealer else None,
        vulnerable=Vulnerability.parse(hand.vulnerability) if hand.vulnerability else None,
    )


@dataclass(slots=True)
class UsebioFile:
    """What one USEBIO file says. ``kind`` is ``pairs`` or ``teams``."""

    event_type: str = ""
    scoring: str = ""  # BOARD_SCORING_METHOD, as written
    description: str = ""
    identifier: str = ""
    date: str = ""
    club_name: str = ""
    club_id: str = ""
    program: str = ""
    winner_type: str = ""
    version: str = VERSION
    participants: list[Participant] = field(default_factory=list)
    lines: list[TravellerLine] = field(default_factory=list)
    hands: list[HandRecord] = field(default_factory=list)
    board_imps: dict[tuple[str, str, int], str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def kind(self) -> str:
        teams = "TEAM" in self.event_type.upper() or any(p.name for p in self.participants)
        return "teams" if teams else "pairs"


# ------------------------------------------------------------------ reading


def looks_like_usebio(data: bytes | str) -> bool:
    """Whether a file's first bytes look like a USEBIO document (by content, not name)."""
    if isinstance(data, str):
        head = data[:4096]
    else:
        head = data[:4096].removeprefix(codecs.BOM_UTF8).decode("latin-1")
    # UTF-16 shows as NUL bytes between ASCII letters.
    head = head.replace("\x00", "").lstrip("\ufeff\xff\xfe \t\r\n")
    # Any XML goes to the USEBIO reader, whose error then says what it expected.
    return head.startswith("<") and (
        head.startswith("<?xml") or bool(re.search(r"<(?:!DOCTYPE\s+)?USEBIO\b", head, re.I))
    )


def read_usebio(data: bytes | str, source: str = "(input)") -> UsebioFile:
    """Read a USEBIO file's text or bytes.

    Raises :class:`UsebioError` if it is not well-formed XML, uses entities, or
    is not a USEBIO document; bad elements inside are collected in ``problems``.
    """
    if len(data) > MAX_BYTES:
        raise UsebioError(source, 0, f"{len(data)} bytes is too large for a results file")
    text = data if isinstance(data, str) else decode(data, source)
    root = parse(text, source)
    if root.tag != "USEBIO":
        raise UsebioError(source, root.line, f"the document is <{root.tag}>: expected <USEBIO>")
    out = UsebioFile(version=root.attrs.get("VERSION", ""))
    club = root.first("CLUB")
    if club is not None:
        out.club_name, out.club_id = club.value("CLUB_NAME"), club.value("CLUB_ID_NUMBER")
    event = root.first("EVENT")
    if event is None:
        raise UsebioError(source, root.line, "<USEBIO> has no <EVENT>")
    out.event_type = event.attrs.get("EVENT_TYPE", "").strip()
    out.scoring = event.value("BOARD_SCORING_METHOD")
    # EVENT_DESCRIPTION is the 1.2 name; some producers write EVENT_NAME instead.
    out.description = event.value("EVENT_DESCRIPTION") or event.value("EVENT_NAME")
    out.identifier = event.value("EVENT_IDENTIFIER") or event.value("EVENT_ID")
    out.date = event.value("DATE")
    out.program = event.value("PROGRAM_NAME")
    out.winner_type = event.value("WINNER_TYPE")
    for participants, section in _under_sections(event, "PARTICIPANTS"):
        for node in participants.children:
            if node.tag in ("PAIR", "TEAM"):
                _participant(node, out, section)
    _boards(event, out)
    for handset, _ in _under_sections(root, "HANDSET"):
        for board in handset.all("BOARD"):
            number = _board_number(board, out)
            if number is not None:
                _hands(number, board, out)
    return out


def _under_sections(node: Element, tag: str, section: str = "") -> Iterator[tuple[Element, str]]:
    """The ``tag`` children of ``node`` and of its EVENT, SESSION and SECTION descendants,
    each with the SECTION_ID of the section it is in (``""``: none)."""
    for child in node.children:
        if child.tag == tag:
            yield child, section
        elif child.tag == "SECTION":
            yield from _under_sections(child, tag, _section_id(child) or section)
        elif child.tag in ("EVENT", "SESSION", "SECTIONS"):
            yield from _under_sections(child, tag, section)


def _section_id(node: Element) -> str:
    """A SECTION's SECTION_ID, an attribute or an element."""
    return (node.attrs.get("SECTION_ID", "") or node.value("SECTION_ID")).strip()


def _participant(node: Element, out: UsebioFile, section: str) -> None:
    players = tuple(
        Player(p.value("PLAYER_NAME"), p.value("NATIONAL_ID_NUMBER")) for p in node.all("PLAYER")
    )
    score = node.value("PERCENTAGE") or node.value("TOTAL_SCORE")
    if node.tag == "PAIR":
        number = node.value("PAIR_NUMBER")
        direction = _direction(node.value("DIRECTION"))
        if not number:
            out.problems.append(Problem(node.line, "a <PAIR> without its PAIR_NUMBER"))
            return
        if direction is None:
            out.problems.append(
                Problem(
                    node.line,
                    f"pair {number}: DIRECTION {node.value('DIRECTION')!r}: expected NS or EW",
                )
            )
            return
        out.participants.append(
            Participant(
                number, direction, "", players, node.value("PLACE"), score, node.line, section
            )
        )
        return
    number = node.value("TEAM_ID") or node.value("TEAM_NUMBER")
    name = node.value("TEAM_NAME") or number
    if not number and not name:
        out.problems.append(Problem(node.line, "a <TEAM> without TEAM_ID or TEAM_NAME"))
        return
    out.participants.append(
        Participant(
            number or name, "", name, players, node.value("PLACE"), score, node.line, section
        )
    )


def _direction(text: str) -> str | None:
    key = text.strip().upper().replace("-", "").replace(" ", "")
    if key in ("", "H", "X"):
        return ""
    if key in ("NS", "N", "NORTHSOUTH"):
        return "NS"
    if key in ("EW", "E", "EASTWEST"):
        return "EW"
    return None


def _board_number(node: Element, out: UsebioFile) -> int | None:
    text = node.value("BOARD_NUMBER")
    if text.isascii() and text.isdigit() and len(text) <= 9 and int(text) >= 1:
        return int(text)
    out.problems.append(Problem(node.line, f"BOARD_NUMBER {text!r}: expected a whole number >= 1"))
    return None


def _boards(event: Element, out: UsebioFile) -> None:
    """Every BOARD of the event: pairs travellers, and teams boards inside MATCH elements."""

    # How many BOARDs with traveller lines each (section, board number) has had so far:
    # a second one is a fouled board's second version.
    versions: dict[tuple[str, int], int] = {}

    def visit(node: Element, section: str, match: Element | None) -> None:
        for child in node.children:
            if child.tag == "SECTION":
                visit(child, _section_id(child) or section, match)
            elif child.tag == "MATCH":
                visit(child, section, child)
            elif child.tag == "BOARD":
                _board(child, section, match, out, versions)
            elif child.tag in ("SESSION", "SECTIONS", "MATCHES", "BOARDS"):
                visit(child, section, match)

    visit(event, "", None)


def _board(
    node: Element,
    section: str,
    match: Element | None,
    out: UsebioFile,
    versions: dict[tuple[str, int], int],
) -> None:
    number = _board_number(node, out)
    if number is None:
        return
    _hands(number, node, out)
    variant = ""
    if match is None and node.all("TRAVELLER_LINE"):
        count = versions[(section, number)] = versions.get((section, number), 0) + 1
        variant = "" if count == 1 else str(count)
    team = opponents = ""
    if match is not None:
        team, opponents = match.value("TEAM"), match.value("OPPOSING_TEAM")
        imps = node.value("IMPS")
        if imps:
            out.board_imps[(team, opponents, number)] = imps
    for line in node.all("TRAVELLER_LINE"):
        ns = line.value("NS_PAIR_NUMBER") or line.value("NS_TEAM_NUMBER")
        ew = line.value("EW_PAIR_NUMBER") or line.value("EW_TEAM_NUMBER")
        if match is not None and not (ns and ew):
            direction = _direction(line.value("DIRECTION"))
            if not (team and opponents) or not direction:
                out.problems.append(
                    Problem(
                        line.line,
                        f"board {number}: a teams traveller line needs its match's TEAM and "
                        f"OPPOSING_TEAM and a DIRECTION (NS or EW), got {team!r}, "
                        f"{opponents!r} and {line.value('DIRECTION')!r}",
                    )
                )
                continue
            ns, ew = (team, opponents) if direction == "NS" else (opponents, team)
        if not ns or not ew:
            out.problems.append(
                Problem(
                    line.line,
                    f"board {number}: a traveller line without NS_PAIR_NUMBER and EW_PAIR_NUMBER",
                )
            )
            continue
        out.lines.append(
            TravellerLine(
                number,
                ns,
                ew,
                contract=line.value("CONTRACT"),
                played_by=line.value("PLAYED_BY"),
                lead=line.value("LEAD"),
                tricks=line.value("TRICKS"),
                score=line.value("SCORE"),
                ns_points=_points(line, "NS"),
                ew_points=_points(line, "EW"),
                section=section,
                line=line.line,
                variant=variant,
            )
        )


def _points(line: Element, side: str) -> str:
    for name in ("MATCH_POINTS", "IMPS", "CROSS_IMPS", "BUTLER_IMPS", "SCORE_POINTS"):
        value = line.value(f"{side}_{name}")
        if value:
            return value
    return ""


_SEATS = {"NORTH": Seat.NORTH, "EAST": Seat.EAST, "SOUTH": Seat.SOUTH, "WEST": Seat.WEST}
_SEATS.update({name[0]: seat for name, seat in list(_SEATS.items())})
SUIT_ELEMENTS: tuple[tuple[str, Strain], ...] = (
    ("SPADES", Strain.SPADES),
    ("HEARTS", Strain.HEARTS),
    ("DIAMONDS", Strain.DIAMONDS),
    ("CLUBS", Strain.CLUBS),
)


def _hands(number: int, node: Element, out: UsebioFile) -> None:
    """The board's hand record: its four HANDs, its DEALER and VULNERABILITY, those given."""
    dealer, vulnerability = node.value("DEALER").strip(), node.value("VULNERABILITY").strip()
    if node.first("HAND") is None:
        if dealer or vulnerability:
            out.hands.append(HandRecord(number, "", node.line, dealer, vulnerability))
        return
    hands: dict[Seat, str] = {}
    for hand in node.all("HAND"):
        seat = _SEATS.get(hand.value("DIRECTION").strip().upper())
        if seat is None:
            out.problems.append(
                Problem(
                    hand.line,
                    f"board {number}: HAND DIRECTION {hand.value('DIRECTION')!r}: "
                    "expected North, East, South or West",
                )
            )
            return
        suits = [re.sub(r"[\s\-]", "", hand.value(name)).upper() for name, _ in SUIT_ELEMENTS]
        hands[seat] = ".".join(suits).replace("10", "T")
    if len(hands) != 4:
        out.problems.append(
            Problem(
                node.line,
                f"board {number}: the hand record has {len(hands)} hand(s): expected 4",
            )
        )
        return
    deal = "N:" + " ".join(hands[seat] for seat in Seat)
    out.hands.append(HandRecord(number, deal, node.line, dealer, vulnerability))

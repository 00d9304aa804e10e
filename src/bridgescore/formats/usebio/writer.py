"""USEBIO 1.2 written: a :class:`UsebioFile` as the XML text real producers write,
their element order kept, every value escaped.

>>> print(write_usebio(UsebioFile(version="1.2", event_type="MP_PAIRS")).splitlines()[2])
<USEBIO Version="1.2">
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape, quoteattr

from bridgescore.core import Seat
from bridgescore.deal import Deal
from bridgescore.errors import RecordError
from bridgescore.formats.usebio.reader import (
    DOCTYPE,
    SUIT_ELEMENTS,
    VERSION,
    HandRecord,
    Participant,
    TravellerLine,
    UsebioFile,
)

__all__ = ["write_usebio"]


# XML 1.0's Char: what a document may hold at all, even as a character reference.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _writable(value: object) -> str:
    """``value`` as text XML can hold; a character it cannot (a control character,
    U+FFFE) is refused by name, not written into a file no reader can open."""
    text = str(value)
    bad = _NOT_XML.search(text)
    if bad is not None:
        raise RecordError(
            f"{text!r} holds U+{ord(bad.group()):04X}, which XML cannot hold: "
            "expected text without control characters, U+FFFE or U+FFFF"
        )
    return text


def _element(tag: str, value: object, depth: int) -> str:
    return f"{'  ' * depth}<{tag}>{escape(_writable(value))}</{tag}>"


def _attribute(value: str) -> str:
    return quoteattr(_writable(value))


def write_usebio(file: UsebioFile) -> str:
    """USEBIO 1.2 text for a file, in the element order real producers use.

    Pairs: ``EVENT`` > header, ``PARTICIPANTS`` > ``PAIR``, then one ``BOARD``
    per board with its ``TRAVELLER_LINE`` elements; hand records in a
    ``HANDSET`` after the event. Teams: ``PARTICIPANTS`` > ``TEAM``, then one
    ``MATCH`` per pair of teams, its boards' lines carrying the ``DIRECTION``
    the match's ``TEAM`` sat.
    """
    out = ['<?xml version="1.0" encoding="UTF-8"?>', DOCTYPE, f'<USEBIO Version="{VERSION}">']
    out += ["  <CLUB>", _element("CLUB_NAME", file.club_name, 2)]
    out += [_element("CLUB_ID_NUMBER", file.club_id, 2), "  </CLUB>"]
    out.append(f"  <EVENT EVENT_TYPE={_attribute(file.event_type)}>")
    header = (
        ("PROGRAM_NAME", file.program),
        ("EVENT_IDENTIFIER", file.identifier),
        ("EVENT_DESCRIPTION", file.description),
        ("DATE", file.date),
        ("BOARD_SCORING_METHOD", file.scoring),
        ("BOARDS_PLAYED", str(len({line.board for line in file.lines}))),
        ("WINNER_TYPE", file.winner_type),
    )
    out += [_element(tag, value, 2) for tag, value in header if value]
    # Real multi-section files list each section's pairs inside its SECTION, next
    # to its boards; the others (one section, teams) right under EVENT.
    where = _sections_of(file) if file.kind != "teams" else {}
    top = [
        who
        for who in file.participants
        if not who.section and not where.get(_key(who), {""}) - {""}
    ]
    if top or not any(sections - {""} for sections in where.values()):
        out += _write_participants(top, 2)
    if file.kind == "teams":
        out += _write_matches(file)
    else:
        # A fouled board's versions (Law 87) are each a BOARD of the board's number.
        sections: dict[str, dict[tuple[int, str], list[TravellerLine]]] = {}
        for line in file.lines:
            board_key = (line.board, line.variant)
            sections.setdefault(line.section, {}).setdefault(board_key, []).append(line)
        for section, by_board in sorted(sections.items()):
            depth = 2
            if section:  # sections are written as real multi-section files do
                out += ["    <SESSION>", f"      <SECTION SECTION_ID={_attribute(section)}>"]
                depth = 4
                # A participant of a section is listed there; one without (a file read
                # before participants kept their section) wherever it played.
                members = [
                    w
                    for w in file.participants
                    if w.section == section or (not w.section and section in where.get(_key(w), ()))
                ]
                out += _write_participants(members, depth)
            for board_key in sorted(by_board):
                out += _write_pairs_board(board_key[0], by_board[board_key], file.scoring, depth)
            if section:
                out += ["      </SECTION>", "    </SESSION>"]
    out.append("  </EVENT>")
    if file.hands:
        out.append("  <HANDSET>")
        for hand in sorted(file.hands, key=lambda h: h.board):
            out += _write_hand(hand)
        out.append("  </HANDSET>")
    out.append("</USEBIO>")
    return "\n".join(out) + "\n"


def _write_pairs_board(
    board: int, lines: list[TravellerLine], scoring: str, depth: int
) -> list[str]:
    pad = "  " * depth
    out = [f"{pad}<BOARD>", _element("BOARD_NUMBER", board, depth + 1)]
    for line in lines:
        out.append(f"{pad}  <TRAVELLER_LINE>")
        out.append(_element("NS_PAIR_NUMBER", line.ns, depth + 2))
        out.append(_element("EW_PAIR_NUMBER", line.ew, depth + 2))
        out += _write_line_body(line, scoring, depth + 2)
        out.append(f"{pad}  </TRAVELLER_LINE>")
    out.append(f"{pad}</BOARD>")
    return out


def _key(who: Participant) -> tuple[str, str]:
    return who.number, who.direction


def _sections_of(file: UsebioFile) -> dict[tuple[str, str], set[str]]:
    """The sections each pair (number, direction) played in."""
    where: dict[tuple[str, str], set[str]] = {}
    for line in file.lines:
        for number, direction in ((line.ns, "NS"), (line.ew, "EW")):
            where.setdefault((number, direction), set()).add(line.section)
            where.setdefault((number, ""), set()).add(line.section)
    return where


def _write_participants(participants: list[Participant], depth: int) -> list[str]:
    if not participants and depth > 2:
        return []
    pad = "  " * (depth - 2)
    out = [f"{pad}    <PARTICIPANTS>"]
    for who in participants:
        out += [pad + text for text in _write_participant(who)]
    out.append(f"{pad}    </PARTICIPANTS>")
    return out


def _write_participant(who: Participant) -> list[str]:
    if who.name:
        attrs = f"TEAM_ID={_attribute(who.number)} TEAM_NAME={_attribute(who.name)}"
        out = [f"      <TEAM {attrs}>"]
        closing = "      </TEAM>"
    else:
        out = ["      <PAIR>", _element("PAIR_NUMBER", who.number, 4)]
        if who.direction:
            out.append(_element("DIRECTION", who.direction, 4))
        closing = "      </PAIR>"
    if who.place:
        out.append(_element("PLACE", who.place, 4))
    if who.score:
        tag = "TOTAL_SCORE" if who.name else "PERCENTAGE"
        out.append(_element(tag, who.score, 4))
    for player in who.players:
        out.append("        <PLAYER>")
        out.append(_element("PLAYER_NAME", player.name, 5))
        if player.national_id:
            out.append(_element("NATIONAL_ID_NUMBER", player.national_id, 5))
        out.append("        </PLAYER>")
    out.append(closing)
    return out


def _write_line_body(line: TravellerLine, scoring: str, depth: int = 4) -> list[str]:
    out = [
        _element("CONTRACT", line.contract, depth),
        _element("PLAYED_BY", line.played_by, depth),
    ]
    if line.lead:
        out.append(_element("LEAD", line.lead, depth))
    out += [_element("TRICKS", line.tricks, depth), _element("SCORE", line.score, depth)]
    if line.ns_points or line.ew_points:
        unit = "MATCH_POINTS" if scoring.upper().startswith("MATCH") else "IMPS"
        out.append(_element(f"NS_{unit}", line.ns_points, depth))
        out.append(_element(f"EW_{unit}", line.ew_points, depth))
    return out


def _write_matches(file: UsebioFile) -> list[str]:
    """One MATCH per pair of teams that met; each board's lines say where TEAM sat."""
    matches: dict[tuple[str, str], dict[int, list[tuple[str, TravellerLine]]]] = {}
    for line in file.lines:
        team, opponents = sorted((line.ns, line.ew), key=_natural)
        direction = "NS" if line.ns == team else "EW"
        boards = matches.setdefault((team, opponents), {})
        boards.setdefault(line.board, []).append((direction, line))
    out: list[str] = []
    for (team, opponents), boards in matches.items():
        out += ["    <MATCH>", _element("TEAM", team, 3), _element("OPPOSING_TEAM", opponents, 3)]
        for board in sorted(boards):
            out += ["      <BOARD>", _element("BOARD_NUMBER", board, 4)]
            imps = file.board_imps.get((team, opponents, board))
            if imps:
                out.append(_element("IMPS", imps, 4))
            for direction, line in sorted(boards[board], key=lambda item: item[0] != "NS"):
                out.append("        <TRAVELLER_LINE>")
                out.append(_element("DIRECTION", direction, 5))
                out += _write_line_body(line, file.scoring, 5)
                out.append("        </TRAVELLER_LINE>")
            out.append("      </BOARD>")
        out.append("    </MATCH>")
    return out


def _natural(name: str) -> tuple[tuple[int, object], ...]:
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part.lower())
        for part in re.findall(r"[0-9]{1,18}|[^0-9]+|[0-9]+", name)
    )


_SEAT_NAMES = {Seat.NORTH: "North", Seat.EAST: "East", Seat.SOUTH: "South", Seat.WEST: "West"}


def _write_hand(hand: HandRecord) -> list[str]:
    out = ["    <BOARD>", _element("BOARD_NUMBER", hand.board, 3)]
    for name, value in (("DEALER", hand.dealer), ("VULNERABILITY", hand.vulnerability)):
        if value:
            out.append(_element(name, value, 3))
    if not hand.deal:
        return [*out, "    </BOARD>"]
    deal = Deal.from_pbn(hand.deal)
    for seat in Seat:
        suits = deal[seat].to_pbn().split(".")
        out += ["      <HAND>", _element("DIRECTION", _SEAT_NAMES[seat], 4)]
        # Clubs first, as real hand sets list them.
        for name, strain in reversed(SUIT_ELEMENTS):
            out.append(_element(name, suits[3 - int(strain)], 4))
        out.append("      </HAND>")
    out.append("    </BOARD>")
    return out

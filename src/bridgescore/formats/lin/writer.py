"""LIN written: any board record as one handviewer line (:func:`format_lin`) or link.

>>> from bridgescore.formats.record import BoardRecord
>>> format_lin(BoardRecord(board=3))
'ah|Board 3|'
"""

from __future__ import annotations

from urllib.parse import quote

from bridgescore.core import Seat, Strain
from bridgescore.deal import RANK_CHARS, Deal, Hand
from bridgescore.errors import NotationError
from bridgescore.formats.lin.tags import (
    DEALER_DIGIT,
    LIN_ORDER,
    LINE_BREAK,
    ROW_TAG,
    SV_LETTERS,
    match_fields,
)
from bridgescore.formats.record import MATCH_NOTE, BoardRecord

__all__ = ["HANDVIEWER", "format_lin", "handviewer_link", "lin_value"]

HANDVIEWER = "https://www.bridgebase.com/tools/handviewer.html"
"""The address of BBO's handviewer, which shows a LIN record given as ``?lin=``."""


def lin_value(name: str, value: str) -> str:
    """A tag's value as LIN writes it. LIN has no escape: raises
    :class:`~bridgescore.NotationError` for a value holding ``|`` (which ends the
    tag) or a line break (a record is one line)."""
    if "|" in value:
        raise NotationError(f"{name} value {value!r} holds '|', which LIN cannot write")
    if LINE_BREAK.search(value):
        raise NotationError(
            f"{name} value {value!r} holds a line break, which LIN cannot write: a LIN "
            "record is one line"
        )
    return value


def _name(player: str) -> str:
    if "," in player:
        raise NotationError(
            f"player name {player!r} holds ',', which LIN cannot write: pn separates the "
            "names with commas"
        )
    return lin_value("pn", player)


def _note_tags(name: str, value: str) -> list[tuple[str, str]]:
    """A kept tag as LIN tags on one line: its value's first line under its name, each
    further line (a PBN table's rows, a note over several lines) as a ``+`` tag."""
    tag = name.removeprefix("LIN_")
    if not tag or tag == ROW_TAG or "|" in tag or LINE_BREAK.search(tag) or tag != tag.strip():
        raise NotationError(
            f"tag name {name!r} cannot be written as a LIN tag: expected a name without "
            f"'|', line breaks or blanks at either end, other than {ROW_TAG!r}"
        )
    first, *rows = value.split("\n")
    return [(tag, first), *((ROW_TAG, row) for row in rows)]


def _hand_text(hand: Hand) -> str:
    text = ""
    for suit in (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS):
        ranks = sorted((card.rank for card in hand.cards if card.suit == suit), reverse=True)
        text += suit.letter + "".join(RANK_CHARS[rank - 2] for rank in ranks)
    return text


def format_lin(record: BoardRecord) -> str:
    """One record as a single LIN line, the form BBO's handviewer accepts.

    A kept tag of several lines (a PBN table such as ``OptimumResultTable``) is
    written as its first line, then one ``+`` tag a further line, which the reader
    joins back. Raises :class:`~bridgescore.NotationError` for any other value
    holding ``|`` or a line break (a name, an event, an explanation), which one LIN
    line cannot hold.
    """
    parts: list[str] = []

    def put(tag: str, value: str) -> None:
        parts.append(f"{tag}|{lin_value(tag, value)}|")

    if record.match is not None:
        put("vg", str(record.match))
    # A header that did not read is written back where it was: first.
    for name, value in record.notes:
        if name == MATCH_NOTE:
            put("vg", value)
    if record.room is not None and record.board is not None:
        put("qx", f"{record.room[0]}{record.board}")
    if any(record.players):
        players = record.players
        put("pn", ",".join(_name(players[seat]) for seat in LIN_ORDER))
    dealer = record.dealer_seat
    if dealer is not None or record.deal is not None:
        digit = DEALER_DIGIT[dealer] if dealer is not None else "3"
        hands = (
            ""
            if record.deal is None
            else ",".join(_hand_text(record.deal[seat]) for seat in LIN_ORDER)
        )
        put("md", digit + hands)
    if record.board is not None:
        put("ah", f"Board {record.board}")
    if record.vulnerable is not None:
        put("sv", SV_LETTERS[record.vulnerable])
    # The vugraph header already names the event and the teams; a record that says
    # otherwise (even nothing) is written so, as the reader lets a tag override it.
    header = match_fields(record.match)
    for name, value in (
        ("Event", record.event),
        ("HomeTeam", record.home_team),
        ("VisitTeam", record.visit_team),
    ):
        if header.get(name, "") != value:
            put(name, value)
    for name, value in (
        ("Table", record.table),
        *record.scores,
        ("DoubleDummyTricks", record.dd_tricks),
        ("OptimumScore", record.optimum_score),
    ):
        if value:
            put(name, value)
    if record.auction is None and record.contract_text is not None:
        put("Contract", "Pass" if record.contract is None else str(record.contract))
    for name, value in record.notes:
        if name != MATCH_NOTE:
            for tag, text in _note_tags(name, value):
                put(tag, text)
    if record.auction is not None:
        for call in record.auction:
            # BBO writes 1N, p, d, r.
            word = {"Pass": "p", "X": "d", "XX": "r"}.get(call.call, call.call.replace("NT", "N"))
            put("mb", word + ("!" if call.alerted else ""))
            if call.explanation:
                put("an", call.explanation)
    if record.play is not None:
        put("pg", "")
        for card in record.play:
            put("pc", str(card))
    claim = record.claim
    if claim is None and (record.play is None or len(record.play) < 52):
        claim = record.result
    if record.adjusted and record.result is not None:
        # LIN has no adjusted result: our own tag, named as PBN writes it.
        put("Result", f"^{record.result}")
    elif claim is not None:
        put("mc", str(claim))
    return "".join(parts)


def handviewer_link(record: BoardRecord | Deal) -> str:
    """A link that shows the record (or just the deal) in BBO's handviewer."""
    if isinstance(record, Deal):
        record = BoardRecord(deal=record, dealer_seat=Seat.NORTH)
    return f"{HANDVIEWER}?lin={quote(format_lin(record), safe='')}"

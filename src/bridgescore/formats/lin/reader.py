"""LIN read: hand records, vugraph archives and handviewer links into board records
(:mod:`.writer` writes any record back as one handviewer line).

LIN is a run of ``tag|value|`` pairs. The tags read:

- ``pn`` players, South first (S, W, N, E; eight names in a vugraph archive:
  the open room's four, then the closed room's);
- ``md`` the deal: the dealer's digit (1-4 = S, W, N, E), then the hands of
  S, W, N, E separated by commas, each suit letter followed by its ranks; the
  fourth hand may be left out (it is the rest of the pack);
- ``sv`` vulnerability (``o``/``0``/``-`` none, ``n``, ``e``, ``b`` both);
- ``ah`` the board header (``Board 12``), ``rh`` its reset, ``st``, ``pg`` (no content);
- ``mb`` a call (any case; ``p``, ``d``, ``r``; a trailing ``!`` alerts it) and
  ``an`` the explanation of the call before;
- ``pc`` a card (any case), ``mc`` a claim: declarer's total tricks;
- ``qx`` room and board of a vugraph archive (``o12`` open room, ``c12`` closed);
- ``vg`` the archive's header: event, segment, scoring, first and last board,
  then each team and its carried-over score, read into the records' ``match``
  (a :class:`~bridgescore.formats.record.MatchHeader`);
- ``nt`` a commentary note, and any other tag: kept as a note, written back.

A board starts at ``qx``; at ``pn``, ``st`` or ``md`` once the board being
read has its deal; at a second ``ah``, or one after the board's calls, cards or
claim; and, in hand records (no ``qx`` read yet), at each new line once the
board being read is a board (a deal, calls, cards, a claim, a number or a
stated field). So a board without a deal is a board of its own, never the tail
of the one before; in a vugraph archive a board's play may run over the lines
after its ``qx``. A board without ``md`` takes its dealer from its number
(Law 2) to read its auction.

Fields LIN has no tag for (teams at a table, the file's scores, DD tags) are
written as tags named like their PBN tags (``Table|3|``), which BBO's viewer
ignores and this reader reads back. Every record is written on one line: a kept
tag of several lines (a PBN table such as ``OptimumResultTable``, a commentary
over several lines) as its first line, then a ``+`` tag for each further line
(``OptimumResultTable|Declarer;Denomination\\2R;Result\\2R|+|N NT 1|+|N S 4|...``);
any other value with a line break, and a player's name with a comma, cannot be
written and raise :class:`~bridgescore.NotationError`.

>>> record = next(read_lin("md|3SAKQJHAKQDAKQCAKQ,S2345H2345D2345C2,S6789H6789D6789C3,|"
...                        "ah|Board 1|mb|7N|mb|p|mb|p|mb|p|"))
>>> record.board, record.dealer, record.contract
(1, Seat.NORTH, Contract.parse('7NTN'))
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from urllib.parse import parse_qs, urlsplit

from bridgescore.core import Contract, Seat, Vulnerability, dealer_of_board
from bridgescore.deal import Card, Deal
from bridgescore.errors import BridgeError, NotationError
from bridgescore.formats.lin.tags import ROW_TAG, match_fields
from bridgescore.formats.lin.tags import lin_deal as _deal
from bridgescore.formats.lin.tags import lin_tags as _tags
from bridgescore.formats.record import (
    MATCH_NOTE,
    PLAIN_CALLS,
    SCORE_TAGS,
    BoardRecord,
    MatchHeader,
    Problem,
    RecordedCall,
    Source,
    alerted_call,
)
from bridgescore.formats.words import call_text, card_of, contract_of

__all__ = ["is_hand_link", "lin_from_hand_link", "lin_from_link", "read_lin"]

_VULNERABILITY = {
    "o": Vulnerability.NONE,
    "0": Vulnerability.NONE,
    "-": Vulnerability.NONE,
    "n": Vulnerability.NS,
    "e": Vulnerability.EW,
    "b": Vulnerability.BOTH,
}
_CALLS = {"P": "Pass", "D": "X", "R": "XX"}
_BOARD_RE = re.compile(r"\s*(?:board\s*)?([0-9]+)\s*", re.I)
_QX_RE = re.compile(r"([oc])([0-9]+)", re.I)
_PBN_NAME = re.compile(r"[A-Z][A-Za-z0-9_]*")
# Record fields written as tags named like PBN's, in this order.
_FIELD_TAGS = (
    "Contract",
    "Result",
    "Event",
    "HomeTeam",
    "VisitTeam",
    "Table",
    *SCORE_TAGS,
    "DoubleDummyTricks",
    "OptimumScore",
)
_HEADER_TAGS = frozenset({"Event", "HomeTeam", "VisitTeam"})
_NO_CONTENT = frozenset({"pg", "rh", "st"})
# The record's tag names for where a problem points: the first call, card and claim.
_LINE_NAMES = {"mb": "Auction", "pc": "Play", "mc": "Result", "md": "Deal"}
_MAX_TAGS = 4_000  # more tags than any board has: the rest is kept as problems


@dataclass
class _Board:
    """One board while its tags stream in."""

    line: int
    players: list[str] = field(default_factory=lambda: ["", "", "", ""])
    board: int | None = None
    dealer: Seat | None = None
    vulnerability: Vulnerability | None = None
    deal: Deal | None = None
    has_deal: bool = False
    room: str | None = None
    match: MatchHeader | None = None
    fields: dict[str, str] = field(default_factory=dict)
    calls: list[RecordedCall] | None = None
    cards: list[Card] | None = None
    claim: int | None = None
    tag_lines: dict[str, int] = field(default_factory=dict)
    card_lines: list[int] = field(default_factory=list)
    call_lines: list[int] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rows: dict[int, list[str]] = field(default_factory=dict)  # ``+`` rows by note index
    headed: bool = False  # an ``ah`` was read
    stated: bool = False  # a tag of ours stating a field (Contract, Result, Score...) was read

    @property
    def has_content(self) -> bool:
        return self.has_deal or bool(self.calls or self.cards)

    def kept_notes(self) -> list[tuple[str, str]]:
        """The notes, each with its ``+`` rows as further lines."""
        if not self.rows:
            return self.notes
        return [
            (name, "\n".join([value, *self.rows[index]])) if index in self.rows else (name, value)
            for index, (name, value) in enumerate(self.notes)
        ]

    @property
    def is_board(self) -> bool:
        """Whether anything read says this is a board: a deal, calls, cards, a claim,
        a number or a stated field. A line of header tags alone (``pn``, ``vg``,
        ``rs``) is none, and its names, header and notes go to the next board."""
        return self.has_content or self.board is not None or self.claim is not None or self.stated


def _call(value: str) -> RecordedCall:
    text = value.strip()
    alerted = text.endswith("!")
    text = text.rstrip("!").strip()
    word = _CALLS.get(text.upper(), text)
    call = call_text(word)
    return RecordedCall(call, True) if alerted else PLAIN_CALLS[call]


def _contract(calls: Iterable[RecordedCall], dealer: Seat | None) -> tuple[Contract | None, bool]:
    """The contract a legal, complete auction reaches, and whether it was passed out."""
    if dealer is None:
        return None, False
    complete, contract = contract_of((call.call for call in calls), dealer)
    return contract, complete and contract is None


_Carried = tuple[list[tuple[str, str]], list[Problem], dict[str, str]]


class _Reader:
    def __init__(self, file: str | None) -> None:
        self.file = file
        self.number = 0
        self.players: list[str] = ["", "", "", ""]
        self.closed_players: list[str] | None = None
        self.header: dict[str, str] = {}
        self.match: MatchHeader | None = None
        self.board: _Board | None = None
        # Notes, problems and fields of header tags (rs, Event, or text that is no
        # tag) before a board: they go on the next board, so that nothing is dropped.
        self.carried: _Carried = ([], [], {})

    def start(self, line: int) -> _Board:
        board = _Board(line, list(self.players))
        board.fields.update(self.header)
        board.match = self.match
        board.notes.extend(self.carried[0])
        board.problems.extend(self.carried[1])
        board.fields.update(self.carried[2])
        self.carried = ([], [], {})
        self.board = board
        return board

    def finish(self) -> BoardRecord | None:
        board = self.board
        self.board = None
        if board is None:
            return None
        if not board.is_board:
            fields = {
                name: value
                for name, value in board.fields.items()
                if self.header.get(name) != value
            }
            self.carried = (board.kept_notes(), board.problems, fields)
            return None
        self.number += 1
        calls = None if board.calls is None else tuple(board.calls)
        dealer = board.dealer
        if dealer is None and board.board is not None:
            dealer = dealer_of_board(board.board)  # no md: the board's dealer (Law 2)
        contract, passed_out = _contract(calls or (), dealer)
        adjusted = board.fields.pop("Result", "")
        if re.fullmatch(r"\^[0-9]{1,2}", adjusted) and int(adjusted[1:]) <= 13:
            board.claim = int(adjusted[1:])
        elif adjusted:
            board.problems.append(
                Problem(board.line, f"Result|{adjusted}|: expected ^ and a trick count 0-13")
            )
        stated = board.fields.pop("Contract", None)
        if stated is not None and calls is None:
            # Our own tag, for a record without an auction (see the module's docstring).
            passed_out = stated.strip().upper() == "PASS"
            try:
                contract = None if passed_out else Contract.parse(stated)
            except BridgeError as error:
                board.problems.append(Problem(board.line, f"Contract|{stated}|: {error}"))
        players = board.players
        if board.room == "closed" and self.closed_players is not None and players == self.players:
            players = self.closed_players
        fields = board.fields
        return BoardRecord(
            board=board.board,
            dealer_seat=board.dealer,
            vulnerable=board.vulnerability,
            deal=board.deal,
            # LIN names S, W, N, E; the record N, E, S, W.
            players=(players[2], players[3], players[0], players[1]),
            event=fields.pop("Event", ""),
            home_team=fields.pop("HomeTeam", ""),
            visit_team=fields.pop("VisitTeam", ""),
            table=fields.pop("Table", ""),
            room=board.room,
            auction=calls,
            play=None if board.cards is None else tuple(board.cards),
            claim=board.claim,
            contract=contract,
            passed_out=passed_out,
            result=board.claim,
            adjusted=adjusted.startswith("^") and board.claim is not None,
            scores=tuple((name, fields[name]) for name in SCORE_TAGS if name in fields),
            dd_tricks=fields.get("DoubleDummyTricks", ""),
            optimum_score=fields.get("OptimumScore", ""),
            notes=tuple(board.kept_notes()),
            source=Source(
                self.file,
                board.line,
                self.number,
                tuple(board.tag_lines),
                tuple(board.tag_lines.values()),
                tuple(board.card_lines),
                tuple(board.call_lines),
            ),
            problems=tuple(board.problems),
            match=board.match,
        )

    def read(self, text: str) -> Iterator[BoardRecord]:
        count = 0
        rooms = False  # a qx was read: boards start at qx and may run over several lines
        kept = False  # the tag before was kept as a note, or was a row of one
        for tag, value, line, first in _tags(text):
            count += 1
            after_note, kept = kept, False
            board = self.board
            key = tag.lower()
            if board is None or key == "qx":
                starts = True
            elif key == "vg":
                starts = board.has_content
            elif key in ("pn", "st", "md"):
                starts = board.has_deal
            elif key == "ah":
                # A second header, or one after the auction or play: the next board's,
                # whether or not that board has a deal.
                starts = board.headed or bool(board.calls or board.cards) or board.claim is not None
            else:
                starts = False
            if first and not rooms and board is not None and board.is_board:
                # Hand records hold one board a line: a new line is a new board, a board
                # without a deal included (BBO's vugraph archives, headed by qx, are not
                # so and carry on a board's play over the lines after its qx).
                starts = True
            if key == "qx":
                rooms = True
            if board is None or starts:
                record = self.finish()
                if record is not None:
                    yield record
                board = self.start(line)
                after_note = False
            if value.startswith("\x00"):
                board.problems.append(
                    Problem(line, f"tag {tag!r} has no closing '|' after {value[1:40]!r}")
                )
                continue
            if not tag:
                board.problems.append(
                    Problem(line, f"text {value.strip()[:40]!r} is not a tag: expected tag|value|")
                )
                continue
            if count > _MAX_TAGS * (self.number + 1):
                board.problems.append(Problem(line, f"too many tags: {tag}|{value[:20]}| ignored"))
                continue
            try:
                if tag == ROW_TAG:
                    kept = _row(board, value, after_note)
                else:
                    kept = self.tag(board, tag, value, line)
            except BridgeError as error:
                board.problems.append(Problem(line, f"{tag}|{value[:60]}|: {error}"))
        record = self.finish()
        if record is not None:
            yield record
        elif any(self.carried) or (self.match and not self.number):
            # Header tags with no board after them: still reported and kept.
            self.number += 1
            fields = self.carried[2]
            yield BoardRecord(
                event=fields.get("Event", ""),
                home_team=fields.get("HomeTeam", ""),
                visit_team=fields.get("VisitTeam", ""),
                notes=tuple(self.carried[0]),
                source=Source(self.file, 1, self.number),
                problems=tuple(self.carried[1]),
                match=self.match,
            )

    def tag(self, board: _Board, tag: str, value: str, line: int) -> bool:
        """Read one tag into the board; whether it was kept as a note (which ``+`` rows
        may follow)."""
        key = tag.lower()
        board.tag_lines.setdefault(_LINE_NAMES.get(key, tag), line)
        if key == "pn":
            names = [name.strip() for name in value.split(",")]
            if len(names) not in (4, 8):
                raise NotationError(f"expected 4 names (S, W, N, E) or 8, got {len(names)}")
            if not board.has_content:
                # Four names inside a room's board are that room's; eight are both rooms'.
                if len(names) == 8 or board.room is None:
                    self.players = names[:4]
                    self.closed_players = names[4:] if len(names) == 8 else None
                elif board.room == "open":
                    self.players = names
                else:
                    self.closed_players = names
            board.players = names[4:] if len(names) == 8 and board.room == "closed" else names[:4]
        elif key == "md":
            if board.has_deal:
                raise NotationError("a second deal in one board")
            board.dealer, board.deal = _deal(value)
            board.has_deal = True
        elif key == "sv":
            vulnerability = _VULNERABILITY.get(value.strip().lower())
            if vulnerability is None:
                raise NotationError("expected o (none), n, e or b (both)")
            board.vulnerability = vulnerability
        elif key == "ah":
            board.headed = True
            match = _BOARD_RE.fullmatch(value)
            if match is None or int(match[1]) < 1:
                raise NotationError("expected a board header such as 'Board 12'")
            board.board = int(match[1])
        elif key in _NO_CONTENT:
            if value.strip():
                board.notes.append((f"LIN_{tag}", value))
                return True
        elif key == "mb":
            if board.calls is None:
                board.calls = []
            board.calls.append(_call(value))
            board.call_lines.append(line)
        elif key == "an":
            if not board.calls:
                raise NotationError("an explanation before any call")
            last = board.calls[-1]
            board.calls[-1] = alerted_call(last.call, value)
        elif key == "pc":
            if board.cards is None:
                board.cards = []
            board.cards.append(card_of(value.strip()))
            board.card_lines.append(line)
        elif key == "mc":
            text = value.strip()
            if not (text.isascii() and text.isdigit()) or len(text) > 2 or int(text) > 13:
                raise NotationError("expected declarer's total tricks, 0 to 13")
            board.claim = int(text)
        elif key == "qx":
            match = _QX_RE.match(value.strip())
            if match is None:
                raise NotationError("expected a room and board such as o12 or c12")
            board.room = "open" if match[1].lower() == "o" else "closed"
            board.board = int(match[2]) if int(match[2]) >= 1 else None
            if self.closed_players is not None and board.room == "closed":
                board.players = list(self.closed_players)
        elif key == "vg":
            try:
                self.match = MatchHeader.parse(value)
            except BridgeError:
                board.notes.append((MATCH_NOTE, value))  # kept, and reported below
                raise
            board.match = self.match
            self.header = match_fields(self.match)
            board.fields.update(self.header)
        elif tag in _FIELD_TAGS:
            board.fields[tag] = value
            # The event and teams head a board, as the vg header does; the rest state it.
            board.stated = board.stated or tag not in _HEADER_TAGS
        elif _PBN_NAME.fullmatch(tag):
            board.notes.append((tag, value))
            return True
        else:
            board.notes.append((f"LIN_{tag}", value))
            return True
        return False


def _row(board: _Board, value: str, after_note: bool) -> bool:
    """A ``+`` row: one more line of the note just read."""
    if not after_note:
        raise NotationError(
            f"a row with no kept tag before it: expected {ROW_TAG}| only right after a "
            "tag such as OptimumResultTable| or another row"
        )
    # Joined when the board is done, so that many rows cost no more than their length.
    board.rows.setdefault(len(board.notes) - 1, []).append(value)
    return True


def lin_from_link(text: str) -> str:
    """The LIN record inside a handviewer link (``...handviewer.html?lin=...``)."""
    query = urlsplit(text.strip()).query
    values = parse_qs(query, keep_blank_values=True).get("lin")
    if not values:
        raise NotationError(
            f"link {text[:60]!r} has no 'lin=' parameter: expected a BBO handviewer link"
        )
    return values[0]


# A handviewer link's other form: each hand its own parameter (n=, e=, s=, w=).
_HAND_LINK = re.compile(r"(?i)\s*(?:https?://|www\.)\S*[?&][nesw]=")
_LINK_SEATS = {"s": 1, "w": 2, "n": 3, "e": 4}  # md's digit of each dealer
_LINK_VULNERABILITY = {"-": "o", "o": "o", "0": "o", "none": "o", "n": "n", "ns": "n"}
_LINK_VULNERABILITY |= {"e": "e", "ew": "e", "b": "b", "both": "b", "all": "b"}
_LINK_CALL = re.compile(r"(?i)[1-7](?:nt|[cdhsn])|[pdr]")
_LINK_CARD = re.compile(r"(?i)[cdhs](?:10|[2-9tjqka])")


def is_hand_link(text: str) -> bool:
    """Whether ``text`` is a handviewer link of the form with a parameter a hand
    (``handviewer.html?n=s...&e=...&s=...&w=...&d=n&v=b``).

    >>> is_hand_link("https://www.bridgebase.com/tools/handviewer.html?n=sakq&d=n")
    True
    """
    return _HAND_LINK.match(text) is not None and "lin=" not in text


def lin_from_hand_link(text: str) -> tuple[str, bool]:
    """The LIN record a handviewer link of the form with a parameter a hand says:
    its hands (``n=``, ``e=``, ``s=``, ``w=``: suits in any order, ``10`` or ``t``
    for the ten; one left out holds the rest of the pack), dealer ``d``
    (n, e, s, w), vulnerability ``v`` (``-`` none, n, e, b), board ``b``, auction
    ``a`` (``1nppp``), play ``p`` (``sqsa...``) and the players ``nn``, ``en``,
    ``sn``, ``wn``; and whether the link names its dealer (md needs one: else
    the board's, or North's).

    Raises :class:`~bridgescore.NotationError` for a value that is not of its form.
    """
    values = {
        name.lower(): value[0]
        for name, value in parse_qs(urlsplit(text.strip()).query, keep_blank_values=True).items()
    }
    board = values.get("b", "").strip()
    if board and not (board.isascii() and board.isdigit() and len(board) <= 4):
        raise NotationError(f"the link's board (b) {board!r}: expected a board number")
    dealer = values.get("d", "").strip().lower()[:1]
    named = dealer in _LINK_SEATS
    if dealer and not named:
        raise NotationError(f"the link's dealer (d) {values['d']!r}: expected n, e, s or w")
    if not named:
        dealer = "nesw"[(int(board) - 1) % 4] if board and int(board) >= 1 else "n"
    hands = ",".join(values.get(seat, "").strip() for seat in "swne")
    parts = [f"md|{_LINK_SEATS[dealer]}{hands}|"]
    vulnerable = values.get("v", "").strip().lower()
    if vulnerable:
        if vulnerable not in _LINK_VULNERABILITY:
            raise NotationError(
                f"the link's vulnerability (v) {values['v']!r}: expected -, n, e or b"
            )
        parts.append(f"sv|{_LINK_VULNERABILITY[vulnerable]}|")
    if board:
        parts.append(f"ah|Board {int(board)}|")
    names = [values.get(f"{seat}n", "").replace(",", " ").replace("|", " ") for seat in "swne"]
    if any(names):
        parts.insert(0, f"pn|{','.join(name.strip() for name in names)}|")
    parts.extend(f"mb|{call}|" for call in _link_tokens(values.get("a", ""), _LINK_CALL, "a"))
    parts.extend(f"pc|{card}|" for card in _link_tokens(values.get("p", ""), _LINK_CARD, "p"))
    return "".join(parts), named


def _link_tokens(text: str, token: re.Pattern[str], name: str) -> list[str]:
    tokens: list[str] = []
    position = 0
    text = text.strip()
    while position < len(text):
        match = token.match(text, position)
        if match is None:
            raise NotationError(
                f"{name}={text[:40]!r}: unexpected {text[position : position + 8]!r} at "
                f"character {position + 1}"
            )
        tokens.append(match[0])
        position = match.end()
    return tokens


def read_lin(source: str | Iterable[str], file: str | None = None) -> Iterator[BoardRecord]:
    """Board records of LIN text: hand records (one board a line), a vugraph archive
    or a handviewer link (either form: ``lin=``, or a parameter a hand). Never raises
    on bad input: problems go on their record."""
    text = source if isinstance(source, str) else "".join(source)
    stripped = text.strip()
    named = True
    try:
        if stripped.lower().startswith(("http://", "https://", "www.")) and "lin=" in stripped:
            text = lin_from_link(stripped)
        elif is_hand_link(stripped):
            text, named = lin_from_hand_link(stripped)
    except BridgeError as error:
        yield BoardRecord(source=Source(file, 1, 1), problems=(Problem(1, str(error)),))
        return
    for record in _Reader(file).read(text):
        # A link that names no dealer states none: the board's number says it (Law 2).
        yield record if named else replace(record, dealer_seat=None)

"""Bridgemate's scoring database (BWS) into an event, read-only.

A BWS file is the Access database Bridgemate Control Software and the scoring programs
share. It is read in two steps, the second tested on rows written by hand:
:func:`~bridgescore.session.importers.accessdb.read_bws_tables` reads the tables as
plain rows, and :func:`bws_event`, a pure function, makes the event's records of them.

- ``Section`` (``ID``, ``Letter``): one section's results are kept without a section
  name, as a live event keeps them; several sections' under their letters.
- ``RoundData``: each table and round's ``NSPair``, ``EWPair`` and ``LowBoard`` to
  ``HighBoard``. Pairs are ``3N`` and ``3E`` (as a Mitchell made here names them) in a
  section where a round seats one number both ways or the NS and EW numbers never
  meet; else (a Howell) ``3``. The section's movement is made of these rows.
- ``ReceivedData``: ``Contract`` ``3 NT``, ``4 S x`` or ``PASS``; ``NS/EW`` the declarer's
  seat (``Declarer``, the pair's number, is checked against it); ``Result`` ``=``, ``+2``,
  ``-1``; ``LeadCard`` such as ``H10``; ``Remarks``: ``Not played`` (left out),
  ``60%-40%`` (fixed percentages, 40, 50 or 60 a side), ``Arbitral score`` (a problem:
  the file does not say which score), ``Wrong direction`` (the pairs sat the other way
  round). A ``Contract`` such as ``A+`` or ``Avg-`` is an adjusted score. ``Erased``
  rows are skipped; a later row (``DateLog``, ``TimeLog``, then ``ID``) for the same
  section, table, round and board replaces an earlier one, as Bridgemate does. A
  result's origin is its row's ``ID``.
- ``PlayerNumbers``: ``Number`` and ``Name`` by section, table, direction and ``Round``
  (0: as they sat down), given to the pair seated there (a missing name looked up in
  ``PlayerNames`` by ``strID``); ``HandRecord``: the sixteen holdings of each board.
- ``BiddingData`` and ``PlayData``: the calls and cards, in ``Counter`` order, read into
  :attr:`BwsImport.auctions` and :attr:`BwsImport.plays`, which the event file keeps
  beside each result (``table_play``) for ``bridgescore analyse``; the play's first card
  is the lead of a result without one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from bridgescore.auction import Call
from bridgescore.board import Board
from bridgescore.core import Seat
from bridgescore.deal import Card, Deal
from bridgescore.errors import BridgeError, MovementError, RecordError
from bridgescore.formats.record import Problem
from bridgescore.movement.model import Movement, Row, Sitout
from bridgescore.notation import Result, means_passed_out, parse_result
from bridgescore.session.importers.accessdb import (
    Cell,
    cell_number,
    cell_text,
    cell_whole,
    read_bws_tables,
)
from bridgescore.session.importers.parsed import BoardsStated, Parsed, line_problem
from bridgescore.session.scoring.adjustment import read_adjusted
from bridgescore.session.scoring.event import Adjusted, Member, TableResult, participant_key
from bridgescore.session.store.events import Origin, TablePlay
from bridgescore.validate import date_text, quoted

__all__ = [
    "BwsImport",
    "BwsTables",
    "bws_event",
    "read_bws_event",
]

#: The tables of a BWS file by name, each a sequence of rows (column -> cell).
BwsTables = Mapping[str, Sequence[Mapping[str, Cell]]]
#: A stored result's key: (section, board, NS pair, EW pair).
ResultKey = tuple[str, int, str, str]
_Step = TypeVar("_Step", Call, Card)

_CONTRACT = re.compile(r"(?P<level>[1-7])\s*(?P<strain>NT|N|S|H|D|C)\s*(?P<doubling>X{0,2})", re.I)
_RESULT = re.compile(r"=|[+-](?:[1-9]|1[0-3])")
_PERCENTAGES = re.compile(r"(?P<ns>\d{1,3})\s*%\s*[-/]\s*(?P<ew>\d{1,3})\s*%")
_NOT_PLAYED = re.compile(r"not\s*played", re.I)
_ARBITRAL = re.compile(r"arbitral(?:\s+score)?", re.I)
_WRONG_WAY = re.compile(r"wrong\s+direction", re.I)
_SEATS = {"N": Seat.NORTH, "E": Seat.EAST, "S": Seat.SOUTH, "W": Seat.WEST}
_HANDS = ("North", "East", "South", "West")
_SUITS = ("Spades", "Hearts", "Diamonds", "Clubs")


# ------------------------------------------------------------------ rows to records


@dataclass(slots=True)
class BwsImport:
    """A BWS file read into event records.

    ``parsed`` holds the results, hand records, players, problems and notes;
    ``movements`` each section's movement by its letter; ``leads`` the opening lead of
    each result that has one (by the result's key); ``auctions`` and ``plays`` the
    calls and cards a table entered, in their order, by the result's key (the event
    file keeps them for ``bridgescore analyse``).
    """

    parsed: Parsed
    name: str = ""
    date: str = ""  # the Session table's Date, year-month-day ("" when it has none)
    movements: dict[str, Movement] = field(default_factory=dict)
    leads: dict[ResultKey, Card] = field(default_factory=dict)
    auctions: dict[ResultKey, tuple[Call, ...]] = field(default_factory=dict)
    plays: dict[ResultKey, tuple[Card, ...]] = field(default_factory=dict)

    def table_plays(self) -> dict[ResultKey, TablePlay]:
        """The auction and play of each result that has either, as the event file keeps them."""
        return {
            key: TablePlay(self.auctions.get(key, ()), self.plays.get(key, ()))
            for key in sorted(self.auctions.keys() | self.plays.keys())
        }


def read_bws_event(data: bytes, source: str) -> BwsImport:
    """Read a BWS file's bytes into event records: :func:`~bridgescore.session.importers.
    accessdb.read_bws_tables`, then :func:`bws_event`, raising as the reader does."""
    return bws_event(read_bws_tables(data, source), source)


@dataclass(frozen=True, slots=True)
class _Section:
    """A section as the results name it: its letter, the name its results are kept
    under (``""`` in an event of one section) and whether its pairs have directions."""

    letter: str
    stored: str
    directional: bool

    def pair(self, number: int, direction: str) -> str:
        return f"{number}{direction}" if self.directional else str(number)

    def where(self, table: int, round_number: int) -> str:
        shown = f"section {self.letter}, " if self.stored else ""
        return f"{shown}table {table}, round {round_number}"


def bws_event(tables: BwsTables, source: str) -> BwsImport:
    """The event's records from a BWS file's rows (as :func:`read_bws_tables` gives them).

    Pure: each row that cannot be read is a problem naming the table and row (its
    ``ID``, or its section, table and round), and the rest is read.
    """
    parsed = Parsed()
    out = BwsImport(parsed)
    reader = _Reader(tables, source, out)
    sections = reader.sections()
    out.name = next((cell_text(row.get("Name")) for row in tables.get("Session", ())), "")
    out.date = _session_date(tables, source, parsed)
    rounds = reader.rounds(sections)
    out.movements = reader.movements(sections, rounds)
    stated = BoardsStated(source, parsed)
    reader.hand_records(sections, stated)
    entries = reader.results(sections, rounds)
    reader.members(sections, rounds)
    reader.auctions_and_play(entries)
    return out


def _session_date(tables: BwsTables, source: str, parsed: Parsed) -> str:
    """The day of the Session table's first row (``Date``, read as ``2026-01-19 00:00:00``),
    or ``""`` (with a note when it holds something else)."""
    written = next((cell_text(row.get("Date")) for row in tables.get("Session", ())), "")
    if not written:
        return ""
    try:
        return date_text(written[:10], "Date", error=RecordError)
    except RecordError:
        parsed.notes.append(
            f"{source}: the Session table's Date {quoted(written)} is not a date: "
            "the event is left undated"
        )
        return ""


@dataclass(frozen=True, slots=True)
class _Entry:
    """A result read from ReceivedData, with the section, table and round it was entered at."""

    result: TableResult
    place: tuple[int, int, int]


class _Reader:
    """The reading of one file's rows, table by table, into one :class:`BwsImport`."""

    def __init__(self, tables: BwsTables, source: str, out: BwsImport) -> None:
        self.tables, self.source, self.out = tables, source, out
        self.parsed = out.parsed

    def problem(self, message: str) -> None:
        self.parsed.problems.append(line_problem(self.source, 0, message))

    def check(self, message: str) -> None:
        self.parsed.checks.append(Problem(0, message, file=self.source))

    def rows(self, table: str) -> Iterator[tuple[str, Mapping[str, Cell]]]:
        """Each row of ``table`` with the words naming it: ``ReceivedData ID 7``, or
        ``RoundData row 3`` in a table without IDs."""
        for number, row in enumerate(self.tables.get(table, ()), start=1):
            row_id = row.get("ID")
            yield (f"{table} ID {row_id}" if row_id is not None else f"{table} row {number}"), row

    # ---- sections and the movement

    def sections(self) -> dict[int, _Section]:
        letters: dict[int, str] = {}
        for where, row in self.rows("Section"):
            try:
                number = cell_whole(row, "ID", where)
            except RecordError as error:
                self.problem(str(error))
                continue
            letters[number] = cell_text(row.get("Letter")) or str(number)
        for table in ("RoundData", "ReceivedData"):  # a section the Section table lacks
            for _, row in self.rows(table):
                given = cell_number(row, "Section")
                if given is not None:
                    letters.setdefault(given, str(given))
        one = len(letters) == 1
        return {
            number: _Section(letter, "" if one else letter, self._directional(number))
            for number, letter in sorted(letters.items())
        }

    def _directional(self, section: int) -> bool:
        """Whether the section's pairs keep a direction (see the module's docstring)."""
        seats: list[tuple[int, int, int]] = []
        for table in ("RoundData", "ReceivedData"):
            ns, ew = ("NSPair", "EWPair") if table == "RoundData" else ("PairNS", "PairEW")
            for _, row in self.rows(table):
                if cell_number(row, "Section") != section:
                    continue
                pairs = (cell_number(row, "Round"), cell_number(row, ns), cell_number(row, ew))
                if all(value is not None and value > 0 for value in pairs):
                    seats.append(pairs)  # type: ignore[arg-type]
            if seats:
                break
        ns_numbers = {(r, n) for r, n, _ in seats}
        ew_numbers = {(r, e) for r, _, e in seats}
        if ns_numbers & ew_numbers:
            return True
        return not ({n for _, n in ns_numbers} & {e for _, e in ew_numbers})

    def rounds(self, sections: Mapping[int, _Section]) -> dict[tuple[int, int, int], Row]:
        """RoundData's rows by (section, table, round), pairs named as the results are."""
        out: dict[tuple[int, int, int], Row] = {}
        columns = ("Section", "Table", "Round", "NSPair", "EWPair", "LowBoard", "HighBoard")
        for where, row in self.rows("RoundData"):
            try:
                number, table, round_number, ns, ew, low, high = (
                    cell_whole(row, column, "") for column in columns
                )
                section = _section(sections, number)
                if ns == 0 or ew == 0:
                    continue  # the missing pair's place: the other pair sits out
                if not 1 <= low <= high:
                    raise RecordError(f"boards {low} to {high}: expected low to high")
                out[(number, table, round_number)] = Row(
                    round_number,
                    table,
                    section.pair(ns, "N"),
                    section.pair(ew, "E"),
                    tuple(range(low, high + 1)),
                )
            except BridgeError as error:
                self.problem(f"{where}: {error}")
        return out

    def movements(
        self, sections: Mapping[int, _Section], rounds: Mapping[tuple[int, int, int], Row]
    ) -> dict[str, Movement]:
        out: dict[str, Movement] = {}
        for number, section in sections.items():
            rows = [row for (s, _, _), row in rounds.items() if s == number]
            if not rows:
                continue
            pairs = {pair for row in rows for pair in row.pairs}
            last = max(row.round for row in rows)
            sitouts = [
                Sitout(round_number, pair)
                for round_number in range(1, last + 1)
                for pair in sorted(
                    pairs - {p for r in rows if r.round == round_number for p in r.pairs}
                )
            ]
            try:
                out[section.letter] = Movement(
                    "mitchell" if section.directional else "howell",
                    max(row.table for row in rows),
                    last,
                    max(len(row.boards) for row in rows),
                    tuple(rows),
                    tuple(sitouts),
                    section=section.letter,
                )
            except MovementError as error:
                self.problem(f"section {section.letter}'s movement (RoundData): {error}")
        return out

    def hand_records(self, sections: Mapping[int, _Section], stated: BoardsStated) -> None:
        for where, row in self.rows("HandRecord"):
            try:
                board = cell_whole(row, "Board", "")
                hands = [
                    ".".join(_holding(row.get(f"{hand}{suit}"), f"{hand}{suit}") for suit in _SUITS)
                    for hand in _HANDS
                ]
                if not any(hands_text.strip(".") for hands_text in hands):
                    continue  # a board the scorer left without its hands
                deal = Deal.from_pbn("N:" + " ".join(hands))
                stated.add(Board(board, deal), 0)
            except BridgeError as error:
                self.problem(f"{where}: {error}")

    # ---- results

    def results(
        self,
        sections: Mapping[int, _Section],
        rounds: Mapping[tuple[int, int, int], Row],
    ) -> list[_Entry]:
        latest: dict[
            tuple[int, int, int, int], tuple[tuple[str, str, int], str, Mapping[str, Cell]]
        ] = {}
        erased = replaced = 0
        for where, row in self.rows("ReceivedData"):
            if _erased(row):
                erased += 1
                continue
            try:
                key = _place(row, where)
                order = (
                    cell_text(row.get("DateLog"))[:10],
                    _time_of(row.get("TimeLog")),
                    cell_whole(row, "ID", where),
                )
            except RecordError as error:
                self.problem(str(error))
                continue
            if key in latest:
                replaced += 1
                if order < latest[key][0]:
                    continue
            latest[key] = (order, where, row)
        notes = self.parsed.notes
        if erased:
            notes.append(f"{self.source}: {erased} erased row(s) of ReceivedData skipped")
        if replaced:
            notes.append(
                f"{self.source}: {replaced} row(s) of ReceivedData replaced by a later entry "
                "for the same table, round and board (as Bridgemate does)"
            )
        entries: list[_Entry] = []
        not_played: list[str] = []
        for (number, table, round_number, board), (order, where, row) in sorted(
            latest.items(), key=lambda item: item[1][0][2]
        ):
            section = sections.get(number)
            if section is None:
                self.problem(f"{where}: section {number} is not in the Section table")
                continue
            context = f"{where} ({section.where(table, round_number)}, board {board})"
            try:
                entry = self._result(row, section, board, context)
            except BridgeError as error:
                self.problem(f"{context}: {error}")
                continue
            if entry is None:
                not_played.append(f"{section.where(table, round_number)}, board {board}")
                continue
            result, lead = entry
            self._against_movement(rounds.get((number, table, round_number)), result, context)
            self.parsed.results.append((result, Origin(self.source, order[2])))
            if lead is not None:
                self.out.leads[result.key] = lead
            entries.append(_Entry(result, (number, table, round_number)))
        if not_played:
            shown = "; ".join(not_played[:5]) + ("; ..." if len(not_played) > 5 else "")
            notes.append(
                f"{self.source}: {len(not_played)} board(s) marked not played, left out ({shown})"
            )
        return entries

    def _result(
        self,
        row: Mapping[str, Cell],
        section: _Section,
        board: int,
        context: str,
    ) -> tuple[TableResult, Card | None] | None:
        """One ReceivedData row as a result and its lead; ``None``: not played."""
        ns_number, ew_number = (
            cell_whole(row, "PairNS", ""),
            cell_whole(row, "PairEW", ""),
        )
        ns, ew = section.pair(ns_number, "N"), section.pair(ew_number, "E")
        contract = cell_text(row.get("Contract"))
        remarks = cell_text(row.get("Remarks"))
        stored = section.stored
        if _NOT_PLAYED.fullmatch(remarks):
            return None
        percentages = _PERCENTAGES.fullmatch(remarks)
        if percentages:
            try:
                adjusted = read_adjusted(f"{percentages['ns']}/{percentages['ew']}")
            except BridgeError:
                adjusted = None
            if adjusted is None:
                raise RecordError(
                    f"remark {quoted(remarks)}: expected an adjusted score of 40, 50 or 60 "
                    "percent to each side, such as 60%-40%"
                )
            return TableResult(board, ns, ew, adjusted=adjusted, section=stored), None
        if _ARBITRAL.fullmatch(remarks):
            raise RecordError(
                "an arbitral score, which the database does not give: enter the director's "
                "score with 'bridgescore session correct'"
            )
        if means_passed_out(contract):
            return TableResult(board, ns, ew, result=Result(None), section=stored), None
        if contract and Adjusted.looks_like(contract):
            adjusted = read_adjusted(contract)
            if adjusted is None:
                return None
            return TableResult(board, ns, ew, adjusted=adjusted, section=stored), None
        played = self._played(row, contract, ns_number, ew_number, context)
        if _WRONG_WAY.fullmatch(remarks):
            ns, ew = ew, ns
            self.parsed.notes.append(
                f"{self.source}: {context}: marked 'Wrong direction': scored with pair {ns} "
                f"North-South and pair {ew} East-West, as they sat"
            )
        elif remarks:
            self.parsed.notes.append(f"{self.source}: {context}: remark {quoted(remarks)}")
        result = TableResult(board, ns, ew, result=played, section=stored)
        return result, _lead(row.get("LeadCard"))

    def _played(
        self, row: Mapping[str, Cell], contract: str, ns: int, ew: int, context: str
    ) -> Result:
        found = _CONTRACT.fullmatch(contract)
        if not found:
            raise RecordError(
                f"contract {quoted(contract)}: expected such as '3 NT', '4 S x' or 'PASS', "
                "or a remark saying what the director gave"
            )
        seat_text = cell_text(row.get("NS/EW")).upper()
        if seat_text not in _SEATS:
            raise RecordError(f"declarer {quoted(seat_text)} (NS/EW): expected N, E, S or W")
        outcome = cell_text(row.get("Result")).replace(" ", "")
        if not _RESULT.fullmatch(outcome):
            raise RecordError(
                f"result {quoted(outcome)}: expected '=', '+1' to '+6' or '-1' to '-13'"
            )
        strain = found["strain"].upper()
        text = f"{found['level']}{'NT' if strain == 'N' else strain}{found['doubling'].upper()}"
        played = parse_result(f"{text}{seat_text}{outcome}")
        declaring = cell_number(row, "Declarer")
        side = ns if _SEATS[seat_text] in (Seat.NORTH, Seat.SOUTH) else ew
        if declaring not in (None, 0, side):
            self.check(
                f"{context}: declarer pair {declaring} is not the pair in seat {seat_text} "
                f"({side}): read as declared from {seat_text}"
            )
        return played

    def _against_movement(self, row: Row | None, result: TableResult, context: str) -> None:
        """A result the movement does not seat there is kept, and the difference listed."""
        if row is None:
            return
        if set(row.pairs) != {result.ns, result.ew}:
            self.check(
                f"{context}: entered for {result.ns} v {result.ew}, the movement seats "
                f"{row.ns} v {row.ew} there"
            )
        elif result.board not in row.boards:
            self.check(f"{context}: board {result.board} is not one the movement gives that table")

    def members(
        self, sections: Mapping[int, _Section], rounds: Mapping[tuple[int, int, int], Row]
    ) -> None:
        names = {
            cell_text(row.get("strID")): cell_text(row.get("Name"))
            for _, row in self.rows("PlayerNames")
            if cell_text(row.get("strID"))
        }
        # (participant) -> seat letter -> (round, member): a pair's players as first seen.
        seen: dict[str, dict[str, tuple[int, Member]]] = {}
        for where, row in self.rows("PlayerNumbers"):
            try:
                number, table = cell_whole(row, "Section", ""), cell_whole(row, "Table", "")
                section = _section(sections, number)
                round_number = max(cell_number(row, "Round") or 0, 1)
                seat = cell_text(row.get("Direction")).upper()
                if seat not in _SEATS:
                    raise RecordError(f"direction {quoted(seat)}: expected N, E, S or W")
            except RecordError as error:
                self.problem(f"{where}: {error}")
                continue
            member_number = cell_text(row.get("Number"))
            name = cell_text(row.get("Name")) or names.get(member_number, "")
            if not (name or member_number):
                continue
            seated = rounds.get((number, table, round_number))
            if seated is None:
                self.problem(
                    f"{where}: {section.where(table, round_number)} is not in the movement "
                    "(RoundData): the player cannot be given a pair"
                )
                continue
            pair = seated.ns if seat in "NS" else seated.ew
            key = participant_key(section.stored, pair)
            players = seen.setdefault(key, {})
            if seat not in players or round_number < players[seat][0]:
                players[seat] = (round_number, Member(name, member_number))
        for key, players in seen.items():
            order = [seat for seat in "NSEW" if seat in players]
            self.parsed.members[key] = tuple(players[seat][1] for seat in order)

    # ---- auctions and play

    def auctions_and_play(self, entries: Iterable[_Entry]) -> None:
        at = {(*e.place, e.result.board): e.result for e in entries}
        self.out.auctions = self._sequences("BiddingData", "Bid", at, _call)
        self.out.plays = self._sequences("PlayData", "Card", at, _card)
        for key, cards in self.out.plays.items():
            if cards and key not in self.out.leads:
                self.out.leads[key] = cards[0]
        if self.out.auctions or self.out.plays:
            self.parsed.notes.append(
                f"{self.source}: the auctions of {len(self.out.auctions)} and the play of "
                f"{len(self.out.plays)} result(s) read (BiddingData, PlayData), kept for "
                "'bridgescore analyse EVENT'"
            )

    def _sequences(
        self,
        table: str,
        column: str,
        at: Mapping[tuple[int, int, int, int], TableResult],
        read: Callable[[str, str], _Step],
    ) -> dict[ResultKey, tuple[_Step, ...]]:
        """The calls or cards of each result's table in their ``Counter`` order."""
        steps: dict[ResultKey, list[tuple[int, int, _Step]]] = {}
        for where, row in self.rows(table):
            if _erased(row):
                continue
            try:
                section, table_number, round_number, board = _place(row, where)
                result = at.get((section, table_number, round_number, board))
                if result is None:
                    continue  # a table's entries for a result not kept
                counter = cell_whole(row, "Counter", where)
                value = read(cell_text(row.get(column)), f"{where}: {column}")
            except BridgeError as error:
                self.problem(str(error))
                continue
            steps.setdefault(result.key, []).append((counter, cell_number(row, "ID") or 0, value))
        return {
            key: tuple(value for _, _, value in sorted(found, key=lambda step: step[:2]))
            for key, found in steps.items()
        }


# ------------------------------------------------------------------ cells


def _section(sections: Mapping[int, _Section], number: int) -> _Section:
    found = sections.get(number)
    if found is None:
        raise RecordError(f"section {number} is not in the Section table")
    return found


def _erased(row: Mapping[str, Cell]) -> bool:
    return row.get("Erased") is True or row.get("Erased") == 1


def _place(row: Mapping[str, Cell], where: str) -> tuple[int, int, int, int]:
    """Where a row was entered: its section, table, round and board numbers."""
    return (
        cell_whole(row, "Section", where),
        cell_whole(row, "Table", where),
        cell_whole(row, "Round", where),
        cell_whole(row, "Board", where),
    )


def _time_of(value: Cell) -> str:
    """The time of day of a TimeLog (Access keeps it on 1899-12-30), as ``HH:MM:SS``."""
    text = cell_text(value)
    return text[11:19] if len(text) >= 19 else text


def _holding(value: Cell, where: str) -> str:
    """One suit of a HandRecord row, as PBN writes it: ``AKT2`` (``10`` read as ``T``)."""
    text = cell_text(value).upper().replace("10", "T")
    text = re.sub(r"[\s\-]", "", text)
    if not re.fullmatch(r"[AKQJT98765432]*", text):
        raise RecordError(f"{where} {quoted(value)}: expected the cards of one suit, such as AKT2")
    return text


def _lead(value: Cell) -> Card | None:
    text = cell_text(value)
    if not text or text.upper() == "SKIP":  # the table was not asked for the lead
        return None
    return _card(text, "LeadCard")


def _card(text: str, where: str) -> Card:
    try:
        return Card.parse(text)
    except BridgeError:
        raise RecordError(f"{where} {quoted(text)}: expected a card such as H10 or SA") from None


def _call(text: str, where: str) -> Call:
    try:
        return Call.parse(re.sub(r"\s+", "", text))
    except BridgeError:
        raise RecordError(
            f"{where} {quoted(text)}: expected a call such as 1NT, PASS, X or XX"
        ) from None

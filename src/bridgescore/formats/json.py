"""Board records as JSON: every field of a record, so that nothing is lost.

A file is a JSON list of objects (one per board); a single object is read as a
list of one. Names and values:

``board`` (int), ``dealer`` (``N``), ``vulnerable`` (PBN: ``None``, ``NS``,
``EW``, ``All``), ``deal`` (PBN deal), ``players`` (``{"N": ..}``), ``event``,
``home_team``, ``visit_team``, ``table``, ``room`` (``open``/``closed``),
``auction`` (list of ``{"call", "alerted", "explanation"}``), ``play`` (cards
in the order played), ``claim``, ``contract`` (``4HX``, ``Pass``), ``declarer``,
``result`` (declarer's tricks), ``adjusted`` (true: the director's result),
``scores`` (``{"ScoreIMP": ..}``),
``dd_tricks``, ``optimum_score``, ``notes`` (list of ``[name, value]``),
``match`` (a vugraph header: ``{"event", "segment", "scoring", "first_board",
"last_board", "home_team", "home_carry", "visit_team", "visit_carry", "extra"}``,
carried-over scores as text such as ``"12.5"``, so they stay exact).
Absent or null fields are unknown.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

from bridgescore.auction import Call
from bridgescore.core import Contract, Seat, Vulnerability
from bridgescore.deal import Card, Deal
from bridgescore.errors import BridgeError, NotationError
from bridgescore.formats.record import BoardRecord, MatchHeader, Problem, RecordedCall, Source
from bridgescore.validate import is_whole_number, whole_number_arg

__all__ = ["finite", "format_json", "read_json", "record_from_dict", "record_to_dict"]

_SEATS = ("N", "E", "S", "W")


def finite(value: Any, replaced: list[str] | None = None, where: str = "") -> Any:
    """``value`` (dicts, lists and tuples of JSON values) with every NaN and infinity
    replaced by ``None``: JSON has neither (Python's ``json`` writes them, other readers
    refuse the document). Each replaced place (``mean.tricks``, ``[2]``) is added to
    ``replaced`` when given.

    >>> finite({"mean": 9.5, "error": float("nan"), "runs": [1.0, float("inf")]})
    {'mean': 9.5, 'error': None, 'runs': [1.0, None]}
    """
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        if replaced is not None:
            replaced.append(where or "the value")
        return None
    if isinstance(value, dict):
        return {
            key: finite(item, replaced, f"{where}.{key}" if where else str(key))
            for key, item in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [finite(item, replaced, f"{where}[{index}]") for index, item in enumerate(value)]
    return value


def record_to_dict(record: BoardRecord) -> dict[str, Any]:
    """A JSON-ready dict of every field of ``record`` (unknown fields left out)."""
    data: dict[str, Any] = {}
    if record.board is not None:
        data["board"] = record.board
    if record.dealer_seat is not None:
        data["dealer"] = record.dealer_seat.letter
    if record.vulnerable is not None:
        data["vulnerable"] = record.vulnerable.to_pbn()
    if record.deal is not None:
        data["deal"] = record.deal.to_pbn()
    if any(record.players):
        data["players"] = {
            letter: name for letter, name in zip(_SEATS, record.players, strict=True) if name
        }
    for name in ("event", "home_team", "visit_team", "table"):
        if getattr(record, name):
            data[name] = getattr(record, name)
    if record.room is not None:
        data["room"] = record.room
    if record.auction is not None:
        data["auction"] = [
            {"call": call.call, "alerted": call.alerted, "explanation": call.explanation}
            for call in record.auction
        ]
    if record.play is not None:
        data["play"] = [str(card) for card in record.play]
    if record.claim is not None:
        data["claim"] = record.claim
    if record.contract_text is not None:
        data["contract"] = record.contract_text
    if record.contract is not None and record.contract.declarer is not None:
        data["declarer"] = record.contract.declarer.letter
    if record.result is not None:
        data["result"] = record.result
    if record.adjusted:
        data["adjusted"] = True
    if record.scores:
        data["scores"] = dict(record.scores)
    if record.dd_tricks:
        data["dd_tricks"] = record.dd_tricks
    if record.optimum_score:
        data["optimum_score"] = record.optimum_score
    if record.notes:
        data["notes"] = [[name, value] for name, value in record.notes]
    if record.match is not None:
        data["match"] = _match_dict(record.match)
    return data


def _match_dict(match: MatchHeader) -> dict[str, Any]:
    data: dict[str, Any] = {
        "event": match.event,
        "segment": match.segment,
        "scoring": match.scoring,
        "first_board": match.first_board,
        "last_board": match.last_board,
        "home_team": match.home_team,
        "home_carry": None if match.home_carry is None else str(match.home_carry),
        "visit_team": match.visit_team,
        "visit_carry": None if match.visit_carry is None else str(match.visit_carry),
    }
    if match.extra:
        data["extra"] = list(match.extra)
    return data


def _match(data: Any) -> MatchHeader:
    if not isinstance(data, dict):
        raise NotationError(f"match {str(data)[:40]!r}: expected an object")
    texts = ("event", "segment", "scoring", "home_team", "visit_team")
    known = {*texts, "first_board", "last_board", "home_carry", "visit_carry", "extra"}
    if set(data) - known:
        raise NotationError(f"match: unknown field(s) {sorted(set(data) - known)}")
    boards = []
    for name in ("first_board", "last_board"):
        value = data.get(name)
        if value is not None:
            whole_number_arg(value, f"match {name}", error=NotationError)
        boards.append(value)
    carries = []
    for name in ("home_carry", "visit_carry"):
        carries.append(MatchHeader.carry_of(_text(data, name), name))
    extra = data.get("extra") or []
    if not isinstance(extra, list) or not all(isinstance(x, str) for x in extra):
        raise NotationError("match extra: expected a list of text")
    return MatchHeader(
        event=_text(data, "event"),
        segment=_text(data, "segment"),
        scoring=_text(data, "scoring"),
        first_board=boards[0],
        last_board=boards[1],
        home_team=_text(data, "home_team"),
        visit_team=_text(data, "visit_team"),
        home_carry=carries[0],
        visit_carry=carries[1],
        extra=tuple(extra),
    )


def _text(data: dict[str, Any], name: str) -> str:
    value = data.get(name, "")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise NotationError(f"{name} {value!r} is not text")
    return value


def _tricks(data: dict[str, Any], name: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    return whole_number_arg(value, name, 0, 13, error=NotationError)


def record_from_dict(data: Any, source: Source | None = None) -> BoardRecord:
    """The record a dict of :func:`record_to_dict` describes.

    Raises a :class:`~bridgescore.BridgeError` naming the first field it cannot read.
    """
    if not isinstance(data, dict):
        raise NotationError(f"expected an object for a board, got {str(data)[:40]!r}")
    unknown = set(data) - {
        "board", "dealer", "vulnerable", "deal", "players", "event", "home_team",
        "visit_team", "table", "room", "auction", "play", "claim", "contract",
        "declarer", "result", "adjusted", "scores", "dd_tricks", "optimum_score", "notes",
        "match",
    }  # fmt: skip
    if unknown:
        raise NotationError(f"unknown field(s) {sorted(unknown)}: see docs/formats.md")
    board = data.get("board")
    if board is not None:
        whole_number_arg(board, "board", 1, error=NotationError)
    dealer = None if data.get("dealer") is None else Seat.parse(_text(data, "dealer"))
    vulnerable = data.get("vulnerable")
    vulnerability = (
        None if vulnerable is None else Vulnerability.from_pbn(_text(data, "vulnerable"))
    )
    deal = None if data.get("deal") is None else Deal.from_pbn(_text(data, "deal"))
    players_data = data.get("players") or {}
    if not isinstance(players_data, dict) or set(players_data) - set(_SEATS):
        raise NotationError(f"players {players_data!r}: expected an object keyed N, E, S, W")
    players = tuple(_text(players_data, letter) for letter in _SEATS)
    room = data.get("room")
    if room not in (None, "open", "closed"):
        raise NotationError(f"room {room!r}: expected 'open', 'closed' or null")
    auction = None
    if data.get("auction") is not None:
        calls = data["auction"]
        if not isinstance(calls, list):
            raise NotationError("auction: expected a list of calls")
        auction = tuple(_call(call) for call in calls)
    play = None
    if data.get("play") is not None:
        cards = data["play"]
        if not isinstance(cards, list) or not all(isinstance(card, str) for card in cards):
            raise NotationError("play: expected a list of cards such as 'SA'")
        play = tuple(Card.parse(card) for card in cards)
    contract_text = _text(data, "contract")
    passed_out = contract_text.upper() == "PASS"
    contract = None
    if contract_text and not passed_out:
        contract = Contract.parse(contract_text)
        if data.get("declarer") is not None:
            contract = contract.with_declarer(Seat.parse(_text(data, "declarer")))
    scores = data.get("scores") or {}
    notes = data.get("notes") or []
    if not isinstance(scores, dict) or not all(isinstance(v, str) for v in scores.values()):
        raise NotationError("scores: expected an object of tag -> text")
    if not isinstance(notes, list) or not all(
        isinstance(note, list) and len(note) == 2 and all(isinstance(x, str) for x in note)
        for note in notes
    ):
        raise NotationError("notes: expected a list of [name, value] pairs of text")
    return BoardRecord(
        board=board,
        dealer_seat=dealer,
        vulnerable=vulnerability,
        deal=deal,
        players=(players[0], players[1], players[2], players[3]),
        event=_text(data, "event"),
        home_team=_text(data, "home_team"),
        visit_team=_text(data, "visit_team"),
        table=_text(data, "table"),
        room=room,
        auction=auction,
        play=play,
        claim=_tricks(data, "claim"),
        contract=contract,
        passed_out=passed_out,
        result=_tricks(data, "result"),
        adjusted=data.get("adjusted") is True,
        scores=tuple((str(name), value) for name, value in scores.items()),
        dd_tricks=_text(data, "dd_tricks"),
        optimum_score=_text(data, "optimum_score"),
        notes=tuple((name, value) for name, value in notes),
        source=source or Source(),
        match=None if data.get("match") is None else _match(data["match"]),
    )


def _call(data: Any) -> RecordedCall:
    if isinstance(data, str):
        return RecordedCall(data)
    if not isinstance(data, dict) or not isinstance(data.get("call"), str):
        raise NotationError(
            f"call {str(data)[:40]!r}: expected the call as text, or an object with a "
            '"call" member such as {"call": "1NT"}'
        )
    explanation = data.get("explanation") or ""
    if not isinstance(explanation, str):
        raise NotationError(f"explanation {explanation!r} is not text")
    return RecordedCall(str(Call.parse(data["call"])), bool(data.get("alerted")), explanation)


def read_json(source: str | Iterable[str], file: str | None = None) -> Iterator[BoardRecord]:
    """Board records of JSON text. A record that cannot be read comes back empty,
    with its problem; a file that is not JSON gives one record with the problem."""
    text = source if isinstance(source, str) else "".join(source)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        line = getattr(error, "lineno", 0)
        message = f"not JSON: {error}"
        yield BoardRecord(source=Source(file, line, 1), problems=(Problem(line, message),))
        return
    if isinstance(data, dict) and "boards" in data:
        yield from _board_set(data, text, file)
        return
    items = data if isinstance(data, list) else [data]
    lines = _item_lines(text, _LIST_START.match(text), items)
    for number, (item, line) in enumerate(zip(items, lines, strict=True), start=1):
        # The record keeps no line (commands name a JSON record by its place, as
        # they always have); its problem says where it is.
        source_ = Source(file, 0, number)
        try:
            yield record_from_dict(item, source_)
        except BridgeError as error:
            problem = Problem(line, f"record {number}: {error}")
            yield BoardRecord(source=source_, problems=(problem,))


_LIST_START = re.compile(r"\s*\[")
_BOARDS_START = re.compile(r'\s*\{.*?"boards"\s*:\s*\[', re.S)
_DECODER = json.JSONDecoder()


def _item_lines(text: str, opening: re.Match[str] | None, items: list[Any]) -> list[int]:
    """The line each item of a JSON list starts on (the list's ``[`` ends
    ``opening``), so that a problem is reported where it is; all 0 (unknown) when
    the items found there are not ``items`` (JSON is read whole first)."""
    unknown = [0] * len(items)
    if opening is None:
        return (
            unknown if len(items) != 1 else [text[: len(text) - len(text.lstrip())].count("\n") + 1]
        )
    lines: list[int] = []
    position = opening.end()
    try:
        for item in items:
            position += len(text[position:]) - len(text[position:].lstrip(" \t\r\n,"))
            found, end = _DECODER.raw_decode(text, position)
            if found != item:
                return unknown
            lines.append(text.count("\n", 0, position) + 1)
            position = end
    except (ValueError, RecursionError):
        return unknown
    return lines


# A board set as ``bridgescore deal --boards --format json`` writes it: its event, and
# each board's number, dealer, vulnerability, deal and analysis; "hcp" and "tricks"
# restate the deal and "dd" (each side's points, each declarer's tricks), so they are
# not read.
_SET_FIELDS = frozenset({"event", "boards"})
_SET_BOARD_FIELDS = frozenset(
    {"board", "dealer", "vulnerable", "deal", "hcp", "dd", "tricks", "par"}
)


def _set_board(entry: Any, event: str, source: Source) -> BoardRecord:
    if not isinstance(entry, dict):
        raise NotationError(f"board entry {str(entry)[:40]!r} is not an object")
    unknown = set(entry) - _SET_BOARD_FIELDS
    if unknown:
        raise NotationError(
            f"unknown field(s) {sorted(unknown)} in a board set's board: expected "
            f"{', '.join(sorted(_SET_BOARD_FIELDS))}"
        )
    dd = entry.get("dd")
    if dd is not None and not isinstance(dd, str):
        raise NotationError(f"dd {dd!r}: expected PBN DoubleDummyTricks text")
    optimum = ""
    par = entry.get("par")
    if par is not None:
        score = par.get("score") if isinstance(par, dict) else None
        if not is_whole_number(score):
            raise NotationError(f"par {str(par)[:60]!r}: expected an object with a whole score")
        optimum = f"NS {score}"
    record = record_from_dict(
        {name: entry[name] for name in ("board", "dealer", "vulnerable", "deal") if name in entry},
        source,
    )
    return replace(record, event=event, dd_tricks=dd or "", optimum_score=optimum)


def _board_set(data: dict[str, Any], text: str, file: str | None) -> Iterator[BoardRecord]:
    unknown = set(data) - _SET_FIELDS
    event = data.get("event", "")
    boards = data["boards"]
    problem = None
    if unknown:
        problem = f"unknown field(s) {sorted(unknown)} in a board set: expected event and boards"
    elif not isinstance(event, str):
        problem = f"event {event!r}: expected text"
    elif not isinstance(boards, list):
        problem = 'boards: expected a list of boards, as "bridgescore deal --boards" writes'
    if problem is not None:
        yield BoardRecord(source=Source(file, 1, 1), problems=(Problem(1, problem),))
        return
    lines = _item_lines(text, _BOARDS_START.match(text), boards)
    for number, (entry, line) in enumerate(zip(boards, lines, strict=True), start=1):
        source = Source(file, 0, number)
        try:
            yield _set_board(entry, event, source)
        except BridgeError as error:
            message = f"board entry {number}: {error}"
            yield BoardRecord(source=source, problems=(Problem(line, message),))


def format_json(records: Iterable[BoardRecord]) -> str:
    """Records as a JSON list, one object per board, ending with a newline."""
    return json.dumps([record_to_dict(record) for record in records], indent=2) + "\n"

"""A movement's two text forms, each read and written: JSON and the .ASC movement file.

The JSON form (docs/movements.md)::

    {"kind": "mitchell", "tables": 7, "rounds": 7, "boards_per_round": 3,
     "rows": [{"round": 1, "table": 1, "ns": "1N", "ew": "1E", "boards": [1, 2, 3]}, ...],
     "sitouts": [{"round": 1, "pair": "7N"}], "arrow_switch": [7]}

"sitouts" and "arrow_switch" may be left out (none), "section" is written only when
it is not "A", and "boards_per_set" only when the boards travel in sets smaller than a
round's (half-sets: ``"boards_per_set": 2`` with 4 boards a round). An individual's
rows name partnerships (``"ns": "8-1"``: player 8 North, 1 South) and each also lists
its four players by seat, ``"seats": {"N": "8", "S": "1", "E": "2", "W": "7"}``, which a
reader may leave out and which must agree with the partnerships when given.

The .ASC movement file (version 1.0 of the standard by Peter Smulders and Hans van
Staveren, http://www.pjms.nl/movementfile_standard.html) is a header line ``pairs tables
rounds boardgroups individual`` and then one line per round holding, for each table in
order, ``NS EW group``; ``0 0 0`` is a table nobody uses that round. Pairs are numbered
1 up; board groups 1 up or A up. ``#`` starts a comment. The file names neither the
kind, nor the boards in a group, nor the arrow-switch rounds; this module writes them as
one JSON comment line of its own at the end (``# bridgescore: {"kind": "mitchell",
"boards_per_round": 3, "labels": "mitchell", "arrow_switch": [7]}``), which other
programs skip as a comment, so that its own files read back exactly. How labels become
numbers:

- pairs labelled by number (Howell, teams, custom) keep their numbers;
- a Mitchell's NS pair ``kN`` is pair k and its EW pair ``kE`` is pair T + k (T tables),
  as directors number a switched Mitchell's EW pairs; a file without this module's
  comment whose pairs 1..T each always sit NS at their own table and whose higher pairs
  always sit EW is read as a Mitchell and labelled so;
- board group g is boards (g - 1) * B + 1 .. g * B for B boards a round;
- a movement in half-sets (``boards_per_set`` S, a round playing B / S sets) is written
  with groups of S boards, each round as B / S lines in which each table keeps its pairs
  and plays one group after the other (as other programs read it: shorter rounds in which
  nobody moves every other time); the comment says ``"boards_per_set": S`` and this
  module reads those lines back as one round.

A pair number that no table uses in a round is a sit-out that round.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any

from bridgescore.errors import MovementError
from bridgescore.movement.model import Movement, Row, Sitout, board_set, partnership_players
from bridgescore.validate import is_whole_number

__all__ = [
    "MOVEMENT_SUFFIXES",
    "asc_boards_per_round",
    "movement_from_asc",
    "movement_from_json",
    "movement_to_asc",
    "movement_to_json",
    "read_movement",
]

_FIELDS = ("kind", "tables", "rounds", "boards_per_round", "rows")
_OPTIONAL = ("sitouts", "arrow_switch", "section", "boards_per_set")
_ROW_FIELDS = ("round", "table", "ns", "ew", "boards")
_SEATS = ("N", "S", "E", "W")
_SITOUT_FIELDS = ("round", "pair")


# -- JSON ---------------------------------------------------------------------------------


def movement_to_json(movement: Movement) -> dict[str, Any]:
    """The JSON form of ``movement`` as a dict (``json.dumps`` writes it)."""
    rows: list[dict[str, Any]] = []
    for row in movement.rows:
        rows.append(
            {
                "round": row.round,
                "table": row.table,
                "ns": row.ns,
                "ew": row.ew,
                "boards": list(row.boards),
            }
        )
        seats = _seats(row)
        if seats is not None:
            rows[-1]["seats"] = dict(zip(_SEATS, seats, strict=True))
    data: dict[str, Any] = {
        "kind": movement.kind,
        "tables": movement.tables,
        "rounds": movement.rounds,
        "boards_per_round": movement.boards_per_round,
        "rows": rows,
        "sitouts": [{"round": s.round, "pair": s.pair} for s in movement.sitouts],
        "arrow_switch": list(movement.arrow_switch),
    }
    if movement.section != "A":
        data["section"] = movement.section
    if movement.boards_per_set != movement.boards_per_round:
        data["boards_per_set"] = movement.boards_per_set
    return data


def _seats(row: Row) -> tuple[str, ...] | None:
    """An individual's row's players, North, South, East, West (None for pairs)."""
    north_south, east_west = partnership_players(row.ns), partnership_players(row.ew)
    if north_south is None or east_west is None:
        return None
    return (*north_south, *east_west)


def _check_seats(value: object, row: Row, where: str) -> None:
    """A row's "seats" must name the players its partnerships do."""
    seats = _seats(row)
    given = _object(value, f"{where}.seats", _SEATS)
    if seats is None or tuple(given[seat] for seat in _SEATS) != seats:
        said = ", ".join(f"{seat} {_shown(given[seat])}" for seat in _SEATS)
        expected = (
            "only an individual's rows list seats"
            if seats is None
            else f"its partnerships {row.ns} and {row.ew} seat "
            + ", ".join(f"{seat} {player}" for seat, player in zip(_SEATS, seats, strict=True))
        )
        raise MovementError(f"{where}.seats says {said}, but {expected}")


def _shown(value: object) -> str:
    """A wrong value as the JSON file wrote it (Python's form for what JSON cannot hold),
    cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _whole(value: object, where: str) -> int:
    # JSON booleans are Python bools, which are ints: is_whole_number refuses them.
    if not is_whole_number(value):
        raise MovementError(f"{where} must be a whole number, got {_shown(value)}")
    return int(value)


def _label(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise MovementError(f"{where} must be a pair label in quotes, got {_shown(value)}")
    return value


def _object(
    value: object, where: str, fields: tuple[str, ...], optional: tuple[str, ...] = ()
) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise MovementError(f"{where} must be a JSON object, got {_shown(value)}")
    for name in fields:
        if name not in value:
            raise MovementError(f"{where} has no {name!r} field (expected {', '.join(fields)})")
    unknown = sorted(set(value) - set(fields) - set(optional))
    if unknown:
        raise MovementError(
            f"{where} has an unknown field {unknown[0]!r} (expected {', '.join(fields + optional)})"
        )
    return value


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise MovementError(f"{where} must be a JSON list, got {_shown(value)}")
    return value


def movement_from_json(data: Mapping[str, Any] | str) -> Movement:
    """The movement of a JSON form, given as a dict or as JSON text.

    Raises :class:`MovementError` naming the field that is missing or wrong.

    >>> movement_from_json('{"kind": "custom", "tables": 1, "rounds": 1, '
    ...     '"boards_per_round": 2, "rows": [{"round": 1, "table": 1, "ns": "1", '
    ...     '"ew": "2", "boards": [1, 2]}]}').pairs
    ('1', '2')
    """
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as error:
            raise MovementError(
                f"a movement file must be JSON: {error.msg} at line {error.lineno},"
                f" column {error.colno}"
            ) from None
    top = _object(data, "the movement", _FIELDS, _OPTIONAL)
    kind = top["kind"]
    if not isinstance(kind, str):
        raise MovementError(f"the movement's 'kind' must be a word, got {_shown(kind)}")
    rows = []
    for number, item in enumerate(_list(top["rows"], "'rows'"), start=1):
        where = f"rows[{number}]"
        row = _object(item, where, _ROW_FIELDS, ("seats",))
        boards = tuple(
            _whole(board, f"{where}.boards") for board in _list(row["boards"], f"{where}.boards")
        )
        rows.append(
            Row(
                _whole(row["round"], f"{where}.round"),
                _whole(row["table"], f"{where}.table"),
                _label(row["ns"], f"{where}.ns"),
                _label(row["ew"], f"{where}.ew"),
                boards,
            )
        )
        if "seats" in row:
            _check_seats(row["seats"], rows[-1], where)
    sitouts: list[Sitout] = []
    for number, item in enumerate(_list(top.get("sitouts", []), "'sitouts'"), start=1):
        where = f"sitouts[{number}]"
        sitout = _object(item, where, _SITOUT_FIELDS)
        sitouts.append(
            Sitout(
                _whole(sitout["round"], f"{where}.round"), _label(sitout["pair"], f"{where}.pair")
            )
        )
    arrow = tuple(
        _whole(value, "arrow_switch")
        for value in _list(top.get("arrow_switch", []), "'arrow_switch'")
    )
    section = top.get("section", "A")
    boards_per_set = 0  # the default: the round's boards are one set
    if "boards_per_set" in top:
        boards_per_set = _whole(top["boards_per_set"], "'boards_per_set'")
        if boards_per_set < 1:
            raise MovementError(f"'boards_per_set' must be 1 or more, got {boards_per_set}")
    return Movement(
        kind=kind,
        tables=_whole(top["tables"], "'tables'"),
        rounds=_whole(top["rounds"], "'rounds'"),
        boards_per_round=_whole(top["boards_per_round"], "'boards_per_round'"),
        rows=tuple(rows),
        sitouts=tuple(sitouts),
        arrow_switch=arrow,
        section=section,
        boards_per_set=boards_per_set,
    )


# -- .ASC ---------------------------------------------------------------------------------

_OWN_COMMENT = "bridgescore:"
# The standard's separators: any run of white space and the characters - , : ;
_SEPARATORS = re.compile(r"[\s,:;-]+")
_MITCHELL_LABEL = re.compile(r"([0-9]+)([NE])")
_Entry = tuple[int, int, int, int, int]  # round, table, NS number, EW number, group


def _pair_numbers(movement: Movement) -> dict[str, int]:
    """Each label's .ASC number (see the module's docstring)."""
    numbers: dict[str, int] = {}
    plain = all(label.isdigit() for label in movement.pairs)
    for label in movement.pairs:
        if plain:
            numbers[label] = int(label)
        elif _MITCHELL_LABEL.fullmatch(label) and 1 <= int(label[:-1]) <= movement.tables:
            home = int(label[:-1])
            numbers[label] = home if label.endswith("N") else movement.tables + home
        else:
            raise MovementError(
                f"pair {label} has no .ASC number: the .ASC form numbers pairs, so the labels"
                f" must all be numbers (1, 2, ...) or all a Mitchell's 1N..{movement.tables}N"
                f" and 1E..{movement.tables}E"
            )
    if 0 in numbers.values():
        raise MovementError("pair 0 has no .ASC number: .ASC pairs are numbered from 1")
    return numbers


def _groups(movement: Movement, row: Row) -> list[int]:
    """The row's board groups (sets of ``boards_per_set``), one for each set it plays."""
    size = movement.boards_per_set
    groups = []
    starts = sorted({(board - 1) // size for board in row.boards})
    whole = tuple(
        board for group in starts for board in range(group * size + 1, group * size + size + 1)
    )
    if len(starts) != movement.sets_per_round or tuple(sorted(row.boards)) != whole:
        what = (
            "one board group"
            if movement.sets_per_round == 1
            else (f"{movement.sets_per_round} board groups")
        )
        raise MovementError(
            f"round {row.round}, table {row.table}: boards {list(row.boards)} are not {what}"
            f" of the .ASC form (group g is boards (g - 1) * {size} + 1 to g * {size})"
        )
    for group in starts:
        groups.append(group + 1)
    return groups


def movement_to_asc(movement: Movement) -> str:
    """The .ASC movement file of ``movement`` (see the module's docstring).

    Raises :class:`MovementError` when a label is neither a number nor a Mitchell's, or
    a table's boards are not one whole group of ``boards_per_round``.
    """
    if not movement.rows:
        raise MovementError("a movement in which no table plays has no .ASC form")
    if movement.kind == "individual":
        raise MovementError(
            "an individual movement has no .ASC form here (its rows seat four players,"
            " the .ASC file's two pairs): write it as .json"
        )
    numbers = _pair_numbers(movement)
    by_place = {(row.round, row.table): _groups(movement, row) for row in movement.rows}
    most = max(group for groups in by_place.values() for group in groups)
    contestants = max(numbers.values())
    pair_width = len(str(contestants))
    group_width = len(str(most))
    parts = movement.sets_per_round
    lines = [f"{contestants} {movement.tables} {movement.rounds * parts} {most} 0"]
    for round_number in range(1, movement.rounds + 1):
        # A round in half-sets is one line per set: the pairs stay, the group changes.
        for part in range(parts):
            entries = []
            for table in range(1, movement.tables + 1):
                row = movement.row_at(round_number, table)
                if row is None:
                    entries.append(f"{0:>{pair_width}} {0:>{pair_width}} {0:>{group_width}}")
                else:
                    group = by_place[(round_number, table)][part]
                    entries.append(
                        f"{numbers[row.ns]:>{pair_width}}-{numbers[row.ew]:>{pair_width}}"
                        f" {group:>{group_width}}"
                    )
            lines.append("  ".join(entries))
    own: dict[str, Any] = {"kind": movement.kind, "boards_per_round": movement.boards_per_round}
    if parts > 1:
        own["boards_per_set"] = movement.boards_per_set
    if not all(label.isdigit() for label in movement.pairs):
        own["labels"] = "mitchell"
    if movement.arrow_switch:
        own["arrow_switch"] = list(movement.arrow_switch)
    if movement.section != "A":
        own["section"] = movement.section
    lines.append(f"# {_OWN_COMMENT} {json.dumps(own, ensure_ascii=False)}")
    return "\n".join(lines) + "\n"


_OWN_FIELDS = (
    "kind",
    "boards_per_round",
    "boards_per_set",
    "labels",
    "arrow_switch",
    "section",
)


def _own_comment(text: str) -> dict[str, Any]:
    """The fields of this module's comment line, or {} when the file has none."""
    for number, line in enumerate(text.splitlines(), start=1):
        comment = line.partition("#")[2].strip()
        if not comment.startswith(_OWN_COMMENT):
            continue
        try:
            fields = json.loads(comment[len(_OWN_COMMENT) :])
        except json.JSONDecodeError:
            fields = None
        if not isinstance(fields, dict):
            raise MovementError(
                f"line {number}: the comment after '# {_OWN_COMMENT}' must be a JSON object"
                f' such as {{"kind": "mitchell", "boards_per_round": 3}}'
            )
        unknown = sorted(set(fields) - set(_OWN_FIELDS))
        if unknown:
            raise MovementError(
                f"line {number}: unknown field {unknown[0]!r} in '# {_OWN_COMMENT}'"
            )
        return fields
    return {}


def asc_boards_per_round(text: str) -> int | None:
    """The boards a round that an .ASC file written by :func:`movement_to_asc` states
    (None when the file does not say, as files of other programs do not)."""
    value = _own_comment(text).get("boards_per_round")
    if value is None:
        return None
    return _whole(value, "the .ASC file's boards_per_round")


def _words(line: str) -> list[str]:
    return [word for word in _SEPARATORS.split(line.partition("#")[0]) if word]


def _group_number(group: str, where: str) -> tuple[int, str]:
    """A board group's number and how it was written: "letter", "number" or "zero"."""
    if group == "0":
        return 0, "zero"
    if group.isdigit():
        return int(group), "number"
    if len(group) == 1 and "A" <= group <= "Z":
        return ord(group) - ord("A") + 1, "letter"
    raise MovementError(f"{where}: board group {group!r} must be a number or a capital letter")


def _read_header(words: list[str], line: int) -> tuple[int, int, int, int]:
    if len(words) != 5 or not all(word.isdigit() for word in words):
        raise MovementError(
            f"line {line}: the .ASC header {' '.join(words)!r} must be five numbers:"
            " pairs tables rounds boardgroups individual"
        )
    contestants, tables, rounds, groups, individual = (int(word) for word in words)
    if individual == 1:
        raise MovementError(
            f"line {line}: the header's last number 1 marks an individual movement; only"
            " pairs movements (0) are read"
        )
    if individual != 0:
        raise MovementError(
            f"line {line}: the header's last number must be 0 (pairs) or 1 (individual),"
            f" got {individual}"
        )
    for name, value in (("pairs", contestants), ("tables", tables), ("rounds", rounds)):
        if value < 1:
            raise MovementError(f"line {line}: the header's {name} must be 1 or more, got 0")
    return contestants, tables, rounds, groups


def _read_rounds(
    body: list[tuple[int, list[str]]], contestants: int, tables: int, groups: int
) -> list[_Entry]:
    entries: list[_Entry] = []
    style = ""
    for round_number, (line, words) in enumerate(body, start=1):
        if len(words) != 3 * tables:
            raise MovementError(
                f"line {line} (round {round_number}): expected {tables} tables of 'NS EW"
                f" group' ({3 * tables} entries), got {len(words)} entries"
            )
        for table in range(1, tables + 1):
            ns, ew, group = words[3 * table - 3 : 3 * table]
            where = f"line {line}, round {round_number}, table {table}"
            number, written = _group_number(group, where)
            if written != "zero":
                if style and written != style:
                    raise MovementError(
                        f"{where}: board group {group!r}: a file names its groups all by"
                        " letters or all by numbers"
                    )
                style = written
            if number > groups:
                raise MovementError(
                    f"{where}: board group {group!r} is past the header's {groups} groups"
                )
            for side, value in (("NS pair", ns), ("EW pair", ew)):
                if not value.isdigit() or int(value) > contestants:
                    raise MovementError(
                        f"{where}: {side} {value!r} must be a number from 1 to {contestants}"
                        " (or 0 for an empty table)"
                    )
            if (ns, ew, number) == ("0", "0", 0):
                continue
            if "0" in (ns, ew) or number == 0:
                raise MovementError(
                    f"{where}: '{ns} {ew} {group}' mixes 0 with numbers (0 0 0 is an empty table)"
                )
            entries.append((round_number, table, int(ns), int(ew), number))
    return entries


def _whole_rounds(
    entries: list[_Entry], lines: int, parts: int
) -> tuple[list[tuple[int, int, int, int, list[int]]], int]:
    """The rounds of a movement in sets of part of a round: each ``parts`` round lines
    of the file are one round, in which each table keeps its pairs (its groups are the
    sets it plays). With ``parts`` 1, each line is a round of one group."""
    if lines % parts:
        raise MovementError(
            f"the .ASC file plays {parts} board groups a round, but its {lines} round lines"
            f" are not a multiple of {parts}"
        )
    merged: dict[tuple[int, int], tuple[int, int, int, int, list[int]]] = {}
    for line_round, table, ns, ew, group in entries:
        number = (line_round - 1) // parts + 1
        place = merged.get((number, table))
        if place is None:
            merged[(number, table)] = (number, table, ns, ew, [group])
        elif (place[2], place[3]) != (ns, ew):
            raise MovementError(
                f"round line {line_round}, table {table}: pairs {ns}-{ew}, but {place[2]}-"
                f"{place[3]} earlier in round {number} (a table keeps its pairs for the"
                f" round's {parts} groups)"
            )
        else:
            place[4].append(group)
    for (number, table), place in merged.items():
        if len(place[4]) != parts:
            raise MovementError(
                f"round {number}, table {table}: plays {len(place[4])} of the round's"
                f" {parts} board groups"
            )
    return sorted(merged.values(), key=lambda place: (place[0], place[1])), lines // parts


def _looks_like_mitchell(entries: list[_Entry], tables: int, contestants: int) -> bool:
    # What makes a Mitchell: pairs 1..T stay NS at their own tables, the others stay EW.
    return (
        bool(entries)
        and tables < contestants <= 2 * tables
        and all(ns == table and ew > tables for _, table, ns, ew, _ in entries)
    )


def movement_from_asc(text: str, *, boards_per_round: int | None = None) -> Movement:
    """The movement of an .ASC movement file (see the module's docstring).

    ``boards_per_round`` says how many boards a board group holds; None takes it from
    the comment :func:`movement_to_asc` writes. Raises :class:`MovementError` naming the
    line that is wrong, for an individual movement, and when nobody says the group size.

    >>> movement_from_asc("4 1 1 1 0\\n1-2 A\\n", boards_per_round=3).rows[0]
    Row(round=1, table=1, ns='1', ew='2', boards=(1, 2, 3))
    """
    own = _own_comment(text)
    lines = [(number, _words(line)) for number, line in enumerate(text.splitlines(), start=1)]
    lines = [(number, words) for number, words in lines if words]
    if not lines:
        raise MovementError(
            "an .ASC movement file starts with a header line: pairs tables rounds"
            " boardgroups individual"
        )
    contestants, tables, rounds, groups = _read_header(lines[0][1], lines[0][0])
    if boards_per_round is None:
        boards_per_round = asc_boards_per_round(text)
    if boards_per_round is None:
        raise MovementError(
            "the .ASC file does not say how many boards a board group holds: give the"
            " boards per round"
        )
    boards_per_round = _whole(boards_per_round, "boards per round")
    if len(lines) - 1 != rounds:
        raise MovementError(
            f"the .ASC header says {rounds} rounds, but {len(lines) - 1} round lines follow"
        )
    entries = _read_rounds(lines[1:], contestants, tables, groups)
    if own:
        kind = own.get("kind", "custom")
        mitchell = own.get("labels") == "mitchell"
    else:
        mitchell = _looks_like_mitchell(entries, tables, contestants)
        kind = "mitchell" if mitchell else "custom"
    if not isinstance(kind, str):
        raise MovementError(f"the .ASC file's kind must be a word, got {_shown(kind)}")
    if mitchell and contestants > 2 * tables:
        raise MovementError(
            f"the .ASC file labels its pairs as a Mitchell's, but has {contestants} pairs for"
            f" {tables} tables (at most {2 * tables})"
        )

    def label(number: int) -> str:
        if not mitchell:
            return str(number)
        return f"{number}N" if number <= tables else f"{number - tables}E"

    boards_per_set = boards_per_round
    if "boards_per_set" in own:
        boards_per_set = _whole(own["boards_per_set"], "the .ASC file's boards_per_set")
        if boards_per_set < 1 or boards_per_round % boards_per_set:
            raise MovementError(
                f"the .ASC file's boards_per_set {boards_per_set} must divide its"
                f" boards_per_round {boards_per_round}"
            )
    places, rounds = _whole_rounds(entries, rounds, boards_per_round // boards_per_set)
    rows = tuple(
        Row(
            r,
            t,
            label(ns),
            label(ew),
            tuple(
                board
                for g in sorted(groups)
                for board in board_set((g - 1) * boards_per_set + 1, boards_per_set)
            ),
        )
        for r, t, ns, ew, groups in places
    )
    sitouts: list[Sitout] = []
    for round_number in range(1, rounds + 1):
        playing = {n for r, _, ns, ew, _ in places if r == round_number for n in (ns, ew)}
        sitouts.extend(
            Sitout(round_number, label(n)) for n in range(1, contestants + 1) if n not in playing
        )
    arrow = own.get("arrow_switch", [])
    arrow_rounds = tuple(
        _whole(r, "the .ASC file's arrow_switch") for r in _list(arrow, "arrow_switch")
    )
    return Movement(
        kind=kind,
        tables=tables,
        rounds=rounds,
        boards_per_round=boards_per_round,
        rows=rows,
        sitouts=tuple(sitouts),
        arrow_switch=arrow_rounds,
        section=own.get("section", "A"),
        boards_per_set=boards_per_set,
    )


MOVEMENT_SUFFIXES = (".json", ".asc")
"""The movement files read and written, told apart by their names."""


def read_movement(text: str, *, name: str, boards_per_round: int | None = None) -> Movement:
    """The movement in ``text``, read as JSON or .ASC by the suffix of its file ``name``.

    ``boards_per_round`` is passed to :func:`movement_from_asc`. Raises
    :class:`MovementError` for another suffix, and as the readers do.
    """
    suffix = PurePath(name).suffix.lower()
    if suffix == ".json":
        return movement_from_json(text)
    if suffix == ".asc":
        return movement_from_asc(text, boards_per_round=boards_per_round)
    raise MovementError(f"{name!r}: expected a movement file ending in .json or .asc")

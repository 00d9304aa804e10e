"""The JSON and .ASC forms of a movement: hand-written files, round trips, bad input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore.errors import MovementError
from bridgescore.movement.mitchell import mitchell
from bridgescore.movement.model import Movement, Row, Sitout, rows_from
from bridgescore.movement.text import (
    asc_boards_per_round,
    movement_from_asc,
    movement_from_json,
    movement_to_asc,
    movement_to_json,
    read_movement,
)
from fuzzing import Refused, read_or_refuse

# A 3-table Mitchell as another program writes it: pairs 1-3 NS, 4-6 EW (table + 3),
# board groups by letter, no comment of ours. EW move up one table, boards down one.
FOREIGN_MITCHELL = """\
6 3 3 3 0
1-4 A  2-5 B  3-6 C
1-6 B  2-4 C  3-5 A
1-5 C  2-6 A  3-4 B
"""

# The complete 2-table Howell: 4 pairs, 3 rounds, both tables share the round's boards.
# Written with the standard's other separators (: ; ,) and comments.
HOWELL_ASC = """\
4 2 3 3 0
# round 1
4:1;1, 2-3 1
4 2 2   3 1 2   # pair 4 stays NS at table 1

4-3 3  1-2 3
"""


def test_a_foreign_mitchell_reads_as_the_generated_one() -> None:
    read = movement_from_asc(FOREIGN_MITCHELL, boards_per_round=2)
    assert read == mitchell(tables=3, boards_per_round=2)
    assert read.kind == "mitchell"


def test_a_hand_written_howell() -> None:
    read = movement_from_asc(HOWELL_ASC, boards_per_round=7)
    assert read.kind == "custom" and read.tables == 2 and read.rounds == 3
    assert [(r.round, r.table, r.ns, r.ew, r.boards[0], r.boards[-1]) for r in read.rows] == [
        (1, 1, "4", "1", 1, 7),
        (1, 2, "2", "3", 1, 7),
        (2, 1, "4", "2", 8, 14),
        (2, 2, "3", "1", 8, 14),
        (3, 1, "4", "3", 15, 21),
        (3, 2, "1", "2", 15, 21),
    ]
    assert read.sitouts == ()


def test_empty_tables_and_sit_outs() -> None:
    # Three pairs at two tables (a Howell-like one with a sit-out); table 2 empty each round.
    text = "3 2 3 3 0\n1-2 A 0 0 0\n3-1 B 0 0 0\n2-3 C 0 0 0\n"
    read = movement_from_asc(text, boards_per_round=1)
    assert read.rows == rows_from(
        [(1, 1, "1", "2", [1]), (2, 1, "3", "1", [2]), (3, 1, "2", "3", [3])]
    )
    assert read.sitouts == (Sitout(1, "3"), Sitout(2, "2"), Sitout(3, "1"))


def test_the_written_form_by_hand() -> None:
    movement = mitchell(tables=3, boards_per_round=2, pairs=5, arrow_switch=True)
    # EW pair 3E (pair 6) is missing: its tables are empty (0 0 0).
    assert movement_to_asc(movement) == (
        "5 3 3 3 0\n"
        "1-4 1  2-5 2  0 0 0\n"
        "0 0 0  2-4 3  3-5 1\n"
        "1-5 3  0 0 0  3-4 2\n"
        '# bridgescore: {"kind": "mitchell", "boards_per_round": 2, "labels": "mitchell",'
        ' "arrow_switch": [3]}\n'
    )
    assert asc_boards_per_round(movement_to_asc(movement)) == 2
    assert asc_boards_per_round(FOREIGN_MITCHELL) is None


def test_the_json_form_by_hand() -> None:
    movement = mitchell(tables=2, boards_per_round=1, relay=True, pairs=3)
    assert movement_to_json(movement) == {
        "kind": "mitchell",
        "tables": 2,
        "rounds": 2,
        "boards_per_round": 1,
        "rows": [
            {"round": 1, "table": 1, "ns": "1N", "ew": "1E", "boards": [1]},
            {"round": 2, "table": 2, "ns": "2N", "ew": "1E", "boards": [2]},
        ],
        "sitouts": [{"round": 1, "pair": "2N"}, {"round": 2, "pair": "1N"}],
        "arrow_switch": [],
    }


@st.composite
def generated(draw: st.DrawFn) -> Movement:
    tables = draw(st.integers(2, 30))
    relay = tables % 2 == 0 and draw(st.booleans())
    most = tables if tables % 2 or relay else tables - 1
    return mitchell(
        tables=tables,
        boards_per_round=draw(st.integers(1, 5)),
        rounds=draw(st.integers(1, most)),
        pairs=2 * tables - draw(st.integers(0, 1)),
        relay=relay,
        arrow_switch=draw(st.booleans()),
    )


@settings(max_examples=60, deadline=None)
@given(generated())
def test_json_round_trip(movement: Movement) -> None:
    data = movement_to_json(movement)
    assert movement_from_json(data) == movement
    assert movement_from_json(json.dumps(data)) == movement


@settings(max_examples=60, deadline=None)
@given(generated())
def test_asc_round_trip(movement: Movement) -> None:
    text = movement_to_asc(movement)
    assert movement_from_asc(text) == movement
    # Without our comment line the file still reads back as the same Mitchell (its
    # arrow switch aside, which the .ASC form cannot say).
    bare = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))
    again = movement_from_asc(bare, boards_per_round=movement.boards_per_round)
    assert again.rows == movement.rows and again.sitouts == movement.sitouts


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(1, 3),
            st.integers(1, 3),
            st.integers(1, 6),
            st.integers(1, 6),
            st.integers(1, 4),
        ),
        min_size=1,
        max_size=9,
        unique_by=lambda entry: (entry[0], entry[1]),
    ).filter(lambda entries: all(ns != ew for _, _, ns, ew, _ in entries)),
    # "mitchell" too: a hand-made Mitchell may number its pairs, and keeps them.
    st.sampled_from(["custom", "howell", "mitchell"]),
)
def test_numbered_movements_round_trip(
    entries: list[tuple[int, int, int, int, int]], kind: str
) -> None:
    # Any movement of numbered pairs and whole board groups, sound or not.
    rows = tuple(
        Row(r, t, str(ns), str(ew), tuple(range(2 * g - 1, 2 * g + 1)))
        for r, t, ns, ew, g in entries
    )
    pairs = {p for row in rows for p in row.pairs}
    top = max(int(p) for p in pairs)
    sitouts = tuple(
        Sitout(r, str(n))
        for r in range(1, 4)
        for n in range(1, top + 1)
        if str(n) not in {p for row in rows if row.round == r for p in row.pairs}
    )
    movement = Movement(kind, 3, 3, 2, rows, sitouts, section="B")
    assert movement_from_asc(movement_to_asc(movement)) == movement
    assert movement_from_json(movement_to_json(movement)) == movement


def test_read_movement_by_name() -> None:
    movement = mitchell(tables=3, boards_per_round=2)
    assert read_movement(json.dumps(movement_to_json(movement)), name="x/club.JSON") == movement
    assert read_movement(movement_to_asc(movement), name="club.asc") == movement
    with pytest.raises(
        MovementError, match=r"'club.txt': expected a movement file ending in .json or .asc"
    ):
        read_movement("", name="club.txt")


GOOD = {
    "kind": "custom",
    "tables": 1,
    "rounds": 1,
    "boards_per_round": 1,
    "rows": [{"round": 1, "table": 1, "ns": "1", "ew": "2", "boards": [1]}],
}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            "{",
            "a movement file must be JSON: Expecting property name enclosed in double quotes"
            " at line 1, column 2",
        ),
        ("[]", "the movement must be a JSON object"),
        ({k: v for k, v in GOOD.items() if k != "rows"}, "the movement has no 'rows' field"),
        ({**GOOD, "sitout": []}, "the movement has an unknown field 'sitout'"),
        ({**GOOD, "tables": "1"}, "'tables' must be a whole number, got \"1\""),
        ({**GOOD, "rounds": True}, "'rounds' must be a whole number, got true"),
        ({**GOOD, "kind": "swiss"}, "movement kind 'swiss' is not one of"),
        ({**GOOD, "rows": {}}, "'rows' must be a JSON list"),
        (
            {**GOOD, "rows": [{"round": 1, "table": 1, "ns": "1", "ew": "2"}]},
            "rows[1] has no 'boards' field",
        ),
        (
            {**GOOD, "rows": [{"round": 1, "table": 1, "ns": 1, "ew": "2", "boards": [1]}]},
            "rows[1].ns must be a pair label in quotes, got 1",
        ),
        (
            {**GOOD, "rows": [{"round": 1, "table": 1, "ns": "1", "ew": "2", "boards": [1.5]}]},
            "rows[1].boards must be a whole number, got 1.5",
        ),
        (
            {**GOOD, "rows": [{"round": 2, "table": 1, "ns": "1", "ew": "2", "boards": [1]}]},
            "round 2, table 1: outside the movement's 1 rounds",
        ),
        ({**GOOD, "sitouts": [{"round": 1}]}, "sitouts[1] has no 'pair' field"),
        (
            {**GOOD, "arrow_switch": [2]},
            "arrow-switch round must be a whole number from 1 to 1, got 2",
        ),
    ],
)
def test_bad_json_names_the_field(data: object, message: str) -> None:
    with pytest.raises(MovementError) as raised:
        movement_from_json(data if isinstance(data, str) else json.loads(json.dumps(data)))  # type: ignore[arg-type]
    assert message in str(raised.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "an .ASC movement file starts with a header line"),
        ("4 1 1 1\n1-2 A\n", "line 1: the .ASC header '4 1 1 1' must be five numbers"),
        (
            "4 1 1 1 1\n1 2 3 4 A\n",
            "line 1: the header's last number 1 marks an individual movement",
        ),
        ("4 1 2 1 0\n1-2 A\n", "the .ASC header says 2 rounds, but 1 round lines follow"),
        (
            "4 2 1 1 0\n1-2 A\n",
            "line 2 (round 1): expected 2 tables of 'NS EW group' (6 entries), got 3",
        ),
        (
            "4 2 1 2 0\n1-2 A 3-4 2\n",
            "line 2, round 1, table 2: board group '2': a file names its groups all by"
            " letters or all by numbers",
        ),
        (
            "4 1 1 1 0\n1-5 A\n",
            "line 2, round 1, table 1: EW pair '5' must be a number from 1 to 4",
        ),
        (
            "4 1 1 1 0\n1-2 B\n",
            "line 2, round 1, table 1: board group 'B' is past the header's 1 groups",
        ),
        ("4 1 1 1 0\n1-0 A\n", "line 2, round 1, table 1: '1 0 A' mixes 0 with numbers"),
        ("4 1 1 1 0\n1-2 a\n", "board group 'a' must be a number or a capital letter"),
        (
            "4 1 1 1 0\n1-2 A\n# bridgescore: [1]\n",
            "line 3: the comment after '# bridgescore:' must be a JSON object",
        ),
    ],
)
def test_bad_asc_names_the_line(text: str, message: str) -> None:
    with pytest.raises(MovementError) as raised:
        movement_from_asc(text, boards_per_round=2)
    assert message in str(raised.value)


def test_an_asc_file_without_its_group_size() -> None:
    with pytest.raises(MovementError, match="does not say how many boards a board group holds"):
        movement_from_asc(FOREIGN_MITCHELL)


def test_movements_the_asc_form_cannot_hold() -> None:
    lettered = Movement("custom", 1, 1, 1, rows_from([(1, 1, "1A", "2", [1])]))
    with pytest.raises(MovementError, match=r"pair 1A has no \.ASC number"):
        movement_to_asc(lettered)
    split = Movement("custom", 1, 1, 2, rows_from([(1, 1, "1", "2", [2, 3])]))
    with pytest.raises(
        MovementError, match=r"round 1, table 1: boards \[2, 3\] are not one board group"
    ):
        movement_to_asc(split)
    empty = Movement("custom", 1, 1, 1, (), (Sitout(1, "1"),))
    with pytest.raises(MovementError, match=r"a movement in which no table plays has no \.ASC"):
        movement_to_asc(empty)


_JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 40)
    | st.floats(allow_nan=False)
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=5)
    ),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            name: _JSON_VALUES
            for name in ("kind", "tables", "rounds", "boards_per_round", "rows", "sitouts")
        },
    )
    | _JSON_VALUES
)
def test_any_json_is_a_movement_or_a_movement_error(data: object) -> None:
    # Anything but a MovementError (a KeyError, a TypeError) fails the test.
    outcome = read_or_refuse(movement_from_json, json.dumps(data))
    if isinstance(outcome, Refused):
        assert isinstance(outcome.error, MovementError)
        return
    # What is read says what the text said, and writes back to a text that reads the same.
    assert isinstance(data, dict) and outcome.kind == data["kind"]
    assert (outcome.tables, outcome.rounds) == (data["tables"], data["rounds"])
    assert movement_from_json(json.dumps(movement_to_json(outcome))) == outcome


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["0", "1", "2", "3", "A", "B", "-", " ", "\n", "#", "x"]), max_size=40)
)
def test_any_asc_text_is_a_movement_or_a_movement_error(pieces: list[str]) -> None:
    for text in ("3 1 1 2 0\n" + "".join(pieces), "".join(pieces)):
        outcome = read_or_refuse(lambda t: movement_from_asc(t, boards_per_round=2), text)
        if isinstance(outcome, Refused):
            assert isinstance(outcome.error, MovementError)
            continue
        # Every board group holds two boards, and the movement survives its own JSON.
        assert outcome.boards_per_round == 2
        assert all(len(row.boards) % 2 == 0 for row in outcome.rows)
        assert movement_from_json(json.dumps(movement_to_json(outcome))) == outcome

"""Fuzzing the session importer: CSV travellers and whole files (any bytes, any
encoding) imported into an event, from damaged copies of the session fixtures.

A bad line is a Problem with its line number; the rest of the file is read;
nothing but a BridgeError escapes, and import_files never raises for a file's
contents at all.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgescore.session.importers.csv import parse_csv
from bridgescore.session.importers.importer import import_files
from bridgescore.session.scoring.event import natural_key
from bridgescore.session.store.events import EventStore
from fuzzing import Refused, fuzz_settings, mutated_bytes, mutated_text, read_or_refuse

DATA = Path(__file__).parents[1] / "data"
CSV_FILES = sorted(path.name for path in DATA.glob("session_*.csv"))
FILES = sorted(path.name for path in DATA.glob("session_*.*"))
SEEDS = {name: (DATA / name).read_bytes() for name in FILES}


def _lines_in(text: str) -> int:
    return max(1, len(text.splitlines()))


def test_fixtures_are_there() -> None:
    assert {"session_mitchell.csv", "session_teams.csv", "session_results.pbn"} <= set(FILES)


@fuzz_settings(examples=200)
@given(st.sampled_from(CSV_FILES).flatmap(lambda name: mutated_text(SEEDS[name].decode())))
def test_damaged_csv_reads_line_by_line(text: str) -> None:
    lines = text.splitlines()
    parsed = read_or_refuse(lambda source: parse_csv(source.splitlines(), "t.csv"), text)
    assert not isinstance(parsed, Refused)  # problems are collected, never raised
    for problem in parsed.problems:
        assert 1 <= problem.line <= len(lines), problem
        assert problem.message
    for _, origin in parsed.results:
        assert 1 <= origin.line <= len(lines)


@fuzz_settings(examples=40)
@given(
    st.sampled_from(FILES).flatmap(
        lambda name: st.tuples(st.just(name), mutated_bytes(SEEDS[name]))
    )
)
def test_damaged_file_imports_or_reports(case: tuple[str, bytes]) -> None:
    name, data = case
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        with EventStore(Path(folder) / "event.sqlite") as store:
            # The work budget is in proportion to the file's bytes, not to the one path.
            report = read_or_refuse(lambda _: import_files(store, [path]), data)
            assert not isinstance(report, Refused)
            count = store.load().results
        assert report.files + sum(1 for p in report.problems if p.line == 0) >= 1
        assert len(count) == report.results.added
        for problem in report.problems:
            assert problem.file == str(path)
            assert problem.message


@pytest.mark.parametrize("unit", ["1,1,2,4S,N,=\n", '"', ",", "board,ns,ew\n", "1,1,2,+9999\n"])
def test_long_csv_costs_work_in_proportion(unit: str) -> None:
    text = unit * (30_000 // len(unit))
    read_or_refuse(lambda source: parse_csv(source.splitlines()), text, per_char=100)


# -- regression tests: the minimal inputs that crashed a reader --------------------


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("²,1,2,+420", "board '²'"),  # isdigit() yes, int() no
        ("1" * 5000 + ",1,2,+420", "is not a board number"),  # over int()'s 4,300 digits
        ("1,1,2,4S,N,²", "4S N²"),
        ("1,1,2,+" + "4" * 5000, "is not a score"),
        ("1,1,2," + "x" * 200_000, "too long"),  # over the csv module's field limit
    ],
)
def test_former_crash_in_csv_is_a_line_problem(line: str, words: str) -> None:
    parsed = parse_csv(["board,ns,ew,score" if "+" in line else "# no header", line], "t.csv")
    assert not parsed.results
    (problem,) = parsed.problems
    assert problem.line == 2
    assert words in problem.message


def test_long_pair_number_sorts_without_a_crash() -> None:
    # natural_key sorts pair names "2" before "10"; int() refused 5,000 digits.
    names = ["10", "2", "9" * 5000, "A"]
    assert sorted(names, key=natural_key) == ["2", "10", "9" * 5000, "A"]

"""Fuzzing the PBN readers: the tag-pair reader, the records checked as played games and the
session importer's PBN results, from damaged copies of the PBN fixtures.

The PBN reader never raises (it records problems with their line numbers), so
for it "only BridgeError escapes" means nothing escapes at all, and every
problem it records names a line inside the input.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgescore.formats import CheckedRecord, check_record, decode_text
from bridgescore.formats.pbn import PbnGame, decode_lines, read_games, read_pbn
from bridgescore.session.importers.records import parse_pbn
from fuzzing import Refused, fuzz_settings, mutated_bytes, mutated_text, read_or_refuse

DATA = Path(__file__).parents[1] / "data"
PBN_FILES = sorted(path.name for path in DATA.glob("*.pbn"))
SEEDS = {name: (DATA / name).read_bytes() for name in PBN_FILES}
# As every reader decodes them: some fixtures are Windows-1252, not UTF-8.
TEXTS = {name: decode_text(data) for name, data in SEEDS.items()}


def read_played_games(source: str) -> list[CheckedRecord]:
    """The games as played deals, checked: the road of ``bridgescore game``."""
    return [check_record(record) for record in read_pbn(source)]


def _games_from_bytes(data: bytes) -> list[PbnGame]:
    return list(read_games(decode_lines(io.BytesIO(data))))


def _lines_in(data: bytes | str) -> int:
    text = data if isinstance(data, str) else data.decode("latin-1")
    return max(1, len(text.splitlines()))


def test_fixtures_are_there() -> None:
    assert {"games_import.pbn", "games_export.pbn", "session_results.pbn"} <= set(PBN_FILES)


@fuzz_settings(examples=80)
@given(st.sampled_from(PBN_FILES).flatmap(lambda name: mutated_bytes(SEEDS[name])))
def test_damaged_pbn_file_reads_with_problems_on_real_lines(data: bytes) -> None:
    games = read_or_refuse(_games_from_bytes, data)
    # The PBN reader never refuses a file: it reports problems and goes on.
    assert not isinstance(games, Refused)
    lines = _lines_in(data)
    for game in games:
        assert 1 <= game.line <= lines
        for problem in game.problems:
            assert 1 <= problem.line <= lines, problem
            assert problem.message


@fuzz_settings(examples=60)
@given(st.sampled_from(PBN_FILES).flatmap(lambda name: mutated_text(TEXTS[name])))
def test_damaged_pbn_games_are_scored_or_reported(text: str) -> None:
    played = read_or_refuse(lambda source: list(read_played_games(source)), text)
    assert not isinstance(played, Refused)  # problems go on the games, never raised
    lines = _lines_in(text)
    for game in played:
        for problem in game.problems:
            assert 1 <= problem.line <= lines, problem


@fuzz_settings(examples=80)
@given(st.sampled_from(PBN_FILES).flatmap(lambda name: mutated_text(TEXTS[name])))
def test_damaged_pbn_results_import_or_report_their_line(text: str) -> None:
    parsed = read_or_refuse(lambda source: parse_pbn(source.splitlines(), "t.pbn"), text)
    assert not isinstance(parsed, Refused)
    lines = _lines_in(text)
    for problem in parsed.problems:
        assert 0 <= problem.line <= lines, problem
        assert problem.message


@fuzz_settings(examples=60)
@given(st.binary(max_size=600))
def test_arbitrary_bytes_read_as_pbn(data: bytes) -> None:
    assert not isinstance(read_or_refuse(_games_from_bytes, data), Refused)
    text = data.decode("latin-1")
    assert not isinstance(read_or_refuse(lambda s: list(read_played_games(s)), text), Refused)
    assert not isinstance(read_or_refuse(lambda s: parse_pbn(s.splitlines()), text), Refused)


@pytest.mark.parametrize(
    "unit",
    ["[", '[Board "1"]\n', "{", "{ x }", '[Note "1:x"]\n', "1NT ", "=1= ", "SA ", '"', "\\"],
)
def test_long_pbn_costs_work_in_proportion(unit: str) -> None:
    """30,000 characters of one repeated unit read in work linear in their length."""
    text = '[Board "1"]\n[Auction "N"]\n' + unit * (30_000 // len(unit))
    read_or_refuse(lambda s: list(read_played_games(s)), text, per_char=100)
    read_or_refuse(lambda s: parse_pbn(s.splitlines()), text, per_char=100)


# -- regression tests: the minimal inputs that crashed a reader --------------------

GAME = '[Board "{board}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Contract "4S"]\n'
GAME += '[Declarer "N"]\n[Result "{result}"]\n[Score "{score}"]\n'


@pytest.mark.parametrize(
    ("board", "result", "score", "tag"),
    [
        ("²", "10", "NS 420", "Board"),  # isdigit() yes, int() no
        ("1" * 5000, "10", "NS 420", "Board"),  # int() refuses over 4,300 digits
        ("1", "1" * 5000, "NS 420", "Result"),
        ("1", "10", "NS " + "4" * 5000, "Score"),
    ],
)
def test_former_crash_in_played_games_is_a_problem(
    board: str, result: str, score: str, tag: str
) -> None:
    text = GAME.format(board=board, result=result, score=score)
    (game,) = read_played_games(text)
    messages = [problem.message for problem in game.problems]
    assert any(message.startswith(tag) for message in messages), messages


@pytest.mark.parametrize(
    ("board", "result"),
    [("²", "10"), ("1" * 5000, "10"), ("1", "²"), ("1", "1" * 5000)],
)
def test_former_crash_in_session_pbn_is_a_line_problem(board: str, result: str) -> None:
    text = GAME.format(board=board, result=result, score="") + '[PairNS "1"]\n[PairEW "2"]\n'
    parsed = parse_pbn(text.splitlines(), "t.pbn")
    assert not parsed.results
    (problem,) = parsed.problems
    # The Board tag's line, or the Result tag's (line 6), where the bad value is.
    assert problem.line == (1 if board != "1" else 6)
    assert "Result" in problem.message or "Board" in problem.message

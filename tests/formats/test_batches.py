"""Records read a batch at a time with the cycle collector paused, and the lines
of calls kept on the record's source."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bridgescore.formats import PLAIN_CALLS, check_record, format_records, in_batches, read_records
from bridgescore.formats.record import RecordedCall


def _counting(count: int, seen: list[int], paused: list[bool]) -> Iterator[int]:
    for number in range(count):
        seen.append(number)
        paused.append(not gc.isenabled())
        yield number


@pytest.mark.parametrize("count", [0, 1, 5, 6, 7, 13])
def test_batches_give_every_item_in_order_with_the_collector_paused(count: int) -> None:
    seen: list[int] = []
    paused: list[bool] = []
    assert gc.isenabled()
    assert list(in_batches(_counting(count, seen, paused), size=6)) == list(range(count))
    assert paused == [True] * count  # every item was made while the collector was paused
    assert gc.isenabled()


def test_the_caller_runs_with_the_collector_as_it_was() -> None:
    seen: list[int] = []
    states = [gc.isenabled() for _ in in_batches(_counting(10, seen, []), size=4)]
    assert states == [True] * 10
    gc.disable()
    try:
        states = [gc.isenabled() for _ in in_batches(_counting(10, seen, []), size=4)]
        assert states == [False] * 10  # left paused: it was paused before
    finally:
        gc.enable()


def test_batches_are_taken_as_they_are_needed() -> None:
    seen: list[int] = []
    batches = in_batches(_counting(100, seen, []), size=8)
    assert next(batches) == 0
    assert seen == list(range(8))  # one batch, not the whole source
    assert list(batches)[-1] == 99


def test_an_error_comes_after_the_items_before_it() -> None:
    def failing() -> Iterator[int]:
        yield 1
        yield 2
        raise ValueError("bad input")

    got: list[int] = []
    with pytest.raises(ValueError, match="bad input"):
        for item in in_batches(failing(), size=10):
            got.append(item)
    assert got == [1, 2]
    assert gc.isenabled()


# -- the lines of calls ----------------------------------------------------------


def test_plain_calls_are_shared_values_equal_to_new_ones() -> None:
    assert PLAIN_CALLS["1NT"] == RecordedCall("1NT")
    assert len(PLAIN_CALLS) == 3 + 7 * 5
    assert all(not call.alerted and call.explanation == "" for call in PLAIN_CALLS.values())


PBN = (
    '[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Contract "2H"]\n[Declarer "E"]\n'
    '[Result "8"]\n[Auction "N"]\n'
    "Pass 1S =1= Pass\n"  # line 8
    "1D Pass Pass Pass\n"  # line 9: 1D is below 1S
    '[Note "1:five or more"]\n'
)


@pytest.mark.parametrize("fmt", ["pbn", "lin", "json"])
def test_a_problem_in_the_auction_is_reported_on_its_line(fmt: str) -> None:
    (record,) = read_records(text=PBN)
    assert record.auction is not None
    assert record.auction[1] == RecordedCall("1S", True, "five or more")
    assert record.source.call_lines == (8, 8, 8, 9, 9, 9, 9)
    assert record.source.call_line(3) == 9
    checked = check_record(record)
    assert [(p.line, p.message.split(":")[0]) for p in checked.problems] == [(9, "Auction")]
    # Written and read back in another format, the calls keep their lines there.
    (again,) = read_records(text=format_records([record], fmt), format=fmt)
    assert again.auction == record.auction
    problem = check_record(again).problems[0]
    assert "1D" in problem.message
    if fmt == "json":
        assert problem.line == again.source.line_of("Auction")  # JSON keeps no lines
    else:
        assert problem.line == again.source.call_line(3) != 0


def test_restored_opening_passes_keep_the_calls_lines() -> None:
    # The file leaves out East's and South's opening passes (dealer East): West opens.
    text = (
        '[Board "2"]\n[Dealer "E"]\n[Vulnerable "NS"]\n[Contract "4S"]\n[Declarer "W"]\n'
        '[Result "10"]\n[Auction "E"]\n'
        "1S Pass 4S Pass\n"  # line 8
        "Pass Pass\n"  # line 9
    )
    (record,) = read_records(text=text)
    assert record.auction is not None
    assert [call.call for call in record.auction[:3]] == ["Pass", "Pass", "1S"]
    assert record.source.call_lines == (0, 0, 8, 8, 8, 8, 9, 9)
    # A restored pass has no line: it is reported at the Auction tag.
    assert record.source.call_line(0) == record.source.line_of("Auction") == 7
    # The only thing said is how the file was read: the auction is legal as restored.
    (said,) = check_record(record).problems
    assert said.notice and "opening passes" in said.message


def test_all_pass_adds_passes_with_no_line() -> None:
    text = '[Board "3"]\n[Dealer "S"]\n[Auction "S"]\n1NT AP\n'
    (record,) = read_records(text=text)
    assert record.auction is not None
    assert [call.call for call in record.auction] == ["1NT", "Pass", "Pass", "Pass"]
    assert record.source.call_lines == (4, 0, 0, 0)


def test_a_file_longer_than_a_batch_reads_whole_and_in_order() -> None:
    games = [
        f'[Board "{board}"]\n[Dealer "N"]\n[Contract "3NT"]\n[Declarer "S"]\n[Result "9"]\n'
        for board in range(1, 601)
    ]
    records = list(read_records(text="\n".join(games)))
    assert [r.board for r in records] == list(range(1, 601))
    assert [r.source.record for r in records] == list(range(1, 601))
    assert [r.source.line for r in records] == list(range(1, 3601, 6))

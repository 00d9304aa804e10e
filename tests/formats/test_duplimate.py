"""Duplimate's dealing-machine files (issue 46, item 2): DLM and DUP, written by
``deal --boards ... --format dlm|dup OUT`` and read wherever boards are read.

The byte layouts are checked against the worked example of Duplimate's conversion
note (its BRI and DGE parts, written out here by hand) and against a board line
of a file a machine wrote (``Board 01=cgcajjjnakpkchipnjhmbmbpbh022``), decoded
here by the note's rule, independently of the reader.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bridgescore.boardset import DealSeed, deal_set
from bridgescore.cli.app import app
from bridgescore.core import Seat, Strain, Vulnerability
from bridgescore.deal import Card, Deal, random_deals
from bridgescore.formats import BoardRecord, detect_format, format_records, read_records
from bridgescore.formats.boardset import read_boards
from bridgescore.formats.duplimate import format_dlm, format_dup, read_dlm, read_dup

runner = CliRunner()

# The conversion note's deal: North, East, South, West.
NOTE_DEAL = Deal.from_pbn("N:J987.JT7643.A4.Q .KQ2.QT9.AK98543 AQ42.A8.KJ762.J2 KT653.95.853.T76")
# Its BRI part as the note prints it (cards unsorted), and sorted as we write it:
# AS=01 ... 2S=13, AH=14 ... 2H=26, AD=27 ... 2D=39, AC=40 ... 2C=52.
NOTE_BRI = "180437272408224221062507175150321516492941264031464543351128302039140152133403"
SORTED_BRI = (
    "04060708171821222425273742"  # North: SJ 9 8 7, HJ T 7 6 4 3, DA 4, CQ
    "15162629313240414546495051"  # East: HK Q 2, DQ T 9, CA K 9 8 5 4 3
    "01031113142028303435394352"  # South: SA Q 4 2, HA 8, DK J 7 6 2, CJ 2
)
# The DGE part: the DOS suit symbols (6 spades, 3 hearts, 4 diamonds, 5 clubs).
NOTE_DGE = (
    "\x06J987\x03JT7643\x04A4\x05Q"
    "\x06\x03KQ2\x04QT9\x05AK98543"
    "\x06AQ42\x03A8\x04KJ762\x05J2"
    "\x06KT653\x0395\x04853\x05T76"
)
# A board line of a DLM file a dealing machine wrote, checksum included.
MACHINE_LINE = "cgcajjjnakpkchipnjhmbmbpbh022"


def _card_order() -> list[Card]:
    """The machines' card order, AS KS ... 2C, written out here on its own."""
    suits = [Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS]
    return [Card(suit, rank) for suit in suits for rank in range(14, 1, -1)]


def _decode_by_hand(letters: str) -> Deal:
    # The note's rule: letter - 'a' = 4 * seat of the first card + seat of the second.
    order = _card_order()
    hands: list[list[Card]] = [[], [], [], []]
    for position, letter in enumerate(letters):
        value = ord(letter) - ord("a")
        hands[value // 4].append(order[2 * position])
        hands[value % 4].append(order[2 * position + 1])
    return Deal.from_pbn(
        "N:"
        + " ".join(
            ".".join(
                "".join("AKQJT98765432"[14 - c.rank] for c in cards if c.suit is suit) or ""
                for suit in (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
            )
            for cards in hands
        )
    )


def _dlm(board: int, letters_and_checksum: str, first: int = 1, last: int = 1) -> str:
    checksum = 0 ^ first ^ last ^ 1  # Duplicates xor From xor To, xor 1 for Show
    lines = [
        "[Document]",
        "Headline=a test",
        "Status=Show",
        "Duplicates=0",
        f"From board={first}",
        f"To board={last}",
        f"Checksum={checksum}",
        f"Duplicates {board:02d}=0",
        f"Board {board:02d}={letters_and_checksum}",
    ]
    return "\r\n".join(lines) + "\r\n"


# -- the layouts, by hand ----------------------------------------------------------


def test_a_dup_record_is_the_notes_layout_byte_for_byte() -> None:
    record = format_dup([BoardRecord(board=1, deal=NOTE_DEAL)])
    assert len(record) == 156
    assert record[:78] == SORTED_BRI
    assert record[78:146] == NOTE_DGE
    # Random hands, not backwards, lowest board 1, one copy, highest board 1.
    assert record[146:] == "YN1  1 1  "


def test_the_trailer_of_a_set_of_32_reads_as_the_note_says() -> None:
    deals = random_deals(32, seed=7)
    text = format_dup([BoardRecord(board=n, deal=d) for n, d in enumerate(deals, start=1)])
    assert len(text) == 32 * 156
    assert {text[end - 10 : end] for end in range(156, len(text) + 1, 156)} == {"YN1  1 32 "}


def test_the_notes_unsorted_bri_reads_as_its_deal() -> None:
    # "The cards do not need to be sorted": the note's own record reads.
    (record,) = read_dup(NOTE_BRI + NOTE_DGE + "YN1  1 32 ")
    assert record.problems == ()
    assert (record.board, record.deal) == (1, NOTE_DEAL)
    assert (record.dealer, record.vulnerability) == (Seat.NORTH, Vulnerability.NONE)


def test_a_blind_record_reads_from_its_bri_part() -> None:
    # The machine's "no cards on screen" form leaves the DGE part blank.
    (record,) = read_dup(NOTE_BRI + " " * 68 + "YN1  1 1  ")
    assert record.problems == () and record.deal == NOTE_DEAL


def test_a_machine_written_dlm_line_reads_as_the_notes_rule_decodes_it() -> None:
    # The checksum: board 1 xor every letter's code, 22 here, as the machine wrote it.
    checksum = 1
    for letter in MACHINE_LINE[:26]:
        checksum ^= ord(letter)
    assert checksum == 22
    (record,) = read_dlm(_dlm(1, MACHINE_LINE))
    assert record.problems == ()
    assert record.deal == _decode_by_hand(MACHINE_LINE[:26])
    # Written back, the board's line is the machine's own.
    assert f"Board 01={MACHINE_LINE}" in format_dlm([record]).split("\r\n")


def test_a_dlm_file_holds_99_boards_and_its_header_checksum() -> None:
    deals = random_deals(4, seed=3)
    text = format_dlm([BoardRecord(board=n, deal=d) for n, d in enumerate(deals, start=5)])
    lines = text.split("\r\n")
    assert lines[0] == "[Document]"
    assert "From board=5" in lines and "To board=8" in lines
    assert "Checksum=12" in lines  # 0 xor 5 xor 8 xor 1 (Status=Show)
    assert sum(line.startswith("Board ") for line in lines) == 99
    # Boards outside the set are the filler deal: N holds the first 13 cards in card
    # order, then E, S, W; its checksum is the board number xor 14.
    assert "Board 01=aaaaaabffffffkkkkkklpppppp015" in lines
    assert f"Board 99=aaaaaabffffffkkkkkklpppppp{99 ^ 14:03d}" in lines
    records = list(read_dlm(text))
    assert [(r.board, r.deal, r.problems) for r in records] == [
        (n, d, ()) for n, d in enumerate(deals, start=5)
    ]


# -- round trips -------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 99),
    st.integers(1, 12),
    st.sampled_from(["dlm", "dup"]),
)
def test_any_run_of_boards_reads_back(seed: int, first: int, count: int, fmt: str) -> None:
    count = min(count, 100 - first)
    deals = random_deals(count, seed=seed)
    records = [BoardRecord(board=n, deal=d) for n, d in enumerate(deals, start=first)]
    text = format_records(records, fmt)
    assert detect_format(None, text) == fmt
    back = list(read_records(text=text, format=fmt))
    assert [(r.board, r.deal, r.problems) for r in back] == [(r.board, r.deal, ()) for r in records]


def test_the_deals_alone_are_kept_and_a_set_must_run_on() -> None:
    with pytest.raises(ValueError, match="do not run on"):
        format_dup([BoardRecord(board=1, deal=NOTE_DEAL), BoardRecord(board=3, deal=NOTE_DEAL)])
    with pytest.raises(ValueError, match="past 99"):
        format_dlm([BoardRecord(board=100, deal=NOTE_DEAL)])


# -- damage, named by its board ----------------------------------------------------


def test_a_wrong_dlm_checksum_is_an_error_naming_the_board() -> None:
    (record,) = read_dlm(_dlm(1, MACHINE_LINE[:26] + "023"))
    assert record.deal is None
    (problem,) = record.problems
    assert "board 1:" in problem.message and "checksum 023 is wrong" in problem.message
    assert problem.line == 9


def test_a_changed_letter_is_caught_by_its_checksum() -> None:
    changed = "d" + MACHINE_LINE[1:]
    (record,) = read_dlm(_dlm(1, changed))
    assert record.deal is None and "board 1: checksum 022 is wrong" in str(record.problems[0])


def test_a_wrong_header_checksum_is_reported() -> None:
    text = _dlm(1, MACHINE_LINE).replace("Checksum=1", "Checksum=7")
    (record,) = read_dlm(text)
    assert record.deal is not None
    assert "Checksum=7 is wrong" in str(record.problems[0])


def test_a_dup_record_whose_parts_disagree_names_its_board() -> None:
    good = format_dup([BoardRecord(board=n, deal=NOTE_DEAL) for n in (1, 2)])
    # Board 2's DGE part gives North the spade six for the seven.
    second = good[156:]
    damaged = good[:156] + second[:78] + second[78:146].replace("J987", "J986") + second[146:]
    records = list(read_dup(damaged))
    assert records[0].problems == ()
    assert records[1].deal is None
    assert "board 2 (record 2, bytes 157-312)" in records[1].problems[0].message


# -- the command line --------------------------------------------------------------


def _deal(tmp_path: Path, fmt: str, boards: str = "1-4") -> Path:
    out = tmp_path / f"set.{fmt}"
    result = runner.invoke(
        app, ["deal", "--boards", boards, "--seed", "5", "--format", fmt, str(out)]
    )
    assert result.exit_code == 0, result.output
    assert f"board(s) written to {out}" in result.output
    return out


@pytest.mark.parametrize("fmt", ["dlm", "dup"])
def test_deal_writes_the_machines_file_and_every_reader_reads_it(tmp_path: Path, fmt: str) -> None:
    path = _deal(tmp_path, fmt)
    expected = [(b.number, b.deal) for b in deal_set(DealSeed.from_test_number(5), range(1, 5))]
    data = path.read_bytes()
    assert len(data) == (4 * 156 if fmt == "dup" else len(data))
    boards, problems = read_boards(data.decode("ascii"), fmt)  # type: ignore[arg-type]
    assert problems == [] and [(b.number, b.deal) for b in boards] == expected
    converted = tmp_path / "set.pbn"
    result = runner.invoke(app, ["convert", str(path), str(converted)])
    assert result.exit_code == 0, result.output
    back = list(read_records(converted))
    assert [(r.board, r.deal, r.dealer, r.vulnerability) for r in back][3] == (
        4,
        expected[3][1],
        Seat.WEST,
        Vulnerability.BOTH,
    )
    result = runner.invoke(app, ["session", "import", str(tmp_path / "club.db"), str(path)])
    assert result.exit_code == 0, result.output
    assert "4 hand record(s) added" in result.output


def test_convert_writes_the_machines_files_and_back(tmp_path: Path) -> None:
    dlm = _deal(tmp_path, "dlm")
    dup = tmp_path / "again.dup"
    assert runner.invoke(app, ["convert", str(dlm), str(dup)]).exit_code == 0
    assert dup.read_bytes() == _deal(tmp_path, "dup").read_bytes()


def test_handrecord_and_par_read_a_dup_file(tmp_path: Path) -> None:
    pytest.importorskip("endplay")
    path = _deal(tmp_path, "dup", "1-2")
    result = runner.invoke(app, ["par", str(path)])
    assert result.exit_code == 0, result.output
    assert "board 2" in result.output and "vulnerable: NS" in result.output
    out = tmp_path / "records.html"
    result = runner.invoke(app, ["handrecord", str(path), "--out", str(out)])
    assert result.exit_code == 0 and "2 board(s) written" in result.output


def test_a_corrupted_board_is_named_by_convert(tmp_path: Path) -> None:
    path = _deal(tmp_path, "dlm")
    text = path.read_bytes().decode("ascii")
    line = next(line for line in text.split("\r\n") if line.startswith("Board 03="))
    wrong = (int(line[-3:]) + 1) % 128
    path.write_bytes(text.replace(line, f"{line[:-3]}{wrong:03d}").encode("ascii"))
    result = runner.invoke(app, ["convert", str(path), str(tmp_path / "out.pbn")])
    assert result.exit_code == 1
    assert "board 3: checksum" in result.output and "is wrong" in result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--boards", "1-4,9", "--format", "dup", "x.dup"], "do not run on"),
        (["--boards", "1-4", "--format", "dlm"], "name it"),
        (["--boards", "98-101", "--format", "dlm", "x.dlm"], "past 99"),
        (["--boards", "1-4", "--format", "dup", "--analyse", "x.dup"], "no place"),
    ],
)
def test_what_a_machines_file_cannot_hold_is_refused_before_dealing(
    tmp_path: Path, args: list[str], words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["deal", "--seed", "5", *args])
    assert result.exit_code == 2, result.output
    assert words in result.output
    assert not list(tmp_path.iterdir())

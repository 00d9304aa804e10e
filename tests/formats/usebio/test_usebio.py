"""The USEBIO 1.2 reader and writer (bridgescore.formats.usebio)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgescore.errors import RecordError
from bridgescore.formats.usebio import (
    HandRecord,
    Participant,
    Player,
    TravellerLine,
    UsebioError,
    UsebioFile,
    looks_like_usebio,
    read_usebio,
    write_usebio,
)
from fuzzing import Refused, read_or_refuse

DATA = Path(__file__).parents[2] / "data"
PAIRS = (DATA / "usebio_pairs.xml").read_bytes()
TEAMS = (DATA / "usebio_teams.xml").read_bytes()


def test_pairs_file() -> None:
    file = read_usebio(PAIRS, "usebio_pairs.xml")
    assert file.problems == []
    assert (file.event_type, file.scoring, file.kind) == ("MP_PAIRS", "MATCH_POINTS", "pairs")
    assert (file.description, file.date, file.club_name) == (
        "Monday Pairs",
        "16/11/2026",
        "Riverside Bridge Club",
    )
    assert [(p.number, p.direction) for p in file.participants] == [
        ("1", "NS"),
        ("2", "NS"),
        ("3", "NS"),
        ("4", "NS"),
        ("1", "EW"),
        ("2", "EW"),
        ("3", "EW"),
        ("4", "EW"),
    ]
    # The file is ISO-8859-1 with CRLF line ends: é is one byte there.
    assert file.participants[-1].players[1] == Player("Pat Pérez", "1046")
    assert len(file.lines) == 11
    first = file.lines[0]
    assert (first.board, first.ns, first.ew, first.contract, first.played_by) == (
        1,
        "1",
        "1",
        "4H",
        "N",
    )
    assert (first.tricks, first.score, first.ns_points, first.ew_points) == ("10", "420", "4", "2")
    adjusted = [line for line in file.lines if line.score.startswith("A")]
    assert [(a.board, a.ns, a.ew, a.score) for a in adjusted] == [(2, "4", "1", "A6040")]
    # Hand records, from the HANDSET (clubs first there).
    assert file.hands[0] == HandRecord(
        1,
        "N:K98652.J7.842.82 T.A92.75.AKJT976 A43.T863.AKQJ3.5 QJ7.KQ54.T96.Q43",
        file.hands[0].line,
    )
    assert [h.board for h in file.hands] == [1, 2, 3]


def test_teams_file_seats_each_line_by_its_direction() -> None:
    file = read_usebio(TEAMS, "usebio_teams.xml")
    assert file.problems == []
    assert file.kind == "teams"
    assert [(p.number, p.name) for p in file.participants] == [
        ("1", "Aces"),
        ("2", "Kings"),
        ("3", "Queens"),
        ("4", "Jacks"),
    ]
    # Match TEAM 1 v OPPOSING_TEAM 2: DIRECTION NS puts team 1 North-South.
    first_two = [(line.board, line.ns, line.ew, line.score) for line in file.lines[:2]]
    assert first_two == [(1, "1", "2", "420"), (1, "2", "1", "170")]
    assert file.board_imps[("1", "2", 1)] == "6"
    assert file.board_imps[("3", "4", 2)] == "-11"


def test_recognised_by_content() -> None:
    assert looks_like_usebio(PAIRS)
    assert looks_like_usebio(b"\xef\xbb\xbf  <USEBIO Version='1.2'/>")
    assert not looks_like_usebio(b'[Board "1"]\n')
    assert not looks_like_usebio(b"board,ns,ew,score\n1,1,2,420\n")


ENTITY_ATTACKS = [
    # billion laughs
    '<?xml version="1.0"?><!DOCTYPE USEBIO [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;">'
    '<!ENTITY c "&b;&b;&b;&b;">]><USEBIO><EVENT EVENT_TYPE="MP_PAIRS">&c;</EVENT></USEBIO>',
    # external entity (a local file)
    '<!DOCTYPE USEBIO [<!ENTITY secret SYSTEM "file:///etc/passwd">]>'
    "<USEBIO><EVENT>&secret;</EVENT></USEBIO>",
    # external parameter entity
    '<!DOCTYPE USEBIO [<!ENTITY % remote SYSTEM "http://example.invalid/x.dtd"> %remote;]>'
    "<USEBIO/>",
    # an entity the external DTD would have to define
    '<!DOCTYPE USEBIO SYSTEM "usebio_v1_2.dtd"><USEBIO><EVENT>&nbsp;</EVENT></USEBIO>',
]


@pytest.mark.parametrize("text", ENTITY_ATTACKS)
def test_entities_are_refused(text: str) -> None:
    with pytest.raises(UsebioError, match="entit"):
        read_usebio(text.encode(), "evil.xml")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"<USEBIO><EVENT></USEBIO>", r"evil.xml: line 1: not well-formed XML \(mismatched tag\)"),
        (b"", "not well-formed XML"),
        (b"<RESULTS/>", "the document is <RESULTS>: expected <USEBIO>"),
        (b"<USEBIO/>", "has no <EVENT>"),
        (b"<USEBIO>" + b"<X>" * 100_000, "nested over 64 deep"),
        (b'<?xml version="1.0" encoding="klingon"?><USEBIO/>', "unknown encoding 'klingon'"),
        (b'<?xml version="1.0" encoding="UTF-8"?><USEBIO>\xff</USEBIO>', "is not UTF-8"),
    ],
)
def test_malformed_files_say_what_is_wrong(data: bytes, message: str) -> None:
    with pytest.raises(UsebioError, match=message):
        read_usebio(data, "evil.xml")


def test_windows_1252_declared_encoding() -> None:
    text = (
        '<?xml version="1.0" encoding="windows-1252"?><USEBIO><EVENT EVENT_TYPE="MP_PAIRS">'
        "<EVENT_DESCRIPTION>Pairs \u20ac1 entry</EVENT_DESCRIPTION></EVENT></USEBIO>"
    )
    assert read_usebio(text.encode("cp1252")).description == "Pairs \u20ac1 entry"


def test_bad_elements_are_problems_with_lines_and_the_rest_is_read() -> None:
    text = """<USEBIO Version="1.2"><EVENT EVENT_TYPE="MP_PAIRS">
<PARTICIPANTS><PAIR><PAIR_NUMBER>1</PAIR_NUMBER><DIRECTION>NW</DIRECTION></PAIR></PARTICIPANTS>
<BOARD><BOARD_NUMBER>x</BOARD_NUMBER></BOARD>
<BOARD><BOARD_NUMBER>2</BOARD_NUMBER>
<TRAVELLER_LINE><CONTRACT>3NT</CONTRACT></TRAVELLER_LINE>
<TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>
<SCORE>-100</SCORE></TRAVELLER_LINE>
<HAND><DIRECTION>North</DIRECTION><SPADES>AKQ</SPADES></HAND>
</BOARD></EVENT></USEBIO>"""
    file = read_usebio(text)
    assert [(p.line, p.message.split(":")[0]) for p in file.problems] == [
        (2, "pair 1"),
        (3, "BOARD_NUMBER 'x'"),
        (4, "board 2"),
        (5, "board 2"),
    ]
    assert "expected NS or EW" in file.problems[0].message
    assert "expected 4" in file.problems[2].message
    assert [(line.board, line.score, line.line) for line in file.lines] == [(2, "-100", 6)]


def _tags(text: str) -> list[str]:
    return re.findall(r"<([A-Z_]+)[ >]", text)


def test_writer_follows_the_element_order_of_real_files() -> None:
    file = UsebioFile(
        event_type="MP_PAIRS",
        scoring="MATCH_POINTS",
        description="Club & Co",
        club_name="Riverside",
        program="bridgescore",
        winner_type="2",
        participants=[Participant("1", "NS", players=(Player("A <B>"),)), Participant("2", "EW")],
        lines=[TravellerLine(1, "1", "2", "4H", "N", "", "10", "420", "1", "1")],
        hands=[
            HandRecord(1, "N:K98652.J7.842.82 T.A92.75.AKJT976 A43.T863.AKQJ3.5 QJ7.KQ54.T96.Q43")
        ],
    )
    text = write_usebio(file)
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE USEBIO SYSTEM')
    assert "<EVENT_DESCRIPTION>Club &amp; Co</EVENT_DESCRIPTION>" in text
    assert "<PLAYER_NAME>A &lt;B&gt;</PLAYER_NAME>" in text
    tags = _tags(text)
    assert tags[:4] == ["USEBIO", "CLUB", "CLUB_NAME", "CLUB_ID_NUMBER"]
    line = tags[tags.index("TRAVELLER_LINE") + 1 : tags.index("HANDSET")]
    assert line == [
        "NS_PAIR_NUMBER",
        "EW_PAIR_NUMBER",
        "CONTRACT",
        "PLAYED_BY",
        "TRICKS",
        "SCORE",
        "NS_MATCH_POINTS",
        "EW_MATCH_POINTS",
    ]
    hand = tags[tags.index("HAND") + 1 : tags.index("HAND") + 6]
    assert hand == ["DIRECTION", "CLUBS", "DIAMONDS", "HEARTS", "SPADES"]
    # Every element path the writer uses is one the fixture (shaped like real files) uses.
    assert _paths(text) <= _paths(PAIRS.decode("latin-1")) | {"USEBIO/EVENT/PROGRAM_NAME"}
    again = read_usebio(text)
    assert again.lines == [
        TravellerLine(1, "1", "2", "4H", "N", "", "10", "420", "1", "1", line=again.lines[0].line)
    ]
    assert again.hands[0].deal == file.hands[0].deal


def _paths(text: str) -> set[str]:
    stack: list[str] = []
    paths = set()
    for closing, tag, empty in re.findall(r"<(/?)([A-Z_]+)[^>]*?(/?)>", text):
        if closing:
            stack.pop()
            continue
        paths.add("/".join([*stack, tag]))
        if not empty:
            stack.append(tag)
    return paths


# What XML 1.0 can hold: no control characters, no U+FFFE or U+FFFF (the writer refuses
# them, test_text_xml_cannot_hold_is_refused_by_name).
_NAMES = st.text(
    st.characters(
        codec="utf-8", exclude_categories=("Cs", "Cc"), exclude_characters="\ufffe\uffff"
    ),
    min_size=1,
)
_NAMES = _NAMES.map(str.strip).filter(bool)


@st.composite
def _files(draw: st.DrawFn) -> UsebioFile:
    numbers = draw(st.lists(st.integers(1, 40).map(str), min_size=2, max_size=6, unique=True))
    participants = [
        Participant(n, draw(st.sampled_from(["NS", "EW", ""])), players=(Player(draw(_NAMES)),))
        for n in numbers
    ]
    lines = []
    for board in draw(st.lists(st.integers(1, 36), min_size=1, max_size=4, unique=True)):
        ns, ew = draw(st.permutations(numbers))[:2]
        contract = draw(st.sampled_from(["4H", "3NT", "2SX", "7CXX", "PASS", ""]))
        score = draw(st.sampled_from(["420", "-100", "0", "A6040", "A5050"]))
        lines.append(
            TravellerLine(
                board, ns, ew, contract, "N" if contract else "", "", "9", score, "1.5", "2.5"
            )
        )
    return UsebioFile(
        event_type="MP_PAIRS",
        scoring="MATCH_POINTS",
        description=draw(_NAMES),
        participants=participants,
        lines=lines,
    )


@given(_files())
@settings(max_examples=60, deadline=None)
def test_write_then_read_gives_the_same_file(file: UsebioFile) -> None:
    again = read_usebio(write_usebio(file).encode("utf-8"))
    assert again.problems == []
    assert again.description == file.description
    assert [(p.number, p.direction, p.players) for p in again.participants] == [
        (p.number, p.direction, p.players) for p in file.participants
    ]
    expected = sorted(file.lines, key=lambda line: line.board)
    assert [line.__class__(**{**_fields(line), "line": 0}) for line in again.lines] == expected


@pytest.mark.parametrize(("text", "code"), [("Smith\x01", "0001"), ("\ufffe", "FFFE")])
def test_text_xml_cannot_hold_is_refused_by_name(text: str, code: str) -> None:
    file = UsebioFile(event_type="MP_PAIRS", scoring="MATCH_POINTS", description=text)
    with pytest.raises(RecordError, match=f"holds U\\+{code}, which XML cannot hold"):
        write_usebio(file)
    # What XML can hold is written and read back, a tab and U+FFFD included.
    fine = UsebioFile(event_type="MP_PAIRS", scoring="MATCH_POINTS", description="A\tB \ufffd")
    assert read_usebio(write_usebio(fine).encode("utf-8")).description == "A\tB \ufffd"


def _fields(line: TravellerLine) -> dict[str, object]:
    return {name: getattr(line, name) for name in TravellerLine.__slots__}


@given(st.data())
@settings(max_examples=200, deadline=None)
def test_fuzz_byte_flips_and_truncation_raise_only_bridge_errors(data: st.DataObject) -> None:
    base = bytearray(data.draw(st.sampled_from([PAIRS, TEAMS])))
    for _ in range(data.draw(st.integers(0, 6))):
        at = data.draw(st.integers(0, len(base) - 1))
        base[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(base)))
    damaged = bytes(base[:cut])
    _only_what_the_file_says(damaged, read_or_refuse(lambda d: read_usebio(d, "fuzz.xml"), damaged))


@given(st.binary(max_size=300))
@settings(max_examples=200, deadline=None)
def test_fuzz_arbitrary_bytes(data: bytes) -> None:
    damaged = b"<USEBIO>" + data
    _only_what_the_file_says(damaged, read_or_refuse(lambda d: read_usebio(d, "fuzz.xml"), damaged))


def _only_what_the_file_says(data: bytes, outcome: UsebioFile | Refused) -> None:
    """A damaged file is refused, or read into nothing it does not say: each traveller
    line's board is one of its BOARD_NUMBERs and each pair or team number is in it, and
    every problem names its line (read here with a pattern of the test's own)."""
    if isinstance(outcome, Refused):
        return
    text = data.decode("utf-8", "replace")
    boards = {int(n) for n in re.findall(r"<BOARD_NUMBER>\s*([0-9]{1,9})\s*</BOARD_NUMBER>", text)}
    assert {line.board for line in outcome.lines} <= boards
    assert all(p.number and p.number in text for p in outcome.participants)
    lines = text.count("\n") + 1
    assert all(0 <= problem.line <= lines and str(problem).strip() for problem in outcome.problems)


_ENTITY_NAMES = st.from_regex(r"[a-z][a-z0-9]{0,6}", fullmatch=True)


@st.composite
def _doctypes(draw: st.DrawFn) -> tuple[str, str]:
    """A DOCTYPE declaring entities (internal, external, parameter) and a body using them."""
    names = draw(st.lists(_ENTITY_NAMES, min_size=1, max_size=4, unique=True))
    declarations = []
    for i, name in enumerate(names):
        form = draw(st.sampled_from(["internal", "system", "public", "parameter", "unparsed"]))
        if form == "internal":
            inner = "".join(f"&{other};" for other in names[:i]) * draw(st.integers(1, 9))
            declarations.append(f'<!ENTITY {name} "{inner or "x" * 50}">')
        elif form == "system":
            url = draw(st.sampled_from(["file:///etc/passwd", "http://example.invalid/e"]))
            declarations.append(f'<!ENTITY {name} SYSTEM "{url}">')
        elif form == "public":
            declarations.append(f'<!ENTITY {name} PUBLIC "-//X//Y" "http://example.invalid/p">')
        elif form == "parameter":
            declarations.append(f'<!ENTITY % {name} SYSTEM "http://example.invalid/p.dtd">')
        else:
            declarations.append(f'<!ENTITY {name} SYSTEM "http://example.invalid/i" NDATA gif>')
    body = "".join(f"&{name};" for name in draw(st.permutations(names)))
    return f"<!DOCTYPE USEBIO [{''.join(declarations)}]>", body


@given(_doctypes(), st.sampled_from([PAIRS, TEAMS]))
@settings(max_examples=100, deadline=None)
def test_fuzz_entity_declarations_are_always_refused(doctype: tuple[str, str], base: bytes) -> None:
    declaration, body = doctype
    text = base.decode("latin-1")
    text = re.sub(r"<!DOCTYPE[^>]*>", declaration, text, count=1)
    text = text.replace("<CLUB_NAME>", f"<CLUB_NAME>{body}", 1)
    with pytest.raises(UsebioError, match="entit"):
        read_usebio(text.encode("utf-8").replace(b"ISO-8859-1", b"UTF-8"), "fuzz.xml")

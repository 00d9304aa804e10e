"""Duplimate's dealing-machine files, both ways: DLM (text, one line a board, each with
its checksum) and DUP (156-byte records).

Both number the cards 1 to 52 from the ace of spades down to the two of clubs
(AS KS ... 2S AH ... 2C), and neither states a board's dealer or vulnerability:
they follow its number (Law 2), and the records read say so. Up to board 99.

**DLM** (the newer machines). A ``[Document]`` section of ``key=value`` lines,
then two lines a board, for boards 1 to 99 whatever the set holds::

    [Document]
    Headline=...
    Status=Show              (Sealed: the machine does not show the cards)
    Duplicates=0
    From board=1
    To board=32
    Next board to duplimate=0
    PrintOuts=0
    Crypto key=0
    Checksum=33              (Duplicates xor From xor To, xor 1 when Status=Show)
    Duplicates 01=0
    Board 01=cgcajjjnakpkchipnjhmbmbpbh022

A board's 26 letters hold two cards each, in card order: the letter is ``a`` plus
four times the first card's seat plus the second's (N=0, E=1, S=2, W=3), so ``a``
is both North's and ``p`` both West's. The three digits after them are the board
number xor every letter's code. Boards outside From-To are filler (the same
deal each time) and are not read.

**DUP** (the older machines). One 156-byte record a board, no line breaks:

- bytes 1-78, the BRI part: North's, East's and South's cards as two-digit card
  numbers (West holds the rest);
- bytes 79-146, the DGE part: each hand, N E S W, as 17 bytes: per suit its
  symbol in the DOS character set (6, 3, 4, 5 for spades, hearts, diamonds,
  clubs) and its ranks ``AKQJT98765432``; blanks when the machine is not to show
  the cards;
- bytes 147-156: ``Y`` (random hands), ``N`` (not counting backwards), the set's
  lowest board (3 bytes), the copies of each board (2), its highest board (3),
  each left-aligned and padded with blanks: ``YN1  1 32 ``.

A record's boards run from the lowest board up. The BRI and DGE parts say the same
deal twice: a record where they disagree is reported, as is a DLM board whose
checksum is wrong, naming the board.

>>> from bridgescore.deal import Deal
>>> deal = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
>>> line = format_dlm([BoardRecord(board=1, deal=deal)]).splitlines()[11]
>>> line
'Board 01=aaaaaabffffffkkkkkklpppppp015'
>>> [record.deal == deal for record in read_dlm(format_dlm([BoardRecord(board=1, deal=deal)]))]
[True]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from bridgescore.core import Seat, Strain, Vulnerability, dealer_of_board
from bridgescore.deal import Card, Deal, Hand
from bridgescore.errors import BridgeError, InvalidDealError, NotationError
from bridgescore.formats.record import BoardRecord, Problem, Source

__all__ = [
    "DEALING_FORMATS",
    "DUP_RECORD",
    "MAX_BOARD",
    "check_board_run",
    "format_dlm",
    "format_dup",
    "looks_like_dlm",
    "looks_like_dup",
    "read_dlm",
    "read_dup",
]

DEALING_FORMATS = ("dlm", "dup")
"""Duplimate's two files, by their extensions."""
MAX_BOARD = 99
"""The highest board either file can hold."""
DUP_RECORD = 156
"""Bytes of one DUP record."""

_SUIT_ORDER = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
# Duplimate's card order: card number n (1..52) is _CARDS[n - 1].
_CARDS = tuple(Card(suit, rank) for suit in _SUIT_ORDER for rank in range(14, 1, -1))
_NUMBER = {card: number for number, card in enumerate(_CARDS, start=1)}
# The suit symbols of the DOS character set (code page 437) the DGE part writes.
_DOS_SYMBOLS = {Strain.SPADES: "\x06", Strain.HEARTS: "\x03", Strain.DIAMONDS: "\x04"}
_DOS_SYMBOLS[Strain.CLUBS] = "\x05"
_RANKS = "AKQJT98765432"
_HEADLINE = "Dealt by bridgescore"
# Every board a DLM file does not hold is this deal (N the first 13 cards in card
# order, then E, S, W), as the machines' own files fill them.
_FILLER = "aaaaaabffffffkkkkkklpppppp"
_DLM_BOARD = re.compile(r"board\s*([0-9]{1,2})\s*=\s*(\S*)\s*", re.IGNORECASE)
_DLM_KEY = re.compile(r"\s*([^=]+?)\s*=\s*(.*?)\s*")
_DUP_TRAILER = re.compile(rb"[YN][YN][0-9 ]{3}[0-9 ]{2}[0-9 ]{3}")


def looks_like_dlm(text: str) -> bool:
    """Whether a text is a DLM file: its first line is ``[Document]``.

    >>> looks_like_dlm("[Document]\\r\\nHeadline=x"), looks_like_dlm('[Board "1"]')
    (True, False)
    """
    first = text.lstrip("\ufeff \t\r\n").split("\n", 1)[0]
    return first.strip().lower() == "[document]"


def looks_like_dup(data: bytes | str) -> bool:
    """Whether bytes (or their text) are a DUP file: whole 156-byte records, each
    ending in the machine's ten bytes (``YN1  1 32 ``)."""
    raw = data.encode("latin-1", "replace") if isinstance(data, str) else data
    if not raw or len(raw) % DUP_RECORD:
        return False
    return all(
        _DUP_TRAILER.fullmatch(raw[end - 10 : end])
        for end in range(DUP_RECORD, len(raw) + 1, DUP_RECORD)
    )


# -- the set a file holds --------------------------------------------------------


def _dealt(records: Iterable[BoardRecord], fmt: str) -> list[tuple[int, Deal]]:
    """The boards' numbers and deals, which must run on from the first, one each,
    up to board 99: a dealing machine deals a run of boards."""
    boards: list[tuple[int, Deal]] = []
    for record in records:
        if record.board is None or record.deal is None:
            shown = "a record" if record.board is None else f"board {record.board}"
            raise NotationError(
                f"{shown} has no deal or no number: a .{fmt} file holds each board's deal"
            )
        boards.append((record.board, record.deal))
    check_board_run([number for number, _ in boards], fmt)
    return boards


def check_board_run(numbers: Sequence[int], fmt: str) -> None:
    """Raise :class:`~bridgescore.NotationError` unless the board numbers run on one
    after another from the first, up to board 99, as a dealing machine's file
    (``fmt``: ``dlm`` or ``dup``) holds them.

    >>> check_board_run([1, 2, 3], "dlm")
    >>> check_board_run([1, 3], "dup")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bridgescore.errors.NotationError: boards 1, 3 do not run on one after another: ...
    """
    if not numbers:
        raise NotationError(f"no boards to write: a .{fmt} file holds at least one")
    first = numbers[0]
    if list(numbers) != list(range(first, first + len(numbers))):
        raise NotationError(
            f"boards {_shown_numbers(numbers)} do not run on one after another: a .{fmt} "
            "file holds a run of boards, such as 1-32"
        )
    if numbers[-1] > MAX_BOARD:
        raise NotationError(
            f"board {numbers[-1]} is past {MAX_BOARD}: a .{fmt} file holds boards 1 to {MAX_BOARD}"
        )


def _shown_numbers(numbers: Sequence[int]) -> str:
    shown = ", ".join(map(str, numbers[:8]))
    return shown + (", ..." if len(numbers) > 8 else "")


def _owners(deal: Deal) -> list[Seat]:
    """Each card's seat, in Duplimate's card order."""
    return [deal.owner(card) for card in _CARDS]


# -- DLM -------------------------------------------------------------------------


def _dlm_letters(deal: Deal) -> str:
    owners = _owners(deal)
    return "".join(chr(ord("a") + 4 * owners[i] + owners[i + 1]) for i in range(0, 52, 2))


def _dlm_checksum(number: int, letters: str) -> int:
    checksum = number
    for letter in letters:
        checksum ^= ord(letter)
    return checksum


def _header_checksum(duplicates: int, first: int, last: int, show: bool) -> int:
    return duplicates ^ first ^ last ^ int(show)


def format_dlm(records: Iterable[BoardRecord], *, headline: str = _HEADLINE) -> str:
    """The boards as a DLM file (lines end CR LF, as the machine's own files do).

    The boards must run on from the first (1-32, 5-8), each with its deal, up to
    board 99; raises :class:`~bridgescore.NotationError` otherwise.
    """
    boards = _dealt(records, "dlm")
    first, last = boards[0][0], boards[-1][0]
    dealt = dict(boards)
    lines = [
        "[Document]",
        f"Headline={' '.join(headline.split())}",
        "Status=Show",
        "Duplicates=0",
        f"From board={first}",
        f"To board={last}",
        "Next board to duplimate=0",
        "PrintOuts=0",
        "Crypto key=0",
        f"Checksum={_header_checksum(0, first, last, True)}",
    ]
    for number in range(1, MAX_BOARD + 1):
        deal = dealt.get(number)
        letters = _FILLER if deal is None else _dlm_letters(deal)
        lines.append(f"Duplicates {number:02d}=0")
        lines.append(f"Board {number:02d}={letters}{_dlm_checksum(number, letters):03d}")
    return "\r\n".join(lines) + "\r\n"


def _dlm_deal(letters: str) -> Deal:
    """The deal of a DLM board's 26 letters (``a`` to ``p``)."""
    if len(letters) != 26:
        raise NotationError(f"{letters!r} has {len(letters)} letters: expected 26")
    held: list[list[Card]] = [[], [], [], []]
    for position, letter in enumerate(letters):
        value = ord(letter) - ord("a")
        if not 0 <= value <= 15:
            raise NotationError(f"{letter!r} in {letters!r}: expected letters a to p")
        held[value >> 2].append(_CARDS[2 * position])
        held[value & 3].append(_CARDS[2 * position + 1])
    north, east, south, west = (Hand(frozenset(cards)) for cards in held)
    return Deal((north, east, south, west))


def _int_value(values: dict[str, tuple[str, int]], key: str) -> int | None:
    given = values.get(key)
    if given is None:
        return None
    text = given[0]
    if not (text.isascii() and text.isdigit() and len(text) <= 3):
        raise NotationError(f"{key}={text}: expected a whole number")
    return int(text)


def read_dlm(text: str, file: str | None = None) -> Iterator[BoardRecord]:
    """Board records of a DLM file's text: the boards from ``From board`` to ``To
    board``. Never raises on bad input: a board whose checksum or letters are wrong
    is a record with its problem (naming the board), and a header whose checksum is
    wrong puts its problem on the first board."""
    values: dict[str, tuple[str, int]] = {}
    boards: list[tuple[int, str, int]] = []  # number, value, line
    problems: list[Problem] = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("["):
            continue
        board = _DLM_BOARD.fullmatch(stripped)
        if board is not None:
            boards.append((int(board[1]), board[2], line_number))
            continue
        pair = _DLM_KEY.fullmatch(stripped)
        if pair is None:
            problems.append(
                Problem(line_number, f"{stripped[:40]!r} is not a DLM line: expected key=value")
            )
            continue
        values.setdefault(pair[1].lower(), (pair[2], line_number))
    try:
        first = _int_value(values, "from board")
        last = _int_value(values, "to board")
        duplicates = _int_value(values, "duplicates") or 0
        stated = _int_value(values, "checksum")
    except NotationError as error:
        problems.append(Problem(0, f"the [Document] header: {error}"))
        first = last = stated = None
        duplicates = 0
    show = values.get("status", ("", 0))[0].lower() == "show"
    if first is not None and last is not None and stated is not None:
        expected = _header_checksum(duplicates, first, last, show)
        if stated != expected:
            problems.append(
                Problem(
                    values["checksum"][1],
                    f"the header's Checksum={stated} is wrong: Duplicates, From board, To board "
                    f"and Status give {expected}; the file was changed or damaged",
                )
            )
    wanted = [
        board
        for board in boards
        if (first is None or board[0] >= first) and (last is None or board[0] <= last)
    ]
    if not wanted:
        problems.append(Problem(0, "the DLM file holds no board from From board to To board"))
        yield BoardRecord(source=Source(file, 1, 1), problems=tuple(problems))
        return
    for index, (number, value, at) in enumerate(wanted, start=1):
        found = list(problems) if index == 1 else []
        deal = None
        try:
            letters, digits = value[:-3], value[-3:]
            if not (digits.isascii() and digits.isdigit()):
                raise NotationError(f"{value!r} does not end in its three-digit checksum")
            # The checksum first: a damaged line is reported as such, not as the odd
            # deal its letters now make.
            expected = _dlm_checksum(number, letters)
            if int(digits) != expected:
                raise NotationError(
                    f"checksum {digits} is wrong: the letters give {expected:03d}; the board "
                    "was changed or damaged"
                )
            deal = _dlm_deal(letters)
        except BridgeError as error:
            found.append(Problem(at, f"board {number}: {error}"))
        yield BoardRecord(
            board=number,
            dealer_seat=dealer_of_board(number),
            vulnerable=Vulnerability.from_board(number),
            deal=deal,
            source=Source(file, at, index, ("Board", "Deal"), (at, at)),
            problems=tuple(found),
        )


# -- DUP -------------------------------------------------------------------------


def _dge_hand(hand: Hand) -> str:
    return "".join(
        _DOS_SYMBOLS[suit] + "".join(_RANKS[14 - rank] for rank in hand.suit(suit))
        for suit in _SUIT_ORDER
    )


def _padded(number: int, width: int) -> str:
    return str(number).ljust(width)


def format_dup(records: Iterable[BoardRecord]) -> str:
    """The boards as a DUP file: 156 characters a board (all ASCII, no line breaks;
    write them as bytes, unchanged).

    The boards must run on from the first, each with its deal, up to board 99;
    raises :class:`~bridgescore.NotationError` otherwise.
    """
    boards = _dealt(records, "dup")
    first, last = boards[0][0], boards[-1][0]
    trailer = "YN" + _padded(first, 3) + _padded(1, 2) + _padded(last, 3)
    written = []
    for _, deal in boards:
        bri = "".join(
            f"{_NUMBER[card]:02d}"
            for seat in (Seat.NORTH, Seat.EAST, Seat.SOUTH)
            for card in sorted(deal[seat], key=_NUMBER.__getitem__)
        )
        dge = "".join(_dge_hand(deal[seat]) for seat in Seat)
        written.append(bri + dge + trailer)
    return "".join(written)


def _bri_deal(part: str) -> Deal:
    """The deal of a BRI part: North's, East's and South's card numbers; West the rest."""
    if not (part.isascii() and part.isdigit()):
        raise NotationError(f"the BRI part {part[:26]!r}...: expected 78 digits")
    numbers = [int(part[i : i + 2]) for i in range(0, 78, 2)]
    bad = [number for number in numbers if not 1 <= number <= 52]
    if bad:
        raise NotationError(f"card number {bad[0]:02d} in the BRI part: expected 01 to 52")
    cards = [_CARDS[number - 1] for number in numbers]
    if len(set(cards)) != 39:
        raise InvalidDealError("the BRI part gives a card to two hands")
    north, east, south = (frozenset(cards[i : i + 13]) for i in (0, 13, 26))
    west = frozenset(_CARDS) - north - east - south
    return Deal((Hand(north), Hand(east), Hand(south), Hand(west)))


def read_dup(data: bytes | str, file: str | None = None) -> Iterator[BoardRecord]:
    """Board records of a DUP file (its bytes, or their text as the readers decode
    it). Never raises on bad input: a record that cannot be read, or whose BRI and
    DGE parts disagree, is a record with its problem, naming its board."""
    text = data.decode("latin-1") if isinstance(data, bytes) else data
    if not text or len(text) % DUP_RECORD:
        yield BoardRecord(
            source=Source(file, 1, 1),
            problems=(
                Problem(
                    0,
                    f"the DUP file has {len(text)} bytes: expected whole records of "
                    f"{DUP_RECORD} bytes",
                ),
            ),
        )
        return
    first_board = 1
    for index in range(len(text) // DUP_RECORD):
        record = text[index * DUP_RECORD : (index + 1) * DUP_RECORD]
        lowest = record[148:151].strip()
        if index == 0 and lowest.isascii() and lowest.isdigit() and int(lowest) >= 1:
            first_board = int(lowest)
        number = first_board + index
        where = f"board {number} (record {index + 1}, bytes {index * DUP_RECORD + 1}-"
        where += f"{(index + 1) * DUP_RECORD})"
        deal = None
        problems: tuple[Problem, ...] = ()
        try:
            deal = _bri_deal(record[:78])
            dge = record[78:146]
            if dge.strip(" ") and dge != "".join(_dge_hand(deal[seat]) for seat in Seat):
                deal = None
                raise NotationError(
                    "its BRI and DGE parts give different deals; the file was changed or damaged"
                )
        except BridgeError as error:
            problems = (Problem(0, f"{where}: {error}"),)
        yield BoardRecord(
            board=number,
            dealer_seat=dealer_of_board(number),
            vulnerable=Vulnerability.from_board(number),
            deal=deal,
            source=Source(file, 0, index + 1),
            problems=problems,
        )

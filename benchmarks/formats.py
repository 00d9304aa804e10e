"""Reading PBN and LIN: our readers against endplay's own parsers, in the same run.

Generates a file of BOARDS boards (default 10,000: random deals, legal auctions
with alerts, legal plays, whole or ended by a claim), writes it as PBN and as LIN
with our writers, then times reading each file into games with ours
(``bridgescore.formats.read_records``) and with endplay's (``endplay.parsers.pbn``
and ``.lin``), and prints games read per second and the ratio. Both readers must
find every board, and ours must read each board back exactly as written. Both
build every game whole inside the timing: endplay's ``Board`` has its deal,
auction, play and contract, and ours its ``BoardRecord`` deal, auction (with
alerts), play (in the order played) and contract; neither defers any of it.

Each time is taken twice: on the wall clock and as the CPU time of this
process. The machine is shared and loaded, so the wall clock also counts the
time the process waits for a core; the CPU time does not, and is the steadier
figure. Ratios are of two readers timed in the same run: they take turns, run
by run, and each keeps its best of ``--repeat`` runs. Every run starts from
the same heap (the last run's result is dropped first).

Then a vugraph archive of half the boards, each played in both rooms of a teams
match (``_vugraph``: a ``vg`` header, one ``pn`` of eight players, a ``qx`` line a
table, ``pg||`` after each trick), is read by ours, against endplay's reading of
the same games written one LIN line each: endplay's parser cannot read the archive
(eight names in ``pn``, no ``qx``), so that is the nearest like-for-like figure.

Then a PBN of about 2 MB shaped like the championship files publishers put out
(``_real_shaped``: Windows-1252 with CRLF line ends, ``%`` directives, ``#``
tags, a board's Board, Dealer, Vulnerable and Deal at its first table only,
unknown tags, ``{comments}``, alerts with notes, opening passes left out, Play
sections whole or claimed, OptimumResultTables) is read from its bytes by both
readers, the same way (ours from an open binary file, endplay's from the text
decoded as Windows-1252, the decoding timed), best of ``--repeat``; then read and
scored by ours (every auction and play replayed under the Laws, every Score tag
and the teams' rooms checked): target under 2 seconds.

Our readers pause Python's cycle collector while they read a batch of records
(``in_batches`` in ``bridgescore/formats/__init__.py``); ``--collector-as-usual`` times them without
the pauses, to show what they give.

    .venv/bin/python benchmarks/formats.py [--boards 10000] [--repeat 5] [--collector-as-usual]
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import platform
import random
import re
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, NamedTuple

from bridgescore.auction import Auction
from bridgescore.core import Seat, Vulnerability, dealer_of_board
from bridgescore.deal import Card, Deal, Hand
from bridgescore.formats import (
    BoardRecord,
    RecordedCall,
    check_record,
    format_records,
    read_records,
)
from bridgescore.formats.crosscheck import cross_check
from bridgescore.formats.lin import format_lin
from bridgescore.formats.record import MatchHeader
from bridgescore.play import Play
from bridgescore.scoring import score

NAMES = ("Ann", "Bob", "Cy", "Di", "Eve", "Flo", "Gil", "Hal")


def _deal(rng: random.Random) -> Deal:
    cards = [Card.from_index(index) for index in range(52)]
    rng.shuffle(cards)
    return Deal(tuple(Hand(frozenset(cards[i * 13 : (i + 1) * 13])) for i in range(4)))  # type: ignore[arg-type]


def _board(rng: random.Random, number: int) -> BoardRecord:
    board = (number - 1) % 32 + 1
    dealer = dealer_of_board(board)
    deal = _deal(rng)
    auction = Auction(dealer)
    calls = []
    while not auction.is_complete:
        legal = auction.legal_calls()
        call = legal[0] if len(calls) > 8 or rng.random() < 0.5 else rng.choice(legal[:12])
        auction.append(call)
        alerted = call.is_bid and rng.random() < 0.1
        calls.append(RecordedCall(str(call), alerted, "artificial" if alerted else ""))
    contract = auction.contract
    play = None
    claim = None
    if contract is not None:
        game = Play(deal, contract)
        stop = 52 if rng.random() < 0.5 else rng.choice((4, 16, 28, 40))
        for _ in range(stop):
            game.play(rng.choice(game.legal_cards()))
        play = game.cards
        if stop < 52:
            claim = game.declarer_tricks + (13 - stop // 4) // 2
    return BoardRecord(
        board=board,
        dealer_seat=dealer,
        vulnerable=Vulnerability.from_board(board),
        deal=deal,
        players=(NAMES[0], NAMES[1], NAMES[2], NAMES[3]),
        event="Benchmark Pairs",
        auction=tuple(calls),
        play=play,
        claim=claim,
        contract=contract,
        passed_out=contract is None,
        result=claim,
    )


def _best(repeat: int, run: Callable[[], Any]) -> tuple[float, float, Any]:
    """The best wall-clock and the best CPU time of ``repeat`` runs, and a result."""
    wall, cpu, result = float("inf"), float("inf"), None
    for _ in range(repeat):
        # The last run's result goes first, so that every run starts from the same
        # heap (the collector would otherwise walk it during the next run).
        result = None
        gc.collect()
        start, start_cpu = time.perf_counter(), time.process_time()
        result = run()
        cpu = min(cpu, time.process_time() - start_cpu)
        wall = min(wall, time.perf_counter() - start)
    return wall, cpu, result


class _Race(NamedTuple):
    """Two readers' best times (wall clock and CPU) and their last results."""

    ours: Any
    theirs: Any
    wall: float
    cpu: float
    their_wall: float
    their_cpu: float


def _race(repeat: int, ours: Callable[[], Any], theirs: Callable[[], Any]) -> _Race:
    """Time both readers ``repeat`` times each, taking turns run by run, so that a busy
    spell of the shared machine falls on both alike; each keeps its best run."""
    wall = cpu = their_wall = their_cpu = float("inf")
    mine: Any = None
    their: Any = None
    for _ in range(repeat):
        mine = their = None  # neither reader runs beside the other's last result
        one_wall, one_cpu, mine = _best(1, ours)
        other_wall, other_cpu, their = _best(1, theirs)
        wall, cpu = min(wall, one_wall), min(cpu, one_cpu)
        their_wall, their_cpu = min(their_wall, other_wall), min(their_cpu, other_cpu)
    return _Race(mine, their, wall, cpu, their_wall, their_cpu)


def _report(what: str, race: _Race, games: int, their_games: int, theirs: str = "endplay") -> None:
    """Print both readers' rates of ``what``, on each clock, and their ratio."""
    for clock, mine, other in (
        ("wall", race.wall, race.their_wall),
        ("CPU ", race.cpu, race.their_cpu),
    ):
        print(
            f"{what}, {clock}: bridgescore {games / mine:7,.0f} games/s  "
            f"{theirs} {their_games / other:7,.0f} games/s  ratio {other / mine:4.1f}x"
        )


# The closed room's players in the vugraph archive (the open room's are NAMES[:4]).
CLOSED = ("Ivy", "Jo", "Kai", "Lu")
_TRICK = re.compile(r"((?:pc\|[^|]*\|){4})")


def _vugraph(boards: list[BoardRecord]) -> tuple[str, list[BoardRecord]]:
    """A vugraph archive of ``boards`` as BBO writes one, and its games as records.

    Each board is played in both rooms of a teams match (the closed room the same
    calls and cards, by other players): a ``vg`` header naming the match, one ``pn``
    of the eight players, then a line a table: ``qx|o1|st||md|...|sv|...|mb|...``,
    a ``pg||`` after each trick, ``mc`` for a claim.
    """
    header = MatchHeader(
        event="Benchmark Teams",
        segment="Final",
        scoring="I",
        first_board=1,
        last_board=len(boards),
        home_team="Lions",
        visit_team="Tigers",
    )
    north, east, south, west = NAMES[:4]
    seated = (south, west, north, east, CLOSED[2], CLOSED[3], CLOSED[0], CLOSED[1])
    lines = [f"vg|{header}|", f"pn|{','.join(seated)}|pg||"]
    games = []
    for number, record in enumerate(boards, start=1):
        # (The table's line as format_lin writes it, without what the archive says once.)
        table = format_lin(replace(record, board=None, players=("", "", "", ""), event=""))
        table = _TRICK.sub(r"\1pg||", table)
        for room, players in (("open", NAMES[:4]), ("closed", CLOSED)):
            lines.append(f"qx|{room[0]}{number}|st||{table}")
            games.append(
                replace(
                    record,
                    board=number,
                    room=room,
                    players=players,
                    event=header.event,
                    home_team=header.home_team,
                    visit_team=header.visit_team,
                    match=header,
                )
            )
    return "\n".join(lines) + "\n", games


# Players as championship files name them, in Windows-1252: accents, a curly
# apostrophe (0x92), a Z with caron (0x8E).
REAL_NAMES = (
    "Zoë Ågren", "Jürgen Müller", "Seán O’Brien", "Anaïs Lefèvre", "Bjørn Dæhli",
    "Žiga Novak", "Françoise Gaël", "José Ibáñez", "Søren Østergaard", "Małgorzata Nowak",
    "Ana Lúcia", "Pål Bjørnstad", "Hélène Côté", "Jörg Weiß", "Ömer Çelik", "Łukasz Dąb",
)  # fmt: skip
TEAMS = ("Monaco", "Sweden", "Poland", "Netherlands", "Italy", "France", "Norway", "England")
COMMENTS = (
    "{West found the killing lead.}",
    "{North-South were lucky: the finesse worked.}",
    "{An interesting board: par is 4S doubled\nby East-West, two down.}",
    "{The auction at the other table was identical.}",
)
EXPLANATIONS = ("strong", "transfer", "Stayman", "weak", "natural", "2 suits", "forcing")


def _cp1252_names(rng: random.Random) -> list[str]:
    # Łukasz, Małgorzata and Dąb have letters Windows-1252 lacks: those files write them
    # without the accents, so only the names it can hold are used.
    names = [name for name in REAL_NAMES if _fits_cp1252(name)]
    return [rng.choice(names) for _ in range(4)]


def _fits_cp1252(text: str) -> bool:
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def _real_game(
    rng: random.Random, board: int, deal: Deal, table: int, first: bool, matches: int
) -> str:
    """One table of a board as championship publishers write it (see _real_shaped)."""
    dealer = dealer_of_board(board)
    vulnerability = Vulnerability.from_board(board)
    auction = Auction(dealer)
    alerted: list[bool] = []
    while not auction.is_complete:
        legal = auction.legal_calls()
        quiet = len(auction) > 2 and rng.random() < 0.6
        call = legal[0] if quiet else rng.choice(legal[:5])
        auction.append(call)
        alerted.append(call.is_bid and rng.random() < 0.12)
    contract = auction.contract
    match, room = divmod(table - 1, 2)
    home, visit = TEAMS[(2 * match) % len(TEAMS)], TEAMS[(2 * match + 1) % len(TEAMS)]
    west, north, east, south = _cp1252_names(rng)
    lines = ['[Event "#"]', '[Site "#"]', '[Date "#"]']
    if first:
        lines += [f'[Board "{board}"]']
    lines += [f'[West "{west}"]', f'[North "{north}"]', f'[East "{east}"]', f'[South "{south}"]']
    if first:
        lines += [
            f'[Dealer "{dealer.letter}"]',
            f'[Vulnerable "{vulnerability.to_pbn()}"]',
            f'[Deal "{deal.to_pbn(dealer)}"]',
        ]
    lines.append('[Scoring "IMP"]')
    play: Play | None = None
    declarer_tag = False
    if contract is None:
        lines += ['[Declarer ""]', '[Contract "Pass"]', '[Result ""]']
        points = 0
    else:
        assert contract.declarer is not None
        if rng.random() < 0.4:
            play = Play(deal, contract)
            for _ in range(52 if rng.random() < 0.5 else 4 * rng.randint(1, 12)):
                play.play(rng.choice(play.legal_cards()))
            tricks = play.declarer_tricks + (13 - len(play.cards) // 4) // 2
        else:
            tricks = rng.randint(max(0, contract.level + 4), min(13, contract.level + 8))
        over = tricks - contract.level - 6
        text = f"{contract}{'=' if over == 0 else f'{over:+d}'}"
        points = score(text, vulnerable=vulnerability.is_vulnerable(contract.declarer))
        if contract.declarer not in (Seat.NORTH, Seat.SOUTH):
            points = -points
        declarer_tag = rng.random() < 0.9  # some exports leave the Declarer tag out
        if declarer_tag:
            lines.append(f'[Declarer "{contract.declarer.letter}"]')
        lines += [f'[Contract "{contract.to_pbn()}"]', f'[Result "{tricks}"]']
    lines += [
        f'[HomeTeam "{home}"]',
        f'[Room "{"Open" if room == 0 else "Closed"}"]',
        f'[Round "{board // 8 + 1}"]',
        f'[Score "NS {points}"]' if points >= 0 else f'[Score "EW {-points}"]',
        f'[Table "{match + 1}"]',
        f'[VisitTeam "{visit}"]',
    ]
    words = [str(call) for call in auction.calls]
    marks = list(alerted)
    opening = 0
    while opening < len(words) and words[opening] == "Pass":
        opening += 1
    # Opening passes left out, where the file still says who declared (the Declarer
    # tag, or the Play's opening leader): else no reader could tell.
    if (declarer_tag or play is not None) and opening and rng.random() < 0.5:
        words, marks = words[opening:], marks[opening:]
    written: list[str] = []
    notes: list[str] = []
    for word, mark in zip(words, marks, strict=True):
        written.append(word)
        if mark:
            notes.append(f'[Note "{len(notes) + 1}:{rng.choice(EXPLANATIONS)}"]')
            written.append(f"={len(notes)}=")
    if written[-3:] == ["Pass"] * 3 and rng.random() < 0.3:
        written[-3:] = ["AP"]
    lines.append(f'[Auction "{dealer.letter}"]')
    lines += [" ".join(written[i : i + 4]) for i in range(0, len(written), 4)]
    lines += notes
    if play is not None:
        leader = play.opening_leader
        lines.append(f'[Play "{leader.letter}"]')
        for trick in play.tricks_played():
            row = ["-"] * 4
            for seat, card in trick.seats():
                row[(seat - leader) % 4] = str(card)
            lines.append(" ".join(row))
        if len(play.cards) < 52:
            lines.append("*")
    if first and rng.random() < 0.5:
        lines.append('[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]')
        lines += [
            f"{seat.letter} {strain} {rng.randint(3, 10)}"
            for seat in Seat
            for strain in ("NT", "S", "H", "D", "C")
        ]
    if rng.random() < 0.15:
        # After a tag of one line (not a section's): at the end of its line, or on
        # lines of its own before the next tag.
        comment = rng.choice(COMMENTS).replace("\\n", "\n")
        places = [
            at
            for at in range(3, len(lines) - 1)
            if lines[at].startswith("[") and lines[at + 1].startswith("[")
        ]
        at = rng.choice(places)
        if rng.random() < 0.5:
            lines[at] += " " + comment
        else:
            lines.insert(at + 1, comment)
    return "\n".join(lines) + "\n\n"


def _real_shaped(rng: random.Random, size: int) -> bytes:
    """A PBN of about ``size`` bytes shaped like the championship files publishers put
    out, in Windows-1252: ``%`` directives, a header game whose Event, Site and Date
    every game copies with ``#``; each board played at 8 tables (4 matches, two rooms),
    its Board, Dealer, Vulnerable and Deal written at the first table only; players
    with accents; unknown tags kept (Scoring, Round); some games without a Declarer
    tag; the opening passes left out of half the auctions that have them; alerts with
    notes; a Play section in two games of five (whole, or cut short and claimed); an
    OptimumResultTable at half the first tables; and ``{comments}`` in about one game
    in seven, after a tag: on its line, or on a line or two of their own."""
    header = (
        "% PBN 2.1\n% EXPORT\n% Content-type: text/x-pbn; charset=ISO-8859-1\n"
        "% Creator: Benchmark Scorer\n"
        '[Event "European Open Teams Championship"]\n[Site "Strasbourg"]\n'
        '[Date "2026.06.14"]\n\n'
    )
    parts = [header]
    total = len(header)
    board = 0
    while total < size:
        board += 1
        deal = _deal(rng)
        for table in range(1, 9):
            game = _real_game(rng, board, deal, table, table == 1, 4)
            parts.append(game)
            total += len(game)
    return "".join(parts).replace("\n", "\r\n").encode("cp1252")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--championship-bytes", type=int, default=2_000_000)
    parser.add_argument(
        "--collector-as-usual",
        action="store_true",
        help="read without pausing the cycle collector batch by batch, to show what it gives",
    )
    args = parser.parse_args()
    if args.collector_as_usual:
        import bridgescore.formats

        bridgescore.formats.in_batches = iter  # type: ignore[assignment]

    import endplay.parsers.lin as endplay_lin
    import endplay.parsers.pbn as endplay_pbn

    rng = random.Random(20261123)
    boards = [_board(rng, number) for number in range(1, args.boards + 1)]
    texts = {"pbn": format_records(boards, "pbn"), "lin": format_records(boards, "lin")}
    # The generated boards stay in memory for the final check. Frozen, the garbage
    # collector leaves them alone while either reader is timed: a program reading a
    # real file has no such heap, and walking it would tax both readers alike.
    gc.collect()
    gc.freeze()
    print(f"machine: {platform.machine()} {platform.processor() or ''}".rstrip())
    print(f"python {platform.python_version()}; {args.boards:,} boards, best of {args.repeat}")
    if args.collector_as_usual:
        print("our readers run with the cycle collector as usual (no pauses)")
    print(f"load average at the start: {' '.join(f'{load:.1f}' for load in os.getloadavg())}")
    theirs = {"pbn": endplay_pbn.loads, "lin": endplay_lin.loads}
    for name, text in texts.items():
        race = _race(
            args.repeat,
            lambda text=text: list(read_records(text=text)),
            lambda name=name, text=text: theirs[name](text),
        )
        ours = race.ours
        assert len(ours) == len(race.theirs) == len(boards), (len(ours), len(race.theirs))
        assert [record.without_source() for record in ours] == boards
        assert all(record.problems == () for record in ours)
        _report(f"{name.upper()} {len(text) / 1e6:4.1f} MB", race, len(ours), len(race.theirs))
        sample = ours[:1000]
        checked_time, checked_cpu, _ = _best(
            1, lambda sample=sample: [check_record(r) for r in sample]
        )
        print(
            f"    then scored by the Laws (every call and card checked legal): "
            f"{len(sample) / checked_time:7,.0f} games/s wall, "
            f"{len(sample) / checked_cpu:7,.0f} CPU, on {len(sample):,} of them"
        )

    # A vugraph archive of the first half of the boards, in both rooms. endplay cannot
    # read one (it wants four names in pn, and reads no qx), so it reads the same
    # games written one LIN line each, as in the LIN row above.
    archive, games = _vugraph(boards[: len(boards) // 2])
    plain = format_records([replace(game, match=None) for game in games], "lin")
    ours = sample = None
    race = _race(
        args.repeat,
        lambda: list(read_records(text=archive, format="lin")),
        lambda: endplay_lin.loads(plain),
    )
    count = len(race.ours)
    assert count == len(race.theirs) == len(games), (count, len(race.theirs), len(games))
    assert [record.without_source() for record in race.ours] == games
    what = f"vugraph {len(archive) / 1e6:4.1f} MB"
    _report(what, race, count, count, theirs="endplay (same games as LIN)")
    del race  # (its results freed before the next file is read)

    # The real-shaped championship file, from its bytes, both readers in turn.
    real = _real_shaped(random.Random(7), args.championship_bytes)
    race = _race(
        args.repeat,
        lambda: list(read_records(io.BytesIO(real))),
        lambda: endplay_pbn.loads(real.decode("cp1252")),
    )
    count = len(race.ours)
    # endplay also counts the header game (Event, Site and Date alone) as a board.
    assert len(race.theirs) == count + 1, (count, len(race.theirs))
    assert not [p for r in race.ours for p in r.problems if not p.notice]
    _report(f"real-shaped PBN {len(real) / 1e6:4.1f} MB", race, count, count)
    del race  # (its results freed before the next file is read)

    def read_and_score() -> int:
        checked = [check_record(record) for record in read_records(io.BytesIO(real))]
        found = cross_check(checked)
        problems = sum(1 for c in checked for p in c.problems if not p.notice)
        assert problems + sum(map(len, found)) == 0, (problems, found[:3])
        return len(checked)

    seconds, cpu, games = _best(args.repeat, read_and_score)
    print(
        f"championship PBN {len(real) / 1e6:.1f} MB, {games:,} games: read and scored "
        f"in {seconds:.2f} s wall, {cpu:.2f} s CPU (target < 2 s)"
    )
    print(f"load average at the end: {' '.join(f'{load:.1f}' for load in os.getloadavg())}")


if __name__ == "__main__":
    main()

"""Session import of a PBN file against `bridgescore game` reading the same file, same run.

Since issue 15, ``session import`` reads PBN through the board record that every
command shares and scores each table as ``bridgescore game`` does, so the game
command's work is the natural baseline: what the import adds (pairs, hand records
once per board, the event values, then the SQLite file) should cost little beside it.

A club file of BOARDS boards played at TABLES tables each (default 500 x 10, 5,000
games, about 0.9 MB), written as Windows programs write it: Windows-1252 with CRLF,
accented pair names, each board's deal on its first table only (the later tables
leave out Board, Dealer, Vulnerable and Deal), an auction and a result on every table.
Timed, best of REPEAT:

* baseline: ``read_records`` + ``check_record`` for every record (``bridgescore game``);
* ``parse_records``: the same, plus the event's results and hand records;
* ``import_data``: all of it into a new SQLite event file.

Both give the same contract and result for every table, checked before the timing
is reported.

    .venv/bin/python benchmarks/session_pbn.py [--boards 500] [--tables 10] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bridgescore.formats import check_record, decode_text, read_text
from bridgescore.session.importers.importer import import_data
from bridgescore.session.importers.records import parse_records
from bridgescore.session.store.events import EventStore

SUITS = "SHDC"
RANKS = "AKQJT98765432"
# (auction from North, contract, declarer): each auction reaches its contract.
AUCTIONS = [
    ("1NT Pass 3NT Pass Pass Pass", "3NT", "N"),
    ("Pass 1S Pass 4S Pass Pass Pass", "4S", "E"),
    ("1H Pass 2H Pass Pass Pass", "2H", "N"),
    ("Pass Pass 1D X 3D Pass Pass Pass", "3D", "S"),
]


def _deal(rng: random.Random) -> str:
    cards = [suit + rank for suit in SUITS for rank in RANKS]
    rng.shuffle(cards)
    hands = []
    for seat in range(4):
        held = set(cards[seat * 13 : seat * 13 + 13])
        hands.append(".".join("".join(r for r in RANKS if s + r in held) for s in SUITS))
    return "N:" + " ".join(hands)


def make_file(boards: int, tables: int, seed: int = 15) -> bytes:
    rng = random.Random(seed)
    games = ['% PBN 2.1\n[Event "Coupe d’Hiver"]\n[Site "Lyon"]']
    for board in range(1, boards + 1):
        for table in range(1, tables + 1):
            tags = ['[Event "#"]']
            if table == 1:
                tags += [
                    f'[Board "{board}"]',
                    '[Dealer "N"]',
                    '[Vulnerable "None"]',
                    f'[Deal "{_deal(rng)}"]',
                ]
            auction, contract, declarer = AUCTIONS[(board + table) % len(AUCTIONS)]
            tags += [
                f'[PairNS "Zoë {table}"]',
                f'[PairEW "Œdipe {(table + board) % tables + 1}"]',
                f'[Declarer "{declarer}"]',
                f'[Contract "{contract}"]',
                f'[Result "{rng.randint(5, 12)}"]',
                '[Auction "N"]',
                auction,
            ]
            games.append("\n".join(tags))
    return ("\n\n".join(games) + "\n").replace("\n", "\r\n").encode("cp1252")


def game_reading(data: bytes) -> list[tuple[int | None, str]]:
    """What ``bridgescore game`` does: every record read and scored."""
    out = []
    for record in read_text(decode_text(data), "pbn", "club.pbn"):
        played = check_record(record).played
        out.append((record.board, "" if played is None else str(played.result)))
    return out


def import_parse(data: bytes) -> list[tuple[int | None, str]]:
    parsed = parse_records(read_text(decode_text(data), "pbn", "club.pbn"), "club.pbn")
    assert not parsed.problems, parsed.problems[:3]
    return [(result.board, str(result.result)) for result, _ in parsed.results]


def import_store(data: bytes) -> int:
    with tempfile.TemporaryDirectory() as folder, EventStore(Path(folder) / "e.db") as store:
        report = import_data(store, data, "club.pbn")
        assert report.ok, report.problems[:3]
        return report.results.added


def best(function: Callable[[bytes], Any], data: bytes, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function(data)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=500)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    data = make_file(args.boards, args.tables)
    games = args.boards * args.tables
    assert game_reading(data) == import_parse(data), "game and import disagree"
    assert import_store(data) == games
    machine = platform.processor() or platform.machine()
    print(
        f"{games:,} games ({len(data) / 1e6:.2f} MB, Windows-1252) on {machine}, "
        f"{os.cpu_count()} cores, best of {args.repeat}"
    )
    baseline = best(game_reading, data, args.repeat)
    parsing = best(import_parse, data, args.repeat)
    storing = best(import_store, data, args.repeat)
    print(f"game (read_records + check_record): {baseline:.2f} s  {games / baseline:,.0f} games/s")
    print(
        f"session import, parse_records:     {parsing:.2f} s  {games / parsing:,.0f} games/s"
        f"  ratio to game {parsing / baseline:.2f}x"
    )
    print(
        f"session import into SQLite:         {storing:.2f} s  {games / storing:,.0f} games/s"
        f"  ratio to game {storing / baseline:.2f}x"
    )


if __name__ == "__main__":
    main()

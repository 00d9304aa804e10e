"""Reading USEBIO results files: our safe reader against the stdlib's ElementTree, same run.

A pairs event of BOARDS boards with TABLES traveller lines each (default 500 x 30,
15,000 lines, a few MB: far beyond a congress) is exported with
``export_usebio``, then read three ways:

* baseline: ``xml.etree.ElementTree.fromstring`` and a direct walk collecting the
  same traveller fields (the C parser, with none of our entity refusals or checks);
* ``read_usebio`` (safe expat parse into the format's records);
* ``read_usebio_event`` (the above plus every line turned into a scored result
  value, as ``session import`` does), and the import into an SQLite event file.

Both readers' traveller lines are checked equal before timing is reported.

    .venv/bin/python benchmarks/usebio.py [--boards 500] [--tables 30] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bridgescore.formats.usebio import read_usebio
from bridgescore.session.importers.importer import import_files
from bridgescore.session.importers.usebio import read_usebio_event
from bridgescore.session.reports.usebio import export_usebio
from bridgescore.session.scoring.event import Event, TableResult
from bridgescore.session.store.events import EventStore

RESULTS = ["4SN=", "4SN+1", "3NTS-2", "2HXE=", "1NTW+1", "Pass", "6DN-1", "3CE+1"]


def make_event(boards: int, tables: int) -> Event:
    results = [
        TableResult.played(
            board, f"{t}NS", f"{(t + board) % tables + 1}EW", RESULTS[(board * t) % 8]
        )
        for board in range(1, boards + 1)
        for t in range(1, tables + 1)
    ]
    return Event("Benchmark pairs", "pairs", results=tuple(results))


def baseline(data: bytes) -> list[tuple[str, ...]]:
    root = ET.fromstring(data)
    out = []
    for board in root.iter("BOARD"):
        number = board.findtext("BOARD_NUMBER", "")
        for line in board.iter("TRAVELLER_LINE"):
            out.append(
                (
                    number,
                    *(
                        line.findtext(tag, "")
                        for tag in (
                            "NS_PAIR_NUMBER",
                            "EW_PAIR_NUMBER",
                            "CONTRACT",
                            "PLAYED_BY",
                            "TRICKS",
                            "SCORE",
                        )
                    ),
                )
            )
    return out


def ours(data: bytes) -> list[tuple[str, ...]]:
    return [
        (str(t.board), t.ns, t.ew, t.contract, t.played_by, t.tricks, t.score)
        for t in read_usebio(data, "bench.xml").lines
    ]


def best(function: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=500)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    data = export_usebio(make_event(args.boards, args.tables)).encode("utf-8")
    lines = args.boards * args.tables
    assert ours(data) == baseline(data), "the readers disagree"
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"file: {lines:,} traveller lines, {len(data) / 1e6:.1f} MB")
    base = best(lambda: baseline(data), args.repeat)
    timed = {
        "read_usebio (safe parse)": best(lambda: read_usebio(data, "bench.xml"), args.repeat),
        "read_usebio_event (+ results)": best(
            lambda: read_usebio_event(data, "bench.xml"), args.repeat
        ),
    }
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.xml"
        path.write_bytes(data)

        def import_once() -> None:
            db = Path(folder) / "bench.db"
            if db.exists():
                os.remove(db)
            with EventStore(db) as store:
                report = import_files(store, [path])
            assert report.results.added == lines and not report.disagreements

        timed["session import (+ SQLite, cross-check)"] = best(import_once, args.repeat)
    print(f"{'ElementTree baseline':40} {base:8.3f} s  {lines / base:>10,.0f} lines/s")
    for name, seconds in timed.items():
        print(
            f"{name:40} {seconds:8.3f} s  {lines / seconds:>10,.0f} lines/s"
            f"  {seconds / base:5.1f}x the baseline's time"
        )


if __name__ == "__main__":
    main()

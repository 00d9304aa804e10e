"""Live session benchmark: a club-size evening entered over HTTP, all tables at once.

Makes an event (a Mitchell of 30 tables, 9 rounds of 3 boards: 810 results), starts
``bridgescore session live`` on 127.0.0.1 and a free port, then:

1. Every table enters its 27 results in order over its own keep-alive connection,
   all 30 tables at once: p50/p99 latency of a result (POST to 201, committed to
   disk), results/s, errors (target: p99 < 100 ms).
2. The ranking after a result: the director changes a result, then the ranking is
   fetched; the time of that GET, repeated (target: < 50 ms).

Beside them, in this process: a bare SQLite commit (WAL, synchronous=FULL) in the same
folder, the floor every acknowledged result stands on (one fsync); and, on a copy of
the same event, ``LiveEvent.enter_result`` called directly (the cost without HTTP) and
``LiveEvent.ranking()`` on the full event. Results are committed one at a time, so with
every table waiting at once a result waits for the others' commits: the p50 to
expect is about tables x the commit's p50.

    .venv/bin/python benchmarks/live.py [--tables 30] [--rounds 9] [--boards 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bridgescore.movement.model import Movement, Row
from bridgescore.session.live.creation import create_event
from bridgescore.session.live.entry import ResultEntry
from bridgescore.session.live.event import LiveEvent

# One result per board, varied so the ranking has something to rank: by board number.
RESULTS = [
    {"contract": "4S", "declarer": "N", "result": "="},
    {"contract": "3NT", "declarer": "S", "result": "+1"},
    {"contract": "4HX", "declarer": "E", "result": "-2"},
    {"contract": "PASS"},
    {"contract": "2D", "declarer": "W", "result": "+1"},
    {"contract": "6NT", "declarer": "N", "result": "-1"},
    {"contract": "1NT", "declarer": "S", "result": "="},
]


def mitchell(tables: int, rounds: int, boards: int) -> Movement:
    """NS stay, EW move up one table, boards down one. EW pair e meets board set
    e + 2r - 3 in round r, so no pair meets a set twice while 2 (rounds - 1) < tables."""
    rows = []
    for round_number in range(1, rounds + 1):
        for table in range(1, tables + 1):
            ew = (table - round_number) % tables + 1
            first = (table + round_number - 2) % tables * boards + 1
            rows.append(
                Row(round_number, table, f"{table}N", f"{ew}E", tuple(range(first, first + boards)))
            )
    return Movement("mitchell", tables, rounds, boards, tuple(rows))


def body_for(table: int, round_number: int, board: int) -> dict[str, Any]:
    # Results differ from table to table so every board has a spread of scores.
    return {"round": round_number, "board": board, **RESULTS[(board + table) % len(RESULTS)]}


class Connection:
    """One keep-alive HTTP/1.1 connection; a minimal client, so the load generator
    costs less CPU than the server it measures."""

    def __init__(self, host: str, port: int, token: str | None = None) -> None:
        self.host, self.port, self.token = host, port, token
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: object = None) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        payload = b"" if body is None else json.dumps(body).encode()
        auth = f"Authorization: Bearer {self.token}\r\n" if self.token else ""
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n{auth}"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
        )
        self.writer.write(head.encode() + payload)
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            await self.writer.wait_closed()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def evening(
    host: str, port: int, movement: Movement, tokens: dict[int, str]
) -> tuple[float, list[float], list[str]]:
    """All tables enter all their results at once: (seconds, latencies, errors)."""
    latencies: list[float] = []
    errors: list[str] = []

    async def table(number: int) -> None:
        connection = Connection(host, port, tokens[number])
        try:
            for row in movement.rows:
                if row.table != number:
                    continue
                for board in row.boards:
                    begin = time.perf_counter()
                    status, data = await connection.request(
                        "POST", "/api/live/results", body_for(number, row.round, board)
                    )
                    latencies.append(time.perf_counter() - begin)
                    if status != 201:
                        errors.append(f"table {number}: {status} {data[:200]!r}")
        finally:
            await connection.close()

    start = time.perf_counter()
    await asyncio.gather(*(table(number) for number in tokens))
    return time.perf_counter() - start, latencies, errors


async def ranking_after_a_result(
    host: str, port: int, password: str, movement: Movement, times: int
) -> list[float]:
    """The director changes a result, then the ranking is fetched: the GET's times."""
    login = Connection(host, port)
    status, data = await login.request("POST", "/api/live/director/login", {"password": password})
    await login.close()
    assert status == 200, data
    director = Connection(host, port, json.loads(data)["token"])
    public = Connection(host, port)
    row = movement.rows[0]
    latencies = []
    try:
        for index in range(times):
            result = "=" if index % 2 else "+1"
            body = {"table": row.table, "round": row.round, "board": row.boards[0],
                    "contract": "4S", "declarer": "N", "result": result}  # fmt: skip
            status, data = await director.request("PUT", "/api/live/results", body)
            assert status == 200, data
            begin = time.perf_counter()
            status, data = await public.request("GET", "/api/live/ranking")
            latencies.append(time.perf_counter() - begin)
            assert status == 200, data
    finally:
        await director.close()
        await public.close()
    return latencies


def in_process(path: Path, movement: Movement) -> tuple[list[float], list[float]]:
    """Every result through LiveEvent.enter_result in this process, then the ranking."""
    enter = []
    with LiveEvent(path) as live:
        for row in movement.rows:
            for board in row.boards:
                entry = ResultEntry.parse(body_for(row.table, row.round, board))
                begin = time.perf_counter()
                live.enter_result(movement.section, row.table, entry, who=f"table {row.table}")
                enter.append(time.perf_counter() - begin)
        ranking = []
        for _ in range(10):
            begin = time.perf_counter()
            live.ranking()
            ranking.append(time.perf_counter() - begin)
    return enter, ranking


def bare_commits(folder: Path, count: int = 200) -> list[float]:
    """Times of single-row SQLite commits in WAL mode with synchronous=FULL."""
    connection = sqlite3.connect(folder / "bare.db", isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("CREATE TABLE t (x INTEGER)")
        times = []
        for value in range(count):
            begin = time.perf_counter()
            connection.execute("BEGIN")
            connection.execute("INSERT INTO t VALUES (?)", (value,))
            connection.execute("COMMIT")
            times.append(time.perf_counter() - begin)
        return times
    finally:
        connection.close()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--boards", type=int, default=3)
    parser.add_argument("--ranking-times", type=int, default=20)
    args = parser.parse_args()

    movement = mitchell(args.tables, args.rounds, args.boards)
    results = sum(len(row.boards) for row in movement.rows)
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "club.db"
        created = create_event(path, movement, name="Benchmark pairs")
        spare = Path(work) / "spare.db"
        shutil.copyfile(path, spare)
        tokens = {access.table: access.token for access in created.tables}

        command = [sys.executable, "-c", "from bridgescore.cli import main; main()",
                   "session", "live", str(path), "--port", "0", "--no-access-log"]  # fmt: skip
        server = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
        try:
            assert server.stderr is not None
            line = server.stderr.readline()  # printed once the port listens
            found = re.search(r"http://([\d.]+):(\d+)/", line)
            if not found:
                raise SystemExit(f"the server did not start: {line}{server.stderr.read()}")
            host, port = found.group(1), int(found.group(2))
            seconds, latencies, errors = asyncio.run(evening(host, port, movement, tokens))
            ranking = asyncio.run(
                ranking_after_a_result(
                    host, port, created.director_password, movement, args.ranking_times
                )
            )
        finally:
            server.terminate()
            server.wait()
        enter, ranking_direct = in_process(spare, movement)
        commits = bare_commits(Path(work))

    p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
    direct50 = statistics.median(enter)
    print(
        f"live session benchmark, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
        f"{platform.machine()} {os.cpu_count()} cores, load average "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print(
        f"{args.tables} tables x {args.rounds} rounds x {args.boards} boards = {results} results,"
        f" all tables at once"
    )
    print(
        f"  over HTTP: {len(latencies)} results in {seconds:.2f} s ({len(latencies) / seconds:.0f}"
        f"/s), p50 {ms(p50)}, p99 {ms(p99)} (target < 100 ms), max {ms(max(latencies))},"
        f" {len(errors)} errors"
    )
    commit50 = statistics.median(commits)
    print(
        f"  bare SQLite commit (WAL, synchronous=FULL): p50 {ms(commit50)}, p99"
        f" {ms(percentile(commits, 0.99))}; {args.tables} tables x commit p50 ="
        f" {ms(args.tables * commit50)}; HTTP p50 / that = {p50 / (args.tables * commit50):.2f}x"
    )
    print(
        f"  in-process LiveEvent.enter_result: p50 {ms(direct50)}, p99"
        f" {ms(percentile(enter, 0.99))}; HTTP p50 / in-process p50 = {p50 / direct50:.1f}x"
    )
    print(
        f"  ranking after a result (GET /api/live/ranking, {len(ranking)} times): p50"
        f" {ms(statistics.median(ranking))}, max {ms(max(ranking))} (target < 50 ms);"
        f" in-process LiveEvent.ranking(): p50 {ms(statistics.median(ranking_direct))}"
    )
    for error in errors[:5]:
        print("  error:", error)


if __name__ == "__main__":
    main()

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
``LiveEvent.ranking()`` on the full event. The results waiting together are committed
in one transaction (group commit), so with every table waiting at once a result waits
for about one commit and the others' checks, not for every other table's commit.

Each phone has its own loopback address, as on a club's Wi-Fi; ``--one-address`` sends
every table and reader from 127.0.0.1 instead, as a reverse proxy or a shared NAT does
(the server's cap per address must not refuse them). ``--shell-readers`` adds a third
evening, on a fresh copy, while the shell reads beside the server as a director does:
one process after another runs ``session score EVENT --json`` in a loop and another
loop takes ``session backup``; then the server is killed (-9, a power cut) and the
results on disk are counted against the results acknowledged.

    .venv/bin/python benchmarks/live.py [--tables 30] [--sections 1] [--rounds 9] [--boards 3]
        [--one-address] [--shell-readers]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import platform
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
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

    def __init__(
        self,
        host: str,
        port: int,
        token: str | None = None,
        cookie: str | None = None,
        source: str | None = None,
    ) -> None:
        self.host, self.port, self.token, self.cookie = host, port, token, cookie
        # Each phone its own address, as on a club's Wi-Fi: the server lets one address
        # hold only a few dozen connections (web/connections.py).
        self.source = source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: object = None) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                self.host, self.port, local_addr=None if self.source is None else (self.source, 0)
            )
        assert self.reader is not None
        payload = b"" if body is None else json.dumps(body).encode()
        auth = f"Authorization: Bearer {self.token}\r\n" if self.token else ""
        if self.cookie:
            auth += f"Cookie: {self.cookie}\r\n"
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


def phone_address(index: int) -> str | None:
    """The loopback address of phone ``index`` (all of 127.0.0.0/8 is this machine);
    None (the system's: 127.0.0.1 for every phone) under ``--one-address``."""
    if ONE_ADDRESS.is_set():
        return None
    return f"127.0.{1 + index // 250}.{1 + index % 250}"


# Set by ``--one-address``: every client from 127.0.0.1, as through a proxy.
ONE_ADDRESS = threading.Event()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


# A table by its section and number: ("A", 3).
TableKey = tuple[str, int]


async def evening(
    host: str, port: int, movement: Movement, tokens: dict[TableKey, str]
) -> tuple[float, list[float], list[str]]:
    """All tables of every section enter all their results at once: (seconds,
    latencies, errors)."""
    latencies: list[float] = []
    errors: list[str] = []

    keys = sorted(tokens)

    async def table(key: TableKey) -> None:
        number = key[1]
        # Each phone its own address: the server lets one address hold 32 connections.
        connection = Connection(host, port, tokens[key], source=phone_address(keys.index(key) + 1))
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
                        errors.append(f"table {key}: {status} {data[:200]!r}")
        finally:
            await connection.close()

    start = time.perf_counter()
    await asyncio.gather(*(table(key) for key in tokens))
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
            body = {"section": "A", "table": row.table, "round": row.round,
                    "board": row.boards[0], "contract": "4S", "declarer": "N",
                    "result": result}  # fmt: skip
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


@dataclass
class Crowd:
    """What the evening with readers measured: each request's seconds, by kind."""

    seconds: float = 0.0
    entries: list[float] = field(default_factory=list)
    ranking_reads: list[float] = field(default_factory=list)
    table_reads: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


async def evening_with_readers(
    host: str,
    port: int,
    movement: Movement,
    tokens: dict[TableKey, str],
    *,
    readers: int,
    phones: int,
    every: float,
) -> Crowd:
    """Every table enters its rounds (each a round of ``boards`` results) all at once,
    as :func:`evening` does, while ``readers`` clients load the public ranking page
    (``GET /ranking``) and ``phones`` load their table's page (``GET /table`` with the
    table's cookie), each every ``every`` seconds, until the last result is in."""
    crowd = Crowd()
    done = asyncio.Event()

    table_keys = sorted(tokens)

    async def table(key: TableKey) -> None:
        number = key[1]
        phone = phone_address(table_keys.index(key) + 1)
        connection = Connection(host, port, tokens[key], source=phone)
        try:
            for row in movement.rows:
                if row.table != number:
                    continue
                for board in row.boards:
                    begin = time.perf_counter()
                    status, data = await connection.request(
                        "POST", "/api/live/results", body_for(number, row.round, board)
                    )
                    crowd.entries.append(time.perf_counter() - begin)
                    if status != 201:
                        crowd.errors.append(f"table {key}: {status} {data[:200]!r}")
        finally:
            await connection.close()

    async def reader(index: int, path: str, cookie: str | None, times: list[float]) -> None:
        connection = Connection(host, port, cookie=cookie, source=phone_address(index))
        # Spread over the interval, as phones are: not all in the same instant.
        await asyncio.sleep(every * (index % 100) / 100)
        try:
            while True:  # at least once, however quick the tables are
                begin = time.perf_counter()
                status, data = await connection.request("GET", path)
                times.append(time.perf_counter() - begin)
                if status != 200:
                    crowd.errors.append(f"{path}: {status} {data[:200]!r}")
                if done.is_set():
                    break
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(done.wait(), every)
        finally:
            await connection.close()

    watchers = [
        asyncio.create_task(reader(100 + index, "/ranking", None, crowd.ranking_reads))
        for index in range(readers)
    ]
    watchers += [
        asyncio.create_task(
            reader(
                100 + readers + index,
                "/table",
                f"bridgescore_table={tokens[table_keys[index % len(table_keys)]]}",
                crowd.table_reads,
            )
        )
        for index in range(phones)
    ]
    # The readers are at it before the first result, as they are at a club.
    await asyncio.sleep(every)
    start = time.perf_counter()
    await asyncio.gather(*(table(key) for key in table_keys))
    crowd.seconds = time.perf_counter() - start
    done.set()
    await asyncio.gather(*watchers)
    return crowd


@dataclass
class Shell:
    """What the shell beside the server did: each command's runs and failures, and the
    results acknowledged against those on disk after the server was killed."""

    scores: int = 0
    # Scores that found no results: right before the first one, a loss after it.
    empty_scores: int = 0
    backups: int = 0
    failures: list[str] = field(default_factory=list)
    acknowledged: int = 0
    stored: int = 0


def shell_loop(
    command: Callable[[int], list[str]],
    stop: threading.Event,
    shell: Shell,
    kind: str,
    warm: threading.Event,
) -> None:
    """Run ``command(n)`` as a process, one after another, until ``stop`` is set (at
    least once): a director's second terminal. ``warm`` is set once the first is done
    (the system's caches warm, so the loop's rhythm holds through the evening)."""
    number = 0
    while True:
        done = subprocess.run(command(number), capture_output=True, text=True, check=False)
        if kind == "score" and done.returncode == 1 and "no results to score" in done.stderr:
            shell.empty_scores += 1
        elif done.returncode != 0:
            shell.failures.append(f"{kind}: exit {done.returncode}: {done.stderr.strip()[:200]}")
        elif kind == "score":
            shell.scores += 1
        else:
            shell.backups += 1
        number += 1
        warm.set()
        if stop.is_set():
            return


def evening_beside_the_shell(
    path: Path, work: Path, movement: Movement, tokens: dict[TableKey, str]
) -> tuple[float, list[float], list[str], Shell]:
    """Every table enters at once while one loop runs ``session score --json`` and
    another ``session backup``, each command its own process; then the server is killed
    with -9 and the results on disk are counted."""
    shell = Shell()
    cli = [sys.executable, "-c", "from bridgescore.cli import main; main()", "session"]
    stop = threading.Event()
    warm = [threading.Event(), threading.Event()]
    loops = [
        threading.Thread(
            target=shell_loop,
            args=(lambda _: [*cli, "score", str(path), "--json"], stop, shell, "score", warm[0]),
        ),
        threading.Thread(
            target=shell_loop,
            args=(
                lambda n: [*cli, "backup", str(path), str(work / f"backup-{n}.db")],
                stop,
                shell,
                "backup",
                warm[1],
            ),
        ),
    ]
    with serving(path, kill=True) as (host, port):
        for loop in loops:
            loop.start()
        # The tables begin once both loops run: every result meets the shell beside it.
        for ready in warm:
            ready.wait(300)
        try:
            seconds, latencies, errors = asyncio.run(evening(host, port, movement, tokens))
        finally:
            stop.set()
            for loop in loops:
                loop.join()
    shell.acknowledged = len(latencies) - len(errors)
    with LiveEvent(path) as live:
        shell.stored = sum(
            live.has_entered(section, row.table, board)
            for section, number in tokens
            for row in movement.rows
            if row.table == number
            for board in row.boards
        )
    return seconds, latencies, errors, shell


def recompute(folder: Path, tables: int, rounds: int, boards: int, times: int) -> dict[str, Any]:
    """A whole evening of ``tables`` tables stored in-process, then the ranking scored
    from the file ``times`` times: ``LiveEvent.ranking()`` (the JSON API's) and
    ``LiveEvent.report(public=True)`` (the ranking page's: the ranking and the
    travellers every table has played)."""
    movement = mitchell(tables, rounds, boards)
    path = folder / f"recompute-{tables}.db"
    create_event(path, movement, name="Benchmark pairs")
    with LiveEvent(path) as live:
        for row in movement.rows:
            for board in row.boards:
                entry = ResultEntry.from_json(body_for(row.table, row.round, board))
                live.enter_result(movement.section, row.table, entry, who=f"table {row.table}")
        ranking, report = [], []
        for _ in range(times):
            begin = time.perf_counter()
            data = live.ranking().as_dict()
            ranking.append(time.perf_counter() - begin)
            begin = time.perf_counter()
            live.report(public=True)
            report.append(time.perf_counter() - begin)
    return {
        "tables": tables,
        "boards": rounds * boards,
        "results": sum(len(row.boards) for row in movement.rows),
        "pairs": len(data["ranking"]),
        "ranking": ranking,
        "report": report,
    }


def in_process(path: Path, movement: Movement) -> tuple[list[float], list[float]]:
    """Every result through LiveEvent.enter_result in this process, then the ranking."""
    enter = []
    with LiveEvent(path) as live:
        for row in movement.rows:
            for board in row.boards:
                entry = ResultEntry.from_json(body_for(row.table, row.round, board))
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


def spread(values: list[float]) -> dict[str, Any]:
    """Count, p50 and p99 (seconds) of some latencies."""
    if not values:
        return {"count": 0, "p50": None, "p99": None, "max": None}
    return {
        "count": len(values),
        "p50": percentile(values, 0.5),
        "p99": percentile(values, 0.99),
        "max": max(values),
    }


def shown(figures: dict[str, Any]) -> str:
    if not figures["count"]:
        return "none"
    return (
        f"{figures['count']}, p50 {ms(figures['p50'])}, p99 {ms(figures['p99'])},"
        f" max {ms(figures['max'])}"
    )


@contextlib.contextmanager
def serving(path: Path, *, kill: bool = False) -> Iterator[tuple[str, int]]:
    """``bridgescore session live`` on the event at ``path``: its host and port. Ended
    with SIGTERM, or with SIGKILL when ``kill`` (a power cut: what was acknowledged
    must be on disk all the same)."""
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
        # The line comes once the port listens, before the app has started (its imports,
        # the first scoring): one request, waiting in the backlog until the app answers,
        # keeps that start out of the first results' times.
        ready = http.client.HTTPConnection(host, port, timeout=60)
        ready.request("GET", "/api/live/ranking")
        ready.getresponse().read()
        ready.close()
        yield host, port
    finally:
        if kill:
            server.send_signal(signal.SIGKILL)
        else:
            server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30, help="tables in each section")
    parser.add_argument("--sections", type=int, default=1, help="sections of that Mitchell")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--boards", type=int, default=3)
    parser.add_argument("--ranking-times", type=int, default=20)
    parser.add_argument("--readers", type=int, default=100, help="clients on the ranking page")
    parser.add_argument("--phones", type=int, default=60, help="phones on their table's page")
    parser.add_argument("--every", type=float, default=0.5, help="seconds between a reader's loads")
    parser.add_argument("--recompute-tables", type=int, default=60)
    parser.add_argument("--recompute-times", type=int, default=5)
    parser.add_argument(
        "--one-address",
        action="store_true",
        help="every table and reader from 127.0.0.1, as through a reverse proxy",
    )
    parser.add_argument(
        "--shell-readers",
        action="store_true",
        help="a third evening while 'session score --json' and 'session backup' loop beside",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the figures as one JSON document"
    )
    args = parser.parse_args()
    if args.one_address:
        ONE_ADDRESS.set()

    movement = mitchell(args.tables, args.rounds, args.boards)
    results = args.sections * sum(len(row.boards) for row in movement.rows)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "club.db"
        created = create_event(path, movement, name="Benchmark pairs", sections=args.sections)
        spare = Path(work) / "spare.db"
        shutil.copyfile(path, spare)
        crowded = Path(work) / "crowded.db"
        shutil.copyfile(path, crowded)
        tokens = {(access.section, access.table): access.token for access in created.tables}

        with serving(path) as (host, port):
            seconds, latencies, errors = asyncio.run(evening(host, port, movement, tokens))
            ranking = asyncio.run(
                ranking_after_a_result(
                    host, port, created.director_password, movement, args.ranking_times
                )
            )
        with serving(crowded) as (host, port):
            crowd = asyncio.run(
                evening_with_readers(
                    host, port, movement, tokens,
                    readers=args.readers, phones=args.phones, every=args.every,
                )
            )  # fmt: skip
        beside: dict[str, Any] | None = None
        if args.shell_readers:
            shelled = Path(work) / "shelled.db"
            shutil.copyfile(spare, shelled)
            took, entries, refused, shell = evening_beside_the_shell(
                shelled, Path(work), movement, tokens
            )
            errors += refused
            beside = {
                "seconds": took,
                "errors": len(refused),
                "entries": spread(entries),
                "acknowledged": shell.acknowledged,
                "stored": shell.stored,
                "scores": shell.scores,
                "empty_scores": shell.empty_scores,
                "backups": shell.backups,
                "shell_failures": shell.failures[:5],
            }
        enter, ranking_direct = in_process(spare, movement)
        commits = bare_commits(Path(work))
        big = recompute(
            Path(work), args.recompute_tables, args.rounds, args.boards, args.recompute_times
        )

    figures = {
        "when": f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        "machine": f"{platform.machine()} {os.cpu_count()} cores",
        "load_average": [round(x, 2) for x in (*load_before, *os.getloadavg())],
        "sections": args.sections,
        "tables": args.tables * args.sections,
        "rounds": args.rounds,
        "boards": args.boards,
        "results": results,
        "one_address": args.one_address,
        "alone": {"seconds": seconds, "errors": len(errors), **spread(latencies)},
        "ranking_after_a_result": spread(ranking),
        "with_readers": {
            "readers": args.readers,
            "phones": args.phones,
            "every": args.every,
            "seconds": crowd.seconds,
            "errors": len(crowd.errors),
            "entries": spread(crowd.entries),
            "ranking_page": spread(crowd.ranking_reads),
            "table_page": spread(crowd.table_reads),
        },
        "beside_the_shell": beside,
        "in_process_enter": spread(enter),
        "in_process_ranking": spread(ranking_direct),
        "bare_commit": spread(commits),
        "recompute": {
            **{key: big[key] for key in ("tables", "boards", "results", "pairs")},
            "ranking": spread(big["ranking"]),
            "report": spread(big["report"]),
        },
    }
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    report(figures, errors + crowd.errors)


def report(figures: dict[str, Any], errors: list[str]) -> None:
    """The figures in words, each beside its target."""
    alone, crowd, big = figures["alone"], figures["with_readers"], figures["recompute"]
    load = " ".join(f"{x:.1f}" for x in figures["load_average"][:3])
    print(
        f"live session benchmark, {figures['when']}, {figures['machine']},"
        f" load average {load} (at the start)"
    )
    print(
        f"{figures['tables']} tables ({figures['sections']} section(s)) x {figures['rounds']}"
        f" rounds x {figures['boards']} boards = {figures['results']} results, all tables at once"
        + (", every client from one address (127.0.0.1)" if figures["one_address"] else "")
    )
    print(
        f"  alone over HTTP: {alone['count']} results in {alone['seconds']:.2f} s"
        f" ({alone['count'] / alone['seconds']:.0f}/s), p50 {ms(alone['p50'])},"
        f" p99 {ms(alone['p99'])} (target < 100 ms), max {ms(alone['max'])},"
        f" {alone['errors']} errors"
    )
    commit50 = figures["bare_commit"]["p50"]
    tables = figures["tables"]
    print(
        f"  bare SQLite commit (WAL, synchronous=FULL): p50 {ms(commit50)}, p99"
        f" {ms(figures['bare_commit']['p99'])}; {tables} tables x commit p50 ="
        f" {ms(tables * commit50)}; HTTP p50 / that = {alone['p50'] / (tables * commit50):.2f}x"
    )
    direct = figures["in_process_enter"]
    print(
        f"  in-process LiveEvent.enter_result: p50 {ms(direct['p50'])}, p99"
        f" {ms(direct['p99'])}; HTTP p50 / in-process p50 = {alone['p50'] / direct['p50']:.1f}x"
    )
    after = figures["ranking_after_a_result"]
    print(
        f"  ranking after a result (GET /api/live/ranking, {after['count']} times): p50"
        f" {ms(after['p50'])}, max {ms(after['max'])} (target < 50 ms);"
        f" in-process LiveEvent.ranking(): p50 {ms(figures['in_process_ranking']['p50'])}"
    )
    print(
        f"with readers: {crowd['readers']} clients on GET /ranking and {crowd['phones']} phones on"
        f" GET /table, each every {crowd['every']:g} s, while the tables enter"
        f" ({crowd['seconds']:.2f} s, {crowd['errors']} errors)"
    )
    print(f"  entries (POST /api/live/results): {shown(crowd['entries'])} (target p99 < 100 ms)")
    print(f"  ranking page (GET /ranking): {shown(crowd['ranking_page'])} (target p99 < 250 ms)")
    print(f"  table page (GET /table): {shown(crowd['table_page'])}")
    shell = figures["beside_the_shell"]
    if shell is not None:
        print(
            f"beside the shell ('session score --json' {shell['scores']} times"
            f" (and {shell['empty_scores']} that found no results) and"
            f" 'session backup' {shell['backups']} times, each its own process, while the"
            f" tables enter; {shell['seconds']:.2f} s, {shell['errors']} errors,"
            f" {len(shell['shell_failures'])} shell failures)"
        )
        print(
            f"  entries (POST /api/live/results): {shown(shell['entries'])} (target p99 < 100 ms)"
        )
        print(
            f"  after kill -9 of the server: {shell['stored']} results stored of"
            f" {shell['acknowledged']} acknowledged"
            + ("" if shell["stored"] == shell["acknowledged"] else " (RESULTS LOST)")
        )
        for failure in shell["shell_failures"]:
            print("  shell:", failure)
    print(
        f"recompute: {big['tables']} tables x {big['boards']} boards ({big['results']} results,"
        f" {big['pairs']} pairs), in-process, {big['ranking']['count']} times:"
    )
    print(
        f"  LiveEvent.ranking(): p50 {ms(big['ranking']['p50'])}, max"
        f" {ms(big['ranking']['max'])} (target < 50 ms)"
    )
    print(
        f"  LiveEvent.report(public=True) (the ranking page's): p50 {ms(big['report']['p50'])},"
        f" max {ms(big['report']['max'])}"
    )
    for error in errors[:5]:
        print("  error:", error)


if __name__ == "__main__":
    main()

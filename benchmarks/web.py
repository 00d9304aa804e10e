"""Web benchmark: the JSON API on loopback against the same functions called in-process.

Starts ``bridgescore serve`` on 127.0.0.1 and a free port, then:

1. ``/api/score`` and ``/api/par`` (from a DD table): a fixed number of requests
   from a small pool of keep-alive connections (a bounded load: it stops after
   N requests); requests/s and p50/p99 latency, beside the same library call
   (``score_result`` / ``par``) timed in this process.
2. A burst of 200 concurrent ``/api/solve`` requests (distinct random deals)
   while ``/api/score`` is asked one request at a time: its p50/p99 during the
   burst (target: p99 < 100 ms), and how many solves were answered or refused
   with 503.

Everything goes to 127.0.0.1 only, and the server is stopped at the end.

    .venv/bin/python benchmarks/web.py [--requests 5000] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from typing import cast

SCORE_BODY = {"result": "4DX +1", "vulnerable": True}
PAR_TABLE = "87788877884655556555"
PAR_BODY = {"dd": PAR_TABLE, "vulnerability": "Both", "dealer": None}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Connection:
    """One keep-alive HTTP/1.1 connection; a minimal client, so the load generator
    costs less CPU than the server it measures."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: object = None) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        payload = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
        )
        self.writer.write(head.encode() + payload)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        close = False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
            if name.lower() == "connection" and value.strip().lower() == "close":
                close = True
        data = await self.reader.readexactly(length)
        if close:
            await self.close()
        return status, data

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            await self.writer.wait_closed()
            self.writer = self.reader = None


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def load(
    port: int, path: str, body: object, requests: int, concurrency: int
) -> tuple[float, list[float], Counter[int]]:
    """POST ``requests`` times over ``concurrency`` connections: (seconds, latencies, statuses)."""
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    remaining = requests

    async def worker() -> None:
        nonlocal remaining
        connection = Connection(port)
        try:
            while remaining > 0:
                remaining -= 1
                start = time.perf_counter()
                status, _ = await connection.request("POST", path, body)
                latencies.append(time.perf_counter() - start)
                statuses[status] += 1
        finally:
            await connection.close()

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return time.perf_counter() - start, latencies, statuses


def in_process(function: Callable[[], object], calls: int) -> tuple[float, list[float]]:
    latencies = []
    start = time.perf_counter()
    for _ in range(calls):
        begin = time.perf_counter()
        function()
        latencies.append(time.perf_counter() - begin)
    return time.perf_counter() - start, latencies


async def burst(port: int, deals: list[str], probe_gap: float) -> dict[str, object]:
    """200 concurrent solves; meanwhile /api/score one request at a time."""
    solve_statuses: Counter[int] = Counter()
    retry_after: set[str] = set()

    async def solve(deal: str) -> None:
        connection = Connection(port)
        try:
            status, data = await connection.request("POST", "/api/solve", {"deal": deal})
            solve_statuses[status] += 1
            if status == 503:
                retry_after.add(json.loads(data)["detail"])
        finally:
            await connection.close()

    solves = [asyncio.create_task(solve(deal)) for deal in deals]
    probe = Connection(port)
    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    start = time.perf_counter()
    try:
        while not all(task.done() for task in solves):
            begin = time.perf_counter()
            status, _ = await probe.request("POST", "/api/score", SCORE_BODY)
            latencies.append(time.perf_counter() - begin)
            statuses[status] += 1
            await asyncio.sleep(probe_gap)
    finally:
        await probe.close()
    await asyncio.gather(*solves)
    return {
        "seconds": time.perf_counter() - start,
        "solve_statuses": dict(solve_statuses),
        "score_latencies": latencies,
        "score_statuses": dict(statuses),
    }


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--burst", type=int, default=200)
    args = parser.parse_args()

    from bridgescore.core import Vulnerability
    from bridgescore.ddtable import DDTable
    from bridgescore.deal import random_deals
    from bridgescore.parscore import par
    from bridgescore.web.api import score_result

    port = free_port()
    command = [
        sys.executable,
        "-c",
        "from bridgescore.cli import main; main()",
        "serve",
        "--port",
        str(port),
    ]
    server = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        time.sleep(3)  # let the solver workers finish starting (warm-up)

        results = {}
        for name, path, body, function in (
            ("/api/score", "/api/score", SCORE_BODY, lambda: score_result("4DX +1", True)),
            (
                "/api/par",
                "/api/par",
                PAR_BODY,
                lambda: par(DDTable.parse(PAR_TABLE), Vulnerability.BOTH),
            ),
        ):
            asyncio.run(load(port, path, body, 200, args.concurrency))  # warm-up
            seconds, latencies, statuses = asyncio.run(
                load(port, path, body, args.requests, args.concurrency)
            )
            local_seconds, local_latencies = in_process(function, args.requests)
            results[name] = (seconds, latencies, statuses, local_seconds, local_latencies)

        deals = [deal.to_pbn() for deal in random_deals(args.burst, seed=2026)]
        during = asyncio.run(burst(port, deals, probe_gap=0.005))
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()

    today = f"{datetime.now(UTC):%Y-%m-%d}"
    print(f"## Web ({today}, {os.cpu_count()} cores, Python {platform.python_version()})")
    print()
    print(
        f"Loopback, {args.requests} requests per endpoint over {args.concurrency} keep-alive "
        "connections (server: `bridgescore serve`, one uvicorn process), against the same "
        "function called in-process."
    )
    print()
    print(
        "| endpoint | HTTP req/s | HTTP p50 | HTTP p99 | errors | in-process calls/s "
        "| in-process p50 | in-process p99 | HTTP / in-process |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, (seconds, latencies, statuses, local_seconds, local_latencies) in results.items():
        errors = sum(count for status, count in statuses.items() if status != 200)
        rate = args.requests / seconds
        local_rate = args.requests / local_seconds
        print(
            f"| `{name}` | {rate:,.0f} | {ms(statistics.median(latencies))} "
            f"| {ms(percentile(latencies, 0.99))} | {errors} | {local_rate:,.0f} "
            f"| {ms(statistics.median(local_latencies))} | {ms(percentile(local_latencies, 0.99))} "
            f"| {rate / local_rate:.4f} |"
        )
    latencies = cast(list[float], during["score_latencies"])
    print()
    print(
        f"Burst: {args.burst} concurrent `/api/solve` requests (distinct random deals) took "
        f"{during['seconds']:.1f} s; answers {during['solve_statuses']} "
        "(503 = queue full, with Retry-After)."
    )
    print(
        f"Meanwhile `/api/score`, one request at a time: {len(latencies)} requests, "
        f"statuses {during['score_statuses']}, p50 {ms(statistics.median(latencies))}, "
        f"p99 {ms(percentile(latencies, 0.99))}, max {ms(max(latencies))} (target p99 < 100 ms)."
    )


if __name__ == "__main__":
    main()

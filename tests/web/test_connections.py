"""``bridgescore session live`` attacked as a player on the club's Wi-Fi would: real
sockets against a real server in a subprocess (issue 36).

Half-open connections, connections past an address's share, rotated X-Forwarded-For
headers, twenty guesses at once. Loopback has a whole /8: the attacker's sockets come
from 127.0.0.2 or 127.0.0.3 where the test needs it to be another machine than the
phone's (127.0.0.1).
"""

from __future__ import annotations

import contextlib
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app as cli_app
from bridgescore.session.live.creation import create_event
from live_serving import THREE_TABLES, live_server

pytest.importorskip("uvicorn", reason="session live needs the web extra")

# A bound on a hang (a connection the server never closes), not a wait for an event.
HANG_BOUND = 60.0

HALF_REQUESTS = [
    b"",  # connected, nothing sent
    b"GET /ranking HTTP/1.1\r\nHost: club\r\n",  # headers never finished
    b"POST /api/live/results HTTP/1.1\r\nHost: club\r\nContent-Length: 90\r\n\r\n{",  # half a body
]


def address(base: str) -> tuple[str, int]:
    parts = urlsplit(base)
    assert parts.hostname is not None and parts.port is not None
    return parts.hostname, parts.port


def half_open(server: tuple[str, int], source: str, count: int) -> list[socket.socket]:
    """``count`` connections from ``source``, each with a request begun and never ended."""
    sockets = []
    for index in range(count):
        connection = socket.create_connection(server, source_address=(source, 0))
        connection.sendall(HALF_REQUESTS[index % len(HALF_REQUESTS)])
        sockets.append(connection)
    return sockets


def wait_closed(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (EOF or a reset);
    fails the test if it is still open after HANG_BOUND seconds."""
    connection.settimeout(HANG_BOUND)
    received = b""
    try:
        while chunk := connection.recv(4096):
            received += chunk
    except TimeoutError:
        pytest.fail(f"the server kept a half-open connection for {HANG_BOUND:.0f} s")
    except ConnectionResetError:
        pass
    finally:
        connection.close()
    return received


def still_open(connection: socket.socket) -> bool:
    """Whether the server has neither closed nor written to ``connection`` (asked now)."""
    try:
        return connection.recv(1, socket.MSG_DONTWAIT | socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except ConnectionResetError:
        return False


def phone(base: str, source: str = "127.0.0.1") -> httpx.Client:
    return httpx.Client(
        base_url=base, timeout=HANG_BOUND, transport=httpx.HTTPTransport(local_address=source)
    )


def test_six_hundred_half_open_connections_neither_stop_the_phones_nor_stay(
    tmp_path: Path,
) -> None:
    # Before: uvicorn kept every one of them open for ever and counted it against its
    # limit of 500 connections, so every phone got 503 for as long as they stayed.
    path = tmp_path / "club.db"
    created = create_event(path, THREE_TABLES)
    table = created.tables[0].token
    with live_server(path, "--no-access-log", "--read-timeout", "1") as server:
        attacker = half_open(address(server.base), "127.0.0.1", 600)
        # A phone on another address, and one on the attacker's own (a shared NAT).
        for source in ("127.0.0.2", "127.0.0.1"):
            with phone(server.base, source) as client:
                assert client.get("/api/live/ranking").status_code == 200
                answer = client.get("/api/live/table", headers={"Authorization": f"Bearer {table}"})
                assert answer.status_code == 200
        # Each one is closed by the server: dropped when a newer one took its place, or
        # when its request was not whole after the read timeout. None is answered.
        assert [wait_closed(connection) for connection in attacker] == [b""] * 600
        with phone(server.base) as client:
            body = {"round": 1, "board": 1, "contract": "3NT", "declarer": "S", "result": "="}
            entered = client.post(
                "/api/live/results", json=body, headers={"Authorization": f"Bearer {table}"}
            )
            assert entered.status_code == 201 and entered.json() == {"score_ns": 400}


def test_an_address_holds_a_bounded_number_of_connections(tmp_path: Path) -> None:
    path = tmp_path / "club.db"
    create_event(path, THREE_TABLES)
    options = ("--no-access-log", "--connections-per-address", "4", "--read-timeout", "300")
    with live_server(path, *options) as server:
        where = address(server.base)
        first = half_open(where, "127.0.0.3", 4)
        # A fifth from the same address takes the place of the oldest still waiting.
        fifth = half_open(where, "127.0.0.3", 1)
        assert wait_closed(first[0]) == b""
        assert [still_open(connection) for connection in first[1:] + fifth] == [True] * 4
        # Other addresses are not affected.
        with phone(server.base) as client:
            assert client.get("/api/live/ranking").status_code == 200
        for connection in first[1:] + fifth:
            connection.close()


def test_rotating_x_forwarded_for_gains_no_guesses(tmp_path: Path) -> None:
    # Before: uvicorn read X-Forwarded-For from 127.0.0.1 whoever sent it, so each guess
    # with a new forged address was a new client to the throttle.
    path = tmp_path / "club.db"
    create_event(path, THREE_TABLES)
    with live_server(path, "--no-access-log") as server, phone(server.base) as client:
        statuses = [
            client.post(
                "/api/live/director/login",
                json={"password": f"guess-{n}"},
                headers={"X-Forwarded-For": f"198.51.100.{n}"},
            ).status_code
            for n in range(7)
        ]
        assert statuses == [401] * 5 + [429] * 2


def test_behind_a_named_proxy_each_forwarded_client_counts_apart(tmp_path: Path) -> None:
    path = tmp_path / "club.db"
    created = create_event(path, THREE_TABLES)
    with (
        live_server(path, "--no-access-log", "--behind-proxy", "127.0.0.1") as server,
        phone(server.base) as proxy,
    ):

        def login(password: str, client: str) -> int:
            headers = {"X-Forwarded-For": client}
            body = {"password": password}
            return proxy.post("/api/live/director/login", json=body, headers=headers).status_code

        assert [login("guess", "198.51.100.7") for _ in range(6)] == [401] * 5 + [429]
        # The director's phone, through the same proxy, is another client.
        assert login(created.director_password, "198.51.100.8") == 200


def test_a_forged_x_forwarded_for_from_anyone_but_the_proxy_is_not_believed(
    tmp_path: Path,
) -> None:
    # The proxy named is 127.0.0.9; the guesses come from 127.0.0.1, each with a new
    # forged address: all are one client to the throttle, the socket's.
    path = tmp_path / "club.db"
    created = create_event(path, THREE_TABLES)
    options = ("--no-access-log", "--forwarded-allow-ips", "127.0.0.9")
    with live_server(path, *options) as server, phone(server.base) as client:
        statuses = [
            client.post(
                "/api/live/director/login",
                json={"password": f"guess-{n}"},
                headers={"X-Forwarded-For": f"198.51.100.{n}", "X-Forwarded-Proto": "https"},
            ).status_code
            for n in range(7)
        ]
        assert statuses == [401] * 5 + [429] * 2
        # Another machine (127.0.0.2) is another client, forged header or not.
        with phone(server.base, "127.0.0.2") as director:
            body = {"password": created.director_password}
            headers = {"X-Forwarded-For": "127.0.0.1"}
            login = director.post("/api/live/director/login", json=body, headers=headers)
            assert login.status_code == 200


def test_through_the_proxy_a_client_forging_its_own_header_is_still_counted(
    tmp_path: Path,
) -> None:
    # A proxy appends the address it saw to whatever the client sent: the forged part
    # is on the left, and only the proxy's own entry (the rightmost) is believed.
    path = tmp_path / "club.db"
    created = create_event(path, THREE_TABLES)
    options = ("--no-access-log", "--forwarded-allow-ips", "127.0.0.1")
    with live_server(path, *options) as server, phone(server.base) as proxy:

        def login(password: str, forwarded: str) -> int:
            headers = {"X-Forwarded-For": forwarded}
            body = {"password": password}
            return proxy.post("/api/live/director/login", json=body, headers=headers).status_code

        guesses = [login("guess", f"203.0.113.{n}, 198.51.100.7") for n in range(6)]
        assert guesses == [401] * 5 + [429]
        assert login(created.director_password, "203.0.113.1, 198.51.100.8") == 200


def test_twenty_concurrent_guesses_over_http_get_five_tries(tmp_path: Path) -> None:
    path = tmp_path / "club.db"
    created = create_event(path, THREE_TABLES)
    start = threading.Barrier(20)
    with live_server(path, "--no-access-log") as server:

        def guess(number: int) -> int:
            with phone(server.base) as client:
                start.wait()
                body = {"password": f"guess-{number}"}
                return client.post("/api/live/director/login", json=body).status_code

        with ThreadPoolExecutor(max_workers=20) as pool:
            statuses = sorted(pool.map(guess, range(20)))
        assert statuses == [401] * 5 + [429] * 15
        with phone(server.base) as client:
            body = {"password": created.director_password}
            assert client.post("/api/live/director/login", json=body).status_code == 429


@pytest.mark.parametrize("option", ["--forwarded-allow-ips", "--behind-proxy"])
@pytest.mark.parametrize("proxy", ["*", "proxy.example", "127.0.0.0/8", ""])
def test_the_proxy_is_named_by_ip_addresses_only(tmp_path: Path, option: str, proxy: str) -> None:
    path = tmp_path / "club.db"
    create_event(path, THREE_TABLES)
    result = CliRunner().invoke(cli_app, ["session", "live", str(path), option, proxy])
    assert result.exit_code == 2
    assert f"--forwarded-allow-ips {proxy!r}: {proxy!r} is not an IP address" in result.output


def test_a_list_of_proxies_names_each_and_refuses_a_bad_one(tmp_path: Path) -> None:
    from bridgescore.cli.listening import proxy_addresses

    assert proxy_addresses(" 127.0.0.1,::1 ,127.0.0.1") == ["127.0.0.1", "::1"]
    path = tmp_path / "club.db"
    create_event(path, THREE_TABLES)
    arguments = ["session", "live", str(path), "--forwarded-allow-ips", "127.0.0.1,10.0.0.0/8"]
    result = CliRunner().invoke(cli_app, arguments)
    assert result.exit_code == 2
    assert "'10.0.0.0/8' is not an IP address" in result.output


def test_a_head_without_end_is_431_and_closed(tmp_path: Path) -> None:
    path = tmp_path / "club.db"
    create_event(path, THREE_TABLES)
    with live_server(path, "--no-access-log", "--read-timeout", "300") as server:
        connection = socket.create_connection(address(server.base))
        connection.sendall(b"GET /ranking HTTP/1.1\r\nHost: club\r\n")
        # One header of 64 KiB, sent until the server stops taking it (closed while we
        # were still sending: also refused).
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            connection.sendall(b"X-Padding: " + b"a" * 65536)
        answer = wait_closed(connection)
        assert answer == b"" or answer.startswith(b"HTTP/1.1 431 ")
        with phone(server.base) as client:
            assert client.get("/api/live/ranking").status_code == 200


class Connection:
    """What the guard asks of a connection: its address, whom it waits for, since when,
    what the system holds unread for it, and being dropped."""

    def __init__(
        self, key: str, waiting: str = "request", since: float = 0.0, unread: int = 0
    ) -> None:
        from bridgescore.web.connections import Waiting

        self.key = key
        self.state = Waiting(waiting)
        self.since = since
        self.pending = unread
        self.dropped = False

    def waiting(self) -> Any:
        return self.state

    def unread(self) -> int:
        return self.pending

    def drop(self) -> None:
        self.dropped = True


def test_an_address_keeps_its_served_and_kept_alive_connections_past_the_cap() -> None:
    """The cap counts connections owing a request, never those the server is answering
    or that wait between requests: 60 tables and 40 readers from one address are kept
    however many, and only the half-open ones past the cap are closed, oldest first."""
    import asyncio

    from bridgescore.web.connections import ConnectionGuard

    now = [100.0]

    async def run() -> None:
        guard = ConnectionGuard(per_address=4, clock=lambda: now[0])
        served = [Connection("192.0.2.1", "server", since=90.0) for _ in range(60)]
        kept = [Connection("192.0.2.1", "next", since=90.0) for _ in range(40)]
        for connection in served + kept:
            guard.admit(connection)
        assert not any(c.dropped for c in served + kept)
        # Six half-open sockets, opened 10 s apart from 40 s ago: the two oldest go.
        half_open = [Connection("192.0.2.1", since=60.0 + 10 * n) for n in range(6)]
        for connection in half_open:
            guard.admit(connection)
        assert [c.dropped for c in half_open] == [True, True, False, False, False, False]
        assert not any(c.dropped for c in served + kept)
        assert guard.total == 104
        # Another address is counted apart.
        other = [Connection("192.0.2.2", since=0.0) for _ in range(4)]
        for connection in other:
            guard.admit(connection)
        assert not any(c.dropped for c in other)

    asyncio.run(run())


def test_a_new_connection_has_its_grace_and_one_with_unread_bytes_is_kept() -> None:
    import asyncio

    from bridgescore.web.connections import GRACE, ConnectionGuard

    now = [100.0]

    async def run() -> None:
        guard = ConnectionGuard(per_address=2, clock=lambda: now[0])
        # Three opened just now: none has had its grace, none is closed yet.
        fresh = [Connection("192.0.2.1", since=100.0) for _ in range(3)]
        for connection in fresh:
            guard.admit(connection)
        assert not any(c.dropped for c in fresh)
        # Once the grace is over the oldest goes (the trim the guard scheduled, run now).
        now[0] = 100.0 + GRACE
        guard.trim("192.0.2.1")
        assert [c.dropped for c in fresh] == [True, False, False]
        # A request lying unread is the server's delay, not the client's: kept.
        late = Connection("192.0.2.3", since=0.0, unread=120)
        guard.admit(late)
        guard.admit(Connection("192.0.2.3", since=0.0))
        guard.admit(Connection("192.0.2.3", since=50.0))
        assert not late.dropped

    asyncio.run(run())


def test_a_full_server_closes_the_oldest_waiting_of_the_address_holding_most() -> None:
    import asyncio

    from bridgescore.web.connections import ConnectionGuard

    async def run() -> None:
        guard = ConnectionGuard(per_address=1000, capacity=6, clock=lambda: 100.0)
        busy = [Connection("192.0.2.1", "server", since=1.0) for _ in range(2)]
        kept = Connection("192.0.2.1", "next", since=2.0)
        flood = [Connection("198.51.100.9", since=10.0 + n) for n in range(3)]
        for connection in [*busy, kept, *flood]:
            guard.admit(connection)
        assert guard.total == 6 and not any(c.dropped for c in [*busy, kept, *flood])
        # A seventh: the flooding address (three waiting against one) gives its oldest,
        # without a grace; the served connections pay nothing.
        phone = Connection("203.0.113.5", since=100.0)
        guard.admit(phone)
        assert [c.dropped for c in flood] == [True, False, False]
        assert not phone.dropped and not kept.dropped and not any(c.dropped for c in busy)
        assert guard.total == 6
        # A named proxy's connections are not capped per address.
        proxied = ConnectionGuard(per_address=1, trusted=["127.0.0.1"], clock=lambda: 100.0)
        through = [Connection("127.0.0.1", since=0.0) for _ in range(5)]
        for connection in through:
            proxied.admit(connection)
        assert not any(c.dropped for c in through)
        guard.release(busy[0])
        guard.release(busy[0])  # reported twice (dropped, then lost): counted out once
        assert guard.total == 5

    asyncio.run(run())


class _Cycle:
    """The state of uvicorn's exchange that the guard reads."""

    def __init__(self) -> None:
        self.response_complete = False
        self.more_body = True


class _Inner:
    """Stands in for uvicorn's protocol inside the guard: the head is whole from the
    first bytes (a cycle exists) and the body is still coming."""

    def __init__(self) -> None:
        self.cycle: _Cycle | None = None
        self.received = 0

    def connection_made(self, transport: object) -> None:
        pass

    def connection_lost(self, exc: Exception | None) -> None:
        pass

    def data_received(self, data: bytes) -> None:
        self.received += len(data)
        if self.cycle is None:
            self.cycle = _Cycle()


class _Transport:
    def get_extra_info(self, name: str) -> object:
        return ("192.0.2.9", 40000)

    def is_closing(self) -> bool:
        return False

    def abort(self) -> None:
        raise AssertionError("the guard dropped a body that kept coming")


def test_a_body_that_keeps_coming_earns_new_deadlines_and_a_trickle_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The read deadline is fixed for a head, but a body earns a new one with every
    BODY_PROGRESS bytes: a 2 MB upload on a slow link (or read slowly by a busy
    server: this cut off an upload in a loaded test run) is not dropped; a body that
    trickles in smaller pieces keeps the deadline it had."""
    import asyncio

    from bridgescore.web import connections
    from bridgescore.web.connections import BODY_PROGRESS, ConnectionGuard

    inner = _Inner()
    monkeypatch.setattr(connections, "_uvicorn_protocol", lambda: lambda **_: inner)

    async def run() -> None:
        guard = ConnectionGuard(read_timeout=30.0)
        protocol = guard.protocol()()
        protocol.connection_made(_Transport())
        protocol.data_received(b"POST /upload HTTP/1.1\r\n...\r\n\r\n")
        first = protocol.deadline  # type: ignore[attr-defined]
        assert first is not None
        # A trickle: bytes but less than BODY_PROGRESS in all: the same deadline.
        for _ in range(10):
            protocol.data_received(b"x" * 100)
        assert protocol.deadline is first  # type: ignore[attr-defined]
        # Enough body: a new deadline, then again after as much more.
        protocol.data_received(b"x" * BODY_PROGRESS)
        second = protocol.deadline  # type: ignore[attr-defined]
        assert second is not None and second is not first and first.cancelled()
        protocol.data_received(b"x" * (BODY_PROGRESS - 1))
        assert protocol.deadline is second  # type: ignore[attr-defined]
        protocol.data_received(b"x")
        assert protocol.deadline is not second and second.cancelled()  # type: ignore[attr-defined]
        # The body done (the app has the whole request): no deadline at all.
        assert inner.cycle is not None
        inner.cycle.more_body = False
        protocol.data_received(b"")
        assert protocol.deadline is None  # type: ignore[attr-defined]
        protocol.connection_lost(None)

    asyncio.run(run())


class _RecordingTransport(_Transport):
    def __init__(self) -> None:
        self.written = b""
        self.closed = False

    def write(self, data: bytes) -> None:
        self.written += data

    def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize("split", [None, 3, 1])
def test_a_head_read_with_much_of_its_body_is_no_431(
    monkeypatch: pytest.MonkeyPatch, split: int | None
) -> None:
    """A busy server reads late, so one read may bring a small head and 100 KiB of its
    body: only the head's bytes count against the 32 KiB limit (counting the whole read
    refused a 2 MB upload with 431 now and then in a loaded test run). The blank line
    ending the head may also be split across two reads (``split``)."""
    import asyncio

    from bridgescore.web import connections
    from bridgescore.web.connections import DEFAULT_MAX_HEAD, ConnectionGuard

    head = b"POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 102400\r\n\r\n"
    body = b"x" * 102_400

    def run(inner: _Inner, reads: list[bytes]) -> _RecordingTransport:
        async def go() -> _RecordingTransport:
            protocol = ConnectionGuard().protocol()()
            transport = _RecordingTransport()
            protocol.connection_made(transport)
            for read in reads:
                protocol.data_received(read)
            protocol.connection_lost(None)
            return transport

        return asyncio.run(go())

    class _LateHead(_Inner):
        """The cycle exists only once the head's blank line has been read."""

        def data_received(self, data: bytes) -> None:
            self.received += len(data)
            if self.cycle is None and self.received >= len(head):
                self.cycle = _Cycle()

    inner = _LateHead()
    monkeypatch.setattr(connections, "_uvicorn_protocol", lambda: lambda **_: inner)
    message = head + body
    reads = (
        [message] if split is None else [message[: len(head) - split], message[len(head) - split :]]
    )
    transport = run(inner, reads)
    assert b"431" not in transport.written and not transport.closed
    # A head that is itself too large is still refused.
    big = _LateHead()
    monkeypatch.setattr(connections, "_uvicorn_protocol", lambda: lambda **_: big)
    huge = b"GET / HTTP/1.1\r\nX-Junk: " + b"a" * DEFAULT_MAX_HEAD + b"\r\n\r\n"
    refused = run(big, [huge])
    assert refused.written.startswith(b"HTTP/1.1 431") and refused.closed


async def _exchange(
    reader: Any, writer: Any, method: str, path: str, body: bytes = b"", token: str = ""
) -> tuple[int, bytes]:
    """One HTTP/1.1 request on a kept-alive connection, and its answer's status and body."""
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: club\r\n{auth}Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    writer.write(head.encode() + body)
    status_line = await reader.readline()
    assert status_line, f"the server closed a connection it was serving ({method} {path})"
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return int(status_line.split()[1]), await reader.readexactly(length)


def test_sixty_tables_and_forty_readers_from_one_address_are_all_served(tmp_path: Path) -> None:
    """As through a reverse proxy not named, or a club's NAT: 60 tables entering at once
    and 40 readers, every one from 127.0.0.1 on its own kept-alive connection, while 64
    half-open sockets from the same address wait beside them. Before, the 33rd
    connection of the address was refused with 503 once 32 were busy, and the tables'
    later rounds with 409: now every result is acknowledged (201) and stored, every page
    is served, and the half-open sockets past the cap of 32 are closed."""
    import asyncio
    import json

    from bridgescore.session.live.event import LiveEvent
    from live_serving import mitchell

    tables, rounds = 60, 2
    path = tmp_path / "club.db"
    created = create_event(path, mitchell(tables, rounds, 1))
    movement = mitchell(tables, rounds, 1)
    tokens = {access.table: access.token for access in created.tables}
    with live_server(path, "--no-access-log", "--read-timeout", "300") as server:
        host, port = address(server.base)
        attacker = half_open((host, port), "127.0.0.1", 64)

        async def evening() -> tuple[list[int], list[int]]:
            entered: list[int] = []
            read: list[int] = []

            async def table(number: int) -> None:
                reader, writer = await asyncio.open_connection(host, port)
                for row in (r for r in movement.rows if r.table == number):
                    body = {"round": row.round, "board": row.boards[0], "contract": "PASS"}
                    status, answer = await _exchange(
                        reader, writer, "POST", "/api/live/results",
                        json.dumps(body).encode(), tokens[number],
                    )  # fmt: skip
                    assert (status, json.loads(answer)) == (201, {"score_ns": 0}), answer
                    entered.append(status)
                writer.close()

            async def reading() -> None:
                reader, writer = await asyncio.open_connection(host, port)
                for _ in range(3):
                    status, _ = await _exchange(reader, writer, "GET", "/api/live/ranking")
                    read.append(status)
                writer.close()

            # All at once: each client connects and sends, as phones do.
            clients = [table(n) for n in tokens] + [reading() for _ in range(40)]
            await asyncio.wait_for(asyncio.gather(*clients), HANG_BOUND)
            return entered, read

        entered, read = asyncio.run(evening())
        assert entered == [201] * (tables * rounds)
        assert read == [200] * 120
        # Of the 64 half-open sockets, the 32 oldest are closed (once their grace is
        # over). How many of the younger 32 stay depends on the machine, not on the
        # rule: a table whose connection is open but whose request has not come yet
        # (a loaded machine, the test's own client late) owes the server a request as
        # they do, and while it does the address is past its 32 and its oldest
        # half-open socket goes. So the younger ones are not asserted to stay here;
        # test_an_address_keeps_its_served_and_kept_alive_connections_past_the_cap
        # (the guard on a clock of its own) holds that.
        assert [wait_closed(connection) for connection in attacker[:32]] == [b""] * 32
        for connection in attacker[32:]:
            connection.close()
    with LiveEvent(path) as live:
        stored = [live.has_entered("A", row.table, row.boards[0]) for row in movement.rows]
    assert stored == [True] * (tables * rounds)


def test_an_answer_left_unread_past_the_read_timeout_drops_the_connection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A client that stops reading its answer (the transport's buffer full: uvicorn
    waits to write) holds a connection the cap never counts, being served: it gets
    ``read_timeout`` to go on reading, and each time it does the clock starts again."""
    import asyncio

    from bridgescore.web import connections
    from bridgescore.web.connections import ConnectionGuard

    class _Paused(_Inner):
        def pause_writing(self) -> None:
            pass

        def resume_writing(self) -> None:
            pass

    class _Aborted(_Transport):
        aborted = False

        def abort(self) -> None:
            self.aborted = True

    inner = _Paused()
    monkeypatch.setattr(connections, "_uvicorn_protocol", lambda: lambda **_: inner)

    async def run() -> None:
        guard = ConnectionGuard(read_timeout=30.0)
        protocol = guard.protocol()()
        transport = _Aborted()
        protocol.connection_made(transport)
        protocol.pause_writing()
        first = protocol.write_deadline  # type: ignore[attr-defined]
        assert first is not None
        protocol.resume_writing()  # the client read some: no deadline while it does
        assert first.cancelled() and protocol.write_deadline is None  # type: ignore[attr-defined]
        protocol.pause_writing()
        again = protocol.write_deadline  # type: ignore[attr-defined]
        assert again is not None and again is not first
        again._run()  # the deadline passes (its callback, run now)
        assert transport.aborted
        protocol.connection_lost(None)

    asyncio.run(run())

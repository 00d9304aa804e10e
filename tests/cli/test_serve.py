"""``bridgescore serve``: where it listens, and what it says when it cannot."""

from __future__ import annotations

import itertools
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app as cli_app
from bridgescore.distributed import HOLD_VARIABLE
from conftest import HOLD_TIMEOUT, MakeHoldPoints, nth
from web_helpers import serving

pytest.importorskip("uvicorn", reason="serve needs the web extra")

SERVE = [sys.executable, "-c", "from bridgescore.cli import main; main()", "serve"]


def test_a_busy_port_is_said_once_and_exits_1() -> None:
    # Another program holds the port: the command must say so plainly, before
    # claiming to serve, and exit 1 (uvicorn alone printed "serving on" then an ERROR, exit 3).
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        result = subprocess.run(
            [*SERVE, "--port", str(port), "--solver-workers", "1"],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"error: port {port} on 127.0.0.1 is taken: another program is listening there; "
        "stop it or pass another --port\n"
    )


def test_a_busy_port_on_localhost_is_refused_too() -> None:
    # localhost names 127.0.0.1 (and ::1 where there is IPv6): one taken address is enough.
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        result = CliRunner().invoke(cli_app, ["serve", "--host", "localhost", "--port", str(port)])
    assert result.exit_code == 1
    assert f"port {port} on localhost is taken" in result.output
    assert "serving on" not in result.output


def test_a_host_that_is_no_address_is_refused() -> None:
    # .invalid is reserved (RFC 2606): it never resolves.
    result = CliRunner().invoke(cli_app, ["serve", "--host", "nowhere.invalid"])
    assert result.exit_code == 1
    assert "--host 'nowhere.invalid' is not an address of this machine" in result.output
    assert "Traceback" not in result.output


def test_serves_on_the_sockets_it_checked() -> None:
    # The check binds the port it then serves on: a served page proves the sockets handed on work.
    with serving(["--solver-workers", "1"]) as base:
        answer = httpx.get(base + "/api/deal/random", params={"seed": 1}, timeout=30)
        assert answer.status_code == 200
        assert answer.json()["seed"] == 1


@pytest.mark.parametrize(
    ("words", "command"), [(["serve"], "serve"), (["session", "live", "x.db"], "session live")]
)
def test_without_the_web_extra_both_server_commands_name_it(
    monkeypatch: pytest.MonkeyPatch, words: list[str], command: str
) -> None:
    # None in sys.modules makes `import uvicorn` fail as if it were not installed.
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    result = CliRunner().invoke(cli_app, words)
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {command} needs 'uvicorn': install it with: pip install 'bridgescore[web]'\n"
    )


def travellers_csv(limit: int) -> tuple[bytes, int]:
    """A CSV traveller file of at most ``limit`` bytes, 1,100 pairs named in Cyrillic,
    and how many results it holds (one a line after the header)."""
    letters = "абвгдежзиклмнопрстуфхцчшщэюя"
    names = ["".join(word) for word in itertools.islice(itertools.product(letters, repeat=3), 1100)]
    scores = ("+420", "+450", "-50", "+400", "-100")
    lines = ["board,ns,ew,score"]
    size = len(lines[0]) + 1
    for board in itertools.count(1):
        for table in range(550):
            ew = names[550 + (table + board) % 550]
            line = f"{board},{names[table]},{ew},{scores[(table * 7 + board) % 5]}"
            size += len(line.encode()) + 1
            if size > limit:
                return ("\n".join(lines) + "\n").encode(), len(lines) - 1
            lines.append(line)
    raise AssertionError("unreachable")


def test_requests_are_answered_while_a_two_megabyte_upload_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hold_points: MakeHoldPoints
) -> None:
    # The attack: a 2 MB CSV was read on the event loop and every other request waited
    # 8-15 s. Here the import is stopped at its hold point, inside its reading; the
    # server must answer other requests meanwhile (on the event loop they would hang).
    data, results = travellers_csv(2 * 1024 * 1024 - 4096)  # the form's own bytes fit too
    assert len(data) > 2_000_000
    points = hold_points(nth("upload-import", 1))
    monkeypatch.setenv(HOLD_VARIABLE, points.address)
    events = tmp_path / "events"
    events.mkdir()
    outcome: dict[str, Any] = {}

    def send() -> None:
        files = {"file": ("travellers.csv", data)}
        outcome["upload"] = httpx.post(base + "/upload", files=files, timeout=HOLD_TIMEOUT)

    with serving(["--solver-workers", "1", "--events", str(events)]) as base:
        sending = threading.Thread(target=send)
        sending.start()
        held = points.next(alive=sending.is_alive)
        try:
            score = httpx.post(
                base + "/api/score", json={"result": "4SN=", "vulnerable": False},
                timeout=HOLD_TIMEOUT,
            )  # fmt: skip
            assert score.status_code == 200 and score.json()["score"] == 420
            assert httpx.get(base + "/session", timeout=HOLD_TIMEOUT).status_code == 200
        finally:
            held.release()
        sending.join(HOLD_TIMEOUT)
    response = outcome["upload"]
    assert response.status_code == 200, response.text[:2000]
    assert f"Stored {results} result(s)" in response.text


def test_serve_names_its_proxy_by_ip_address_only() -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--forwarded-allow-ips", "*"])
    assert result.exit_code == 2
    assert "--forwarded-allow-ips '*': '*' is not an IP address" in result.output

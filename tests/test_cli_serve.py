"""``bridgescore serve``: where it listens, and what it says when it cannot."""

from __future__ import annotations

import socket
import subprocess
import sys

import httpx
import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app as cli_app
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

"""``bridgescore session live`` on a disk that fills up, and on a read-only event file
(issue 36): a real file system (a small tmpfs, or a read-only bind mount, in a private
mount namespace), a real server in a subprocess.

Before: a full disk was a bare 500 on every write, and a read-only event file was
refused at start as "not a bridgescore event file".
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app as cli_app
from bridgescore.errors import StorageError
from bridgescore.session.live.creation import create_event
from bridgescore.session.live.event import LiveEvent
from conftest import can_unshare
from live_serving import CLI, THREE_TABLES, live_server

pytest.importorskip("uvicorn", reason="session live needs the web extra")

# Board 1, nobody vulnerable: 3NT by South made: 100 + 300 (game) = +400.
BOARD_1 = {"round": 1, "board": 1, "contract": "3NT", "declarer": "S", "result": "="}
# Board 2, NS vulnerable: 3NT by South made: 100 + 500 (game) = +600.
BOARD_2 = {"round": 1, "board": 2, "contract": "3NT", "declarer": "S", "result": "="}

# A private mount namespace with a small tmpfs at "$1", the event ("$2") copied onto it.
ON_SMALL_DISK = ["unshare", "-m", "--propagation", "private", "sh", "-c",
                 'mount -t tmpfs -o size=4m tmpfs "$1" && cp "$2" "$1/" && shift 2 && exec "$@"',
                 "sh"]  # fmt: skip
# A private mount namespace in which the folder "$1" is read-only.
READ_ONLY = ["unshare", "-m", "--propagation", "private", "sh", "-c",
             'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"',
             "sh"]  # fmt: skip


def needs_mounts() -> None:
    reason = can_unshare()
    if reason is not None:
        pytest.skip(reason)
    if shutil.which("nsenter") is None:
        pytest.skip("no nsenter(1) on this machine")


def in_server_namespace(pid: int, command: str) -> None:
    """Run ``command`` (sh) in the server's mount namespace, where its disk is."""
    subprocess.run(["nsenter", "-t", str(pid), "-m", "--", "sh", "-c", command], check=False)


def test_a_full_disk_is_a_507_saying_nothing_was_stored(tmp_path: Path) -> None:
    needs_mounts()
    source = tmp_path / "club.db"
    created = create_event(source, THREE_TABLES)
    disk = tmp_path / "disk"
    disk.mkdir()
    table = {"Authorization": f"Bearer {created.tables[0].token}"}
    prefix = [*ON_SMALL_DISK, str(disk), str(source)]
    with (
        live_server(disk / "club.db", "--no-access-log", prefix=prefix) as server,
        httpx.Client(base_url=server.base, timeout=60) as client,
    ):
        assert client.post("/api/live/results", json=BOARD_1, headers=table).status_code == 201
        # Fill the disk: cat stops at "No space left on device".
        in_server_namespace(server.process.pid, f'cat /dev/zero > "{disk}/fill" 2>/dev/null')

        refused = client.post("/api/live/results", json=BOARD_2, headers=table)
        assert refused.status_code == 507
        detail = refused.json()["detail"]
        assert "NOT stored" in detail and "nothing else has changed" in detail
        assert "the disk is full" in detail

        # The table's page says it too, as a page.
        page = httpx.Client(base_url=server.base, timeout=60)
        page.get("/table", params={"token": created.tables[0].token})
        csrf = re.search(r'name="csrf" value="([^"]+)"', page.get("/table").text)
        assert csrf is not None
        form = {"csrf": csrf[1], "round": "1", "board": "2", "level": "3", "strain": "NT",
                "doubling": "", "declarer": "S", "result": "="}  # fmt: skip
        answer = page.post("/table/result", data=form)
        page.close()
        assert answer.status_code == 507
        assert "NOT stored" in answer.text and "text/html" in answer.headers["content-type"]

        # Room again: the same result is stored, and board 1 is as it was.
        in_server_namespace(server.process.pid, f'rm -f "{disk}/fill"')
        again = client.post("/api/live/results", json=BOARD_2, headers=table)
        assert again.status_code == 201 and again.json() == {"score_ns": 600}
        view = client.get("/api/live/table", headers=table).json()
        first_round = view["rounds"][0]
        assert sorted(first_round["entered"]) == [1, 2]
        assert [(r["board"], r["score_ns"]) for r in first_round["results"]] == [(1, 400), (2, 600)]


def test_a_read_only_event_file_is_refused_at_start_saying_so(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    folder.mkdir()
    path = folder / "club.db"
    create_event(path, THREE_TABLES)
    if os.geteuid() != 0:
        path.chmod(0o444)
        result = CliRunner().invoke(cli_app, ["session", "live", str(path)])
        output, code = result.output, result.exit_code
    else:
        # Root writes through file modes: only a read-only mount stops it.
        reason = can_unshare()
        if reason is not None:
            pytest.skip(reason)
        command = [*READ_ONLY, str(folder), *CLI, "session", "live", str(path), "--port", "0"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        output, code = done.stdout + done.stderr, done.returncode
    assert code == 1
    assert f"{str(path)!r} is read-only" in output
    assert "not a bridgescore event file" not in output


def test_a_file_in_a_read_only_folder_is_refused_saying_why(tmp_path: Path) -> None:
    # SQLite keeps its journal beside the file: a writable file in a read-only folder
    # cannot take a result either.
    folder = tmp_path / "results"
    folder.mkdir()
    path = folder / "club.db"
    create_event(path, THREE_TABLES)
    if os.geteuid() == 0:
        reason = can_unshare()
        if reason is not None:
            pytest.skip(reason)
        # The folder read-only; the file itself bound writable over it.
        script = (
            'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && '
            'mount --bind "$2" "$2" && mount -o remount,bind,rw "$2" && shift 2 && exec "$@"'
        )
        command = ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh",
                   str(folder), str(path), sys.executable, "-c",
                   "from bridgescore.session.live.event import LiveEvent; import sys; "
                   "LiveEvent(sys.argv[1])", str(path)]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        output = done.stderr
    else:
        folder.chmod(0o555)
        try:
            with pytest.raises(StorageError) as raised:
                LiveEvent(path)
            output = str(raised.value)
        finally:
            folder.chmod(0o755)
    assert "its folder" in output and "is read-only" in output

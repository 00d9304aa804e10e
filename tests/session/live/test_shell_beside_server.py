"""The shell beside the server (issue 43): while a real ``bridgescore session live`` process
serves a night, real ``bridgescore session ...`` processes read and write the same file
between rounds. Then the server is killed with -9, and what is on disk is counted:
every acknowledged result is there, each backup holds everything acknowledged before it,
the audit log lists every entered result, and the server showed each shell change at its
next request.

Once, a read-only ``session log`` beside the server deleted the server's write-ahead log
(a header check with ``open()`` in the server had dropped its SQLite locks): 48 of 60
acknowledged results were lost. Every count here is made from the file through SQLite,
in this process, after the server is gone.

Synchronised on what the processes say (the server's "serving" line, each command's exit,
each answer), never on sleeps.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import threading
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from bridgescore.cli.app import app
from bridgescore.movement.model import Movement
from bridgescore.session.store.events import EventStore
from live_serving import CLI, live_server

pytest.importorskip("uvicorn")

SOURCE = Path(__file__).resolve().parents[3] / "src"
# 3NT by South making: 400 not vulnerable, 600 vulnerable (Law 77); a board's
# vulnerability follows its number (Law 2): NS vulnerable on 2, 4, 5, 7, 10, 12, 13, 15
# of every 16.
NS_VULNERABLE = {2, 4, 5, 7, 10, 12, 13, 15}


def environment() -> dict[str, str]:
    """The child processes import this checkout's bridgescore."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SOURCE), *filter(None, [env.get("PYTHONPATH")])])
    return env


def shell(*words: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    """One ``bridgescore`` command in a process of its own, as a director types it."""
    done = subprocess.run(
        [*CLI, *words], capture_output=True, text=True, env=environment(), stdin=subprocess.DEVNULL
    )
    assert done.returncode == code, (words, done.stdout, done.stderr)
    return done


def here(*words: str) -> str:
    """One ``bridgescore`` command in this process (its standard output), for the steps
    with no server beside them: making the night before it starts, reading the log after
    it is killed. Everything between is :func:`shell`'s, a process of its own."""
    done = CliRunner().invoke(app, list(words))
    assert done.exit_code == 0, (words, done.output)
    return done.stdout


def new_night(event: Path, *options: str) -> dict[str, Any]:
    made: dict[str, Any] = json.loads(here("session", "new", str(event), "--json", *options))
    return made


def movement_of(event: Path) -> Movement:
    with EventStore(event, mode="read") as store:
        movement = store.movement
    assert movement is not None
    return movement


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def kill_9(process: subprocess.Popen[str]) -> None:
    """Power lost: the server gets no chance to checkpoint or close anything."""
    process.send_signal(signal.SIGKILL)
    process.wait()


def count(event: Path, table: str) -> int:
    with closing(sqlite3.connect(event)) as database:
        (found,) = database.execute(f"SELECT count(*) FROM {table}").fetchone()
    return int(found)


def entered_audit(event: Path) -> list[tuple[str, int, str, str]]:
    """The audit log's 'enter' lines: (who, board, NS, EW)."""
    with closing(sqlite3.connect(event)) as database:
        rows = database.execute(
            "SELECT who, board, ns, ew FROM audit WHERE action = 'enter' ORDER BY entry"
        ).fetchall()
    return [(str(w), int(b), str(n), str(e)) for w, b, n, e in rows]


class Tables:
    """The tables' phones: each result through the JSON API, acknowledged (201) or not."""

    def __init__(self, base: str, tokens: dict[int, str]) -> None:
        self.base = base
        self.tokens = tokens
        self.acknowledged: list[tuple[int, int, int]] = []  # (table, round, board)
        self.refused: list[tuple[int, str]] = []
        self._lock = threading.Lock()

    def enter(self, client: httpx.Client, table: int, round_number: int, board: int) -> None:
        body = {"round": round_number, "board": board, "contract": "3NT", "declarer": "S",
                "result": "="}  # fmt: skip
        answer = client.post(
            self.base + "/api/live/results",
            json=body,
            headers=bearer(self.tokens[table]),
        )
        with self._lock:
            if answer.status_code == 201:
                self.acknowledged.append((table, round_number, board))
                made = 600 if (board - 1) % 16 + 1 in NS_VULNERABLE else 400
                if answer.json() != {"score_ns": made}:
                    self.refused.append((answer.status_code, f"board {board}: {answer.text}"))
            else:
                self.refused.append((answer.status_code, answer.text))

    def play_round(self, client: httpx.Client, movement: Movement, round_number: int) -> None:
        for row in movement.rows:
            if row.round == round_number:
                for board in row.boards:
                    self.enter(client, row.table, round_number, board)


def ranking(client: httpx.Client, base: str) -> dict[str, Any]:
    answer = client.get(base + "/api/live/ranking")
    assert answer.status_code == 200, answer.text
    document: dict[str, Any] = answer.json()
    return document


def director_login(client: httpx.Client, base: str, password: str) -> dict[str, str]:
    answer = client.post(base + "/api/live/director/login", json={"password": password})
    assert answer.status_code == 200, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def audit_of(client: httpx.Client, base: str, director: dict[str, str]) -> list[dict[str, Any]]:
    answer = client.get(base + "/api/live/audit", headers=director)
    assert answer.status_code == 200, answer.text
    lines: list[dict[str, Any]] = answer.json()
    return lines


def test_every_shell_command_between_rounds_loses_nothing(tmp_path: Path) -> None:
    event = tmp_path / "club.db"
    made = new_night(event, "--movement", "mitchell", "-t", "6", "-b", "2")
    tokens = {t["table"]: t["token"] for t in made["tables"]}
    movement = movement_of(event)
    assert movement.rounds == 5  # six tables, even: the skip Mitchell's five rounds
    backups: list[tuple[Path, int]] = []  # (copy, results acknowledged before it)
    with live_server(event) as server, httpx.Client(timeout=120) as client:
        tables = Tables(server.base, tokens)
        director = director_login(client, server.base, made["director_password"])
        for round_number in range(1, movement.rounds + 1):
            tables.play_round(client, movement, round_number)
            # The reads a director runs between rounds: each sees everything acknowledged.
            scored = json.loads(shell("session", "score", str(event), "--json").stdout)
            assert scored == ranking(client, server.base)
            # One report writes the JSON, the CSV and the results site, as a director's
            # script would ask for them together (one process start, not three).
            site = tmp_path / f"site{round_number}"
            written = shell("session", "report", str(event), "--json",
                            "--csv", str(tmp_path / f"r{round_number}.csv"),
                            "--html", f"{site}/")  # fmt: skip
            report = json.loads(written.stdout)
            lines = sum(len(t["results"]) for t in report["travellers"])
            assert lines == len(tables.acknowledged)
            csv_lines = (tmp_path / f"r{round_number}.csv").read_text().splitlines()
            assert len(csv_lines) == 1 + lines  # a header, then one line a result
            assert (site / "index.html").is_file()
            logged = json.loads(shell("session", "log", str(event), "--json").stdout)
            assert len([e for e in logged if e["action"] == "enter"]) == len(tables.acknowledged)
            shell("session", "export", str(event), str(tmp_path / f"usebio-{round_number}.xml"))
            copy = tmp_path / f"backup-{round_number}.db"
            shell("session", "backup", str(event), str(copy))
            backups.append((copy, len(tables.acknowledged)))

            if round_number == 2:
                # A correction from the shell: audited as the shell's, and the running
                # server shows it at its next request.
                before = ranking(client, server.base)
                row = next(r for r in movement.rows if r.round == 1 and r.table == 1)
                board = row.boards[0]
                shell("session", "correct", str(event), str(board), row.ns, row.ew, "3NTS+1",
                      "--reason", "the claim")  # fmt: skip
                after = ranking(client, server.base)
                assert after != before
                assert after == json.loads(shell("session", "score", str(event), "--json").stdout)
                drawn = client.get(server.base + f"/api/live/traveller/{board}", headers=director)
                assert "3NTS+1" in drawn.text
                [line] = [e for e in audit_of(client, server.base, director)
                          if e["action"] == "correct"]  # fmt: skip
                assert (line["who"], line["new"], line["reason"]) == (
                    "director (command line)",
                    "3NTS+1",
                    "the claim",
                )
            if round_number == 3:
                # A lost link reissued from the shell: the server refuses the old token at
                # once and takes the new one.
                old = tokens[4]
                new = json.loads(shell("session", "reissue", str(event), "--table", "4",
                                       "--json").stdout)  # fmt: skip
                assert client.get(server.base + "/api/live/table",
                                  headers=bearer(old)).status_code == 401  # fmt: skip
                tables.tokens[4] = new["token"]
                assert client.get(server.base + "/api/live/table",
                                  headers=bearer(new['token'])).status_code == 200  # fmt: skip
                # Names from a CSV, while the night runs: the server's pages name them.
                names = tmp_path / "names.csv"
                names.write_text("pair,player,player\n1N,Ann Archer,Bob Baker\n")
                shell("session", "import", str(event), str(names))
                assert "Ann Archer" in client.get(server.base + "/ranking").text
            if round_number == 4:
                # A table the wrong way round for the next round, swapped from the shell:
                # the server seats it so at once.
                row = next(r for r in movement.rows if r.round == 5 and r.table == 2)
                shell("session", "swap", str(event), "--table", "2", "--round", "5")
                seen = client.get(server.base + "/api/live/table",
                                  headers=bearer(tables.tokens[2])).json()  # fmt: skip
                [round_5] = [r for r in seen["rounds"] if r["round"] == 5]
                assert (round_5["ns"], round_5["ew"]) == (row.ew, row.ns)
                # A new director password from the shell: the old logins end at once.
                password = json.loads(shell("session", "password", str(event), "--json").stdout)
                assert client.get(server.base + "/api/live/audit",
                                  headers=director).status_code == 401  # fmt: skip
                director = director_login(client, server.base, password["director_password"])
        assert not tables.refused
        assert len(tables.acknowledged) == 60
        final_audit = len(audit_of(client, server.base, director))
        kill_9(server.process)

    # What is on disk after the power cut, through SQLite alone.
    assert count(event, "results") == 60
    entered = entered_audit(event)
    assert len(entered) == 60
    assert len(set(entered)) == 60
    assert count(event, "audit") == final_audit
    for copy, acknowledged in backups:
        assert count(copy, "results") == acknowledged
    actions = [e["action"] for e in json.loads(here("session", "log", str(event), "--json"))]
    assert actions.count("backup") == movement.rounds
    assert actions.count("correct") == 1


def test_thirty_tables_enter_while_the_shell_reads_and_backs_up(tmp_path: Path) -> None:
    """30 tables at once; beside them one process reads 'session score --json' in a loop
    and another takes backups in a loop, until the tables are done: nothing is lost and
    nothing is refused."""
    event = tmp_path / "big.db"
    made = new_night(event, "--movement", "mitchell", "-t", "30", "-b", "1", "--rounds", "3")
    tokens = {t["table"]: t["token"] for t in made["tables"]}
    movement = movement_of(event)
    done = threading.Event()
    failures: list[Sequence[str]] = []
    reads = [0]
    copies: list[Path] = []

    def read_in_a_loop() -> None:
        while not done.is_set():
            answer = subprocess.run([*CLI, "session", "score", str(event), "--json"],
                                    capture_output=True, text=True, env=environment())  # fmt: skip
            if answer.returncode != 0 and "nothing to score" not in answer.stderr:
                failures.append(("score", answer.stderr))
            reads[0] += 1

    def back_up_in_a_loop() -> None:
        while not done.is_set():
            copy = tmp_path / f"copy-{len(copies)}.db"
            answer = subprocess.run([*CLI, "session", "backup", str(event), str(copy)],
                                    capture_output=True, text=True, env=environment())  # fmt: skip
            if answer.returncode != 0:
                failures.append(("backup", answer.stderr))
            copies.append(copy)

    with live_server(event) as server:
        tables = Tables(server.base, tokens)

        def one_table(table: int) -> None:
            with httpx.Client(timeout=120) as client:
                for row in movement.rows:
                    if row.table == table:
                        for board in row.boards:
                            tables.enter(client, table, row.round, board)

        shell_side = [threading.Thread(target=read_in_a_loop),
                      threading.Thread(target=back_up_in_a_loop)]  # fmt: skip
        for thread in shell_side:
            thread.start()
        phones = [threading.Thread(target=one_table, args=(t,)) for t in range(1, 31)]
        for thread in phones:
            thread.start()
        for thread in phones:
            thread.join()
        done.set()
        for thread in shell_side:
            thread.join()
        kill_9(server.process)
    assert not tables.refused
    assert not failures
    assert reads[0] >= 1 and copies
    assert len(tables.acknowledged) == 90
    assert count(event, "results") == 90
    assert len(entered_audit(event)) == 90
    # Each copy is whole: every one reads as an event, with results in board order.
    for copy in copies:
        assert 0 <= count(copy, "results") <= 90


def test_a_late_pair_and_a_replacing_import_from_the_shell_reach_the_server(
    tmp_path: Path,
) -> None:
    """13 pairs on 7 tables: a late pair seated from the shell at round 2 gets a table the
    server takes at once; a CSV imported with --replace changes a stored result, audited as
    the shell's, seen at the server's next request. Then kill -9: nothing is lost."""
    event = tmp_path / "club.db"
    made = new_night(event, "--movement", "mitchell", "-t", "7", "--pairs", "13", "-b", "2",
                     "--rounds", "3")  # fmt: skip
    tokens = {t["table"]: t["token"] for t in made["tables"]}
    with live_server(event) as server, httpx.Client(timeout=120) as client:
        tables = Tables(server.base, tokens)
        tables.play_round(client, movement_of(event), 1)
        joined = json.loads(
            shell(
                "session",
                "add-pair",
                str(event),
                "--from-round",
                "2",
                "--name",
                "Cy Cole & Di Dale",
                "--json",
            ).stdout
        )
        for new in joined["new_tables"]:
            tables.tokens[new["table"]] = new["token"]
            seen = client.get(server.base + "/api/live/table", headers=bearer(new["token"]))
            assert seen.status_code == 200, seen.text
        movement = movement_of(event)  # as the late pair made it
        for round_number in (2, 3):
            tables.play_round(client, movement, round_number)
        assert not tables.refused
        acknowledged = len(tables.acknowledged)
        assert acknowledged == sum(len(row.boards) for row in movement.rows)
        # One stored result made 3NT+1 by a scorer's file, imported with --replace.
        row = next(r for r in movement.rows if r.round == 1 and r.table == 1)
        before = ranking(client, server.base)
        corrected = tmp_path / "corrected.csv"
        corrected.write_text(
            f"board,ns,ew,contract,declarer,result\n{row.boards[0]},{row.ns},{row.ew},3NT,S,+1\n"
        )
        shell("session", "import", str(event), str(corrected), "--replace")
        after = ranking(client, server.base)
        assert after != before
        assert after == json.loads(shell("session", "score", str(event), "--json").stdout)
        kill_9(server.process)
    assert count(event, "results") == acknowledged
    assert len(entered_audit(event)) == acknowledged
    logged = json.loads(here("session", "log", str(event), "--json"))
    [replaced] = [e for e in logged if e["action"] == "replace"]
    assert (replaced["who"], replaced["new"]) == ("director (command line)", "3NTS+1")
    assert [e["action"] for e in logged].count("add-pair") == 1


def test_a_swiss_round_drawn_from_the_shell_is_played_at_once(tmp_path: Path) -> None:
    """A Swiss of four teams: round 1 entered through the server, round 2 drawn by
    'session draw' in the shell, and the server's tables play it at once."""
    event = tmp_path / "swiss.db"
    made = new_night(event, "--movement", "swiss", "--teams", "4", "--rounds", "3",
                     "--boards-per-round", "2")  # fmt: skip
    tokens = {t["table"]: t["token"] for t in made["tables"]}
    with live_server(event) as server, httpx.Client(timeout=120) as client:
        tables = Tables(server.base, tokens)
        tables.play_round(client, movement_of(event), 1)
        drawn = json.loads(shell("session", "draw", str(event), "--json").stdout)
        assert drawn["round"] == 2
        tables.play_round(client, movement_of(event), 2)
        assert not tables.refused
        acknowledged = len(tables.acknowledged)
        # Two matches a round, each at two tables (open and closed), two boards a table.
        assert acknowledged == 2 * 2 * 2 * 2
        kill_9(server.process)
    assert count(event, "results") == acknowledged
    assert len(entered_audit(event)) == acknowledged

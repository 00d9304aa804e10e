"""One error family (issue 24, item 3): every error a user can meet is a BridgeError.

The source is walked with ``ast``: no builtin exception is raised by name (apart from
the few listed below, each with its reason), every exception class the package
defines is a BridgeError (apart from private control flow and the web's own HTTP
answers), and the "a bool is no number" check is written only in validate.py. Then
the cases the issue names: each raises a BridgeError subclass whose message quotes
the offending value and says what was expected (messages asserted whole).
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import bridgescore as bs
from bridgescore.errors import (
    ArgumentTypeError,
    BridgeError,
    InvalidArgumentError,
    InvalidDealError,
    NotationError,
    RecordError,
    ToolError,
)

SOURCE = Path(__file__).resolve().parent.parent / "src" / "bridgescore"
SOURCES = sorted(SOURCE.rglob("*.py"))

BUILTIN_EXCEPTIONS = {
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
}

# Builtin exceptions the package may still raise by name, and why none is an error
# about the user's input that a BridgeError should carry:
ALLOWED_BUILTINS = {
    # A missing optional extra (endplay, scipy, dask...): the message names the extra
    # to install, and every caller (CLI, web) catches ImportError for exactly that.
    "ImportError",
    # Process control in the CLI: an exit status, and SIGTERM stopping as Ctrl-C does.
    "SystemExit",
    "KeyboardInterrupt",
}
# A module's __getattr__ (PEP 562) must raise AttributeError for a name it lacks.
GETATTR_ONLY = {"AttributeError"}

# Exception classes that are not BridgeErrors on purpose: the web's own answers,
# which its exception handlers turn into HTTP 429 / 503 responses before a user sees them.
WEB_ANSWERS = {
    ("web/limits.py", "SolverBusy"),
    ("web/jobs.py", "FeatureMissing"),
    ("web/upload.py", "UploadRefused"),  # no room for an upload: 409 or 503, not bad input
    (
        "web/live/access.py",
        "Refused",
    ),  # the live API's answer (401, 403, 422), raised by its dependencies
}


def _name(node: ast.expr) -> str | None:
    """The class a raise names: ``X``, ``X(...)``, ``module.X`` or ``module.X(...)``."""
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute):
        return target.attr
    return None  # a variable being handed on (``raise error``): raised elsewhere


def _raises(tree: ast.AST) -> list[tuple[int, str, str]]:
    """(line, class raised, enclosing function) for every raise naming a class."""
    found = []

    def walk(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, ast.FunctionDef) else function
            if isinstance(child, ast.Raise) and child.exc is not None:
                name = _name(child.exc)
                if name is not None:
                    found.append((child.lineno, name, function))
            walk(child, inner)

    walk(tree, "")
    return found


def _builtin_raises(source: str) -> list[str]:
    bad = []
    for line, name, function in _raises(ast.parse(source)):
        if name not in BUILTIN_EXCEPTIONS or name in ALLOWED_BUILTINS:
            continue
        if name in GETATTR_ONLY and function == "__getattr__":
            continue
        bad.append(f"line {line}: raise {name}")
    return bad


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(SOURCE)))
def test_no_builtin_exception_is_raised(path: Path) -> None:
    assert _builtin_raises(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    ("source", "flagged"),
    [
        ("raise ValueError('x')", ["line 1: raise ValueError"]),
        ("raise KeyError", ["line 1: raise KeyError"]),
        ("def f():\n    raise AssertionError('unreachable')", ["line 2: raise AssertionError"]),
        ("raise builtins.RuntimeError('x') from None", ["line 1: raise RuntimeError"]),
        ("raise TypeError('x')", ["line 1: raise TypeError"]),
        ("def f():\n    raise AttributeError('x')", ["line 2: raise AttributeError"]),
        ("def __getattr__(name):\n    raise AttributeError(name)", []),
        ("raise NotationError('x')", []),
        ("raise ImportError('pip install bridgescore[dds]')", []),
        ("try:\n    f()\nexcept OSError:\n    raise", []),
        ("raise error", []),
    ],
)
def test_the_scan_finds_builtin_raises(source: str, flagged: list[str]) -> None:
    assert _builtin_raises(source) == flagged


def _exception_classes() -> list[tuple[str, str, set[str]]]:
    """(module path, class name, base names) of every class in the package."""
    classes = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = {name for base in node.bases if (name := _name(base)) is not None}
                classes.append((str(path.relative_to(SOURCE)), node.name, bases))
    return classes


def test_every_exception_class_is_a_bridge_error() -> None:
    classes = _exception_classes()
    exceptions = set(BUILTIN_EXCEPTIONS)
    family = {"BridgeError"}
    # Grow both sets by inheritance until nothing changes (bases may be defined later).
    while True:
        before = (len(exceptions), len(family))
        for _, name, bases in classes:
            if bases & exceptions:
                exceptions.add(name)
            if bases & family:
                family.add(name)
        if (len(exceptions), len(family)) == before:
            break
    # The scan sees the family's members defined outside errors.py, and the web's answers.
    assert {"SeedError", "StudyError", "UsebioError", "WorkerLost", "PdfUnavailableError"} <= family
    assert {"SolverBusy", "FeatureMissing", "Refused"} <= exceptions - family
    outside = [
        f"{path}: {name}"
        for path, name, bases in classes
        if name in exceptions - BUILTIN_EXCEPTIONS
        and name not in family
        and name != "BridgeError"
        and not name.startswith("_")  # control flow caught inside its own module
        and (path, name) not in WEB_ANSWERS
    ]
    assert outside == []


# The builtin second bases an error may name: ValueError for an error of bad input (the
# kind a caller's ``except ValueError`` is for), and ToolError's RuntimeError, which DDS's
# own errors and the PDF printer's were, so that code which caught it before keeps working.
SECOND_BASES = {"ToolError": "RuntimeError"}
BAD_INPUT_BASE = "ValueError"


def test_every_error_is_defined_in_errors_py_with_one_family_base() -> None:
    classes = _exception_classes()
    family = {"BridgeError"}
    while True:  # the family by inheritance, as above
        before = len(family)
        family |= {name for _, name, bases in classes if bases & family}
        if len(family) == before:
            break
    # Every member of the family lives in errors.py, none elsewhere (nor private).
    assert sorted(f"{path}: {name}" for path, name, _ in classes if name in family) == sorted(
        f"errors.py: {name}" for name in family
    )
    # One base each, a member of the family; besides it only a documented builtin base:
    # ToolError's RuntimeError, or ValueError named once, by the top of a branch of bad
    # input whose family base is BridgeError itself (its subclasses inherit it).
    bases = {name: found for path, name, found in classes if path == "errors.py"}
    for name in family - {"BridgeError"}:
        family_bases = bases[name] & family
        assert len(family_bases) == 1, name
        others = bases[name] - family_bases
        allowed = {SECOND_BASES.get(name)}
        if family_bases == {"BridgeError"}:
            allowed.add(BAD_INPUT_BASE)
        assert others <= allowed, name
    # The base is an Exception, no longer a ValueError (issue 44, item 5).
    assert bases["BridgeError"] == {"Exception"}


# -- the tree (issue 44, item 5): bad input is a ValueError, the machine's state is not ----

# The errors that are not about the input, each with why: the call was sound, and works
# once the machine is put right. Every other error in bridgescore.errors is bad input.
STORAGE = {
    "StorageError": "the event file cannot be written now: full disk, read-only file",
}
NOT_INPUT = {
    **STORAGE,
    "ToolError": "DDS, the PDF browser or a Dask scheduler failed",
    "PdfUnavailableError": "no browser could print the PDF (a ToolError)",
    "WorkerLost": "a worker process died",
}


def _error_classes() -> dict[str, type[BaseException]]:
    """Every exception class bridgescore.errors defines, by name."""
    from bridgescore import errors

    return {
        name: value
        for name, value in vars(errors).items()
        if isinstance(value, type)
        and issubclass(value, BaseException)
        and value.__module__ == errors.__name__
    }


def test_the_tree_has_one_base_that_is_no_value_error() -> None:
    from bridgescore import errors

    classes = _error_classes()
    assert set(classes) == set(errors.__all__)  # each exported, nothing else exported
    assert BridgeError.__bases__ == (Exception,)
    assert not issubclass(BridgeError, ValueError)
    for name, kind in classes.items():
        assert issubclass(kind, BridgeError), name
    assert set(NOT_INPUT) < set(classes)  # the list names real classes


@pytest.mark.parametrize("name", sorted(set(_error_classes()) - {"BridgeError"}))
def test_bad_input_is_a_value_error_and_the_machines_state_is_not(name: str) -> None:
    kind = _error_classes()[name]
    if name in NOT_INPUT:
        assert not issubclass(kind, ValueError), f"{name}: {NOT_INPUT[name]}"
    else:
        assert issubclass(kind, ValueError), f"{name} is an error of bad input"
    if name in STORAGE:
        assert not issubclass(kind, (ValueError, RuntimeError))


def test_the_bare_base_is_never_raised() -> None:
    # A bare BridgeError would be of neither kind: each raise names the class that says
    # what went wrong (and so whether it is a ValueError).
    made = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _name(node) == "BridgeError":
                made.append(f"{path.relative_to(SOURCE)}:{node.lineno}")
    assert made == []


def test_a_full_disk_passes_an_except_value_error(tmp_path: Path) -> None:
    # A real SQLITE_FULL: the file may hold at most two pages, and a row of 64 KiB needs
    # more. storage_errors makes it a StorageError, which a handler of bad input lets by.
    import sqlite3

    from bridgescore.errors import StorageError
    from bridgescore.session.store.writable import storage_errors

    path = str(tmp_path / "small.db")
    database = sqlite3.connect(path)
    try:
        database.execute("CREATE TABLE results (text TEXT)")
        database.execute("PRAGMA max_page_count = 2")
        with pytest.raises(StorageError) as raised:
            try:
                with storage_errors(path), database:
                    database.execute("INSERT INTO results VALUES (?)", ("x" * 65536,))
            except ValueError:  # bad input only: a full disk is not caught here
                raise AssertionError("a StorageError was caught as bad input") from None
    finally:
        database.close()
    assert str(raised.value).startswith(f"{path!r} cannot be written: the disk is full (")
    assert str(raised.value).endswith("); nothing was stored")


def test_bad_input_is_still_caught_as_a_value_error() -> None:
    # Law 77 has no 14th trick: 7NT+1 is refused, and ``except ValueError`` still catches it.
    try:
        bs.score("7NT+1")
    except ValueError as error:
        assert isinstance(error, NotationError)
    else:
        raise AssertionError("7NT+1 was scored")


def test_only_validate_tells_bools_from_numbers() -> None:
    # isinstance(x, bool) written by hand is the check validate.py holds once.
    found = []
    for path in SOURCES:
        if path.name == "validate.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "isinstance"
                and len(node.args) == 2
                and any(isinstance(n, ast.Name) and n.id == "bool" for n in ast.walk(node.args[1]))
            ):
                found.append(f"{path.relative_to(SOURCE)}:{node.lineno}")
    assert found == []


# -- the cases the issue names ------------------------------------------------------------

# North all spades, East all hearts, South all diamonds, West all clubs.
ONE_SUIT_EACH = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def _raised(call: Callable[[], object], kind: type[BaseException]) -> str:
    with pytest.raises(kind) as raised:
        call()
    return str(raised.value)


def test_the_issues_deal_many_count() -> None:
    # The issue's own example: bs.deal_many(count=-1, seed=1) raised a bare ValueError.
    message = _raised(lambda: bs.deal_many(count=-1, seed=1), InvalidArgumentError)
    assert message == "count must be a whole number from 0 up, got -1"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"count": True, "seed": 1}, "count must be a whole number from 0 up, got True"),
        ({"count": "3", "seed": 1}, "count must be a whole number from 0 up, got '3'"),
        ({"count": 2, "seed": -1}, "seed must be a whole number from 0 up, got -1"),
        ({"count": 2, "seed": 1.5}, "seed must be a whole number from 0 up, got 1.5"),
    ],
)
def test_deal_many_arguments(arguments: dict[str, Any], message: str) -> None:
    assert _raised(lambda: bs.deal_many(**arguments), InvalidArgumentError) == message


def test_deal_many_takes_numpy_counts_and_seeds() -> None:
    # numpy integers are whole numbers too (a count read from an array).
    assert bs.deal_many(np.int64(2), seed=np.int32(1)) == bs.deal_many(2, seed=1)


def test_deal_chunks_need_a_chunk_size() -> None:
    from bridgescore.dealer.dealing import iter_deal_chunks

    message = _raised(lambda: list(iter_deal_chunks(5, seed=1, chunk_size=0)), BridgeError)
    assert message == "chunk_size must be a whole number from 1 up, got 0"


def _owners(counts: tuple[int, int, int, int]) -> list[int]:
    """One owner row giving seat i ``counts[i]`` cards (a deal only when each is 13)."""
    return [seat for seat, count in enumerate(counts) for _ in range(count)]


@pytest.mark.parametrize(
    ("deals", "kind", "message"),
    [
        (
            np.zeros((1, 51), dtype=np.int8),
            InvalidDealError,
            "deals shaped (1, 51): expected (n, 52) owner seats",
        ),
        ([[0] * 51], InvalidDealError, "deals shaped (1, 51): expected (n, 52) owner seats"),
        (
            [_owners((13, 14, 13, 12))],
            InvalidDealError,
            "deal 1 has hands of [13, 14, 13, 12] cards: expected 13 each",
        ),
        (
            [_owners((13, 13, 13, 13)), _owners((26, 0, 13, 13))],
            InvalidDealError,
            "deal 2 has hands of [26, 0, 13, 13] cards: expected 13 each",
        ),
        (
            [["x"] * 52],
            InvalidDealError,
            "deals are not owner seats (invalid literal for int() with base 10: 'x'): "
            "expected numbers 0-3 for N, E, S, W",
        ),
        (
            ONE_SUIT_EACH,
            ArgumentTypeError,
            f"deals {ONE_SUIT_EACH!r}: expected a list of Deals or PBN deal strings, or an "
            "owner array shaped (n, 52)",
        ),
        (
            7,
            ArgumentTypeError,
            "deals 7: expected a list of Deals or PBN deal strings, or an owner array "
            "shaped (n, 52)",
        ),
    ],
)
def test_solver_refuses_what_is_no_deal(deals: Any, kind: type[BridgeError], message: str) -> None:
    from bridgescore.solver import declarer_tricks

    assert _raised(lambda: declarer_tricks(deals, "S", "N"), kind) == message


def test_solve_many_refuses_one_deal_alone() -> None:
    # A PBN string is iterable: its characters were read as deals before.
    message = _raised(lambda: bs.solve_many(ONE_SUIT_EACH), ArgumentTypeError)
    assert message.startswith(f"deals {ONE_SUIT_EACH!r}: expected a list of Deals")


def test_a_dds_failure_is_a_tool_error(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("endplay")
    import endplay._dds as dds_library
    import endplay.dds

    def refuse(deals: object) -> object:
        raise dds_library.DDSError("Too many cards")

    monkeypatch.setattr(endplay.dds, "calc_all_tables", refuse)
    message = _raised(lambda: bs.solve_many([ONE_SUIT_EACH, ONE_SUIT_EACH]), ToolError)
    assert message == (
        "DDS failed on deals 1-2 (Too many cards): expected a solution for every valid deal; "
        "please report it with those deals"
    )
    # Still a RuntimeError, which DDS's own errors were.
    assert issubclass(ToolError, RuntimeError)


def test_a_dds_error_code_is_a_tool_error(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("endplay")
    import endplay._dds as dds_library

    from bridgescore.solver import declarer_tricks

    # A binding that answers with DDS's code instead of raising: -2 is "zero cards".
    monkeypatch.setattr(dds_library, "SolveAllBoardsBin", lambda boards, solved: -2)
    message = _raised(lambda: declarer_tricks([ONE_SUIT_EACH], "S", "N"), ToolError)
    assert message.startswith("DDS failed on deals 1-1 (error code -2): expected a solution")


def test_a_breakdown_must_add_up() -> None:
    # Law 77: 2S making, not vulnerable: 2 x 30 trick score + 50 partscore premium = 110.
    two_spades = bs.parse_result("2S=")
    fine = bs.ScoreBreakdown(two_spades, False, trick_score=60, partscore_premium=50, total=110)
    assert fine.total == 110
    message = _raised(
        lambda: bs.ScoreBreakdown(
            two_spades, False, trick_score=60, partscore_premium=50, total=100
        ),
        InvalidArgumentError,
    )
    assert message == "breakdown total 100: expected the sum of its parts, 110"


@pytest.mark.parametrize(("vulnerable", "points"), [(1, 620), (0, 420), (np.bool_(True), 620)])
def test_vulnerable_as_a_number(vulnerable: object, points: int) -> None:
    # Law 77: 4S making, 120 trick score + 500 (vulnerable) or 300 game premium.
    assert bs.score("4S=", vulnerable) == points  # type: ignore[arg-type]


@pytest.mark.parametrize("vulnerable", [2, "yes", None, np.int64(1)])
def test_vulnerable_must_be_true_or_false(vulnerable: object) -> None:
    message = _raised(lambda: bs.score("4S=", vulnerable), NotationError)  # type: ignore[arg-type]
    assert message == f"vulnerable must be True or False, got {vulnerable!r}"


def test_plot_format_is_png_or_svg() -> None:
    from bridgescore.simulation.plot import render_report

    message = _raised(lambda: render_report({}, "pdf"), NotationError)  # type: ignore[arg-type]
    assert message == "plot format 'pdf': expected 'png' or 'svg'"


def test_plot_file_needs_an_image_suffix(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from bridgescore.simulation.plot import plot_report

    target = tmp_path / "plot.xyz"
    message = _raised(lambda: plot_report({}, target), NotationError)
    assert message.startswith("'.xyz' is not an image format: expected a file name ending in ")
    assert ".png" in message and ".svg" in message
    assert not target.exists()


def test_study_counts_cannot_be_negative() -> None:
    from bridgescore.errors import StudyError
    from bridgescore.study.report import ParStats

    message = _raised(lambda: ParStats({420: 3, 100: -1}), StudyError)
    assert message == "the number of deals with par 100 must be a whole number from 0 up, got -1"
    # A table of nothing but zero counts has no deals to take a median of.
    message = _raised(lambda: ParStats({420: 0}).median, StudyError)
    assert message == "no deals: statistics need at least one deal"


@given(st.lists(st.integers(-2000, 2000).map(lambda n: 10 * n), min_size=1, max_size=40))
def test_median_is_the_lower_middle_absolute_score(scores: list[int]) -> None:
    # The lower median by its definition: the ceil(n/2)-th absolute score in order.
    from bridgescore.study.report import ParStats

    ordered = sorted(abs(score) for score in scores)
    assert ParStats.from_scores(scores).median == ordered[(len(ordered) + 1) // 2 - 1]


def test_no_browser_is_a_tool_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bridgescore.boardset.pdf import PdfUnavailableError, html_to_pdf

    monkeypatch.setenv("BRIDGESCORE_CHROMIUM", str(tmp_path / "no-such-browser"))
    with pytest.raises(PdfUnavailableError) as raised:
        html_to_pdf("<p>board 1</p>", tmp_path / "out.pdf")
    # A BridgeError like every other error, and still the RuntimeError it was.
    assert isinstance(raised.value, BridgeError) and isinstance(raised.value, RuntimeError)
    assert "apt-get install chromium" in str(raised.value)


# -- the argument checks moved to validate.py, one case each --------------------------------


def _board(number: object) -> object:
    from bridgescore.board import Board

    return Board(number, bs.Deal.from_pbn(ONE_SUIT_EACH))  # type: ignore[arg-type]


def _seed_case(number: object) -> object:
    from bridgescore.boardset.dealing import DealSeed

    return DealSeed.from_test_number(number)  # type: ignore[arg-type]


def _board_deal(board: object) -> object:
    from bridgescore.boardset.dealing import DealSeed, board_deal

    return board_deal(DealSeed.from_test_number(1), board)  # type: ignore[arg-type]


def _deal_number(index: object) -> object:
    from bridgescore.boardset.dealing import hands_from_index

    return hands_from_index(index, hands=2, size=2)  # type: ignore[arg-type]


def _simulation(deals: object, seed: object) -> object:
    from bridgescore.simulation.spec import Simulation

    contract = bs.Contract.parse("4S").with_declarer(bs.Seat.SOUTH)  # type: ignore[attr-defined]
    return Simulation(deals, seed, (contract,))  # type: ignore[arg-type]


def _json_record(data: dict[str, Any]) -> object:
    from bridgescore.formats.json import record_from_dict

    return record_from_dict(data)


def _table_result(score: object) -> object:
    from bridgescore.session.scoring.event import TableResult

    return TableResult(3, "1", "2", score=score)  # type: ignore[arg-type]


def _chicago(honors: object) -> object:
    from bridgescore.pads.chicago import ChicagoRules

    return ChicagoRules(honors=honors)  # type: ignore[arg-type]


def _law80(each_side: object) -> object:
    from bridgescore.pads.rubber import Law80

    return Law80(each_side=each_side)  # type: ignore[arg-type]


def _random_deals(seed: object) -> object:
    return bs.random_deals(1, seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("call", "kind", "message"),
    [
        (lambda: _board(0), NotationError, "board number must be a whole number from 1 up, got 0"),
        (
            lambda: _board(True),
            NotationError,
            "board number must be a whole number from 1 up, got True",
        ),
        (
            lambda: _seed_case(-1),
            BridgeError,
            "test seed must be a whole number from 0 up, got -1",
        ),
        (
            lambda: _board_deal(0),
            NotationError,
            "board number must be a whole number from 1 up, got 0",
        ),
        # Two hands of two cards: 4! / (2! 2!) = 6 deals, numbered 0 to 5.
        (
            lambda: _deal_number(6),
            InvalidArgumentError,
            "deal number must be a whole number from 0 to 5, got 6",
        ),
        (
            lambda: _simulation(0, 1),
            NotationError,
            "deal count must be a whole number from 1 up, got 0",
        ),
        (
            lambda: _simulation(10, -2),
            NotationError,
            "seed must be a whole number from 0 up, got -2",
        ),
        (
            lambda: _json_record({"board": 0}),
            NotationError,
            "board must be a whole number from 1 up, got 0",
        ),
        (
            lambda: _json_record({"board": 1, "claim": 14}),
            NotationError,
            "claim must be a whole number from 0 to 13, got 14",
        ),
        (
            lambda: _table_result("420"),
            RecordError,
            "board 3: score must be a whole number, got '420'",
        ),
        (lambda: _chicago("yes"), NotationError, "honors must be True or False, got 'yes'"),
        (lambda: _law80(1), NotationError, "each_side must be True or False, got 1"),
        (
            lambda: _random_deals(-1),
            InvalidArgumentError,
            "seed -1 is negative: expected a whole number >= 0",
        ),
        (
            lambda: _random_deals(True),
            ArgumentTypeError,
            "seed must be an int, a SeedSequence or a Generator, not True",
        ),
    ],
)
def test_moved_checks_say_what_was_expected(
    call: Callable[[], object], kind: type[BridgeError], message: str
) -> None:
    assert _raised(call, kind) == message


def test_study_workers_are_whole_numbers(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    from bridgescore.errors import StudyError
    from bridgescore.study.runner import run_study

    message = _raised(lambda: run_study(tmp_path / "s", deals=4, seed=1, workers=0), StudyError)
    assert message == "workers must be a whole number from 1 up, got 0"
    assert not (tmp_path / "s").exists()

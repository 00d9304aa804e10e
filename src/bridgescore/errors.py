"""The exceptions bridgescore raises.

Every error the package raises is a :class:`BridgeError`, so ``except BridgeError``
catches them all; the base itself is never raised. Below it are two kinds:

- **Bad input**: text, a deal, a call, a file's contents or an argument that cannot be
  used. Each of these is also a :class:`ValueError`, so ``except ValueError`` catches
  them too, as Python code expects of a value it cannot use. Messages quote the
  offending text and say what was expected; argument checks that raise them are
  written once, in :mod:`bridgescore.validate`.
- **The machine's state**: an event file that cannot be written now
  (:class:`StorageError`: the disk is full, the file or its folder is read-only), a
  program bridgescore drives that failed (:class:`ToolError`: DDS, the PDF browser, a
  Dask scheduler that cannot be reached; also a :class:`RuntimeError`) and a worker
  process that died (:class:`WorkerLost`). None of these is a :class:`ValueError`: the
  input was sound, the same call works once the machine is put right, and a handler
  of bad input (``except ValueError``) must not swallow a full disk.

One deliberate exception: a missing optional extra (``endplay`` for DDS, scipy,
dask, matplotlib) raises ``ImportError`` naming the extra to install, as Python
code expects of a missing package; it says nothing about the input.
tests/test_errors.py walks the source and fails on any other builtin
exception raised by name, and on a class of either kind in the wrong place.
"""

from __future__ import annotations

__all__ = [
    "AlreadyEnteredError",
    "ArgumentTypeError",
    "BinaryInputError",
    "BridgeError",
    "ComparisonError",
    "ConditionError",
    "EmptyInputError",
    "IllegalCallError",
    "IllegalPlayError",
    "InputFileError",
    "InvalidArgumentError",
    "InvalidDealError",
    "InvalidTableError",
    "MovementError",
    "NotThisTableError",
    "NotationError",
    "OutputPathError",
    "PdfUnavailableError",
    "PredealError",
    "RecordError",
    "RoundOpenError",
    "ScoringMethodError",
    "SeedError",
    "SessionClosedError",
    "StorageError",
    "StudyError",
    "ToolError",
    "UsebioError",
    "WorkerLost",
]


class BridgeError(Exception):
    """Base class of every error bridgescore raises (see the module's text for its two
    kinds: bad input, which is also a ValueError, and the machine's state, which is not)."""


class NotationError(BridgeError, ValueError):
    """Text that is not a valid contract, result, seat, strain or other notation."""


class EmptyInputError(NotationError):
    """A file or standard input with nothing to read in it: no boards found."""


class BinaryInputError(NotationError):
    """Bytes that are not text (an image, a database, UTF-16), so no format can be told."""


class InputFileError(BridgeError, ValueError):
    """Input that cannot be read as a file: no such file, a directory, a file that cannot
    be opened, or a file's text given where its path was expected (the system's reason,
    when there is one, is in the message)."""


class InvalidDealError(BridgeError, ValueError):
    """A deal that is not four hands of 13 distinct cards covering the pack."""


class InvalidTableError(BridgeError, ValueError):
    """A double-dummy table with the wrong shape or an impossible trick count."""


class IllegalCallError(BridgeError, ValueError):
    """A call that the Laws do not allow at this point of the auction."""


class IllegalPlayError(BridgeError, ValueError):
    """A card that may not be played at this point of the play."""


class RecordError(BridgeError, ValueError):
    """A scorepad or event record that cannot be accepted."""


class InvalidArgumentError(BridgeError, ValueError):
    """A setting with an impossible value: a negative seed or deal count, no threads."""


class ArgumentTypeError(InvalidArgumentError):
    """An argument of the wrong kind, such as a number where a deal was expected."""


class ComparisonError(BridgeError, ValueError):
    """Scores or options a duplicate comparison (matchpoints, IMPs, Butler...) cannot use."""


class ScoringMethodError(BridgeError, ValueError):
    """A scoring method that is unknown, or that does not fit the kind of event."""


class ConditionError(BridgeError, ValueError):
    """A dealing condition that cannot be read, or that (almost) no deal satisfies."""


class MovementError(BridgeError, ValueError):
    """A movement that cannot be read, or that is unsound: a pair at two tables in one
    round, a board played twice by one pair, a result its movement contradicts."""


class NotThisTableError(MovementError):
    """A result entered for a round or board that the movement does not give this
    table (a live session answers it with 403)."""


class AlreadyEnteredError(RecordError):
    """A board a table has already entered: changing it is the director's job (a
    live session answers it with 409)."""


class SessionClosedError(RecordError):
    """A result entered after the director closed the session."""


class StorageError(BridgeError):
    """An event file that cannot be written now: the disk is full, or the file (or its
    folder) is read-only. Nothing of the change was stored (a live session answers 507).

    Not a :class:`ValueError`: the change asked for was sound, and is stored once the
    disk has room or the file can be written again."""


class RoundOpenError(RecordError):
    """A table's result for a round while one of its earlier rounds still has a board
    with no result and no director's decision: a table moves through its rounds in
    order (a live session answers it with 409)."""


class PredealError(BridgeError, ValueError):
    """A predeal (cards given to a seat before dealing) that is malformed or impossible."""


class ToolError(BridgeError, RuntimeError):
    """A program bridgescore drives failed: DDS answered with an error code, no browser
    could print a PDF, or a Dask scheduler could not be reached. Not a ValueError.

    Also a :class:`RuntimeError`, so code that caught ``RuntimeError`` before keeps working:
    the one builtin second base besides the ValueError of the errors of bad input.
    """


class SeedError(BridgeError, ValueError):
    """A seed or commitment file (or text) that cannot be read."""


class PdfUnavailableError(ToolError):
    """No browser to print with, or the browser failed (a :class:`RuntimeError` too)."""


class UsebioError(RecordError):
    """A file that cannot be read as USEBIO at all (not XML, unsafe XML, wrong root).

    ``line`` is the line where reading stopped (0 when unknown), ``detail`` the
    message without the file and line.
    """

    def __init__(self, source: str, line: int, detail: str) -> None:
        where = f"{source}: line {line}" if line else source
        super().__init__(f"{where}: {detail}")
        self.source, self.line, self.detail = source, line, detail


class OutputPathError(BridgeError, ValueError):
    """An output file or folder that cannot be written where the command was told to."""


class WorkerLost(BridgeError):
    """A local worker process died (killed, out of memory) or a Dask task kept failing.
    Not a ValueError: the work asked for was sound, and can be run again.

    >>> str(WorkerLost("a worker process died"))
    'a worker process died'
    """


class StudyError(BridgeError, ValueError):
    """A study directory that cannot be used as asked (other seed, other chunk size, ...).

    >>> str(StudyError("'/tmp/s' was started with seed 1, not 2"))
    "'/tmp/s' was started with seed 1, not 2"
    """

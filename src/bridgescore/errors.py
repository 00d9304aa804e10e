"""The exceptions bridgescore raises.

Every error a user can meet is a :class:`BridgeError`, itself a
:class:`ValueError`, so ``except ValueError`` also works. Messages quote the
offending text and say what was expected. Argument checks that raise them are
written once, in :mod:`bridgescore.validate`.

One deliberate exception: a missing optional extra (``endplay`` for DDS, scipy,
dask, matplotlib) raises ``ImportError`` naming the extra to install, as Python
code expects of a missing package; it says nothing about the input.
tests/test_errors.py walks the source and fails on any other builtin
exception raised by name.
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


class BridgeError(ValueError):
    """Base class of every error about bridge input."""


class NotationError(BridgeError):
    """Text that is not a valid contract, result, seat, strain or other notation."""


class EmptyInputError(NotationError):
    """A file or standard input with nothing to read in it: no boards found."""


class BinaryInputError(NotationError):
    """Bytes that are not text (an image, a database, UTF-16), so no format can be told."""


class InputFileError(BridgeError):
    """Input that cannot be read as a file: no such file, a directory, a file that cannot
    be opened, or a file's text given where its path was expected (the system's reason,
    when there is one, is in the message)."""


class InvalidDealError(BridgeError):
    """A deal that is not four hands of 13 distinct cards covering the pack."""


class InvalidTableError(BridgeError):
    """A double-dummy table with the wrong shape or an impossible trick count."""


class IllegalCallError(BridgeError):
    """A call that the Laws do not allow at this point of the auction."""


class IllegalPlayError(BridgeError):
    """A card that may not be played at this point of the play."""


class RecordError(BridgeError):
    """A scorepad or event record that cannot be accepted."""


class InvalidArgumentError(BridgeError):
    """A setting with an impossible value: a negative seed or deal count, no threads."""


class ArgumentTypeError(InvalidArgumentError):
    """An argument of the wrong kind, such as a number where a deal was expected."""


class ComparisonError(BridgeError):
    """Scores or options a duplicate comparison (matchpoints, IMPs, Butler...) cannot use."""


class ScoringMethodError(BridgeError):
    """A scoring method that is unknown, or that does not fit the kind of event."""


class ConditionError(BridgeError):
    """A dealing condition that cannot be read, or that (almost) no deal satisfies."""


class MovementError(BridgeError):
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
    folder) is read-only. Nothing of the change was stored (a live session answers 507)."""


class RoundOpenError(RecordError):
    """A table's result for a round while one of its earlier rounds still has a board
    with no result and no director's decision: a table moves through its rounds in
    order (a live session answers it with 409)."""


class PredealError(BridgeError):
    """A predeal (cards given to a seat before dealing) that is malformed or impossible."""


class ToolError(BridgeError, RuntimeError):
    """A program bridgescore drives failed: DDS answered with an error code, or no browser
    could print a PDF.

    Also a :class:`RuntimeError`, so code that caught ``RuntimeError`` before keeps working:
    the one error with a second base (every other has one, a member of this family).
    """


class SeedError(BridgeError):
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


class OutputPathError(BridgeError):
    """An output file or folder that cannot be written where the command was told to."""


class WorkerLost(BridgeError):
    """A local worker process died (killed, out of memory) or a Dask task kept failing.

    >>> str(WorkerLost("a worker process died"))
    'a worker process died'
    """


class StudyError(BridgeError):
    """A study directory that cannot be used as asked (other seed, other chunk size, ...).

    >>> str(StudyError("'/tmp/s' was started with seed 1, not 2"))
    "'/tmp/s' was started with seed 1, not 2"
    """

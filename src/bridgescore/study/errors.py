"""The error a par study raises when a directory, manifest or shard cannot be used."""

from __future__ import annotations

from bridgescore.errors import BridgeError

__all__ = ["StudyError"]


class StudyError(BridgeError):
    """A study directory that cannot be used as asked (other seed, other chunk size, ...).

    >>> str(StudyError("'/tmp/s' was started with seed 1, not 2"))
    "'/tmp/s' was started with seed 1, not 2"
    """

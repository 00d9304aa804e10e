"""The manifest of a study directory: ``study.json`` with seed, chunk size and deal count.

The manifest pins what every shard in the directory must agree with. A run with
another seed or chunk size is refused (its chunks would be different deals); a
run with more deals extends the study; fewer is refused (it would shrink it).
"""

from __future__ import annotations

import json
import os
import platform
import tempfile
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from bridgescore.errors import StudyError
from bridgescore.study.chunks import MAX_CHUNK_SIZE
from bridgescore.study.remote import RemoteStudy
from bridgescore.validate import is_whole_number, quoted

__all__ = [
    "CONVENTION",
    "DEALING",
    "FORMAT",
    "MANIFEST_NAME",
    "Manifest",
    "check_compatible",
    "load_manifest",
    "save_manifest",
    "versions",
]

MANIFEST_NAME = "study.json"
DEALING = 2
"""How a study's deals are dealt: 2 is the package's one dealer (deal ``n`` of the
seed, as ``deal_many``); 1 (format ``/1``) was a study-only dealer, now retired."""
_FORMAT_PREFIX = "bridgescore-par-study/"
FORMAT = f"{_FORMAT_PREFIX}{DEALING}"
_DEALINGS = {f"{_FORMAT_PREFIX}1": 1, FORMAT: DEALING}
# Studies tabulate the neutral convention (docs/par-definition.md), as the published study does.
CONVENTION = "neutral"

_VERSIONED = ("bridgescore", "endplay", "numpy", "pyarrow")


def versions() -> dict[str, str]:
    """Versions of Python and of the packages that shape a study's numbers."""
    found = {"python": platform.python_version()}
    for name in _VERSIONED:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class Manifest:
    """What a study directory holds: ``deals`` deals from ``seed`` in chunks of ``chunk_size``.

    >>> Manifest(seed=1, chunk_size=256, deals=1000).chunks
    4
    """

    seed: int
    chunk_size: int
    deals: int
    convention: str = CONVENTION
    created: str = field(default_factory=_now)
    updated: str = field(default_factory=_now)
    versions: dict[str, str] = field(default_factory=versions)
    dealing: int = DEALING

    @property
    def chunks(self) -> int:
        """How many chunks the study has (the last may be partial)."""
        return -(-self.deals // self.chunk_size)

    def extended(self, deals: int) -> Manifest:
        """The same study asked for ``deals`` deals, stamped with today's versions."""
        return replace(self, deals=deals, updated=_now(), versions=versions())

    def as_dict(self) -> dict[str, Any]:
        """The JSON form written to ``study.json``."""
        data = asdict(self)
        return {"format": f"{_FORMAT_PREFIX}{data.pop('dealing')}", **data}

    @classmethod
    def from_dict(cls, data: Any, source: str = "manifest") -> Manifest:
        """Read the JSON form back, with a clear error for anything else."""
        # The format is looked up in a dict, so a damaged one that is a list or an object
        # (unhashable) must be refused before the lookup.
        form = data.get("format") if isinstance(data, dict) else None
        if not isinstance(form, str) or form not in _DEALINGS:
            raise StudyError(f"{source} is not a bridgescore par study manifest ({FORMAT})")
        try:
            manifest = cls(
                seed=data["seed"],
                chunk_size=data["chunk_size"],
                deals=data["deals"],
                convention=data["convention"],
                created=data["created"],
                updated=data["updated"],
                versions=dict(data["versions"]),
                dealing=_DEALINGS[form],
            )
        except (KeyError, TypeError, ValueError) as error:
            raise StudyError(f"{source} is damaged: {error!r}") from None
        for name in ("convention", "created", "updated"):
            value = getattr(manifest, name)
            if not isinstance(value, str):
                raise StudyError(f"{source} is damaged: {name} {quoted(value)} is not text")
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in manifest.versions.items()):
            shown = quoted(manifest.versions)
            raise StudyError(f"{source} is damaged: versions {shown} is not text")
        for name in ("seed", "chunk_size", "deals"):
            value = getattr(manifest, name)
            if not is_whole_number(value, 0):
                raise StudyError(f"{source} is damaged: {name} {value!r} is not a whole number")
        # A chunk size of 0 would divide by zero, and shards number chunks in 32 bits.
        if not 1 <= manifest.chunk_size <= MAX_CHUNK_SIZE or manifest.chunks > 1 << 32:
            raise StudyError(
                f"{source} is damaged: {manifest.deals} deals in chunks of "
                f"{manifest.chunk_size} is not a study: expected chunks of 1 to "
                f"{MAX_CHUNK_SIZE} deals, at most {1 << 32} chunks"
            )
        if manifest.convention != CONVENTION:
            raise StudyError(f"{source} uses the {manifest.convention!r} convention, not neutral")
        return manifest


def load_manifest(directory: Path | RemoteStudy) -> Manifest | None:
    """The manifest of ``directory`` (local or in an object store), or None when it has none.

    An empty manifest is :class:`~bridgescore.errors.EmptyInputError` and a binary one
    :class:`~bridgescore.errors.BinaryInputError`, as for every file read
    (:func:`bridgescore.formats.check_input`); any other unusable one a :class:`StudyError`.
    """
    from bridgescore.formats import check_input

    if isinstance(directory, RemoteStudy):
        shown = directory.shown(MANIFEST_NAME)
        raw = directory.read_bytes(MANIFEST_NAME)
        if raw is None:
            return None
    else:
        path = directory / MANIFEST_NAME
        shown = str(path)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise StudyError(f"cannot read {shown!r}: {error.strerror}") from None
    # The one check of every file read (formats.check_input): empty, or binary.
    check_input(raw, shown)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise StudyError(f"{shown!r} is not UTF-8 text: {error}") from None
    try:
        data = json.loads(text)
    # RecursionError: "[[[[..."; ValueError (JSONDecodeError's base): also a number
    # of more than 4,300 digits, which Python refuses to convert.
    except (ValueError, RecursionError) as error:
        raise StudyError(f"{shown!r} is not JSON: {error}") from None
    return Manifest.from_dict(data, repr(shown))


def save_manifest(directory: Path | RemoteStudy, manifest: Manifest) -> None:
    """Write ``study.json`` atomically (temp file then rename; one put in an object store)."""
    text = json.dumps(manifest.as_dict(), indent=2) + "\n"
    if isinstance(directory, RemoteStudy):
        directory.write_bytes(MANIFEST_NAME, text.encode("utf-8"))
        return
    handle, temp = tempfile.mkstemp(prefix=".study-", suffix=".tmp", dir=directory)
    try:
        os.fchmod(handle, 0o644)
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, directory / MANIFEST_NAME)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def check_compatible(
    existing: Manifest, directory: Path | RemoteStudy, *, seed: int, chunk_size: int, deals: int
) -> None:
    """Refuse a run whose seed, chunk size or deal count does not fit ``existing``."""
    where = repr(str(directory))
    if existing.dealing != DEALING:
        # Its deals came from the retired study-only dealer: today's chunks would not
        # match them, so the study can be reported but not resumed or extended.
        raise StudyError(
            f"{where} holds a study dealt by an older bridgescore (format "
            f"{_FORMAT_PREFIX}{existing.dealing}, before studies dealt as deal_many does): "
            "report it as it is, or start a new study with another --out"
        )
    if seed != existing.seed:
        raise StudyError(
            f"{where} holds a study with seed {existing.seed}, not {seed}: use --seed "
            f"{existing.seed} to resume or extend it, or another --out for a new study"
        )
    if chunk_size != existing.chunk_size:
        raise StudyError(
            f"{where} holds a study in chunks of {existing.chunk_size} deals, not {chunk_size}: "
            f"use --chunk {existing.chunk_size} to resume or extend it, or another --out"
        )
    if deals < existing.deals:
        raise StudyError(
            f"{where} holds a study of {existing.deals} deals; --deals {deals} would shrink it: "
            f"ask for {existing.deals} or more"
        )

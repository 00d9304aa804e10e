"""Parquet shards: one file per chunk, written whole or not at all, checked before use.

A shard holds one row per deal: ``chunk``, ``index`` (within the chunk), ``deal``
(PBN, North first), the 20 double-dummy trick counts ``dd_<seat>_<strain>`` (uint8)
and the neutral par score under each vulnerability ``par_none``, ``par_ns``,
``par_ew``, ``par_both`` (North-South's view). Its schema metadata records the
study (seed, chunk size) and the chunk (id, deal count), so a file from another
study or a damaged file is recognised and reported rather than trusted.
"""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.parquet as pq

from bridgescore.core import Seat, Strain, Vulnerability
from bridgescore.errors import StudyError
from bridgescore.study.manifest import CONVENTION, MANIFEST_NAME, Manifest
from bridgescore.study.remote import RemoteStudy

__all__ = [
    "DD_COLUMNS",
    "LOCK_NAME",
    "PAR_COLUMNS",
    "SCHEMA",
    "DirectoryScan",
    "RemoteShardWriter",
    "ShardInfo",
    "build_shard",
    "inspect_shard",
    "read_shard",
    "remove_temporaries",
    "scan_directory",
    "shard_name",
    "shard_pars",
    "shard_tables",
    "stamp_shard",
    "write_shard",
]

METADATA_KEY = b"bridgescore.study"
SHARD_FORMAT = 1
LOCK_NAME = ".lock"

DD_COLUMNS = tuple(f"dd_{seat.letter}_{strain.letter}" for seat in Seat for strain in Strain)
PAR_COLUMNS: Mapping[Vulnerability, str] = {
    Vulnerability.NONE: "par_none",
    Vulnerability.NS: "par_ns",
    Vulnerability.EW: "par_ew",
    Vulnerability.BOTH: "par_both",
}

SCHEMA = pa.schema(
    [
        pa.field("chunk", pa.uint32(), nullable=False),
        pa.field("index", pa.uint32(), nullable=False),
        pa.field("deal", pa.string(), nullable=False),
        *(pa.field(name, pa.uint8(), nullable=False) for name in DD_COLUMNS),
        *(pa.field(name, pa.int32(), nullable=False) for name in PAR_COLUMNS.values()),
    ]
)

_SHARD = re.compile(r"chunk-(\d{6,})\.parquet")
_TEMPORARY = re.compile(r"\.chunk-(\d{6,})\..*\.tmp")


def shard_name(chunk: int) -> str:
    """The file name of chunk ``chunk``'s shard.

    >>> shard_name(3)
    'chunk-000003.parquet'
    """
    return f"chunk-{chunk:06d}.parquet"


@dataclass(frozen=True, slots=True)
class ShardInfo:
    """A shard that passed the cheap checks: its chunk id, deal count and path."""

    chunk: int
    deals: int
    path: Path | str
    # The fsspec file system holding ``path`` (None: a local file).
    filesystem: Any = field(default=None, compare=False)


def build_shard(
    chunk: int,
    deals: Sequence[str],
    tables: npt.ArrayLike,
    pars: Mapping[Vulnerability, npt.ArrayLike],
    first: int = 0,
) -> pa.Table:
    """The rows of one chunk: PBN deals, (n, 4, 5) tables and par per vulnerability.

    ``first`` is the index within the chunk of the first deal given (rows solved
    to be appended to the ones a shorter shard of the chunk already holds).
    """
    n = len(deals)
    array = np.asarray(tables)
    if array.shape != (n, 4, 5):
        raise StudyError(f"chunk {chunk}: tables shaped {array.shape}, expected ({n}, 4, 5)")
    flat = array.astype(np.uint8).reshape(n, 20)
    columns: dict[str, Any] = {
        "chunk": np.full(n, chunk, dtype=np.uint32),
        "index": np.arange(first, first + n, dtype=np.uint32),
        "deal": list(deals),
    }
    for i, name in enumerate(DD_COLUMNS):
        columns[name] = flat[:, i]
    for vulnerability, name in PAR_COLUMNS.items():
        scores = np.asarray(pars[vulnerability])
        if scores.shape != (n,):
            raise StudyError(f"chunk {chunk}: {name} shaped {scores.shape}, expected ({n},)")
        columns[name] = scores.astype(np.int32)
    return pa.table(columns, schema=SCHEMA)


def _metadata(seed: int, chunk_size: int, chunk: int, deals: int) -> dict[bytes, bytes]:
    record = {
        "format": SHARD_FORMAT,
        "seed": seed,
        "chunk_size": chunk_size,
        "chunk": chunk,
        "deals": deals,
        "convention": CONVENTION,
    }
    return {METADATA_KEY: json.dumps(record, sort_keys=True).encode()}


def stamp_shard(table: pa.Table, *, seed: int, chunk_size: int, chunk: int) -> pa.Table:
    """``table`` with the schema metadata that ties it to its study and chunk."""
    return table.replace_schema_metadata(_metadata(seed, chunk_size, chunk, table.num_rows))


def write_shard(
    directory: Path, *, seed: int, chunk_size: int, chunk: int, table: pa.Table
) -> Path:
    """Write ``table`` as chunk ``chunk``'s shard: to a temporary name, then renamed.

    A crash leaves at most a ``.chunk-*.tmp`` file, never a half-written shard.
    """
    stamped = stamp_shard(table, seed=seed, chunk_size=chunk_size, chunk=chunk)
    final = directory / shard_name(chunk)
    handle, temp = tempfile.mkstemp(prefix=f".chunk-{chunk:06d}.", suffix=".tmp", dir=directory)
    try:
        # mkstemp makes owner-only files; shards are for every reader of the study.
        os.fchmod(handle, 0o644)
        with os.fdopen(handle, "wb") as stream:
            pq.write_table(stamped, stream, compression="zstd")
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, final)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return final


@dataclass(frozen=True, slots=True)
class RemoteShardWriter:
    """Writes a chunk's shard into a :class:`~bridgescore.study.remote.RemoteStudy`; runs
    on the workers.

    The shard is serialised in memory and stored with a single put, so the object
    appears only when complete: the object-store form of :func:`write_shard`'s
    temporary name and rename.
    """

    study: RemoteStudy
    seed: int
    chunk_size: int

    def write(self, chunk: int, table: pa.Table) -> None:
        stamped = stamp_shard(table, seed=self.seed, chunk_size=self.chunk_size, chunk=chunk)
        buffer = io.BytesIO()
        pq.write_table(stamped, buffer, compression="zstd")
        self.study.write_bytes(shard_name(chunk), buffer.getvalue())


def inspect_shard(
    path: Path | str,
    manifest: Manifest,
    chunk: int,
    filesystem: Any = None,
    shown_as: str | None = None,
) -> ShardInfo:
    """Cheap checks from the Parquet footer: schema, study, chunk id and row count.

    ``filesystem`` is the fsspec file system of a shard in an object store and
    ``shown_as`` the name to quote in messages (default: ``path``).
    Raises :class:`StudyError` saying what is wrong with the file.
    """
    shown = repr(shown_as or str(path))
    try:
        parquet = pq.ParquetFile(path if filesystem is None else filesystem.open(path, "rb"))
    except (OSError, pa.ArrowException) as error:
        raise StudyError(f"{shown} is not a readable Parquet file ({error})") from None
    schema = parquet.schema_arrow
    raw = (schema.metadata or {}).get(METADATA_KEY)
    if raw is None or not schema.remove_metadata().equals(SCHEMA):
        raise StudyError(f"{shown} is not a bridgescore study shard (foreign schema)")
    try:
        record = json.loads(raw)
        metadata = _metadata(manifest.seed, manifest.chunk_size, chunk, int(record["deals"]))
        expected = json.loads(metadata[METADATA_KEY])
    except (ValueError, KeyError, TypeError, OverflowError, RecursionError):
        raise StudyError(f"{shown} has damaged study metadata") from None
    if record != expected:
        raise StudyError(
            f"{shown} belongs to another study or chunk (seed {record.get('seed')}, "
            f"chunk size {record.get('chunk_size')}, chunk {record.get('chunk')}); "
            f"expected seed {manifest.seed}, chunk size {manifest.chunk_size}, chunk {chunk}"
        )
    deals = int(record["deals"])
    if parquet.metadata.num_rows != deals or not 1 <= deals <= manifest.chunk_size:
        raise StudyError(f"{shown} has {parquet.metadata.num_rows} rows but records {deals} deals")
    return ShardInfo(chunk, deals, path, filesystem)


def read_shard(info: ShardInfo, columns: Sequence[str] | None = None) -> pa.Table:
    """Read a shard in full and check its rows: chunk id, indexes, trick counts.

    Raises :class:`StudyError` if the data do not match the footer.
    """
    shown = repr(str(info.path))
    wanted = None if columns is None else list(dict.fromkeys(["chunk", "index", *columns]))
    try:
        table = pq.read_table(info.path, columns=wanted, filesystem=info.filesystem)
    except (OSError, pa.ArrowException) as error:
        raise StudyError(f"{shown} cannot be read ({error})") from None
    chunk = table.column("chunk").to_numpy()
    index = table.column("index").to_numpy()
    if table.num_rows != info.deals or not (
        np.all(chunk == info.chunk) and np.array_equal(index, np.arange(info.deals))
    ):
        raise StudyError(f"{shown}: rows do not match chunk {info.chunk} of {info.deals} deals")
    for name in DD_COLUMNS:
        if name in table.column_names and int(table.column(name).to_numpy().max()) > 13:
            raise StudyError(f"{shown}: column {name} holds more than 13 tricks")
    return table


def shard_tables(table: pa.Table) -> npt.NDArray[np.int8]:
    """The shard's double-dummy tables shaped (n, 4, 5), indexed by ``Seat`` and ``Strain``."""
    flat = np.column_stack([table.column(name).to_numpy() for name in DD_COLUMNS])
    return flat.astype(np.int8).reshape(-1, 4, 5)


def shard_pars(table: pa.Table) -> dict[Vulnerability, npt.NDArray[np.int32]]:
    """The shard's par scores per vulnerability (North-South's view)."""
    return {
        vulnerability: table.column(name).to_numpy().astype(np.int32)
        for vulnerability, name in PAR_COLUMNS.items()
    }


@dataclass(slots=True)
class DirectoryScan:
    """What a study directory holds: good shards, problems, leftover temporary files."""

    shards: dict[int, ShardInfo] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    temporaries: list[Path] = field(default_factory=list)
    bad_chunks: set[int] = field(default_factory=set)

    @property
    def deals(self) -> int:
        """Deals in the good shards."""
        return sum(info.deals for info in self.shards.values())


def scan_directory(directory: Path | RemoteStudy, manifest: Manifest) -> DirectoryScan:
    """Sort every entry of ``directory``: good shards, temporaries, and problems.

    A shard that fails its checks, or belongs to a chunk beyond the study, and any
    file the study did not write, is a problem: it is named, never read as data.
    ``directory`` is a local directory or a study in an object store.
    """
    scan = DirectoryScan()
    entries: list[tuple[str, Path | str, str, bool, bool]]
    if isinstance(directory, RemoteStudy):
        filesystem = directory.filesystem
        entries = [
            (name, directory.path(name), directory.shown(name), is_file, not is_file)
            for name, is_file in directory.entries()
        ]
    else:
        filesystem = None
        entries = [
            (path.name, path, str(path), path.is_file(), path.is_dir())
            for path in sorted(directory.iterdir())
        ]
    for name, path, shown, is_file, is_dir in entries:
        if name in (MANIFEST_NAME, LOCK_NAME):
            continue
        if isinstance(path, Path) and (
            _TEMPORARY.fullmatch(name) or (name.startswith(".study-") and name.endswith(".tmp"))
        ):
            scan.temporaries.append(path)
            continue
        match = _SHARD.fullmatch(name)
        if match is None or not is_file:
            kind = "directory" if is_dir else "file"
            scan.problems.append(f"{shown!r}: foreign {kind}, not part of the study (ignored)")
            continue
        chunk = int(match[1])
        if chunk >= manifest.chunks:
            scan.problems.append(
                f"{shown!r}: chunk {chunk} is beyond the study's {manifest.chunks} chunks (ignored)"
            )
            continue
        try:
            scan.shards[chunk] = inspect_shard(path, manifest, chunk, filesystem, shown)
        except StudyError as error:
            scan.bad_chunks.add(chunk)
            scan.problems.append(f"{error} (not trusted)")
    return scan


def remove_temporaries(scan: DirectoryScan) -> int:
    """Delete leftover temporary files of interrupted runs; how many there were."""
    for path in scan.temporaries:
        path.unlink(missing_ok=True)
    count = len(scan.temporaries)
    scan.temporaries.clear()
    return count

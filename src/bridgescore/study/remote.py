"""Studies kept in an object store (``s3://``, ``gs://``, ...) through fsspec.

When ``--out`` is a URL every machine reaches, the workers write their shards
there themselves (:class:`bridgescore.study.shards.RemoteShardWriter`): each shard
is serialised in memory and stored with a single put, so the object appears only
when complete (the object-store form of the temporary-name-then-rename rule, and
nothing is left behind by a crash). The manifest is stored the same way. This
module is the location only (no pyarrow, no shards), so that the manifest and the
shards both build on it. ``file://`` URLs are plain local directories;
``memory://`` is fsspec's in-process store, for tests with an in-process cluster.

Object stores have no file locks: run one ``study run`` per URL at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bridgescore.errors import StudyError

__all__ = ["RemoteStudy", "is_remote"]


def is_remote(location: object) -> bool:
    """Whether ``location`` is a URL for fsspec rather than a local directory.

    >>> is_remote("s3://bucket/studies/a"), is_remote("/tmp/a"), is_remote("file:///tmp/a")
    (True, False, False)
    """
    return isinstance(location, str) and "://" in location and not location.startswith("file://")


@dataclass(frozen=True, slots=True)
class RemoteStudy:
    """A study directory at ``url`` in an fsspec file system (picklable: only the URL)."""

    url: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "url", self.url.rstrip("/"))

    def _fs(self) -> tuple[Any, str]:
        try:
            import fsspec
        except ImportError:  # pragma: no cover - fsspec comes with dask
            raise StudyError(
                f"{self.url!r} needs fsspec: pip install 'bridgescore[study]'"
            ) from None
        try:
            filesystem, root = fsspec.core.url_to_fs(self.url)
        except (ImportError, ValueError) as error:
            raise StudyError(f"cannot use {self.url!r}: {error}") from None
        return filesystem, root

    @property
    def protocol(self) -> str:
        return self.url.split("://", 1)[0]

    @property
    def filesystem(self) -> Any:
        return self._fs()[0]

    def path(self, name: str) -> str:
        """The file system path of entry ``name`` (what pyarrow opens)."""
        return f"{self._fs()[1]}/{name}"

    def shown(self, name: str) -> str:
        """Entry ``name`` as the user wrote the location."""
        return f"{self.url}/{name}"

    def __str__(self) -> str:
        return self.url

    def prepare(self) -> None:
        """Create the directory where the store has directories; check it is reachable."""
        filesystem, root = self._fs()
        try:
            filesystem.makedirs(root, exist_ok=True)
        except OSError as error:
            raise StudyError(f"cannot create {self.url!r}: {error}") from None

    def entries(self) -> list[tuple[str, bool]]:
        """``(name, is_file)`` of every entry, sorted; empty when nothing is there yet."""
        filesystem, root = self._fs()
        try:
            found = filesystem.ls(root, detail=True)
        except FileNotFoundError:
            return []
        except OSError as error:
            raise StudyError(f"cannot list {self.url!r}: {error}") from None
        return sorted(
            (str(entry["name"]).rstrip("/").rsplit("/", 1)[-1], entry.get("type") == "file")
            for entry in found
        )

    def read_bytes(self, name: str) -> bytes | None:
        """Entry ``name``'s content, or None when it does not exist."""
        filesystem, _ = self._fs()
        try:
            data: bytes = filesystem.cat_file(self.path(name))
        except FileNotFoundError:
            return None
        except OSError as error:
            raise StudyError(f"cannot read {self.shown(name)!r}: {error}") from None
        return data

    def write_bytes(self, name: str, data: bytes) -> None:
        """Store ``data`` as entry ``name`` in one put: whole or not at all."""
        filesystem, _ = self._fs()
        try:
            filesystem.pipe_file(self.path(name), data)
        except OSError as error:
            raise StudyError(f"cannot write {self.shown(name)!r}: {error}") from None

"""A par study's shards as one pandas DataFrame (the pandas extra): :func:`study_frame`.

The study's rows as the shards hold them (see :mod:`bridgescore.study.shards`): one
per deal, in deal order, read through pyarrow from every good shard of a local
directory or an object store.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa

from bridgescore.display.frame import pandas_module
from bridgescore.errors import StudyError
from bridgescore.study.manifest import load_manifest
from bridgescore.study.report import study_location
from bridgescore.study.shards import SCHEMA, read_shard, scan_directory

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["study_frame"]


def study_frame(directory: Path | str) -> pd.DataFrame:
    """Every deal of the study in ``directory`` (a path or an fsspec URL), one row each.

    Columns: ``chunk``, ``index`` (within the chunk), ``deal`` (PBN, North first),
    the 20 DD trick counts ``dd_<seat>_<strain>`` (``dd_N_NT``...) and the neutral
    par under each vulnerability ``par_none``, ``par_ns``, ``par_ew``, ``par_both``
    (North-South's view), as the shards type them (``deal`` as pandas ``string``).
    A shard that fails its checks is left out, as :func:`~bridgescore.study.study_report`
    leaves it out: ``frame.attrs["problems"]`` says why and ``frame.attrs["chunks"]``
    lists the chunks read.

    Raises :class:`~bridgescore.study.StudyError` when ``directory`` is not a study,
    and ``ImportError`` naming the extra when pandas is missing.
    """
    pandas = pandas_module("study_frame")
    location = study_location(directory)
    manifest = load_manifest(location)
    if manifest is None:
        raise StudyError(f"{str(directory)!r} is not a par study (no study.json)")
    scan = scan_directory(location, manifest)
    problems = list(scan.problems)
    tables, chunks = [], []
    for chunk in sorted(scan.shards):
        try:
            tables.append(read_shard(scan.shards[chunk]))
        except StudyError as error:
            problems.append(f"{error} (not trusted)")
            continue
        chunks.append(chunk)
    # Each shard stamps its own chunk in the schema's metadata: the rows are what join.
    table = (
        pa.concat_tables([t.replace_schema_metadata() for t in tables])
        if tables
        else SCHEMA.empty_table()
    )
    strings = {pa.string(): pandas.StringDtype()}
    frame: pd.DataFrame = table.to_pandas(types_mapper=strings.get)
    frame.attrs["problems"] = problems
    frame.attrs["chunks"] = chunks
    return frame
